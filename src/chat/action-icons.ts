import { html } from './lazy-lit.js';

/** An answer's actions drawn as icons (answer.styles.ts): Copy, Delete, and a rating's thumb. */
export type ActionIcon = 'copy' | 'delete' | 'thumb';

/**
 * An action's icon, beside its words (hidden, its name; shown as a tip). Inline SVG, not a CSS
 * image: a page's Content-Security-Policy `img-src` blocks `data:` images. Made on each call, as
 * `html` is the element's, handed over once the chunk has loaded (lazy-lit.ts). Paths from
 * Lucide (lucide-static 0.469, ISC licence, https://lucide.dev): copy, trash, thumbs-up (turned
 * over for "Not helpful" by the stylesheet).
 */
export function actionIcon(name: ActionIcon) {
  if (name === 'copy') {
    return html`<svg class="icon" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true"><rect width="14" height="14" x="8" y="8" rx="2" /><path d="M4 16c-1.1 0-2-.9-2-2V4c0-1.1.9-2 2-2h10c1.1 0 2 .9 2 2" /></svg>`;
  }
  if (name === 'thumb') {
    return html`<svg class="icon" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true"><path d="M7 10v12M15 5.88 14 10h5.83a2 2 0 0 1 1.92 2.56l-2.33 8A2 2 0 0 1 17.5 22H4a2 2 0 0 1-2-2v-8a2 2 0 0 1 2-2h2.76a2 2 0 0 0 1.79-1.11L12 2a3.13 3.13 0 0 1 3 3.88Z" /></svg>`;
  }
  return html`<svg class="icon" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true"><path d="M3 6h18M19 6v14c0 1-1 2-2 2H7c-1 0-2-1-2-2V6M8 6V4c0-1 1-2 2-2h4c1 0 2 1 2 2v2" /></svg>`;
}
