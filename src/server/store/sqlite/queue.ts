import { windowWait } from '../rows.js';
import type { Store } from '../types.js';
import type { Immediate, Sql } from './db.js';

export type QueueQueries = Immediate<
  Pick<
    Store,
    'enqueueJob' | 'claimJob' | 'renewJob' | 'finishJob' | 'releaseJobs' | 'takeRateLimit'
  >
>;

/**
 * The ingestion queue and the rate-limit windows. One process writes a SQLite file at a time, so
 * a statement (or a transaction) is atomic against every other caller without locks of its own.
 */
export function queueQueries(sql: Sql): QueueQueries {
  const { db, one, run } = sql;
  return {
    // A source not queued gets a row; one held by a worker is marked to run once more, since it
    // changed after the worker read it; one queued and unheld stays as it is.
    enqueueJob(sourceUuid, now) {
      run(
        `INSERT INTO ingest_jobs (source_uuid, queued_at)
           SELECT uuid, ? FROM data_sources WHERE uuid = ?
         ON CONFLICT (source_uuid) DO UPDATE SET again = 1 WHERE worker IS NOT NULL`,
        now,
        sourceUuid,
      );
    },
    claimJob(worker, leaseMs, now) {
      const r = one(
        `UPDATE ingest_jobs SET worker = ?, lease_until = ?
         WHERE source_uuid = (
           SELECT source_uuid FROM ingest_jobs WHERE worker IS NULL OR lease_until < ?
           ORDER BY queued_at, rowid LIMIT 1)
         RETURNING source_uuid`,
        worker,
        now + leaseMs,
        now,
      );
      return r ? String(r.source_uuid) : null;
    },
    renewJob(sourceUuid, worker, leaseMs, now) {
      return (
        run(
          'UPDATE ingest_jobs SET lease_until = ? WHERE source_uuid = ? AND worker = ?',
          now + leaseMs,
          sourceUuid,
          worker,
        ).changes > 0
      );
    },
    finishJob: (sourceUuid, worker) =>
      db.transaction(() => {
        const done = run(
          'DELETE FROM ingest_jobs WHERE source_uuid = ? AND worker = ? AND again = 0',
          sourceUuid,
          worker,
        );
        if (done.changes > 0) return;
        run(
          `UPDATE ingest_jobs SET worker = NULL, lease_until = NULL, again = 0, queued_at = ?
           WHERE source_uuid = ? AND worker = ?`,
          Date.now(),
          sourceUuid,
          worker,
        );
      })(),
    releaseJobs() {
      run('UPDATE ingest_jobs SET worker = NULL, lease_until = NULL WHERE worker IS NOT NULL');
    },

    takeRateLimit: (sessionUuid, [limit, seconds], now) =>
      db.transaction(() => {
        const windowMs = seconds * 1000;
        run(
          'DELETE FROM rate_hits WHERE session_uuid = ? AND at <= ?',
          sessionUuid,
          now - windowMs,
        );
        const r = one(
          'SELECT count(*) AS hits, min(at) AS oldest FROM rate_hits WHERE session_uuid = ?',
          sessionUuid,
        );
        const full = windowWait(r, limit, windowMs, now);
        if (full) return full;
        // A session deleted meanwhile has no window left to count in.
        run(
          'INSERT INTO rate_hits (session_uuid, at) SELECT uuid, ? FROM sessions WHERE uuid = ?',
          now,
          sessionUuid,
        );
        return null;
      })(),
  };
}
