import { html } from './lazy-lit.js';

/** The element's own actions under an answer, drawn as icons (answer.styles.ts). */
export type ActionIcon = 'copy' | 'delete';

/**
 * An action's icon, beside its words (hidden, its name; shown as a tip). Inline SVG, not a CSS
 * image: a page's Content-Security-Policy `img-src` blocks `data:` images. Made on each call, as
 * `html` is the element's, handed over once the chunk has loaded (lazy-lit.ts). Paths from
 * Lucide (lucide-static 0.469, ISC licence, https://lucide.dev): copy, trash (the ratings' thumb
 * is in feedback-view.ts).
 */
export function actionIcon(name: ActionIcon) {
  if (name === 'copy') {
    return html`<svg class="icon" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true"><rect width="14" height="14" x="8" y="8" rx="2" /><path d="M4 16c-1.1 0-2-.9-2-2V4c0-1.1.9-2 2-2h10c1.1 0 2 .9 2 2" /></svg>`;
  }
  return html`<svg class="icon" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true"><path d="M3 6h18M19 6v14c0 1-1 2-2 2H7c-1 0-2-1-2-2V6M8 6V4c0-1 1-2 2-2h4c1 0 2 1 2 2v2" /></svg>`;
}
