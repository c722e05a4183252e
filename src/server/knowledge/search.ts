import type { Store } from '../store/types.js';
import { quotableUnits, type Unit } from './quotable.js';
import { boldLeads, processTerm, terms, tokenize } from './text.js';

interface IndexedChunk {
  id: number;
  sourceUuid: string;
  text: string;
  /** Section path ("The API module › Errors"); empty for plain text. */
  heading?: string;
}

interface Entry extends IndexedChunk {
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
}

export interface Hit {
  chunkId: number;
  sourceUuid: string;
  text: string;
  heading: string;
  score: number;
  /** Query terms (processed) found in the chunk. */
  matched: string[];
  /** The chunk as an answer quotes it: split and stemmed once, when it was indexed. */
  units: readonly Unit[];
}

export interface SearchResult {
  hits: Hit[];
  /** The processed query terms. */
  terms: string[];
}

/**
 * Above this many chunks, a query term found in more than COMMON_SHARE of them does not take part
 * in the BM25 search when the query has rarer terms: scoring it would visit a large part of the
 * index for a term with a low IDF. Instead the chunks the rarer terms found get its IDF added when
 * they contain it (as if it occurred once), which keeps "Alice pizza" ranking Alice's pizza
 * passage first when pizza is everywhere.
 */
const PRUNE_FROM_CHUNKS = 200;
const COMMON_SHARE = 0.02;

/**
 * The weight of a chunk's topic (its section path and the bold words that open its paragraphs,
 * "**Retries** are…") beside its text. The topic field is a few words long, so BM25 already
 * scores a match there well above one in a long text: a question naming a section finds it first.
 * More than 1 let generic words in headings ("Running it" for "npm test run") beat the section
 * whose text answers.
 */
const TOPIC_BOOST = 1;

/** BM25+ as MiniSearch scores it, whose ranking this index was built to keep. */
const K = 1.2;
const B = 0.7;
const D = 0.5;

/** The two fields, text and topic, each with its own lengths and postings. */
const TEXT = 0;
const TOPIC = 1;
const FIELD_BOOSTS = [1, TOPIC_BOOST];

/** The chunks holding one term in one field, in the order they were indexed. */
interface Postings {
  slots: number[];
  /** How often the term occurs in each of those chunks' field. */
  counts: number[];
  /** Each of those chunks' field length, here rather than per chunk: a search reads it in order. */
  lengths: number[];
  /** Entries of chunks still in the index (removed ones are skipped, then compacted away). */
  live: number;
}

interface Term {
  fields: [Postings | undefined, Postings | undefined];
  /** Chunks holding the term in either field. */
  df: number;
}

interface ChatbotIndex {
  chunks: Map<number, Entry>;
  terms: Map<string, Term>;
  /** Per slot: the chunk, or undefined once removed. */
  slots: Array<Entry | undefined>;
  /** Per field, per slot: distinct words in the field (stop words included). */
  lengths: [number[], number[]];
  /** Per field: the mean of `lengths`, kept up to date as chunks come and go. */
  averages: [number, number];
  /** Chunks read from the store and not indexed yet, while the index is being built. */
  pending: IndexedChunk[];
  built: Promise<void>;
}

/** Chunks indexed per turn of the event loop while an index is built in the background. */
const BUILD_BATCH = 200;

/**
 * Per-search scratch space shared by all indexes (searches run one at a time). Per slot, four
 * numbers side by side, so a posting touches one cache line: the stamp of the search that last
 * matched the chunk, its score so far, how many query terms it holds, and which (one bit per term
 * of the query). Stamps make clearing unnecessary. `marks` and `termScore` hold a term's partial
 * score while its text and topic postings are added up.
 */
const STRIDE = 4;
const scratch = {
  chunks: new Float64Array(0),
  termScore: new Float64Array(0),
  marks: new Uint32Array(0),
  stamp: 0,
};

function scratchFor(size: number) {
  // Stamps grow by one per search and per term; long before they wrap, start afresh.
  if (scratch.stamp > 0xffff0000) {
    scratch.chunks.fill(0);
    scratch.marks.fill(0);
    scratch.stamp = 0;
  }
  if (scratch.marks.length < size) {
    const length = Math.max(size, scratch.marks.length * 2, 1024);
    scratch.chunks = new Float64Array(length * STRIDE);
    scratch.termScore = new Float64Array(length);
    scratch.marks = new Uint32Array(length);
    scratch.stamp = 0;
  }
  return scratch;
}

interface Candidate {
  slot: number;
  /** BM25 of the searched terms. */
  base: number;
  /** With the common terms' IDF added. */
  score: number;
  /** Order of first match: MiniSearch's order, which breaks ties. */
  order: number;
}

/** Whether a chunk scored so ranks before candidate `b`. */
const beats = (score: number, base: number, order: number, b: Candidate) =>
  score !== b.score ? score > b.score : base !== b.base ? base > b.base : order < b.order;

/**
 * BM25 indexes, one per chatbot, built from SQLite (in the background after a start, or on first
 * use) and kept in step as sources are ingested and deleted. Building goes in small batches, so a
 * large knowledge base does not stall every other request for seconds. Chunk texts stay in memory
 * beside the index so a search never touches the database.
 *
 * Postings are plain arrays per term and scoring keeps only the best `limit` chunks: a search
 * costs a pass over the matching postings and no object per matching chunk. Scores are the ones
 * MiniSearch gave (BM25+ with its parameters, summed in its order, times the number of query terms
 * found), so rankings are the same; test/server/search.test.ts compares the two.
 */
export class SearchIndex {
  private readonly indexes = new Map<string, ChatbotIndex>();

  constructor(private readonly store: Store) {}

  private index(chatbotUuid: string): ChatbotIndex {
    let index = this.indexes.get(chatbotUuid);
    if (!index) {
      index = {
        chunks: new Map(),
        terms: new Map(),
        slots: [],
        lengths: [[], []],
        averages: [0, 0],
        pending: this.store.listChunks(chatbotUuid),
        built: Promise.resolve(),
      };
      index.built = this.build(index);
      this.indexes.set(chatbotUuid, index);
    }
    return index;
  }

  private async build(index: ChatbotIndex): Promise<void> {
    while (index.pending.length > 0) {
      this.add(index, index.pending.splice(0, BUILD_BATCH));
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /** Resolves when the chatbot's index holds every chunk; starts building it if needed. */
  ready(chatbotUuid: string): Promise<void> {
    return this.index(chatbotUuid).built;
  }

  /** Builds the indexes of these chatbots one after the other, in the background. */
  async warm(chatbotUuids: string[]): Promise<void> {
    for (const uuid of chatbotUuids) await this.ready(uuid);
  }

  private add(index: ChatbotIndex, chunks: IndexedChunk[]): void {
    for (const chunk of chunks) {
      const heading = chunk.heading ?? '';
      const leads = chunk.text.includes('**') ? boldLeads(chunk.text) : '';
      const topic = leads ? `${heading} ${leads}` : heading;
      const slot = index.slots.length;
      // A chunk indexed again (it cannot be, today) replaces itself rather than counting twice.
      if (index.chunks.has(chunk.id)) this.remove(index, [chunk.id]);
      const entry: Entry = {
        ...chunk,
        heading,
        fieldTerms: [[], []],
        slot,
        units: quotableUnits(chunk.text),
      };
      index.slots.push(entry);
      index.chunks.set(chunk.id, entry);
      const count = index.chunks.size - 1;
      this.addField(index, entry, TEXT, chunk.text, count);
      this.addField(index, entry, TOPIC, topic, count);
      for (const term of termsOf(entry)) index.terms.get(term)!.df++;
    }
  }

  private addField(index: ChatbotIndex, entry: Entry, field: 0 | 1, text: string, count: number) {
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

  private remove(index: ChatbotIndex, ids: number[]): void {
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

  /** Replaces the indexed chunks of one source. */
  setChunks(
    chatbotUuid: string,
    sourceUuid: string,
    chunks: IndexedChunk[],
    oldIds: number[],
  ): void {
    const index = this.indexes.get(chatbotUuid);
    if (!index) return; // built lazily from the store when first searched
    this.remove(index, oldIds);
    this.add(
      index,
      chunks.map((c) => ({ ...c, sourceUuid })),
    );
  }

  removeChunks(chatbotUuid: string, ids: number[]): void {
    const index = this.indexes.get(chatbotUuid);
    if (index) this.remove(index, ids);
  }

  dropChatbot(chatbotUuid: string): void {
    this.indexes.delete(chatbotUuid);
  }

  /** BM25+ of one term in one field of each chunk holding it, as MiniSearch computes it. */
  private score(
    index: ChatbotIndex,
    postings: Postings,
    field: 0 | 1,
    each: (slot: number, score: number) => void,
  ): void {
    const n = postings.live;
    const idf = Math.log(1 + (index.chunks.size - n + 0.5) / (n + 0.5));
    const boost = FIELD_BOOSTS[field]!;
    const average = index.averages[field];
    const { slots, counts, lengths } = postings;
    // Removed chunks' entries are skipped; a list without any needs no check.
    const removed = n < slots.length;
    for (let i = 0; i < slots.length; i++) {
      const slot = slots[i]!;
      if (removed && index.slots[slot] === undefined) continue;
      const tf = counts[i]!;
      const raw = idf * (D + (tf * (K + 1)) / (tf + K * (1 - B + (B * lengths[i]!) / average)));
      each(slot, boost * raw);
    }
  }

  /** The best chunks for a query, restricted to `sources` when given. */
  search(
    chatbotUuid: string,
    query: string,
    opts: { limit?: number; sources?: Set<string> } = {},
  ): SearchResult {
    const index = this.index(chatbotUuid);
    // Callers should await `ready`; one that did not still gets a complete answer.
    if (index.pending.length > 0) this.add(index, index.pending.splice(0));
    const { sources, limit = 5 } = opts;
    const all = [...terms(query)];
    const total = index.chunks.size;
    // Each term looked up once: the term map is large, and mostly not in cache.
    const known = new Map(all.map((t) => [t, index.terms.get(t)]));
    const df = (t: string) => known.get(t)?.df ?? 0;
    let used = all;
    let common: string[] = [];
    if (total >= PRUNE_FROM_CHUNKS && all.length > 1) {
      const rare = all.filter((t) => df(t) / total <= COMMON_SHARE);
      used = rare.length > 0 ? rare : [all.reduce((a, b) => (df(a) <= df(b) ? a : b))];
      common = all.filter((t) => !used.includes(t));
    }
    if (used.length === 0 || limit <= 0) return { hits: [], terms: all };

    const s = scratchFor(index.slots.length);
    const acc = s.chunks;
    const searchStamp = ++s.stamp;
    // Which query terms each matched chunk holds, one bit per term of `all`: looking them up in
    // each candidate's own terms (somewhere else in memory, mostly not in cache) cost more than
    // all the scoring. Terms past the 32nd (long questions) are looked up after all.
    const bit = (term: string) => {
      const i = all.indexOf(term);
      return i < 32 ? 1 << i : 0;
    };
    const has = (slot: number, i: number) =>
      i < 32
        ? (acc[slot * STRIDE + 3]! & (1 << i)) !== 0
        : index.slots[slot]!.fieldTerms.some((terms) => terms.includes(all[i]!));
    // Chunks in the order they first matched, as MiniSearch's result map held them.
    const matched: number[] = [];
    /** Adds a term's score in a chunk to the chunk's. */
    const add = (slot: number, score: number, termBit: number) => {
      const at = slot * STRIDE;
      if (acc[at] === searchStamp) {
        acc[at + 1] = acc[at + 1]! + score;
        acc[at + 2] = acc[at + 2]! + 1;
        acc[at + 3] = acc[at + 3]! | termBit;
      } else {
        acc[at] = searchStamp;
        acc[at + 1] = score;
        acc[at + 2] = 1;
        acc[at + 3] = termBit;
        matched.push(slot);
      }
    };
    for (const term of used) {
      const fields = known.get(term)?.fields;
      if (!fields) continue;
      const termBit = bit(term);
      const [text, topic] = fields;
      // A term's score in a chunk is its text part plus its topic part, added to the chunk's
      // score in one step: the same order of additions as MiniSearch, so the same sums. Most
      // terms are in no topic, and their text part goes straight to the chunk.
      if (!topic || topic.live === 0) {
        if (text && text.live > 0) {
          this.score(index, text, TEXT, (slot, score) => add(slot, score, termBit));
        }
        continue;
      }
      const termStamp = ++s.stamp;
      const touched: number[] = [];
      const partial = (slot: number, score: number) => {
        if (s.marks[slot] === termStamp) s.termScore[slot] = s.termScore[slot]! + score;
        else {
          s.marks[slot] = termStamp;
          s.termScore[slot] = score;
          touched.push(slot);
        }
      };
      if (text && text.live > 0) this.score(index, text, TEXT, partial);
      this.score(index, topic, TOPIC, partial);
      for (const slot of touched) add(slot, s.termScore[slot]!, termBit);
    }
    // Common terms are not scored, only noted where they occur among the matched chunks.
    for (const term of common) {
      const termBit = bit(term);
      if (termBit === 0) continue;
      for (const postings of known.get(term)!.fields) {
        if (!postings) continue;
        for (const slot of postings.slots) {
          const at = slot * STRIDE;
          if (acc[at] === searchStamp) acc[at + 3] = acc[at + 3]! | termBit;
        }
      }
    }

    const idf = (t: string) => Math.log(1 + (total - df(t) + 0.5) / (df(t) + 0.5));
    const commonIdf = common.map(idf);
    const commonAt = common.map((t) => all.indexOf(t));
    // The best `limit` so far, best first; most chunks fall short of the last and are dropped.
    const best: Candidate[] = [];
    for (let order = 0; order < matched.length; order++) {
      const slot = matched[order]!;
      if (sources && !sources.has(index.slots[slot]!.sourceUuid)) continue;
      const base = acc[slot * STRIDE + 1]! * acc[slot * STRIDE + 2]!;
      let score = base;
      for (let i = 0; i < common.length; i++) {
        if (has(slot, commonAt[i]!)) score += commonIdf[i]!;
      }
      // Most chunks fall short of the last kept one: no object for them.
      if (best.length === limit && !beats(score, base, order, best[limit - 1]!)) continue;
      let at = best.length === limit ? limit - 1 : best.length;
      while (at > 0 && beats(score, base, order, best[at - 1]!)) {
        best[at] = best[at - 1]!;
        at--;
      }
      best[at] = { slot, base, score, order };
    }
    const hits = best.map(({ slot, score }): Hit => {
      const entry = index.slots[slot]!;
      return {
        chunkId: entry.id,
        sourceUuid: entry.sourceUuid,
        text: entry.text,
        heading: entry.heading,
        score,
        matched: all.filter((_, i) => has(slot, i)),
        units: entry.units,
      };
    });
    return { hits, terms: all };
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
