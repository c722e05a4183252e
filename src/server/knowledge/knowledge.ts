import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { IN_PROGRESS_STATUSES } from '../../api/types.js';
import { now } from '../http.js';
import type { SourceRow, Store } from '../store/types.js';
import { storeUnavailable } from '../store/unavailable.js';
import type { AnswerDeps } from './answer.js';
import { chunksOf, cleanText } from './chunking.js';
import { type FetchLimits, fetchSite } from './fetch-url.js';
import type { ExtractLimits } from './isolated.js';
import type { LlmOptions } from './llm.js';
import { extractFile, fileKind } from './parse.js';
import { SearchIndex } from './search.js';
import { countTokens, titleFrom } from './text.js';

export interface KnowledgeOptions {
  allowPrivateUrls: boolean;
  llm?: LlmOptions;
  fetchLimits?: Partial<FetchLimits>;
  /** How long and in how much memory a PDF or .docx may be read. */
  extractLimits?: Partial<ExtractLimits>;
  streamDelayMs?: number;
  /**
   * How long a claimed ingestion job stays this process's without a renewal: another instance
   * takes over a job whose holder died once its lease ran out. Default 30 s.
   */
  leaseMs?: number;
}

export const DEFAULT_LEASE_MS = 30_000;

/** Progress statuses of a source no worker has started on yet. */
const NOT_STARTED = ['await', 'queued'];

/**
 * Ingestion in the background, one source at a time, from the store's queue, which every
 * instance on the same database shares; and the search index the answers read. Status moves
 * `await` → (`downloading` for links) → `chunking` → `embedding` → `success`, or `fail` with the
 * reason in `meta_json.error`.
 */
export class Knowledge {
  readonly index: SearchIndex;
  readonly answerDeps: AnswerDeps;
  /** This process's name in the queue: the holder of the jobs it claims. */
  private readonly worker = `${hostname()}/${process.pid}/${randomBytes(4).toString('hex')}`;
  private readonly leaseMs: number;
  private running: Promise<void> | null = null;
  /** Work may have been queued since the running loop last looked: it looks once more. */
  private wanted = false;
  private readonly controller = new AbortController();
  private closed = false;
  private idleWaiters: Array<() => void> = [];
  private readonly poller: NodeJS.Timeout;
  /** The store did not answer the last claim: said once, until it answers again. */
  private waiting = false;
  private readonly stopListening: () => void;

  constructor(
    private readonly store: Store,
    private readonly options: KnowledgeOptions,
  ) {
    this.index = new SearchIndex(store);
    this.answerDeps = {
      store,
      index: this.index,
      llm: options.llm,
      streamDelayMs: options.streamDelayMs ?? 10,
    };
    this.leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
    // Another instance's work: its chunks make this index stale, its jobs may be ours to do.
    this.stopListening = store.onChange((change) => {
      // The index answering meanwhile is the one it had: the changes are read in the background.
      if (change.kind === 'chunks' && change.sourceUuids) {
        this.index.refreshSources(change.chatbotUuid, change.sourceUuids).catch(() => {});
      } else if (change.kind === 'chunks') void this.index.rebuild(change.chatbotUuid);
      if (change.kind === 'reset') void this.index.rebuildAll();
      if (change.kind === 'jobs' || change.kind === 'reset') this.poll();
    });
    // A job whose holder died is nobody's news: look for expired leases now and then.
    this.poller = setInterval(() => this.poll(), this.leaseMs / 2);
    this.poller.unref();
  }

  /**
   * Queues whatever a previous run left half done, so nothing stays in a progress status. A store
   * only this process uses holds no live claims at start: the ones there are a dead run's.
   */
  async recover(): Promise<void> {
    const { shared } = this.store;
    if (!shared) await this.store.releaseJobs();
    // On a shared store, a source a worker has started on keeps its job until it is done (another
    // instance takes over one whose holder died): queueing it again would process it twice. Only
    // a source queued but never claimed may lack its job (its instance died in between).
    const statuses = shared ? NOT_STARTED : IN_PROGRESS_STATUSES;
    for (const source of await this.store.listSourcesWithStatus(statuses)) {
      if (!shared) await this.store.updateSource(source.uuid, { status: 'await' }, now());
      await this.store.enqueueJob(source.uuid, Date.now());
    }
    this.poll();
  }

  /** Builds the search indexes of stored chatbots in the background, so first answers are quick. */
  warm(): void {
    this.store.chatbotsWithChunks().then(
      (chatbots) => {
        if (!this.closed) this.index.warm(chatbots).catch(() => {});
      },
      () => {},
    );
  }

  /** Queues a source (again, if it is being processed) and starts on it if this process is free. */
  async enqueue(sourceUuid: string): Promise<void> {
    if (this.closed) return;
    await this.store.enqueueJob(sourceUuid, Date.now());
    this.poll();
  }

  /** Resolves once this process has no ingestion left to do (tests and the benchmark use it). */
  idle(): Promise<void> {
    if (!this.running) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Drops deleted sources' chunks from the index (the store has deleted the rows). */
  forgetChunks(chatbotUuid: string, chunkIds: number[]): void {
    this.index.removeChunks(chatbotUuid, chunkIds);
  }

  forgetChatbot(chatbotUuid: string): void {
    this.index.dropChatbot(chatbotUuid);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.poller);
    this.stopListening();
    this.index.close();
    this.controller.abort();
    await this.running?.catch(() => {});
  }

  /** Runs the claiming loop, or has the running one look once more before it stops. */
  private poll(): void {
    if (this.closed) return;
    this.wanted = true;
    this.running ??= this.drain().finally(() => {
      this.running = null;
      // Work queued while the loop was finishing would otherwise wait for the poller.
      if (this.wanted && !this.closed) this.poll();
      else for (const resolve of this.idleWaiters.splice(0)) resolve();
    });
  }

  private async drain(): Promise<void> {
    // Start on a later turn, so the request that queued the source answers with `await` first.
    await new Promise((resolve) => setImmediate(resolve));
    while (this.wanted && !this.closed) {
      this.wanted = false;
      for (;;) {
        let uuid: string | null;
        try {
          uuid = await this.store.claimJob(this.worker, this.leaseMs, Date.now());
        } catch (error) {
          // The poller tries again. An outage is said once, in one line, not with a stack at
          // every poll (twice a lease) until the database is back.
          if (this.closed) return;
          if (!storeUnavailable(error)) console.error('claiming an ingestion job failed:', error);
          else if (!this.waiting) {
            this.waiting = true;
            console.error(
              `ingestion waits: the ${this.store.kind} store does not answer (${(error as Error).message})`,
            );
          }
          return;
        }
        if (this.waiting) {
          this.waiting = false;
          console.log(`ingestion resumes: the ${this.store.kind} store answers again`);
        }
        if (uuid === null || this.closed) break;
        await this.run(uuid);
        // Let requests in between sources: a large upload must not starve the chat.
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
  }

  /** Processes one claimed source, keeping its lease alive meanwhile. */
  private async run(uuid: string): Promise<void> {
    const renew = setInterval(() => {
      this.store.renewJob(uuid, this.worker, this.leaseMs, Date.now()).catch(() => {});
    }, this.leaseMs / 3);
    renew.unref();
    try {
      await this.process(uuid);
    } catch (error) {
      // Only the store itself failing lands here; the next source may still succeed.
      if (!this.closed) console.error(`ingesting data source ${uuid} failed:`, error);
    } finally {
      clearInterval(renew);
    }
    try {
      // Stopped halfway by a shutdown: the job is left to whoever runs next, at once.
      if (this.closed) await this.store.renewJob(uuid, this.worker, 0, Date.now());
      else await this.store.finishJob(uuid, this.worker);
    } catch (error) {
      if (!this.closed) console.error(`finishing the ingestion of ${uuid} failed:`, error);
    }
  }

  private async process(uuid: string): Promise<void> {
    const source = await this.store.getSource(uuid);
    if (!source) return;
    const set = async (patch: Partial<SourceRow>) => {
      if (await this.store.getSource(uuid)) await this.store.updateSource(uuid, patch, now());
    };
    try {
      const { text, title, meta, markdown } = await this.extract(source, set);
      if (this.closed || !(await this.store.getSource(uuid))) return;
      await set({ status: 'chunking' });
      const clean = cleanText(text, markdown === true);
      const chunks = chunksOf(clean, markdown === true);
      if (chunks.length === 0) throw new Error('no text could be extracted from this source');
      await set({ status: 'embedding' });
      const oldIds = await this.store.chunkIds(uuid);
      const rows = await this.store.replaceChunks(uuid, chunks);
      this.index.setChunks(source.chatbotUuid, uuid, rows, oldIds);
      const current = await this.store.getSource(uuid);
      if (!current) return;
      const { error: _previousError, ...kept } = current.meta;
      await set({
        status: 'success',
        tokens: countTokens(clean),
        // A title the owner set by hand survives re-processing.
        title: current.meta.title_set_by_user ? current.title : title || current.title,
        meta: { ...kept, ...meta },
      });
    } catch (error) {
      if (this.closed) return;
      const current = await this.store.getSource(uuid);
      if (!current) return;
      await set({ status: 'fail', meta: { ...current.meta, error: (error as Error).message } });
    }
  }

  private async extract(
    source: SourceRow,
    set: (patch: Partial<SourceRow>) => Promise<void>,
  ): Promise<{ text: string; title: string; meta: Record<string, unknown>; markdown?: boolean }> {
    switch (source.type) {
      case 'qa': {
        const question = String(source.meta.question ?? '');
        const answer = String(source.meta.answer ?? '');
        return {
          text: `${question}\n\n${answer}`,
          title: titleFrom(question, 'Question'),
          meta: {},
        };
      }
      case 'file': {
        await set({ status: 'extracting' });
        const bytes = await this.store.getSourceContent(source.uuid);
        if (!bytes) throw new Error('the uploaded file is missing');
        const { text, title, markdown } = await extractFile(
          source.file_name,
          bytes,
          this.options.extractLimits,
        );
        // A data file's first row or member is no title; its name is. Nor is a Markdown
        // document's first section heading ("Quick Start" under a README's logo and badges).
        const named = ['csv', 'json', 'md'].includes(fileKind(source.file_name) ?? '');
        const fallback = named ? source.file_name : titleFrom(text, source.file_name);
        return { text, markdown, title: title || fallback, meta: {} };
      }
      case 'link': {
        await set({ status: 'downloading' });
        const site = await fetchSite(String(source.meta.url), {
          allowPrivate: this.options.allowPrivateUrls,
          signal: this.controller.signal,
          ...this.options.fetchLimits,
          extractLimits: this.options.extractLimits,
        });
        await set({ file_size: site.bytes });
        return {
          text: site.pages
            .map((p) => (site.pages.length > 1 ? `# ${p.title}\n\n${p.text}` : p.text))
            .join('\n\n'),
          // Pages come as Markdown from their HTML (plain text reads as Markdown paragraphs).
          markdown: true,
          title: site.pages[0]?.title || String(source.meta.url),
          meta: { pages: site.pages.map((p) => p.url), final_url: site.pages[0]?.url },
        };
      }
    }
  }
}
