import { formatSize } from '../ui/format-size.js';
import { html, nothing } from './lazy-lit.js';
import type { SentDocument } from './transcript-store.js';

/**
 * The files sent with a question, under it: their names and sizes, as chips that can no longer
 * change. Drawn with the answers (answer-extras.ts) whether or not this page takes attachments:
 * a conversation remembered from a page of the site that does still shows what was attached.
 */
export function renderSent(
  documents: readonly SentDocument[] | undefined,
  label: string,
  language: string,
): unknown {
  const shown = documents?.filter((document) => typeof document?.filename === 'string');
  if (!shown?.length) return nothing;
  return html`<ul class="chips" part="attachments" aria-label=${label}>
    ${shown.map(
      ({ filename, size }) =>
        html`<li class="chip" part="attachment"><span class="name">${filename}</span>${
          typeof size === 'number'
            ? html` <span class="size">${formatSize(size, language)}</span>`
            : nothing
        }</li>`,
    )}
  </ul>`;
}
