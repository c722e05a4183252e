import type { html as litHtml, nothing as litNothing } from 'lit';
import type { StringsController } from '../ui/strings-controller.js';

/**
 * Lit's `html` and `nothing`, and the element's `StringsController`, for the modules of the
 * lazily loaded chunks (answer-chunk.ts, and attachments-chunk.ts, which answer-extras.ts hands
 * them on to). Each is built apart from the element's bundle, and lit-html does not tree-shake:
 * importing it there would bring a second copy (3 KB of gzip) to every page that shows answers;
 * the strings controller and its language code, a second copy of 0.7 KB and a second observer
 * of the page's `lang`. The element's own are handed over instead, as each chunk loads, before
 * any of its templates or controllers is made.
 */
export let html: typeof litHtml;
export let nothing: typeof litNothing;
export let Strings: typeof StringsController;

/** What the element hands over. */
export interface Shared {
  html: typeof litHtml;
  nothing: typeof litNothing;
  Strings: typeof StringsController;
}

/** Hands the element's lit and strings controller over to the chunk. */
export function useLit(shared: Shared): void {
  ({ html, nothing, Strings } = shared);
}
