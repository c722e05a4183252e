import { windowWait } from '../rows.js';
import type { Store } from '../types.js';
import { BATCH_MAX, BATCHES_IN_FLIGHT, batched, inCallOrder } from './batch.js';
import type { Row, Sql } from './db.js';

export type VisitorQueries = Pick<Store, 'takeVisitorLimit'>;

/** One visitor window to count and take: times in ms since the epoch. */
interface Take {
  chatbotUuid: string;
  visitor: string;
  limit: number;
  since: number;
  now: number;
  keep: number;
}

/** How often the windows of visitors who did not come back are cleared away, at most. */
const PRUNE_EVERY_MS = 60_000;

/**
 * The visitor windows (ours), in a table every instance shares. Takes that arrive together go
 * in one statement, as the sessions' do (jobs.ts), their visitors locked in one order.
 */
export function visitorQueries(sql: Sql): VisitorQueries {
  const take = batched<Take, Row | undefined>({
    one: (t) =>
      sql.one(
        'SELECT hits, oldest FROM take_visitor_limit($1, $2, $3, $4, $5, $6)',
        t.chatbotUuid,
        t.visitor,
        t.limit,
        t.since,
        t.now,
        t.keep,
      ),
    async many(takes) {
      const rows = await sql.all(
        `SELECT t.i, r.hits, r.oldest
         FROM (SELECT * FROM unnest($1::text[], $2::text[], $3::float8[], $4::bigint[],
                 $5::bigint[], $6::bigint[])
                 WITH ORDINALITY AS t(cid, vid, lim, since, taken, keep, i)
               ORDER BY cid, vid, i) t
         CROSS JOIN LATERAL take_visitor_limit(t.cid, t.vid, t.lim, t.since, t.taken, t.keep) r`,
        takes.map((t) => t.chatbotUuid),
        takes.map((t) => t.visitor),
        takes.map((t) => t.limit),
        takes.map((t) => t.since),
        takes.map((t) => t.now),
        takes.map((t) => t.keep),
      );
      return inCallOrder(rows, takes.length);
    },
    inFlight: BATCHES_IN_FLIGHT,
    max: BATCH_MAX,
  });
  let pruned = 0;
  return {
    async takeVisitorLimit(chatbotUuid, visitor, [limit, seconds], now) {
      const at = Math.floor(now);
      if (at - pruned >= PRUNE_EVERY_MS) {
        pruned = at;
        // Not on the way to the answer: rows no window counts any more, whoever deletes them.
        void sql.run('DELETE FROM visitor_hits WHERE until <= $1', at).catch(() => {});
      }
      const windowMs = seconds * 1000;
      const r = await take({
        chatbotUuid,
        visitor,
        limit,
        since: at - windowMs,
        now: at,
        keep: at + windowMs,
      });
      return windowWait(r, limit, windowMs, now);
    },
  };
}
