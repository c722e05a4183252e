import { css } from 'lit';
import type { Citation, CiteData, Message } from '../api/types.js';
import { MarkdownView } from '../chat/answer-chunk.js';
import { parseJson } from './format.js';

/**
 * The lazily loaded chunk, built as dist/chatbot-admin-transcript-markdown.js: a transcript's
 * answers drawn by the chat's own renderer (marked's tokens built as DOM, raw HTML through
 * DOMPurify), and the styles of what it draws. The renderer is not copied in: it is the chat's
 * file, chatbot-markdown.js beside the bundle (see vite.config.ts), which Try it loads too.
 */

/** The answer of `message` as the visitor saw it, its `[n]` markers linked to its sources. */
export function renderAnswer(message: Message): HTMLElement {
  const citations: Citation[] = Object.entries(
    parseJson<CiteData>(message.cite_data_json) ?? {},
  ).map(([n, cite]) => ({
    n: Number(n),
    data_source_uuid: cite.data_source_uuid,
    title: cite.title || cite.file_name,
    type: cite.type,
  }));
  const { root } = MarkdownView.render(message.response, { citations: () => citations });
  root.addEventListener('click', followMarker);
  return root;
}

/** A passage an answer quoted from a source, as its source has it: markdown, drawn. */
export function renderPassage(text: string): HTMLElement {
  return MarkdownView.render(text).root;
}

/**
 * A `[n]` marker points at source n in the exchange's list of sources: focused here, as an
 * in-page anchor reaches no id inside shadow DOM, and would replace the admin's route in the hash.
 */
function followMarker(event: MouseEvent): void {
  const marker = (event.target as Element).closest<HTMLElement>('a.citation');
  if (!marker?.getAttribute('href')?.startsWith('#')) return;
  event.preventDefault();
  marker
    .closest('[part~=exchange]')
    ?.querySelector<HTMLElement>(`[part=sources] li[value="${marker.dataset.cite}"]`)
    ?.focus();
}

/**
 * The chat's spacing inside the answer's bubble, with code and wide tables scrolling in it rather
 * than widening the card. Written for the admin's tokens: the chat's answer styles also hold its
 * composer's and ratings' rules, which would reach the admin's own forms.
 */
const styles = css`
  :is(.answer, .passage) .markdown {
    white-space: normal;
    margin-bottom: -0.5em;
  }
  .markdown :is(p, ul, ol, blockquote, .table, pre, h1, h2, h3, h4, h5, h6) {
    margin: 0 0 0.5em;
  }
  .markdown :is(h1, h2, h3, h4, h5, h6) {
    font-size: 1.05em;
  }
  .markdown :is(ul, ol) {
    padding-inline-start: 1.4em;
  }
  .markdown blockquote {
    border-inline-start: 3px solid var(--_border);
    padding-inline-start: 10px;
    color: var(--_muted);
  }
  .markdown a {
    color: var(--_accent);
  }
  .markdown .citation {
    text-decoration: none;
    font-size: 0.85em;
  }
  .markdown code {
    font-family: var(--_mono);
    font-size: 0.9em;
  }
  .markdown :is(pre, .table) {
    overflow-x: auto;
  }
  /* At its columns' natural widths: the box around it scrolls (see markdown.ts). */
  .markdown table {
    width: max-content;
    border-collapse: collapse;
  }
  .markdown :is(pre, table) {
    background: var(--_surface);
  }
  .markdown pre {
    padding: 8px;
    border: 1px solid var(--_border);
    border-radius: 6px;
    direction: ltr;
    unicode-bidi: isolate;
  }
  .markdown :is(th, td) {
    border: 1px solid var(--_border);
    padding: 4px 8px;
    /* Whole words, and a long cell wraps at a readable width. */
    overflow-wrap: normal;
    max-width: 14em;
  }
  /* A header centred in a wide column can sit out of view: it starts where its cells do. */
  .markdown th:not([align]) {
    text-align: start;
  }
  /* The source a marker was followed to: shown for a mouse too, as the chat shows its target. */
  [part='sources'] li:focus {
    outline: 2px solid var(--_focus);
    outline-offset: 2px;
  }
  /* The chat's bars over code blocks, with their Copy buttons: no handler here, and the code can
     be selected. */
  .markdown .code-head {
    display: none;
  }
`;

/** Adds the styles to a panel's shadow root, beside its own, once. */
export function adoptStyles(root: ShadowRoot): void {
  const sheet = styles.styleSheet;
  // Without constructable sheets (Safari before 16.4), as Lit does: an element of its own.
  if (!sheet) {
    if (root.querySelector('style.transcript-markdown')) return;
    const style = document.createElement('style');
    style.className = 'transcript-markdown';
    style.textContent = styles.cssText;
    root.prepend(style);
  } else if (!root.adoptedStyleSheets.includes(sheet)) {
    root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
  }
}
