import type { html as litHtml, TemplateResult } from 'lit';

/**
 * Questions asked with one click: the starters of an empty conversation, or the topics a refusal
 * offers instead. `html` is the caller's: the element's own lit, or the one handed to the lazily
 * loaded chunk (lazy-lit.ts), which draws a refusal's topics and must not bring a copy of lit.
 */
export function renderSuggestions(
  html: typeof litHtml,
  questions: readonly string[],
  label: string,
  onAsk: (question: string) => void,
): TemplateResult {
  return html`<ul class="suggestions" part="suggestions" aria-label=${label}>
    ${questions.map(
      (text) =>
        html`<li><button type="button" class="suggestion" part="suggestion" @click=${() => onAsk(text)}>${text}</button></li>`,
    )}
  </ul>`;
}

/**
 * Hides the list in a rendered answer whose items are `topics`, in any order: a refusal's text
 * lists the topics it offers (clients that read only the text need them there), and shown as
 * buttons as well, a reader would meet each twice. A list that differs (a service's own wording,
 * an answer that only mentions one of them) stays; so does the stored text, for Copy answer.
 * `growing`: the list is still streaming, so it may lack topics yet, and its last item may be
 * the start of one.
 */
export function hideOfferedList(answer: ParentNode, topics: readonly string[], growing = false) {
  const wanted = [...topics].sort().join('\n');
  for (const list of answer.querySelectorAll('ul')) {
    const items = [...list.children].map((item) => (item.textContent ?? '').trim());
    if (
      growing
        ? items.length <= topics.length &&
          items.every((item) => topics.some((topic) => topic.startsWith(item)))
        : items.sort().join('\n') === wanted
    ) {
      list.hidden = true;
    }
  }
}
