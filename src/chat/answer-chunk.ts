/**
 * The lazily loaded chunk, built as dist/chatbot-markdown.js: everything the chat shows only
 * once an answer exists, loaded by renderer.ts when an answer first needs it. Until it is there
 * an answer waits behind the typing indicator, so what is here costs a visitor nothing.
 */
import { useLit as useElementLit } from './lazy-lit.js';
import { MarkdownView } from './markdown.js';

export { AnswerExtras } from './answer-extras.js';
export { MarkdownView };

/**
 * A short answer with every kind of block and inline mark the renderer meets. V8 compiles a
 * function when it first runs, and DOMPurify builds its instance on first use: left to the first
 * answer, that landed in one of its frames as a task of 60–85 ms on a slow machine. Rendering
 * this once, detached, while the page is idle pays for it in idle time instead, in a task of a
 * few milliseconds (idle time rather than a worker: the work to warm is DOM work, which a
 * worker cannot do, and the chunk is loaded before an answer needs it).
 */
const SAMPLE =
  '## a\n\nb **c** *d* [e](https://e.example) `f` ~~g~~\n\n- h\n  - i\n\n1. j\n\n```js\nk\n```\n\n| l | m |\n|---|--:|\n| n | o |\n\n> p\n\n<b>q</b>\n\n---\n';

function warm(): void {
  MarkdownView.render(SAMPLE);
}

/**
 * Hands the element's lit over to the chunk (see lazy-lit.ts); called once, as the chunk loads,
 * so it is also where the renderer is warmed, once the page idles.
 */
export function useLit(lit: Parameters<typeof useElementLit>[0]): void {
  useElementLit(lit);
  // Safari has no requestIdleCallback.
  if (typeof requestIdleCallback === 'function') requestIdleCallback(warm, { timeout: 1_000 });
  else setTimeout(warm, 50);
}
