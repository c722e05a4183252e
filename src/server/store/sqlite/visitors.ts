import { windowWait } from '../rows.js';
import type { Store } from '../types.js';
import type { Immediate, Sql } from './db.js';

export type VisitorQueries = Immediate<Pick<Store, 'takeVisitorLimit'>>;

/** How often the windows of visitors who did not come back are cleared away, at most. */
const PRUNE_EVERY_MS = 60_000;

/** The visitor windows (ours): one process writes the file, so a transaction is atomic. */
export function visitorQueries(sql: Sql): VisitorQueries {
  const { db, one, run } = sql;
  let pruned = 0;
  return {
    takeVisitorLimit: (chatbotUuid, visitor, [limit, seconds], now) =>
      db.transaction(() => {
        if (now - pruned >= PRUNE_EVERY_MS) {
          run('DELETE FROM visitor_hits WHERE until <= ?', now);
          pruned = now;
        }
        const windowMs = seconds * 1000;
        const r = one(
          `SELECT count(*) AS hits, min(at) AS oldest FROM visitor_hits
            WHERE chatbot_uuid = ? AND visitor = ? AND at > ?`,
          chatbotUuid,
          visitor,
          now - windowMs,
        );
        const full = windowWait(r, limit, windowMs, now);
        if (full) return full;
        // A chatbot deleted meanwhile has no window left to count in.
        run(
          `INSERT INTO visitor_hits (chatbot_uuid, visitor, at, until)
            SELECT uuid, ?, ?, ? FROM chatbots WHERE uuid = ?`,
          visitor,
          now,
          now + windowMs,
          chatbotUuid,
        );
        return null;
      })(),
  };
}
