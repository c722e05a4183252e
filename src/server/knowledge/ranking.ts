import {
  type ChatbotIndex,
  type Entry,
  type Postings,
  sectionKey,
  TEXT,
  TOPIC,
} from './postings.js';
import type { Unit } from './quotable.js';
import { synonymsOf } from './synonyms.js';
import { queryTerms } from './text.js';

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
  /** The heading's terms: split and stemmed once, when it was indexed. */
  headingTerms: readonly string[];
}

export interface SearchResult {
  hits: Hit[];
  /** The processed query terms. */
  terms: string[];
  /**
   * How many chunks hold each of `terms`; for a word the index does not know, the most that hold
   * one of its synonyms (0: said no way the index knows).
   */
  df: number[];
  /** Per term of `terms`, the synonyms of it the index holds, which hits may hold instead. */
  alternatives?: ReadonlyMap<string, readonly string[]>;
  /** How many chunks the index holds. */
  total: number;
  /** The sources with a chunk that holds a processed term (read from the index when asked). */
  holders?: (term: string) => ReadonlySet<string>;
  /**
   * The chunks of the sections whose innermost heading is `name` (as `sectionKey` compares
   * them), in the order they were indexed, within the sources searched (read when asked).
   */
  section?: (name: string) => Hit[];
}

/**
 * Above this many chunks, a query term found in more than COMMON_SHARE of them does not take part
 * in the BM25 search when the query has rarer terms: scoring it would visit a large part of the
 * index for a term with a low IDF. Instead the chunks the rarer terms found get its IDF added when
 * they contain it (as if it occurred once), which keeps "Alice pizza" ranking Alice's pizza
 * passage first when pizza is everywhere. Only terms the index holds count as rarer: a word no
 * chunk contains finds nothing, and choosing it alone emptied the search ("backend" in "Which
 * backend does it use?"). When the rarer terms find fewer chunks than asked for, every known term
 * is searched after all. The share is a tenth: at 2 %, words as specific as "visitor" in a
 * product's README were left out of the search.
 */
const PRUNE_FROM_CHUNKS = 200;
const COMMON_SHARE = 0.1;

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

/** Per field, TEXT then TOPIC. */
const FIELD_BOOSTS = [1, TOPIC_BOOST];

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

/** BM25+ of one term in one field of each chunk holding it, as MiniSearch computes it. */
function score(
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

/**
 * The best chunks for a query, restricted to `sources` when given. Postings are plain arrays per
 * term and scoring keeps only the best `limit` chunks: a search costs a pass over the matching
 * postings and no object per matching chunk. Scores are the ones MiniSearch gave (BM25+ with its
 * parameters, summed in its order, times the number of query terms found), so rankings are the
 * same for the same terms; test/server/search.test.ts compares the two. A term's synonyms the
 * index holds (synonyms.ts) are searched as terms of the query too, which MiniSearch did not do.
 */
export function rank(
  index: ChatbotIndex,
  query: string,
  opts: { limit?: number; sources?: Set<string> },
): SearchResult {
  const { sources, limit = 5 } = opts;
  const asked = [...queryTerms(query)];
  const total = index.chunks.size;
  // Per term asked, the synonyms the index holds (synonyms.ts), searched beside it and counted
  // as it. A synonym that is itself a term of the question stays that term.
  const alternatives = new Map<string, string[]>();
  for (const term of asked) {
    const others = synonymsOf(term).filter((t) => !asked.includes(t) && index.terms.has(t));
    if (others.length > 0) alternatives.set(term, others);
  }
  const extra = [...new Set([...alternatives.values()].flat())];
  const all = [...asked, ...extra];
  // Each term looked up once: the term map is large, and mostly not in cache.
  const known = new Map(all.map((t) => [t, index.terms.get(t)]));
  const df = (t: string) => known.get(t)?.df ?? 0;
  /**
   * How many chunks hold a term asked, as its weight counts it: a word the sources use weighs as
   * they use it; one they never use weighs as the most used of the synonyms they say it with.
   */
  const conceptDf = (t: string) =>
    df(t) > 0 ? df(t) : Math.max(0, ...(alternatives.get(t) ?? []).map(df));
  const holders = (term: string) => {
    const out = new Set<string>();
    const fields = [term, ...(alternatives.get(term) ?? [])].flatMap(
      (t) => known.get(t)?.fields ?? [],
    );
    for (const postings of fields) {
      for (const slot of postings?.slots ?? []) {
        const entry = index.slots[slot];
        if (entry) out.add(entry.sourceUuid);
      }
    }
    return out;
  };
  const section = (name: string): Hit[] => {
    const slots = [...(index.sections.get(sectionKey(name)) ?? [])].sort((a, b) => a - b);
    return slots.flatMap((slot): Hit[] => {
      const entry = index.slots[slot];
      if (!entry || (sources && !sources.has(entry.sourceUuid))) return [];
      const [text, topic] = entry.fieldTerms;
      return [
        hitOf(
          entry,
          0,
          asked.filter((t) => text.includes(t) || topic.includes(t)),
        ),
      ];
    });
  };
  const result = (hits: Hit[]): SearchResult => ({
    hits,
    terms: asked,
    df: asked.map(conceptDf),
    total,
    holders,
    section,
    alternatives,
  });
  const held = all.filter((t) => df(t) > 0);
  if (held.length === 0 || limit <= 0) return result([]);
  let used = held;
  let common: string[] = [];
  if (total >= PRUNE_FROM_CHUNKS && held.length > 1) {
    const rare = held.filter((t) => df(t) / total <= COMMON_SHARE);
    used = rare.length > 0 ? rare : [held.reduce((a, b) => (df(a) <= df(b) ? a : b))];
    common = held.filter((t) => !used.includes(t));
  }

  const s = scratchFor(index.slots.length);
  const acc = s.chunks;
  let searchStamp = 0;
  // Which query terms each matched chunk holds, one bit per term of `all`: looking them up in
  // each candidate's own terms (somewhere else in memory, mostly not in cache) cost more than
  // all the scoring. Terms past the 32nd (long questions) are looked up after all.
  const bit = (term: string) => {
    const i = all.indexOf(term);
    return i < 32 ? 1 << i : 0;
  };
  const holds = (slot: number, i: number) =>
    i < 32
      ? (acc[slot * STRIDE + 3]! & (1 << i)) !== 0
      : index.slots[slot]!.fieldTerms.some((terms) => terms.includes(all[i]!));
  // A term asked is found in a chunk holding it or one of its synonyms.
  const groups = asked.map((t) => [t, ...(alternatives.get(t) ?? [])].map((a) => all.indexOf(a)));
  const has = (slot: number, i: number) => groups[i]!.some((j) => holds(slot, j));
  // Chunks in the order they first matched, as MiniSearch's result map held them.
  let matched: number[] = [];
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
  /** Scores the `used` terms in every chunk holding them. */
  const search = () => {
    searchStamp = ++s.stamp;
    matched = [];
    for (const term of used) {
      const fields = known.get(term)!.fields;
      const termBit = bit(term);
      const [text, topic] = fields;
      // A term's score in a chunk is its text part plus its topic part, added to the chunk's
      // score in one step: the same order of additions as MiniSearch, so the same sums. Most
      // terms are in no topic, and their text part goes straight to the chunk.
      if (!topic || topic.live === 0) {
        if (text && text.live > 0) {
          score(index, text, TEXT, (slot, score) => add(slot, score, termBit));
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
      if (text && text.live > 0) score(index, text, TEXT, partial);
      score(index, topic, TOPIC, partial);
      for (const slot of touched) add(slot, s.termScore[slot]!, termBit);
    }
  };
  search();
  const candidates = sources
    ? matched.filter((slot) => sources.has(index.slots[slot]!.sourceUuid)).length
    : matched.length;
  if (common.length > 0 && candidates < limit) {
    used = held;
    common = [];
    search();
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
      if (holds(slot, commonAt[i]!)) score += commonIdf[i]!;
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
  const hits = best.map(({ slot, score }) =>
    hitOf(
      index.slots[slot]!,
      score,
      asked.filter((_, i) => has(slot, i)),
    ),
  );
  return result(hits);
}

/** An indexed chunk as a search returns it. */
function hitOf(entry: Entry, score: number, matched: string[]): Hit {
  return {
    chunkId: entry.id,
    sourceUuid: entry.sourceUuid,
    text: entry.text,
    heading: entry.heading,
    score,
    matched,
    units: entry.units,
    headingTerms: entry.headingTerms,
  };
}
