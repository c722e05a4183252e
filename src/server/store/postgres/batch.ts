import { num, type Row } from './db.js';

/**
 * Calls of one kind that arrive while `inFlight` of their statements are under way wait, and
 * go together in one statement as soon as one of those returns; a call that finds fewer under
 * way goes at once, alone. So a quiet server answers each call in one round trip, and a busy
 * one in a few round trips for all: at 200 open chats every answer's rate limit and its message
 * were two statements each, and the answers waited for the pool's connections (most of a first
 * byte of about 120 ms at p50) while each statement waited in turn for a core. The same idea as
 * PostgreSQL's own group commit.
 */
export interface BatchOptions<T, R> {
  /** One statement for several calls: one result per item, in their order. */
  many(items: T[]): Promise<R[]>;
  /**
   * One call alone; also each call of a batch whose statement failed (it changed nothing), so
   * that a call fails for its own reason only.
   */
  one(item: T): Promise<R>;
  /** Statements of this kind under way at most; the pool's other connections stay free. */
  inFlight: number;
  /** Calls per statement at most. */
  max: number;
}

interface Waiting<T, R> {
  item: T;
  resolve(result: R): void;
  reject(error: unknown): void;
}

export function batched<T, R>(options: BatchOptions<T, R>): (item: T) => Promise<R> {
  const { many, one, inFlight, max } = options;
  let running = 0;
  const queue: Array<Waiting<T, R>> = [];

  const settle = async (batch: Array<Waiting<T, R>>) => {
    if (batch.length > 1) {
      try {
        const results = await many(batch.map((w) => w.item));
        for (const [i, w] of batch.entries()) w.resolve(results[i]!);
        return;
      } catch {
        // Each alone: the batch's statement failed as a whole, so it changed nothing.
      }
    }
    // In their order, as they would have been stored together.
    for (const w of batch) {
      try {
        w.resolve(await one(w.item));
      } catch (error) {
        w.reject(error);
      }
    }
  };

  const next = () => {
    while (running < inFlight && queue.length > 0) {
      running++;
      void settle(queue.splice(0, max)).finally(() => {
        running--;
        next();
      });
    }
  };

  return (item) =>
    new Promise<R>((resolve, reject) => {
      queue.push({ item, resolve, reject });
      next();
    });
}

/** Of the pool's 10 connections by default: the first byte's and the last byte's each take two. */
export const BATCHES_IN_FLIGHT = 2;
/** Enough for every open chat of a busy instance in a few statements, short enough to plan. */
export const BATCH_MAX = 100;

/**
 * The rows of a shared statement back in the order of its calls: each carries its call's
 * ordinal `i` (1 for the first, as `unnest … WITH ORDINALITY` numbers them); undefined for a
 * call that got no row.
 */
export function inCallOrder(rows: Row[], calls: number): Array<Row | undefined> {
  const byOrdinal = new Map(rows.map((r) => [num(r.i), r]));
  return Array.from({ length: calls }, (_, i) => byOrdinal.get(i + 1));
}
