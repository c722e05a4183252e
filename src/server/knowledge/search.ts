import MiniSearch from 'minisearch';
import type { Store } from '../store/types.js';
import { processTerm, tokenize } from './text.js';

interface IndexedChunk {
  id: number;
  sourceUuid: string;
  text: string;
}

export interface Hit {
  chunkId: number;
  sourceUuid: string;
  text: string;
  score: number;
  /** Query terms (stemmed) found in the chunk. */
  matched: string[];
}

/**
 * BM25 indexes, one per chatbot, built from SQLite on first use and kept in step as sources
 * are ingested and deleted. Chunk texts stay in memory beside the index so a search never
 * touches the database.
 */
export class SearchIndex {
  private readonly indexes = new Map<string, MiniSearch<IndexedChunk>>();
  private readonly texts = new Map<string, Map<number, IndexedChunk>>();

  constructor(private readonly store: Store) {}

  private index(chatbotUuid: string): MiniSearch<IndexedChunk> {
    let index = this.indexes.get(chatbotUuid);
    if (!index) {
      index = new MiniSearch<IndexedChunk>({
        fields: ['text'],
        storeFields: [],
        tokenize,
        processTerm: (term) => processTerm(term) ?? false,
        searchOptions: { combineWith: 'OR' },
      });
      const chunks = new Map<number, IndexedChunk>();
      for (const chunk of this.store.listChunks(chatbotUuid)) chunks.set(chunk.id, chunk);
      index.addAll([...chunks.values()]);
      this.indexes.set(chatbotUuid, index);
      this.texts.set(chatbotUuid, chunks);
    }
    return index;
  }

  /** Replaces the indexed chunks of one source. */
  setChunks(
    chatbotUuid: string,
    sourceUuid: string,
    chunks: IndexedChunk[],
    oldIds: number[],
  ): void {
    if (!this.indexes.has(chatbotUuid)) return; // built lazily from the store when first searched
    const index = this.index(chatbotUuid);
    const texts = this.texts.get(chatbotUuid)!;
    for (const id of oldIds) {
      if (texts.delete(id)) index.discard(id);
    }
    for (const chunk of chunks) texts.set(chunk.id, { ...chunk, sourceUuid });
    index.addAll(chunks);
  }

  removeChunks(chatbotUuid: string, ids: number[]): void {
    const index = this.indexes.get(chatbotUuid);
    const texts = this.texts.get(chatbotUuid);
    if (!index || !texts) return;
    for (const id of ids) {
      if (texts.delete(id)) index.discard(id);
    }
  }

  dropChatbot(chatbotUuid: string): void {
    this.indexes.delete(chatbotUuid);
    this.texts.delete(chatbotUuid);
  }

  /** The best chunks for a query, restricted to `sources` when given. */
  search(
    chatbotUuid: string,
    query: string,
    opts: { limit?: number; sources?: Set<string> } = {},
  ): Hit[] {
    const index = this.index(chatbotUuid);
    const texts = this.texts.get(chatbotUuid)!;
    const { sources, limit = 5 } = opts;
    const results = index.search(query, {
      filter: sources
        ? (result) => sources.has(texts.get(result.id as number)?.sourceUuid ?? '')
        : undefined,
    });
    return results.slice(0, limit).map((result) => {
      const chunk = texts.get(result.id as number)!;
      return {
        chunkId: chunk.id,
        sourceUuid: chunk.sourceUuid,
        text: chunk.text,
        score: result.score,
        matched: result.terms,
      };
    });
  }
}
