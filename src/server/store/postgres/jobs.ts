import { windowWait } from '../rows.js';
import type { Store } from '../types.js';
import { BATCH_MAX, BATCHES_IN_FLIGHT, batched, inCallOrder } from './batch.js';
import type { Row, Sql } from './db.js';

/** One rate-limit window to count and take: times in ms since the epoch. */
interface Take {
  sessionUuid: string;
  limit: number;
  since: number;
  now: number;
}

export type JobQueries = Pick<
  Store,
  'enqueueJob' | 'claimJob' | 'renewJob' | 'finishJob' | 'releaseJobs' | 'takeRateLimit'
>;

/**
 * The ingestion queue and the rate-limit windows, shared by every instance through their tables.
 * Times are ms since the epoch, as the callers pass them.
 */
export function jobQueries(sql: Sql): JobQueries {
  const take = batched<Take, Row | undefined>({
    one: (t) =>
      sql.one(
        'SELECT hits, oldest FROM take_rate_limit($1, $2, $3, $4)',
        t.sessionUuid,
        t.limit,
        t.since,
        t.now,
      ),
    // Sessions in one order in every statement: each locks its sessions' windows until it
    // commits, and two statements taking them in opposite orders would deadlock. A session
    // twice in one statement is counted twice, the second seeing the first (each call of the
    // function reads afresh).
    async many(takes) {
      const rows = await sql.all(
        `SELECT t.i, r.hits, r.oldest
         FROM (SELECT * FROM unnest($1::text[], $2::float8[], $3::bigint[], $4::bigint[])
                 WITH ORDINALITY AS t(sid, lim, since, taken, i)
               ORDER BY sid, i) t
         CROSS JOIN LATERAL take_rate_limit(t.sid, t.lim, t.since, t.taken) r`,
        takes.map((t) => t.sessionUuid),
        takes.map((t) => t.limit),
        takes.map((t) => t.since),
        takes.map((t) => t.now),
      );
      return inCallOrder(rows, takes.length);
    },
    inFlight: BATCHES_IN_FLIGHT,
    max: BATCH_MAX,
  });
  return {
    async enqueueJob(sourceUuid, now) {
      // Queued and unheld: nothing to do. Held: the holder is reading an older version, so the
      // job runs once more after it. A source deleted meanwhile is not queued at all.
      await sql.write(
        [{ kind: 'jobs' }],
        `INSERT INTO ingest_jobs (source_uuid, queued_at)
           SELECT uuid, $2 FROM data_sources WHERE uuid = $1
         ON CONFLICT (source_uuid) DO UPDATE SET again = true
           WHERE ingest_jobs.worker IS NOT NULL`,
        sourceUuid,
        Math.floor(now),
      );
    },
    async claimJob(worker, leaseMs, now) {
      // SKIP LOCKED: instances claiming at once each take a different job instead of waiting.
      const r = await sql.one(
        `UPDATE ingest_jobs SET worker = $1, lease_until = $2 + $3
          WHERE source_uuid = (
            SELECT source_uuid FROM ingest_jobs
              WHERE worker IS NULL OR lease_until < $2
              ORDER BY queued_at, seq
              FOR UPDATE SKIP LOCKED LIMIT 1)
          RETURNING source_uuid`,
        worker,
        Math.floor(now),
        Math.ceil(leaseMs),
      );
      return r ? String(r.source_uuid) : null;
    },
    async renewJob(sourceUuid, worker, leaseMs, now) {
      const renewed = await sql.run(
        'UPDATE ingest_jobs SET lease_until = $3 WHERE source_uuid = $1 AND worker = $2',
        sourceUuid,
        worker,
        Math.floor(now) + Math.ceil(leaseMs),
      );
      return renewed > 0;
    },
    async finishJob(sourceUuid, worker) {
      const done = await sql.run(
        'DELETE FROM ingest_jobs WHERE source_uuid = $1 AND worker = $2 AND NOT again',
        sourceUuid,
        worker,
      );
      if (done > 0) return;
      // Changed while held: back in the queue, behind what was queued meanwhile.
      await sql.run(
        `UPDATE ingest_jobs SET worker = NULL, lease_until = NULL, again = false,
            queued_at = $3
          WHERE source_uuid = $1 AND worker = $2`,
        sourceUuid,
        worker,
        Date.now(),
      );
    },
    async releaseJobs() {
      await sql.run(
        'UPDATE ingest_jobs SET worker = NULL, lease_until = NULL WHERE worker IS NOT NULL',
      );
    },

    async takeRateLimit(sessionUuid, [limit, seconds], now) {
      const windowMs = seconds * 1000;
      const r = await take({
        sessionUuid,
        limit,
        since: Math.floor(now - windowMs),
        now: Math.floor(now),
      });
      return windowWait(r, limit, windowMs, now);
    },
  };
}
