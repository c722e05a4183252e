/**
 * The lazily loaded chunk, built as dist/chatbot-markdown.js: everything the chat shows only
 * once an answer exists, loaded by renderer.ts when an answer first needs it. Until it is there
 * an answer waits behind the typing indicator, so what is here costs a visitor nothing.
 */

import { Lexer } from 'marked';
import { useLit as useElementLit } from './lazy-lit.js';
import { MarkdownView } from './markdown.js';

export { AnswerExtras } from './answer-extras.js';
export { withListed } from './transcript-merge.js';
export { MarkdownView };

/**
 * A short answer with every kind of block and inline mark the renderer meets. V8 compiles a
 * function when it first runs and a regular expression when it first runs on a kind of string:
 * left to the first answer, that landed in one of its frames as a task of 60–85 ms on a slow
 * machine (the floor of bench:chat, which does not warm up, still shows it). Rendering this, detached, as soon as the chunk has loaded pays for it before a
 * visitor has typed a question, in small pieces, each a task of its own, where all at once was a
 * long task. Tasks rather than idle callbacks: idle periods come one per frame and none while an
 * answer streams, so a question sent right after loading met a renderer still cold. Not a worker:
 * what needs warming is this thread's code and its DOM work.
 */
const SAMPLE_BLOCKS = [
  '## a\n\n',
  'b **c** *d* [e](https://e.example) `f` ~~g~~ https://h.example i@j.example <https://k.example>\n\n',
  '- h\n  - i\n\n1. j\n\n',
  '```js\nk\n```\n\n',
  '| l | m |\n|---|--:|\n| n | o |\n\n',
  // No raw HTML: that would load its sanitizer (raw-html.ts), which most pages never need.
  '> p\n\n- [x] q\n\n---\n',
];
const SAMPLE = SAMPLE_BLOCKS.join('');

/**
 * V8 compiles each regular expression twice: for strings of Latin-1 characters only, and for
 * strings with any other character (a dash, a curly quote, an emoji), as most answers have.
 * Warmed on ASCII alone, the first such answer compiled every one of marked's again, 45–70 ms in
 * its first frame (traced on cold pages of bench:chat), so each piece is lexed in both forms.
 */
const WIDE = '\u2014';

const WARM_STEPS = [
  ...SAMPLE_BLOCKS.flatMap((block) => [
    () => new Lexer().lex(block),
    () => new Lexer().lex(block + WIDE),
  ]),
  () => MarkdownView.render(SAMPLE),
  () => MarkdownView.render(SAMPLE + WIDE),
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
