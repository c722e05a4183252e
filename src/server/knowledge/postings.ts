import { innermostHeading } from './markdown.js';
import { quotableUnits, type Unit } from './quotable.js';
import { boldLeads, processTerm, terms, tokenize } from './text.js';

export interface IndexedChunk {
  id: number;
  sourceUuid: string;
  text: string;
  /** Section path ("The API module › Errors"); empty for plain text. */
  heading?: string;
}

export interface Entry extends IndexedChunk {
  heading: string;
  /**
   * The distinct terms of each field, text and topic: the postings a removal visits, and (see
   * `termsOf`) the chunk's terms. Lists, not sets: a set per chunk cost more memory than the
   * postings, for lookups only queries of over 32 terms make.
   */
  fieldTerms: [string[], string[]];
  /** The chunk's place in the index's per-document arrays. */
  slot: number;
  units: readonly Unit[];
  /** The heading's terms, for judging a hit by its section path. */
  headingTerms: readonly string[];
}

/** The two fields, text and topic, each with its own lengths and postings. */
export const TEXT = 0;
export const TOPIC = 1;

/** The chunks holding one term in one field, in the order they were indexed. */
export interface Postings {
  slots: number[];
  /** How often the term occurs in each of those chunks' field. */
  counts: number[];
  /** Each of those chunks' field length, here rather than per chunk: a search reads it in order. */
  lengths: number[];
  /** Entries of chunks still in the index (removed ones are skipped, then compacted away). */
  live: number;
}

export interface Term {
  fields: [Postings | undefined, Postings | undefined];
  /** Chunks holding the term in either field. */
  df: number;
}

/**
 * The inverted index of one chatbot's chunks: postings per term and field, and the field lengths
 * BM25 reads. ranking.ts reads it; only the functions below change it, keeping all in step as
 * chunks come and go.
 */
export interface ChatbotIndex {
  chunks: Map<number, Entry>;
  terms: Map<string, Term>;
  /** Per slot: the chunk, or undefined once removed. */
  slots: Array<Entry | undefined>;
  /** Per field, per slot: distinct words in the field (stop words included). */
  lengths: [number[], number[]];
  /** Per field: the mean of `lengths`, kept up to date as chunks come and go. */
  averages: [number, number];
  /** The slots of each section's chunks, by its innermost heading as `sectionKey` reads it. */
  sections: Map<string, Set<number>>;
  /** Chunks read from the store and not indexed yet, while the index is being built. */
  pending: IndexedChunk[];
  built: Promise<void>;
}

/** An empty index that still has `pending` to take in. */
export function createIndex(pending: IndexedChunk[]): ChatbotIndex {
  return {
    chunks: new Map(),
    terms: new Map(),
    slots: [],
    lengths: [[], []],
    averages: [0, 0],
    sections: new Map(),
    pending,
    built: Promise.resolve(),
  };
}

/**
 * A heading or a question as a section's name is compared: its innermost part, without case,
 * markup, runs of spaces or closing punctuation ("Search options?" names "## Search *options*").
 */
export function sectionKey(text: string): string {
  return innermostHeading(text)
    .toLowerCase()
    .replace(/[*_`]/g, '')
    .replace(/\s+/g, ' ')
    .replace(/[\s?.!:]+$/, '')
    .trim();
}

/** Adds chunks to the index (a chunk already in it replaces itself). */
export function indexChunks(index: ChatbotIndex, chunks: IndexedChunk[]): void {
  for (const chunk of chunks) {
    const heading = chunk.heading ?? '';
    const leads = chunk.text.includes('**') ? boldLeads(chunk.text) : '';
    const topic = leads ? `${heading} ${leads}` : heading;
    const slot = index.slots.length;
    // A chunk indexed again (it cannot be, today) replaces itself rather than counting twice.
    if (index.chunks.has(chunk.id)) unindexChunks(index, [chunk.id]);
    const entry: Entry = {
      ...chunk,
      heading,
      fieldTerms: [[], []],
      slot,
      units: quotableUnits(chunk.text),
      headingTerms: [...terms(heading)],
    };
    index.slots.push(entry);
    index.chunks.set(chunk.id, entry);
    // A heading of only marks ("## ?") names nothing a question could ask for.
    const key = sectionKey(heading);
    if (key) {
      const slots = index.sections.get(key) ?? new Set();
      slots.add(slot);
      index.sections.set(key, slots);
    }
    const count = index.chunks.size - 1;
    addField(index, entry, TEXT, chunk.text, count);
    addField(index, entry, TOPIC, topic, count);
    for (const term of termsOf(entry)) index.terms.get(term)!.df++;
  }
}

function addField(index: ChatbotIndex, entry: Entry, field: 0 | 1, text: string, count: number) {
  const words = tokenize(text);
  // A field's length is its distinct words before stemming, and the mean is updated the way
  // MiniSearch did, so that scores stay the same to the last bit.
  const length = new Set(words).size;
  index.lengths[field][entry.slot] = length;
  index.averages[field] = (index.averages[field] * count + length) / (count + 1);
  const counts = new Map<string, number>();
  for (const word of words) {
    const term = processTerm(word);
    if (term) counts.set(term, (counts.get(term) ?? 0) + 1);
  }
  for (const [term, n] of counts) {
    entry.fieldTerms[field].push(term);
    let known = index.terms.get(term);
    if (!known) {
      known = { fields: [undefined, undefined], df: 0 };
      index.terms.set(term, known);
    }
    let postings = known.fields[field];
    if (!postings) {
      postings = { slots: [], counts: [], lengths: [], live: 0 };
      known.fields[field] = postings;
    }
    postings.slots.push(entry.slot);
    postings.counts.push(n);
    postings.lengths.push(length);
    postings.live++;
  }
}

/** Takes chunks out of the index, and out of what is still pending. */
export function unindexChunks(index: ChatbotIndex, ids: number[]): void {
  if (index.pending.length > 0) {
    const gone = new Set(ids);
    index.pending = index.pending.filter((c) => !gone.has(c.id));
  }
  for (const id of ids) {
    const entry = index.chunks.get(id);
    if (!entry) continue;
    const count = index.chunks.size;
    for (const field of [TEXT, TOPIC] as const) {
      const length = index.lengths[field][entry.slot]!;
      index.averages[field] =
        count === 1 ? 0 : (index.averages[field] * count - length) / (count - 1);
    }
    index.chunks.delete(id);
    index.slots[entry.slot] = undefined;
    const key = sectionKey(entry.heading);
    if (key) {
      const slots = index.sections.get(key);
      slots?.delete(entry.slot);
      if (slots?.size === 0) index.sections.delete(key);
    }
    for (const field of [TEXT, TOPIC] as const) {
      for (const term of entry.fieldTerms[field]) {
        const postings = index.terms.get(term)!.fields[field]!;
        postings.live--;
        // Removed entries are skipped by searches; drop them once they are half the list.
        if (postings.live * 2 < postings.slots.length) compact(postings, index.slots);
      }
    }
    for (const term of termsOf(entry)) {
      const known = index.terms.get(term)!;
      if (--known.df === 0) index.terms.delete(term);
    }
  }
}

/** A chunk's distinct terms, text and topic together. */
function termsOf(entry: Entry): readonly string[] {
  const [text, topic] = entry.fieldTerms;
  return topic.length === 0 ? text : [...text, ...topic.filter((t) => !text.includes(t))];
}

function compact(postings: Postings, slots: Array<Entry | undefined>): void {
  let kept = 0;
  for (let i = 0; i < postings.slots.length; i++) {
    const slot = postings.slots[i]!;
    if (slots[slot] === undefined) continue;
    postings.slots[kept] = slot;
    postings.counts[kept] = postings.counts[i]!;
    postings.lengths[kept] = postings.lengths[i]!;
    kept++;
  }
  postings.slots.length = kept;
  postings.counts.length = kept;
  postings.lengths.length = kept;
  postings.live = kept;
}
