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
  return {
    kind: 'sqlite',
    // One process's file: no other instance writes it, so nothing ever changes behind our back.
    shared: false,
    close: async () => {
      db.close();
    },
    ping: async () => {
      sql.one('SELECT 1');
    },
    onChange: () => () => {},
    ...promised(queries),
  };
}

/**
 * Each query as the async interface has it. The work is still done at once, in the call: only
 * the answer waits for the caller's `await`. A throw becomes a rejection, as a socket's would.
 */
function promised<T extends object>(queries: Immediate<T>): T {
  const methods: Record<string, unknown> = {};
  for (const [name, query] of Object.entries(queries) as Array<
    [string, (...a: unknown[]) => unknown]
  >) {
    methods[name] = (...args: unknown[]) => {
      try {
        return Promise.resolve(query(...args));
      } catch (error) {
        return Promise.reject(error);
      }
    };
  }
  return methods as T;
}
