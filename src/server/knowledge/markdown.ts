/**
 * Markdown as the knowledge base reads it: blocks with their section paths (marked's lexer,
 * GFM), chunks cut from whole blocks, and a document's title.
 */
import { Lexer, type Token, type Tokens } from 'marked';
import {
  CHUNK_CHARS,
  CHUNK_OVERLAP_CHARS,
  chunkText,
  linkText,
  normalizeText,
  splitLong,
} from './text.js';

/** One piece of a chunked document, and the section it sits in ("The API module › Errors"). */
export interface Chunk {
  text: string;
  heading: string;
}

export type BlockKind = 'heading' | 'paragraph' | 'item' | 'code' | 'table' | 'quote';

/** A unit that chunking never cuts unless it alone exceeds the chunk size. */
export interface Block {
  kind: BlockKind;
  /** Markdown, possibly of several lines (code, tables, nested lists). */
  text: string;
  /** The section path this block belongs to, " › " between levels. */
  heading: string;
}

export const HEADING_SEPARATOR = ' › ';

/** The innermost heading of a section path: "Errors" of "The API module › Errors". */
export function innermostHeading(path: string): string {
  return path.split(HEADING_SEPARATOR).pop()!.trim();
}

/** Inline HTML and comments outside code spans: a chat bubble would show them as text. */
function stripInlineHtml(text: string): string {
  return text
    .split(/(`+[^`]*`+)/)
    .map((part, i) =>
      i % 2 === 1
        ? part
        : part
            .replace(/<!--[\s\S]*?(?:-->|$)/g, '')
            .replace(/<\/?[a-zA-Z][\w-]*(?:\s[^<>]*)?\/?>/g, ''),
    )
    .join('')
    .replace(/[ \t]+/g, ' ')
    .trim();
}

/** A paragraph's soft line breaks are not structure: one line per paragraph. */
const oneLine = (text: string) => stripInlineHtml(text.replace(/\s*\n\s*/g, ' '));

/** Images, inline or reference-style ("![Build Status][ci-image]"): badges, logos, screenshots. */
const withoutImages = (text: string) =>
  text.includes('![') ? text.replace(/!\[[^\]]*\](?:\([^)]*\)|\[[^\]]*\])/g, '') : text;

/** Emphasis markers outside code spans: stars, and underscores not inside a word. */
const EMPHASIS = /[*`]+|(?<![\p{L}\p{N}])_+|_+(?![\p{L}\p{N}])/gu;

/**
 * Heading text for a section path or a title: inline markup would show literally in a lead-in,
 * and a badge beside a project's name ("better-sqlite3 [![Build Status](…)](…)") is no part of it.
 * A code span keeps what it holds (`beam_angle`, `**kwargs`); outside one, an underscore within
 * a word is the word's own, not emphasis.
 */
export const plainHeading = (text: string) =>
  stripInlineHtml(linkText(withoutImages(text)))
    .split(/(`+[^`]*`+)/)
    .map((part, i) => part.replace(i % 2 ? /`/g : EMPHASIS, ''))
    .join('')
    .replace(/\s+/g, ' ')
    .trim();

/**
 * Whether an error is the stack running out: marked's lexer, and the walk over its tokens,
 * recurse once per level of nesting, and a file of 100,000 `>` is 100,000 levels of quote.
 */
const tooDeep = (error: unknown) =>
  error instanceof RangeError && /call stack/i.test(error.message);

/**
 * A Markdown document's title: its first top-level heading (`# Title`, or Title over `===`);
 * none when it nests too deep to read as Markdown (it is then read as plain text: chunkMarkdown).
 */
export function markdownTitle(markdown: string): string {
  try {
    return lexedTitle(markdown);
  } catch (error) {
    if (tooDeep(error)) return '';
    throw error;
  }
}

function lexedTitle(markdown: string): string {
  const tokens = Lexer.lex(markdown.replace(/\r\n?/g, '\n'), { gfm: true }) as Token[];
  const title = tokens.find((t) => t.type === 'heading' && (t as Tokens.Heading).depth === 1);
  return title ? plainHeading((title as Tokens.Heading).text) : '';
}

const cellText = (text: string) => oneLine(text).replace(/\|/g, '\\|');

/**
 * Splits Markdown into blocks with marked's lexer (GFM). HTML blocks, comments, rules and link
 * definitions are dropped; a document's single top-level heading is its title, not a section,
 * so it is left out of section paths.
 */
export function markdownBlocks(markdown: string): Block[] {
  const tokens = Lexer.lex(markdown.replace(/\r\n?/g, '\n'), { gfm: true }) as Token[];
  const titles = tokens.filter((t) => t.type === 'heading' && (t as Tokens.Heading).depth === 1);
  const titleDepth = titles.length === 1 ? 1 : 0;
  const path: string[] = [];
  const blocks: Block[] = [];
  const push = (kind: BlockKind, text: string) => {
    if (!text.trim()) return;
    blocks.push({ kind, text, heading: path.filter(Boolean).join(HEADING_SEPARATOR) });
  };
  const listLines = (list: Tokens.List, indent: string): string[][] =>
    list.items.map((item, i) => {
      const marker = list.ordered ? `${(Number(list.start) || 1) + i}.` : '-';
      const lines: string[] = [];
      let lead = '';
      for (const token of item.tokens) {
        if (token.type === 'list') {
          for (const sub of listLines(token as Tokens.List, `${indent}  `)) lines.push(...sub);
        } else if (token.type === 'code') {
          const code = token as Tokens.Code;
          lines.push(...fence(code.lang ?? '', code.text).map((l) => `${indent}  ${l}`));
        } else if (token.type !== 'space' && token.type !== 'html') {
          const text = oneLine((token as Tokens.Text).text ?? '');
          if (text) lead = lead ? `${lead} ${text}` : text;
        }
      }
      const box = item.task ? (item.checked ? '[x] ' : '[ ] ') : '';
      return [`${indent}${marker} ${box}${lead}`.trimEnd(), ...lines];
    });
  const walk = (tokens: Token[]) => {
    for (const token of tokens) {
      switch (token.type) {
        case 'heading': {
          const { depth, text } = token as Tokens.Heading;
          const name = plainHeading(text);
          if (depth > titleDepth) {
            path.length = Math.max(0, depth - 1 - titleDepth);
            while (path.length < depth - 1 - titleDepth) path.push('');
            path.push(name);
          }
          push('heading', `${'#'.repeat(depth)} ${name}`);
          break;
        }
        case 'paragraph':
        case 'text': {
          const text = oneLine((token as Tokens.Paragraph).text);
          // A row of badges or a lone screenshot says nothing an answer could quote.
          if (/[\p{L}\p{N}]/u.test(linkText(withoutImages(text)))) push('paragraph', text);
          break;
        }
        case 'list':
          for (const lines of listLines(token as Tokens.List, '')) push('item', lines.join('\n'));
          break;
        case 'code': {
          const code = token as Tokens.Code;
          if (code.text.trim()) push('code', fence(code.lang ?? '', code.text).join('\n'));
          break;
        }
        case 'table': {
          const table = token as Tokens.Table;
          const header = table.header.map((c) => cellText(c.text));
          const rows = table.rows.map((r) => `| ${r.map((c) => cellText(c.text)).join(' | ')} |`);
          push(
            'table',
            [`| ${header.join(' | ')} |`, `|${header.map(() => ' --- |').join('')}`, ...rows].join(
              '\n',
            ),
          );
          break;
        }
        case 'blockquote': {
          const inner = (token as Tokens.Blockquote).tokens
            .filter((t) => t.type === 'paragraph' || t.type === 'text')
            .map((t) => `> ${oneLine((t as Tokens.Paragraph).text)}`);
          push('quote', inner.join('\n>\n'));
          break;
        }
        default:
          // html, hr, space, def: nothing a reader of an answer needs.
          break;
      }
    }
  };
  walk(tokens);
  return blocks;
}

/** A fence longer than any backtick run inside, so the code can never close it early. */
function fence(lang: string, code: string): string[] {
  const longest = Math.max(2, ...(code.match(/`+/g) ?? []).map((r) => r.length));
  const ticks = '`'.repeat(longest + 1);
  return [`${ticks}${lang.split(/\s/)[0] ?? ''}`, ...code.replace(/\n+$/, '').split('\n'), ticks];
}

/** Cuts a block bigger than `size` at line (code, table rows) or sentence boundaries. */
function splitBlock(block: Block, size: number): Block[] {
  if (block.text.length <= size) return [block];
  const part = (text: string): Block => ({ ...block, text });
  if (block.kind === 'code' || block.kind === 'table') {
    const lines = block.text.split('\n');
    // Each part must stand alone: a code part reopens and closes the fence, a table part
    // repeats the header rows.
    const head = block.kind === 'code' ? lines.slice(0, 1) : lines.slice(0, 2);
    const tail = block.kind === 'code' ? lines.slice(-1) : [];
    const body = block.kind === 'code' ? lines.slice(1, -1) : lines.slice(2);
    const frame = [...head, ...tail].join('\n').length + 2;
    const out: Block[] = [];
    let current: string[] = [];
    let length = frame;
    for (const line of body.flatMap((l) => splitLong(l, size - frame))) {
      if (length + line.length + 1 > size && current.length > 0) {
        out.push(part([...head, ...current, ...tail].join('\n')));
        current = [];
        length = frame;
      }
      current.push(line);
      length += line.length + 1;
    }
    if (current.length > 0) out.push(part([...head, ...current, ...tail].join('\n')));
    return out;
  }
  // Prose: whole sentences per part (lines of a list item stay lines).
  const out: Block[] = [];
  let current = '';
  for (const sentence of block.text
    .split(/(?<=[.!?])\s+(?=[\p{Lu}\p{N}"'([*`])/u)
    .flatMap((s) => splitLong(s, size))) {
    if (current && current.length + sentence.length + 1 > size) {
      out.push(part(current));
      current = '';
    }
    current = current ? `${current} ${sentence}` : sentence;
  }
  if (current) out.push(part(current));
  return out;
}

/**
 * Builds chunks of about `size` characters from whole blocks, one "\n" between blocks. A chunk
 * never spans two sections, so its heading path is exact. When a section needs several chunks,
 * each one after the first begins with the last whole blocks (up to `overlap` characters) of the
 * one before, so a fact that straddles the cut is whole in one of them; a block longer than the
 * overlap is not carried, so code and tables are never repeated.
 */
export function chunkBlocks(
  blocks: Block[],
  size = CHUNK_CHARS,
  overlap = CHUNK_OVERLAP_CHARS,
): Chunk[] {
  const chunks: Chunk[] = [];
  let current: Block[] = [];
  let length = 0;
  let fresh = 0;
  const flush = () => {
    // A chunk made only of carried blocks says nothing new.
    if (fresh > 0) {
      chunks.push({ text: current.map((b) => b.text).join('\n'), heading: current[0]!.heading });
    }
    current = [];
    length = 0;
    fresh = 0;
  };
  for (const block of blocks.flatMap((b) => splitBlock(b, size))) {
    const newSection = current.length > 0 && block.heading !== current[0]!.heading;
    if (newSection || (block.kind === 'heading' && current.length > 0)) flush();
    else if (
      // A heading stays with the block it introduces, even when that makes the chunk large.
      current.some((b) => b.kind !== 'heading') &&
      length + block.text.length + 1 > size
    ) {
      const carried: Block[] = [];
      let carriedLength = 0;
      for (let i = current.length - 1; i >= 0; i--) {
        const b = current[i]!;
        if (b.kind === 'heading' || carriedLength + b.text.length > overlap) break;
        carried.unshift(b);
        carriedLength += b.text.length + 1;
      }
      flush();
      current = carried;
      length = carriedLength;
    }
    current.push(block);
    length += block.text.length + 1;
    fresh++;
  }
  if (current.length > 0) flush();
  return chunks;
}

/** Chunks of a Markdown document: structure-aware, each with its section path. */
export function chunkMarkdown(
  markdown: string,
  size = CHUNK_CHARS,
  overlap = CHUNK_OVERLAP_CHARS,
): Chunk[] {
  let blocks: Block[];
  try {
    blocks = markdownBlocks(markdown);
  } catch (error) {
    if (!tooDeep(error)) throw error;
    // Nested past what can be read as structure: its text, as a .txt file's.
    return chunkText(normalizeText(markdown), size, overlap).map((text) => ({ text, heading: '' }));
  }
  return chunkBlocks(blocks, size, overlap);
}
