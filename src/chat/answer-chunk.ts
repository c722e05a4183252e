/**
 * The lazily loaded chunk, built as dist/chatbot-markdown.js: everything the chat shows only
 * once an answer exists, loaded by renderer.ts when an answer first needs it. Until it is there
 * an answer waits behind the typing indicator, so what is here costs a visitor nothing.
 */
export { AnswerExtras } from './answer-extras.js';
export { useLit } from './lazy-lit.js';
export { MarkdownView } from './markdown.js';
