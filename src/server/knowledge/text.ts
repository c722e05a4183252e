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
  also just like get got anything something everything will shall may might must many much whether
  every either neither yet via per upon onto within among across toward towards unless though
  although however even ever still quite rather really already else`
    .split(/\s+/)
    .filter(Boolean),
);
/**
 * German function words that are no English words: the chat speaks German, and a visitor asking
 * an English chatbot "Was kostet es?" got the passage on ES modules, "es" being the one word of
 * the question the sources hold. Not "die", "man", "war", "mit" or "den": an English text's words
 * ("MIT licence").
 */
for (const word of `aber auch bei bitte dass das dein deine dem der des du ein eine einen einem
  einer es gibt habe haben ich ihr ihre ist kann kein keine mein meine nach nicht noch ob oder
  sich sie sind und uns unser vom von warum welche welcher wenn wer werden wie wir wird wo zu zum
  zur für über`.split(/\s+/)) {
  STOPWORDS.add(word);
}

const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu;
/** An identifier in camelCase ("isValid", "toIPv4Address"), whose parts are words of its own. */
const CAMEL = /^\p{Ll}[\p{Ll}\p{N}]*\p{Lu}/u;
/** An address with a scheme ("https://…", "postgres://…"), to the next space, quote or bracket. */
const BARE_URL = /\b[a-z][a-z0-9+.-]*:\/\/[^\s`'"<>()[\]]*/gi;
const CAMEL_CUT = /(?<=[\p{Ll}\p{N}])(?=\p{Lu})/u;

/**
 * Splits text into words the way both indexing and querying see it. A camelCase identifier is
 * also its parts, so "How do I check that an address is valid?" finds `ipaddr.isValid()`; a word
 * that starts with a capital (MiniSearch, JavaScript) is a name, and stays whole. Links count by
 * their text, and bare addresses not at all: the words of a URL are not what a passage is about.
 */
export function tokenize(text: string): string[] {
  let source =
    text.includes('](') || text.includes('][') || text.includes('<http') ? linkText(text) : text;
  // A bare address too: `postgres://user:password@host/db` is about connecting, not passwords.
  if (source.includes('://')) source = source.replace(BARE_URL, ' ');
  const lower = source.toLowerCase();
  if (lower === source) return lower.match(WORD) ?? [];
  const words: string[] = [];
  for (const [word] of source.matchAll(WORD)) {
    const low = word.toLowerCase();
    words.push(low);
    if (CAMEL.test(word)) for (const part of word.split(CAMEL_CUT)) words.push(part.toLowerCase());
  }
  return words;
}

/**
 * Markdown links as their text and images as their alt text ("[Keygrip](https://…)" is
 * "Keygrip"), reference-style ones too; autolinks ("<https://…>") go.
 */
export function linkText(text: string): string {
  return text
    .replace(
      /!?\[((?:[^[\]]|\[[^[\]]*\])*)\](?:\([^()\s]*(?:\([^()\s]*\)[^()\s]*)*(?:\s+"[^"]*")?\)|\[[^\]]*\])/g,
      (_, inner: string) =>
        inner.includes('](') || inner.includes('][') ? linkText(inner) : inner,
    )
    .replace(/<https?:\/\/[^>\s]*>/g, '');
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

/**
 * Words the stemmer takes down to another word's stem ("customers" to "custom", "containers" to
 * "contain", "news" to "new"): a question about customers would be answered from custom
 * properties. They keep a stem of their own.
 */
const OWN_STEMS = new Map([
  ['customer', 'customer'],
  ['customers', 'customer'],
  ['container', 'container'],
  ['containers', 'container'],
  ['news', 'news'],
]);

function process(term: string): string | null {
  const word = term.toLowerCase().replace(/’/g, "'");
  if (STOPWORDS.has(word)) return null;
  const bare = word.replace(/'s$/, '').replace(/'/g, '');
  if (bare.length === 0) return null;
  if (!/^[a-z]+$/.test(bare)) return bare;
  // A stem can be a stop word ("one" becomes "on"): it would match every "on".
  const stem = OWN_STEMS.get(bare) ?? stemmer(bare);
  return STOPWORDS.has(stem) ? null : stem;
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
 * Words that say how a question is asked rather than what it is about ("What happens when…",
 * "Is it possible to…", "How do I make X work…", "Does it figure out…"), as stems. A passage need
 * not hold them to answer, yet as rare words of the sources they weighed as much as the topic, so
 * a paraphrase missing only them was refused. They are left out of questions only: an indexed
 * passage keeps every word. Picked from half A of bench:answers's questions as words that frame
 * rather than name, and kept because half B, held out, gained too (README, Answers).
 */
const FRAMING = new Set([
  'make',
  'made',
  'happen',
  'figur',
  'turn',
  'want',
  'need',
  'wai',
  'possibl',
  'abl',
]);

/** The topic terms of a question: `terms` without the words that only frame it. */
export function queryTerms(text: string): Set<string> {
  const out = terms(text);
  for (const term of FRAMING) out.delete(term);
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

export function splitLong(sentence: string, size: number): string[] {
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

/** Bold words that open a paragraph or list item ("**Retries** are…") act as sub-headings. */
export function boldLeads(text: string): string {
  const out: string[] = [];
  for (const match of text.matchAll(/^(?:[-*+]\s+|\d+[.)]\s+)?\*\*([^*\n]{1,60})\*\*/gm)) {
    out.push(match[1]!);
  }
  return out.join(' ');
}
