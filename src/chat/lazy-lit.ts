import type { html as litHtml, nothing as litNothing } from 'lit';

/**
 * Lit's `html` and `nothing` for the modules of the lazily loaded chunks (answer-chunk.ts, and
 * attachments-chunk.ts, which answer-extras.ts hands them on to). Each is built apart from the
 * element's bundle, and lit-html does not tree-shake: importing it there would bring a second
 * copy (3 KB of gzip) to every page that shows answers. The element's own copy is handed over
 * instead, as each chunk loads, before any of its templates is made.
 */
export let html: typeof litHtml;
export let nothing: typeof litNothing;

/** Hands the element's lit over to the chunk. */
export function useLit(lit: { html: typeof litHtml; nothing: typeof litNothing }): void {
  ({ html, nothing } = lit);
}
