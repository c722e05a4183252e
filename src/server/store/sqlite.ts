import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { accountQueries } from './sqlite/accounts.js';
import { chatbotQueries } from './sqlite/chatbots.js';
import { type Immediate, preparedSql } from './sqlite/db.js';
import { documentQueries } from './sqlite/documents.js';
import { queueQueries } from './sqlite/queue.js';
import { reviewQueries } from './sqlite/review.js';
import { migrate } from './sqlite/schema.js';
import { sessionQueries } from './sqlite/sessions.js';
import { sourceQueries } from './sqlite/sources.js';
import { visitorQueries } from './sqlite/visitors.js';
import type { Store } from './types.js';

export { MIGRATIONS } from './sqlite/schema.js';

type Queries = Omit<Store, 'kind' | 'shared' | 'close' | 'ping' | 'onChange'>;

/** Opens (and migrates) a SQLite store; `path` may be `:memory:`. */
export function openSqliteStore(path: string): Store {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  migrate(db);

  const sql = preparedSql(db);
  const chatbots = chatbotQueries(sql);
  const queries: Immediate<Queries> = {
    ...accountQueries(sql),
    ...chatbots,
    ...sourceQueries(sql, chatbots),
    ...sessionQueries(sql),
    ...documentQueries(sql),
    ...reviewQueries(sql),
    ...queueQueries(sql),
    ...visitorQueries(sql),
  };
  const grouped = groupCommit(db);
  return {
    kind: 'sqlite',
    // One process's file: no other instance writes it, so nothing ever changes behind our back.
    shared: false,
    close: async () => {
      grouped.flush();
      db.close();
    },
    ping: async () => {
      sql.one('SELECT 1');
    },
    onChange: () => () => {},
    ...promised(queries, grouped),
  };
}

/**
 * The write every answer ends with, its record: the ones that come in one turn of the event loop
 * are committed together. A commit appends every page it changed to the WAL (a message's row,
 * five indexes, the review's full-text index, its session): about half a millisecond a message
 * in a file, and 200 answers at once committed 200 times.
 */
const GROUPED = new Set(['createMessage']);
/**
 * Writes before an answer's first byte, of tables no message touches: they go at once, ahead of
 * the messages waiting for their commit (their order against those cannot matter). Grouped with
 * the messages, a question waited for the messages' commit before its first byte.
 */
const AHEAD = new Set(['takeRateLimit', 'takeVisitorLimit']);

interface GroupCommit {
  /** Queues a write for the turn's commit; its own transaction is a savepoint within it. */
  add(write: () => unknown): Promise<unknown>;
  /** Commits what is queued now: before any other read or write, so each sees the ones before. */
  flush(): void;
}

function groupCommit(db: Database.Database): GroupCommit {
  let queued: Array<{ write: () => unknown; resolve(v: unknown): void; reject(e: unknown): void }> =
    [];
  const flush = () => {
    if (queued.length === 0) return;
    const writes = queued;
    queued = [];
    const results: Array<{ ok: boolean; value: unknown }> = [];
    try {
      db.transaction(() => {
        for (const { write } of writes) {
          // A write that fails rolls back its own savepoint only, and fails alone.
          try {
            results.push({ ok: true, value: write() });
          } catch (error) {
            results.push({ ok: false, value: error });
          }
        }
      })();
    } catch (error) {
      for (const { reject } of writes) reject(error);
      return;
    }
    writes.forEach(({ resolve, reject }, i) => {
      const { ok, value } = results[i]!;
      if (ok) resolve(value);
      else reject(value);
    });
  };
  return {
    add: (write) =>
      new Promise((resolve, reject) => {
        if (queued.length === 0) setImmediate(flush);
        queued.push({ write, resolve, reject });
      }),
    flush,
  };
}

/**
 * Each query as the async interface has it. The work is done at once, in the call, after the
 * messages queued for the turn's commit (`GROUPED`; `AHEAD` ones before them); only the answer
 * waits for the caller's `await`. A throw becomes a rejection, as a socket's would.
 */
function promised<T extends object>(queries: Immediate<T>, grouped: GroupCommit): T {
  const methods: Record<string, unknown> = {};
  for (const [name, query] of Object.entries(queries) as Array<
    [string, (...a: unknown[]) => unknown]
  >) {
    const ahead = AHEAD.has(name);
    methods[name] = GROUPED.has(name)
      ? (...args: unknown[]) => grouped.add(() => query(...args))
      : (...args: unknown[]) => {
          try {
            if (!ahead) grouped.flush();
            return Promise.resolve(query(...args));
          } catch (error) {
            return Promise.reject(error);
          }
        };
  }
  return methods as T;
}
