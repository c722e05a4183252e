import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { Extracted, FileKind } from './parse.js';

/** What reading one file may take, in a worker thread of its own. */
export interface ExtractLimits {
  /** Milliseconds of reading before the worker is stopped. Default 60 s. */
  timeMs: number;
  /**
   * The worker's JavaScript heap in MB, past which it is stopped, and the most the server
   * process may grow by while it reads (the buffers a library decodes into are not heap).
   * Default 512.
   */
  memoryMb: number;
  /**
   * How long a worker with nothing to read is kept for the next file. Default 30 s: with pdfjs
   * and mammoth loaded it holds a few hundred MB, and takes a second or two to start again.
   */
  idleMs: number;
}

export const DEFAULT_EXTRACT_LIMITS: ExtractLimits = {
  timeMs: 60_000,
  memoryMb: 512,
  idleMs: 30_000,
};

/** What the worker answers: the text, or why it could not be read. */
export type WorkerReply =
  | { id: number; extracted: Extracted }
  | { id: number; error: string; unreadable: boolean };

/** How often a reading's memory is looked at: pdfjs decodes some 50 MB a second. */
const MEMORY_WATCH_MS = 50;

/** Files read at once, each in its own worker; the rest wait their turn. */
const MAX_WORKERS = Math.max(1, Math.min(2, availableParallelism() - 1));

interface Idle {
  worker: Worker;
  memoryMb: number;
  /** Its end, once it has waited `idleMs` for a file. */
  expiry: NodeJS.Timeout;
}

const idle: Idle[] = [];
const waiting: Array<() => void> = [];
let busy = 0;
let nextId = 1;

/** The reason a reading ended without text, with whether it is the file's fault (unreadable). */
export class ExtractFailure extends Error {
  constructor(
    message: string,
    readonly unreadable: boolean,
    /** Whether the worker gave the reason itself, and may read the next file. */
    readonly answered = false,
  ) {
    super(message);
  }
}

/**
 * Reads a file in a worker thread: a PDF's or a .docx's library works on what the file unpacks
 * to, which a file of 80 KB can make 17 MB of drawing commands (7 s of pdfjs, the server's one
 * thread held for most of a second at a time) and a larger one gigabytes. In a worker, the
 * server goes on answering meanwhile, and the reading is stopped past `limits`: its time, or its
 * heap (Node's `resourceLimits`), ending in an ExtractFailure that names which.
 */
export async function extractIsolated(
  kind: FileKind,
  bytes: Uint8Array,
  limits: ExtractLimits,
): Promise<Extracted> {
  while (busy >= MAX_WORKERS) await new Promise<void>((resolve) => waiting.push(resolve));
  busy++;
  const at = idle.findIndex((w) => w.memoryMb === limits.memoryMb);
  const kept = at >= 0 ? idle.splice(at, 1)[0] : undefined;
  clearTimeout(kept?.expiry);
  const worker = kept?.worker ?? spawn(limits.memoryMb);
  let reusable = false;
  try {
    try {
      await started.get(worker);
    } catch (error) {
      throw new ExtractFailure(`the reader did not start: ${(error as Error).message}`, false);
    }
    const extracted = await run(worker, kind, bytes, limits);
    reusable = true;
    return extracted;
  } catch (error) {
    // The worker answered (the file is unreadable): it is as good as new.
    reusable = error instanceof ExtractFailure && error.answered;
    throw error;
  } finally {
    busy--;
    if (reusable) {
      // Kept for the next file, without keeping the process alive for it.
      worker.unref();
      const expiry = setTimeout(() => void worker.terminate(), limits.idleMs);
      expiry.unref();
      idle.push({ worker, memoryMb: limits.memoryMb, expiry });
      if (idle.length > MAX_WORKERS) void idle.shift()?.worker.terminate();
    } else void worker.terminate();
    waiting.shift()?.();
  }
}

/** How many workers (of a heap size) wait for a file: for tests, as they end after `idleMs`. */
export const idleReaders = (memoryMb?: number) =>
  idle.filter((w) => memoryMb === undefined || w.memoryMb === memoryMb).length;

/** Each worker's start: it says `ready` once its libraries are loaded. */
const started = new WeakMap<Worker, Promise<void>>();

function spawn(memoryMb: number): Worker {
  const worker = start({ maxOldGenerationSizeMb: memoryMb });
  started.set(
    worker,
    new Promise<void>((resolve, reject) => {
      const onMessage = (message: unknown) => {
        if (message !== 'ready') return;
        worker.off('message', onMessage);
        resolve();
      };
      worker.on('message', onMessage);
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`exit code ${code}`)));
    }),
  );
  // Settled by whoever reads through this worker; not an unhandled rejection meanwhile.
  started.get(worker)?.catch(() => {});
  worker.once('exit', () => {
    const at = idle.findIndex((w) => w.worker === worker);
    if (at >= 0) idle.splice(at, 1);
  });
  return worker;
}

function start(resourceLimits: { maxOldGenerationSizeMb: number }): Worker {
  if (!import.meta.url.endsWith('.ts')) {
    return new Worker(new URL('./extract-worker.js', import.meta.url), { resourceLimits });
  }
  // Run from TypeScript by tsx, whose loader a worker thread of Node 20 does not inherit for
  // its entry: the worker registers it first.
  const entry = new URL('./extract-worker.ts', import.meta.url).href;
  const tsx = import.meta.resolve('tsx/esm/api');
  return new Worker(
    `import(${JSON.stringify(tsx)}).then(({ register }) => {
      register();
      return import(${JSON.stringify(entry)});
    });`,
    { eval: true, resourceLimits },
  );
}

function run(
  worker: Worker,
  kind: FileKind,
  bytes: Uint8Array,
  limits: ExtractLimits,
): Promise<Extracted> {
  const id = nextId++;
  worker.ref();
  return new Promise<Extracted>((resolve, reject) => {
    const timer = setTimeout(() => {
      done();
      reject(new ExtractFailure(`it took longer than ${seconds(limits.timeMs)} to read`, true));
    }, limits.timeMs);
    // The heap limit does not count the buffers a library decodes into (pdfjs keeps each stream
    // whole), which pdf-guard.ts bounds for all but an encrypted file's streams: the process's
    // growth is watched too. Not the worker's alone, which Node does not measure: a reading
    // beside this one may be stopped with it.
    const before = process.memoryUsage.rss();
    const watch = setInterval(() => {
      if (process.memoryUsage.rss() - before <= limits.memoryMb * 2 ** 20) return;
      done();
      void worker.terminate();
      reject(
        new ExtractFailure(`reading it needs more than ${limits.memoryMb} MB of memory`, true),
      );
    }, MEMORY_WATCH_MS);
    const onMessage = (reply: WorkerReply) => {
      if (reply.id !== id) return;
      done();
      if ('extracted' in reply) resolve(reply.extracted);
      else reject(new ExtractFailure(reply.error, reply.unreadable, true));
    };
    const onError = (error: Error & { code?: string }) => {
      done();
      reject(
        error.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? new ExtractFailure(`reading it needs more than ${limits.memoryMb} MB of memory`, true)
          : new ExtractFailure(`the reader stopped: ${error.message}`, false),
      );
    };
    const onExit = (code: number) => {
      done();
      reject(new ExtractFailure(`the reader stopped (exit code ${code})`, false));
    };
    const done = () => {
      clearTimeout(timer);
      clearInterval(watch);
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
    };
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
    // A copy: the caller keeps its bytes (the store's, a request's).
    worker.postMessage({ id, kind, bytes });
  });
}

const seconds = (ms: number) => (ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`);
