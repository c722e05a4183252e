import MiniSearch from 'minisearch';
import type { Store } from '../store/types.js';
import { boldLeads, processTerm, terms, tokenize } from './text.js';

interface IndexedChunk {
  id: number;
  sourceUuid: string;
  text: string;
  /** Section path ("The API module › Errors"); empty for plain text. */
  heading?: string;
  /** What the `topic` field indexes: the section path and bold paragraph leads. */
  topic?: string;
  /** Distinct processed terms: for document frequencies, and to score common terms cheaply. */
  terms?: Set<string>;
}

export interface Hit {
  chunkId: number;
  sourceUuid: string;
  text: string;
  heading: string;
  score: number;
  /** Query terms (processed) found in the chunk. */
  matched: string[];
}

export interface SearchResult {
  hits: Hit[];
  /** The processed query terms. */
  terms: string[];
}

/**
 * Above this many chunks, a query term found in more than COMMON_SHARE of them does not take part
 * in the BM25 search when the query has rarer terms: scoring it would visit a large part of the
 * index (tens of milliseconds at 10,000 chunks) for a term with a low IDF. Instead the chunks the
 * rarer terms found get its IDF added when they contain it (as if it occurred once), which keeps
 * "Alice pizza" ranking Alice's pizza passage first when pizza is everywhere.
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

interface ChatbotIndex {
  search: MiniSearch<IndexedChunk>;
  chunks: Map<number, IndexedChunk>;
  /** Document frequency of each processed term. */
  df: Map<string, number>;
  /** Chunks read from the store and not indexed yet, while the index is being built. */
  pending: IndexedChunk[];
  built: Promise<void>;
}

/** Chunks indexed per turn of the event loop while an index is built in the background. */
const BUILD_BATCH = 200;

/**
 * BM25 indexes, one per chatbot, built from SQLite (in the background after a start, or on first
 * use) and kept in step as sources are ingested and deleted. Building goes in small batches, so a
 * large knowledge base does not stall every other request for seconds. Chunk texts stay in memory
 * beside the index so a search never touches the database.
 */
export class SearchIndex {
  private readonly indexes = new Map<string, ChatbotIndex>();

  constructor(private readonly store: Store) {}

  private index(chatbotUuid: string): ChatbotIndex {
    let index = this.indexes.get(chatbotUuid);
    if (!index) {
      index = {
        search: new MiniSearch<IndexedChunk>({
          fields: ['text', 'topic'],
          storeFields: [],
          tokenize,
          processTerm: (term) => processTerm(term) ?? false,
          // Queries arrive already processed (see `search`).
          searchOptions: {
            tokenize: (text) => [text],
            processTerm: (term) => term,
            boost: { topic: TOPIC_BOOST },
          },
        }),
        chunks: new Map(),
        df: new Map(),
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
    const added = chunks.map((chunk) => {
      const heading = chunk.heading ?? '';
      const leads = chunk.text.includes('**') ? boldLeads(chunk.text) : '';
      const topic = leads ? `${heading} ${leads}` : heading;
      const distinct = terms(chunk.text);
      if (topic) for (const term of terms(topic)) distinct.add(term);
      const entry: IndexedChunk = { ...chunk, heading, topic, terms: distinct };
      index.chunks.set(chunk.id, entry);
      for (const term of distinct) index.df.set(term, (index.df.get(term) ?? 0) + 1);
      return entry;
    });
    index.search.addAll(added);
  }

  private remove(index: ChatbotIndex, ids: number[]): void {
    if (index.pending.length > 0) {
      const gone = new Set(ids);
      index.pending = index.pending.filter((c) => !gone.has(c.id));
    }
    for (const id of ids) {
      const chunk = index.chunks.get(id);
      if (!chunk) continue;
      index.chunks.delete(id);
      index.search.discard(id);
      for (const term of chunk.terms ?? []) {
        const n = (index.df.get(term) ?? 1) - 1;
        if (n > 0) index.df.set(term, n);
        else index.df.delete(term);
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
    const df = (t: string) => index.df.get(t) ?? 0;
    let used = all;
    let common: string[] = [];
    if (total >= PRUNE_FROM_CHUNKS && all.length > 1) {
      const rare = all.filter((t) => df(t) / total <= COMMON_SHARE);
      used = rare.length > 0 ? rare : [all.reduce((a, b) => (df(a) <= df(b) ? a : b))];
      common = all.filter((t) => !used.includes(t));
    }
    if (used.length === 0) return { hits: [], terms: all };
    const results = index.search.search(
      { combineWith: 'OR', queries: used },
      sources
        ? { filter: (r) => sources.has(index.chunks.get(r.id as number)?.sourceUuid ?? '') }
        : {},
    );
    const idf = (t: string) => Math.log(1 + (total - df(t) + 0.5) / (df(t) + 0.5));
    const commonIdf = common.map(idf);
    const scored =
      common.length === 0
        ? results.slice(0, limit).map((result) => ({ result, score: result.score }))
        : results
            .map((result) => {
              const chunkTerms = index.chunks.get(result.id as number)?.terms;
              let score = result.score;
              common.forEach((t, i) => {
                if (chunkTerms?.has(t)) score += commonIdf[i]!;
              });
              return { result, score };
            })
            .sort((a, b) => b.score - a.score)
            .slice(0, limit);
    const hits = scored.map(({ result, score }): Hit => {
      const chunk = index.chunks.get(result.id as number)!;
      return {
        chunkId: chunk.id,
        sourceUuid: chunk.sourceUuid,
        text: chunk.text,
        heading: chunk.heading ?? '',
        score,
        matched: [...result.terms, ...common.filter((t) => chunk.terms?.has(t))],
      };
    });
    return { hits, terms: all };
  }
}
