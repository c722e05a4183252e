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
  const clean = line
    .replace(/[#*_`>]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (!clean) return fallback;
  return clean.length > 120 ? `${clean.slice(0, 117).replace(/\s+\S*$/, '')}…` : clean;
}
