/**
 * The lazily loaded chunk, built as dist/chatbot-markdown.js: everything the chat shows only
 * once an answer exists, loaded by renderer.ts when an answer first needs it. Until it is there
 * an answer waits behind the typing indicator, so what is here costs a visitor nothing.
 */

import { Lexer, Parser } from 'marked';
import { useLit as useElementLit } from './lazy-lit.js';
import { MarkdownView, sanitize } from './markdown.js';

export { AnswerExtras } from './answer-extras.js';
export { MarkdownView };

/**
 * A short answer with every kind of block and inline mark the renderer meets. V8 compiles a
 * function when it first runs, and DOMPurify builds its instance on first use: left to the first
 * answer, that landed in one of its frames as a task of 60–85 ms on a slow machine (the floor of
 * bench:chat, which does not warm up, still shows it). Rendering this once, detached, as soon as
 * the chunk has loaded pays for it before a visitor has typed a question, in smaller pieces:
 * lexing, parsing, sanitizing, then a whole view, each a task of its own (27–38 ms at most on a
 * loaded 2-core machine), where all at once was a long task. Tasks rather than idle callbacks:
 * idle periods come one per frame and none while an answer streams, so a question sent right
 * after loading met a renderer still cold. Not a worker: what needs warming is this thread's
 * code and its DOM work.
 */
const SAMPLE =
  '## a\n\nb **c** *d* [e](https://e.example) `f` ~~g~~\n\n- h\n  - i\n\n1. j\n\n```js\nk\n```\n\n| l | m |\n|---|--:|\n| n | o |\n\n> p\n\n<b>q</b>\n\n---\n';

const WARM_STEPS = [
  () => new Lexer().lex(SAMPLE),
  () => Parser.parse(new Lexer().lex(SAMPLE)),
  () => sanitize('<p><a href="https://e.example">a</a></p>'),
  () => MarkdownView.render(SAMPLE),
];

function warm(step = 0): void {
  WARM_STEPS[step]?.();
  if (step + 1 < WARM_STEPS.length) setTimeout(() => warm(step + 1));
}

/**
 * Hands the element's lit over to the chunk (see lazy-lit.ts); called once, as the chunk loads,
 * so it is also where the renderer's warm-up starts, in the next task.
 */
export function useLit(lit: Parameters<typeof useElementLit>[0]): void {
  useElementLit(lit);
  setTimeout(() => warm());
}
