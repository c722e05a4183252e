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
 * A re-read of another instance's changed sources that failed (the database briefly out of
 * reach) is tried again after this long, twice as long each time after, up to RETRY_MAX_MS.
 */
const RETRY_FIRST_MS = 1000;
const RETRY_MAX_MS = 30_000;

/**
 * What happened to an index's chatbot while its chunks were being read: the read may have been
 * answered before or after each change, so they are applied again to what it returned.
 */
interface Changes {
  removed: Set<number>;
  added: IndexedChunk[];
}

/**
 * BM25 indexes, one per chatbot, built from the store (in the background after a start, or on
 * first use) and kept in step as sources are ingested and deleted. Building goes in small
 * batches, so a large knowledge base does not stall every other request for seconds. Chunk texts
 * stay in memory beside the index so a search never touches the database. The index itself is
 * postings.ts; how a query ranks chunks, ranking.ts.
 */
export class SearchIndex {
  private readonly indexes = new Map<string, ChatbotIndex>();
  /** Indexes whose chunks are still being read from the store. */
  private readonly loading = new Map<ChatbotIndex, Changes>();
  /** Per index: how many changes this process made to it, so a re-read knows it was overtaken. */
  private readonly edits = new WeakMap<ChatbotIndex, number>();
  /** Per chatbot: the re-reads of other instances' changes, one after the other. */
  private readonly refreshing = new Map<string, Promise<void>>();
  /** Per chatbot: an index being built from the store to take over from the one answering. */
  private readonly replacements = new Map<string, ChatbotIndex>();
  /** Re-reads waiting to be tried again (`refresh`), cleared by `close`. */
  private readonly retries = new Set<NodeJS.Timeout>();

  constructor(private readonly store: Store) {}

  private index(chatbotUuid: string): ChatbotIndex {
    let index = this.indexes.get(chatbotUuid);
    if (!index) {
      const created = createIndex([]);
      const changes: Changes = { removed: new Set(), added: [] };
      this.loading.set(created, changes);
      created.built = this.load(chatbotUuid, created, changes);
      this.indexes.set(chatbotUuid, created);
      index = created;
    }
    return index;
  }

  private async load(chatbotUuid: string, index: ChatbotIndex, changes: Changes): Promise<void> {
    let chunks: IndexedChunk[];
    try {
      chunks = await this.store.listChunks(chatbotUuid);
    } catch (error) {
      // Read again on next use rather than answer from an empty index for good.
      if (this.indexes.get(chatbotUuid) === index) this.indexes.delete(chatbotUuid);
      throw error;
    } finally {
      // From here on, changes go to the index and its pending list directly.
      this.loading.delete(index);
    }
    const added = new Set(changes.added.map((c) => c.id));
    index.pending = [
      ...chunks.filter((c) => !changes.removed.has(c.id) && !added.has(c.id)),
      ...changes.added,
    ];
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

  /** The chatbot's indexes this process's changes go to: the one answering, and its replacement. */
  private targets(chatbotUuid: string): ChatbotIndex[] {
    const targets: ChatbotIndex[] = [];
    for (const index of [this.indexes.get(chatbotUuid), this.replacements.get(chatbotUuid)]) {
      if (index) targets.push(index);
    }
    return targets;
  }

  /** Replaces the indexed chunks of one source. */
  setChunks(
    chatbotUuid: string,
    sourceUuid: string,
    chunks: IndexedChunk[],
    oldIds: number[],
  ): void {
    // Without an index, nothing: it is built from the store when first searched.
    const fresh = chunks.map((c) => ({ ...c, sourceUuid }));
    for (const index of this.targets(chatbotUuid)) this.change(index, oldIds, fresh);
  }

  removeChunks(chatbotUuid: string, ids: number[]): void {
    for (const index of this.targets(chatbotUuid)) this.change(index, ids, []);
  }

  /**
   * This process's change to one index: taken in at once, or, while its chunks are still being
   * read, noted to apply to what the read returns.
   */
  private change(index: ChatbotIndex, removed: number[], added: IndexedChunk[]): void {
    this.edits.set(index, (this.edits.get(index) ?? 0) + 1);
    const changes = this.loading.get(index);
    if (changes) {
      for (const id of removed) changes.removed.add(id);
      const gone = new Set(removed);
      changes.added = [...changes.added.filter((c) => !gone.has(c.id)), ...added];
      return;
    }
    unindexChunks(index, removed);
    indexChunks(index, added);
  }

  /**
   * Reads the chatbot's chunks again into a new index while the one it has keeps answering, and
   * swaps them once the new one is built (a few hundred thousand chunks take seconds, when every
   * question would otherwise wait). A rebuild under way is begun again: it may have read before
   * the change that asks for this one.
   */
  rebuild(chatbotUuid: string): Promise<void> {
    if (!this.indexes.has(chatbotUuid)) return Promise.resolve(); // built from the store when used
    const next = createIndex([]);
    const changes: Changes = { removed: new Set(), added: [] };
    this.loading.set(next, changes);
    this.replacements.set(chatbotUuid, next);
    next.built = this.load(chatbotUuid, next, changes).then(
      () => {
        if (this.replacements.get(chatbotUuid) !== next) return; // begun again since
        this.replacements.delete(chatbotUuid);
        // Dropped meanwhile (the chatbot deleted here): nothing to take over.
        if (this.indexes.has(chatbotUuid)) this.indexes.set(chatbotUuid, next);
      },
      () => {
        // Unreadable now: the index that answers stays, until the next change or restart.
        if (this.replacements.get(chatbotUuid) === next) this.replacements.delete(chatbotUuid);
      },
    );
    return next.built;
  }

  /** Rebuilds every index, one chatbot after another (see `rebuild`), in the background. */
  async rebuildAll(): Promise<void> {
    for (const uuid of [...this.indexes.keys()]) await this.rebuild(uuid);
  }

  /**
   * Another instance replaced or deleted these sources' chunks: reads theirs again and puts them
   * in place of what the index holds. Reading the whole chatbot again instead takes seconds at a
   * few hundred thousand chunks, answering from nothing or from stale chunks meanwhile.
   */
  refreshSources(chatbotUuid: string, sourceUuids: string[]): Promise<void> {
    return this.queueRefresh(chatbotUuid, sourceUuids, 0);
  }

  private queueRefresh(chatbotUuid: string, sourceUuids: string[], attempt: number): Promise<void> {
    if (!this.indexes.has(chatbotUuid)) return Promise.resolve(); // built from the store when used
    // A replacement may have read the sources before the change: it reads them again.
    if (this.replacements.has(chatbotUuid)) void this.rebuild(chatbotUuid);
    const next = (this.refreshing.get(chatbotUuid) ?? Promise.resolve()).then(() =>
      this.refresh(chatbotUuid, sourceUuids, attempt),
    );
    this.refreshing.set(chatbotUuid, next);
    const settled = () => {
      if (this.refreshing.get(chatbotUuid) === next) this.refreshing.delete(chatbotUuid);
    };
    next.then(settled, settled);
    return next;
  }

  private async refresh(
    chatbotUuid: string,
    sourceUuids: string[],
    attempt: number,
  ): Promise<void> {
    const index = this.indexes.get(chatbotUuid);
    if (!index) return;
    // A build under way may have read the sources before the change: take them in after it.
    await index.built.catch(() => {});
    let read: IndexedChunk[][];
    let seen: number;
    do {
      seen = this.edits.get(index) ?? 0;
      try {
        read = await Promise.all(sourceUuids.map((uuid) => this.store.listSourceChunks(uuid)));
      } catch {
        if (this.indexes.get(chatbotUuid) !== index) return; // dropped meanwhile: rebuilt when used
        // Unreadable now. What the index holds of these sources may be a deleted source's text:
        // out of the answers at once, while the rest of the chatbot keeps answering (dropping the
        // whole index made the next question wait for every chunk to be read again), and the
        // sources are read again shortly.
        this.change(index, chunkIdsOf(index, sourceUuids), []);
        const timer = setTimeout(
          () => {
            this.retries.delete(timer);
            this.queueRefresh(chatbotUuid, sourceUuids, attempt + 1).catch(() => {});
          },
          Math.min(RETRY_FIRST_MS * 2 ** attempt, RETRY_MAX_MS),
        );
        timer.unref();
        this.retries.add(timer);
        return;
      }
      if (this.indexes.get(chatbotUuid) !== index) return; // dropped meanwhile: rebuilt when used
      // This process changed the index while the read was out, perhaps after the read: again.
    } while ((this.edits.get(index) ?? 0) !== seen);
    unindexChunks(index, chunkIdsOf(index, sourceUuids));
    indexChunks(index, read.flat());
  }

  dropChatbot(chatbotUuid: string): void {
    this.replacements.delete(chatbotUuid);
    this.indexes.delete(chatbotUuid);
  }

  /** Stops the re-reads waiting to be tried again: the store is closing. */
  close(): void {
    for (const timer of this.retries) clearTimeout(timer);
    this.retries.clear();
  }

  /**
   * The best chunks for a query, restricted to `sources` when given. Waits for the chatbot's
   * index (reading its chunks first, if no index has them yet); then only memory is read.
   */
  async search(
    chatbotUuid: string,
    query: string,
    opts: { limit?: number; sources?: Set<string> } = {},
  ): Promise<SearchResult> {
    const index = this.index(chatbotUuid);
    await index.built;
    return rank(index, query, opts);
  }
}

/** The ids of the chunks an index holds of these sources. */
function chunkIdsOf(index: ChatbotIndex, sourceUuids: string[]): number[] {
  const wanted = new Set(sourceUuids);
  const ids: number[] = [];
  for (const entry of index.chunks.values()) if (wanted.has(entry.sourceUuid)) ids.push(entry.id);
  return ids;
}
