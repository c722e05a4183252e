import type { Store } from '../store/types.js';
import {
  type ChatbotIndex,
  createIndex,
  type IndexedChunk,
  indexChunks,
  unindexChunks,
} from './postings.js';
import { rank, type SearchResult } from './ranking.js';

export type { Hit, SearchResult } from './ranking.js';

/** Chunks indexed per turn of the event loop while an index is built in the background. */
const BUILD_BATCH = 200;

/**
 * BM25 indexes, one per chatbot, built from SQLite (in the background after a start, or on first
 * use) and kept in step as sources are ingested and deleted. Building goes in small batches, so a
 * large knowledge base does not stall every other request for seconds. Chunk texts stay in memory
 * beside the index so a search never touches the database. The index itself is postings.ts; how
 * a query ranks chunks, ranking.ts.
 */
export class SearchIndex {
  private readonly indexes = new Map<string, ChatbotIndex>();

  constructor(private readonly store: Store) {}

  private index(chatbotUuid: string): ChatbotIndex {
    let index = this.indexes.get(chatbotUuid);
    if (!index) {
      index = createIndex(this.store.listChunks(chatbotUuid));
      index.built = this.build(index);
      this.indexes.set(chatbotUuid, index);
    }
    return index;
  }

  private async build(index: ChatbotIndex): Promise<void> {
    while (index.pending.length > 0) {
      indexChunks(index, index.pending.splice(0, BUILD_BATCH));
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

  /** Replaces the indexed chunks of one source. */
  setChunks(
    chatbotUuid: string,
    sourceUuid: string,
    chunks: IndexedChunk[],
    oldIds: number[],
  ): void {
    const index = this.indexes.get(chatbotUuid);
    if (!index) return; // built lazily from the store when first searched
    unindexChunks(index, oldIds);
    indexChunks(
      index,
      chunks.map((c) => ({ ...c, sourceUuid })),
    );
  }

  removeChunks(chatbotUuid: string, ids: number[]): void {
    const index = this.indexes.get(chatbotUuid);
    if (index) unindexChunks(index, ids);
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
    if (index.pending.length > 0) indexChunks(index, index.pending.splice(0));
    return rank(index, query, opts);
  }
}
