import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { accountQueries } from './sqlite/accounts.js';
import { chatbotQueries } from './sqlite/chatbots.js';
import { preparedSql } from './sqlite/db.js';
import { documentQueries } from './sqlite/documents.js';
import { reviewQueries } from './sqlite/review.js';
import { migrate } from './sqlite/schema.js';
import { sessionQueries } from './sqlite/sessions.js';
import { sourceQueries } from './sqlite/sources.js';
import type { Store } from './types.js';

export { MIGRATIONS } from './sqlite/schema.js';

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
  return {
    close: () => db.close(),
    ...accountQueries(sql),
    ...chatbots,
    ...sourceQueries(sql, chatbots),
    ...sessionQueries(sql),
    ...documentQueries(sql),
    ...reviewQueries(sql),
  };
}
