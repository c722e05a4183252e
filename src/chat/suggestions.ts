import { html, type TemplateResult } from 'lit';

/**
 * Questions asked with one click: the starters of an empty conversation, or the topics a refusal
 * offers instead.
 */
export function renderSuggestions(
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
