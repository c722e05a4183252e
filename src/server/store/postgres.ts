import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { accountQueries } from './postgres/accounts.js';
import { chatbotQueries } from './postgres/chatbots.js';
import { pgSql } from './postgres/db.js';
import { documentQueries } from './postgres/documents.js';
import { jobQueries } from './postgres/jobs.js';
import { listenForChanges } from './postgres/notify.js';
import { reviewQueries } from './postgres/review.js';
import { migrate } from './postgres/schema.js';
import { sessionQueries } from './postgres/sessions.js';
import { sourceQueries } from './postgres/sources.js';
import { tagQueries } from './postgres/tags.js';
import { visitorQueries } from './postgres/visitors.js';
import type { Store, StoreChange } from './types.js';

export { MIGRATIONS } from './postgres/schema.js';

/** How long ping waits for `SELECT 1` before it calls the database unreachable. */
const PING_TIMEOUT_MS = 2_000;
/**
 * How long a query waits for a connection (queued behind the pool's others, or opening one)
 * before it fails: a database that stopped answering fails requests instead of hanging them.
 */
const CONNECT_TIMEOUT_MS = 15_000;
const QUERY_TIMEOUT_MS = 30_000;

/**
 * Opens a PostgreSQL store at `url` (`postgres://…`), migrating the database first (one instance
 * at a time), and listens for the changes other instances make to it.
 */
export async function openPostgresStore(
  url: string,
  options: { poolSize?: number; queryTimeoutMs?: number; log?: (line: string) => void } = {},
): Promise<Store> {
  const log = options.log ?? (() => {});
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    // A database that hangs (frozen, a network that drops packets) answers nothing, not even a
    // refusal: without a bound every request would wait with it.
    query_timeout: options.queryTimeoutMs ?? QUERY_TIMEOUT_MS,
    keepAlive: true,
    application_name: 'chatbot-store',
    // Compiling a query to machine code (JIT, on by default from PostgreSQL 12) pays off for
    // queries that run for seconds; it chose to for the review's aggregates over 100,000
    // messages, and its 50 ms of compiling were more than it saved (bench:review).
    options: '-c jit=off',
  });
  // An idle connection the server closed (a restart, an administrator) is dropped from the pool
  // and replaced when next needed; without a listener its error would end the process.
  pool.on('error', (error) => log(`a PostgreSQL connection closed: ${error.message}`));

  const instanceId = randomUUID();
  const listeners = new Set<(change: StoreChange) => void>();
  const emit = (change: StoreChange) => {
    for (const listener of [...listeners]) {
      try {
        listener(change);
      } catch (error) {
        log(`a store change listener failed: ${(error as Error).message}`);
      }
    }
  };

  let changes: Awaited<ReturnType<typeof listenForChanges>>;
  try {
    const version = await migrate(pool);
    if (version !== null) log(`migrated the PostgreSQL database to version ${version}`);
    changes = await listenForChanges({ url, instanceId, emit, log });
  } catch (error) {
    await pool.end().catch(() => {});
    throw error;
  }

  const sql = pgSql(pool, instanceId);
  let closing: Promise<void> | undefined;
  return {
    kind: 'postgres',
    shared: true,
    close() {
      closing ??= (async () => {
        listeners.clear();
        await changes.close();
        await pool.end();
      })();
      return closing;
    },
    async ping() {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`PostgreSQL did not answer within ${PING_TIMEOUT_MS} ms`)),
          PING_TIMEOUT_MS,
        );
      });
      try {
        await Promise.race([pool.query('SELECT 1'), late]);
      } finally {
        clearTimeout(timer);
      }
    },
    onChange(listener) {
      const own = (change: StoreChange) => listener(change);
      listeners.add(own);
      return () => listeners.delete(own);
    },
    ...jobQueries(sql),
    ...visitorQueries(sql),
    ...accountQueries(sql),
    ...chatbotQueries(sql),
    ...sourceQueries(sql),
    ...tagQueries(sql),
    ...sessionQueries(sql),
    ...documentQueries(sql),
    ...reviewQueries(sql),
  };
}
