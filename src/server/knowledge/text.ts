import { Lexer, type Token, type Tokens } from 'marked';
import { stemmer } from 'stemmer';

/**
 * Words that carry no topic. Removing them keeps "What did Alice talk about?" down to the terms
 * that matter (alice, talk) before ranking, and keeps questions made only of them from matching
 * every passage.
 */
const STOPWORDS = new Set(
  `a about above after again against all am an and any are aren't as at be because been before being
  below between both but by can can't cannot could couldn't did didn't do does doesn't doing don't down
  during each few for from further had hadn't has hasn't have haven't having he he'd he'll he's her here
  here's hers herself him himself his how how's i i'd i'll i'm i've if in into is isn't it it's its
  itself let's me more most mustn't my myself no nor not of off on once only or other ought our ours
  ourselves out over own same shan't she she'd she'll she's should shouldn't so some such than that
  that's the their theirs them themselves then there there's these they they'd they'll they're they've
  this those through to too under until up very was wasn't we we'd we'll we're we've were weren't what
  what's when when's where where's which while who who's whom why why's with won't would wouldn't you
  you'd you'll you're you've your yours yourself yourselves tell please know say said thing things
  also just like get got anything something everything`
    .split(/\s+/)
    .filter(Boolean),
);

/** Splits text into words the way both indexing and querying see it. */
export function tokenize(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu) ?? [];
}

/**
 * Stemming is the most expensive step of indexing and of picking an answer's sentences, and the
 * same words come back all the time: remember the results (a bounded cache, emptied when full).
 */
const processed = new Map<string, string | null>();
const PROCESSED_LIMIT = 200_000;

/** Lower-cased, stop-word-free, stemmed: "talked" and "talks" both become "talk". */
export function processTerm(term: string): string | null {
  let result = processed.get(term);
  if (result === undefined) {
    result = process(term);
    if (processed.size >= PROCESSED_LIMIT) processed.clear();
    processed.set(term, result);
  }
  return result;
}

function process(term: string): string | null {
  const word = term.toLowerCase().replace(/’/g, "'");
  if (STOPWORDS.has(word)) return null;
  const bare = word.replace(/'s$/, '').replace(/'/g, '');
  if (bare.length === 0) return null;
  return /^[a-z]+$/.test(bare) ? stemmer(bare) : bare;
}

/** The distinct topic terms of a text, stemmed. */
export function terms(text: string): Set<string> {
  const out = new Set<string>();
  for (const word of tokenize(text)) {
    const term = processTerm(word);
    if (term) out.add(term);
  }
  return out;
}

/**
 * An approximation of a language model's token count (words and punctuation marks, about the
 * same as GPT tokenizers give for English prose); good enough for a size figure in the admin.
 */
export function countTokens(text: string): number {
  return (text.match(/[\p{L}\p{N}]+|[^\s\p{L}\p{N}]/gu) ?? []).length;
}

/** Collapses runs of blank lines and trailing spaces left by extractors. */
export function normalizeText(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/[ \t\f\v\u00a0]+/g, ' ')
    .replace(/ *\n */g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** Sentences (and list items or short lines, which act as sentences in documents). */
export function sentences(text: string): string[] {
  return text
    .split(/\n+|(?<=[.!?])\s+(?=[\p{Lu}\p{N}"'([])/u)
    .map((s) => s.trim())
    .filter(Boolean);
}

export const CHUNK_CHARS = 900;
export const CHUNK_OVERLAP_CHARS = 180;

/**
 * Cuts text into passages of about CHUNK_CHARS on sentence boundaries. Each chunk begins with
 * the last sentences (up to CHUNK_OVERLAP_CHARS) of the one before, so a fact that straddles a
 * boundary is still whole in one of them.
 */
export function chunkText(
  text: string,
  size = CHUNK_CHARS,
  overlap = CHUNK_OVERLAP_CHARS,
): string[] {
  const pieces = sentences(text).flatMap((s) => splitLong(s, size));
  const chunks: string[] = [];
  let current: string[] = [];
  let length = 0;
  for (const piece of pieces) {
    if (length + piece.length > size && current.length > 0) {
      chunks.push(current.join(' '));
      const carried: string[] = [];
      let carriedLength = 0;
      for (let i = current.length - 1; i >= 0; i--) {
        const s = current[i]!;
        if (carriedLength + s.length > overlap) break;
        carried.unshift(s);
        carriedLength += s.length + 1;
      }
      current = carried;
      length = carriedLength;
    }
    current.push(piece);
    length += piece.length + 1;
  }
  if (current.length > 0) chunks.push(current.join(' '));
  return chunks;
}

function splitLong(sentence: string, size: number): string[] {
  if (sentence.length <= size) return [sentence];
  const out: string[] = [];
  let rest = sentence;
  while (rest.length > size) {
    let cut = rest.lastIndexOf(' ', size);
    if (cut < size / 2) cut = size;
    out.push(rest.slice(0, cut).trim());
    rest = rest.slice(cut).trim();
  }
  if (rest) out.push(rest);
  return out;
}

/** A short title from the first meaningful line of a text. */
export function titleFrom(text: string, fallback: string): string {
  const heading = /^#{1,6}\s+(.+)$/m.exec(text)?.[1];
  const line = heading ?? text.split('\n').find((l) => l.trim().length > 0) ?? '';
  // Only markdown syntax goes: a question such as "Is <b>x</b> free?" or a name like
  // snake_case keeps every character it was written with (titles are shown as text).
  const clean = line
    .replace(/^\s*(?:>\s*)+/, '')
    .replace(/^\s*(?:[-*+]|\d+[.)])\s+/, '')
    .replace(/(\*\*|__|\*|_|`)(\S(?:.*?\S)?)\1/g, '$2')
    .replace(/\s+/g, ' ')
    .trim();
  if (!clean) return fallback;
  return clean.length > 120 ? `${clean.slice(0, 117).replace(/\s+\S*$/, '')}…` : clean;
}

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

/** Heading text for a section path: inline markup would show literally in a lead-in. */
const plainHeading = (text: string) =>
  stripInlineHtml(text)
    .replace(/[*_`]+/g, '')
    .replace(/\s+/g, ' ')
    .trim();

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
        case 'text':
          push('paragraph', oneLine((token as Tokens.Paragraph).text));
          break;
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
export function chunkMarkdown(markdown: string, size = CHUNK_CHARS, overlap = CHUNK_OVERLAP_CHARS) {
  return chunkBlocks(markdownBlocks(markdown), size, overlap);
}

/** Bold words that open a paragraph or list item ("**Retries** are…") act as sub-headings. */
export function boldLeads(text: string): string {
  const out: string[] = [];
  for (const match of text.matchAll(/^(?:[-*+]\s+|\d+[.)]\s+)?\*\*([^*\n]{1,60})\*\*/gm)) {
    out.push(match[1]!);
  }
  return out.join(' ');
}
