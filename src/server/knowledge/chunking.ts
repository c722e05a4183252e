/**
 * How a text is cleaned and cut into chunks, the same for a chatbot's sources and a visitor's
 * documents: Markdown by its blocks and sections, anything else by sentences.
 */
import { type Chunk, chunkMarkdown } from './markdown.js';
import { chunkText, normalizeText } from './text.js';

/** Markdown keeps its spacing: indentation inside code blocks and nested lists is structure. */
export const cleanText = (text: string, markdown: boolean): string =>
  markdown ? text.replace(/\r\n?/g, '\n').trim() : normalizeText(text);

/** The chunks of a text `cleanText` has cleaned. */
export const chunksOf = (clean: string, markdown: boolean): Chunk[] =>
  markdown ? chunkMarkdown(clean) : chunkText(clean).map((text) => ({ text, heading: '' }));
