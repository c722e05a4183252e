import { openSqliteStore } from './sqlite.js';
import type { Store } from './types.js';

export interface OpenStoreOptions {
  /** SQLite file, or `:memory:`: the store when `databaseUrl` is not set. */
  db?: string;
  /** `postgres://…`: PostgreSQL, shared by every instance given the same URL. */
  databaseUrl?: string;
  /** PostgreSQL connections per instance. */
  poolSize?: number;
  /** How long a PostgreSQL query may go unanswered before it fails as unavailable. */
  queryTimeoutMs?: number;
  /** Where the store reports what it did at open (migrations). */
  log?: (line: string) => void;
  /** A server's store: a SQLite file becomes this process's (see `SqliteStoreOptions.serve`). */
  serve?: boolean;
}

export const DEFAULT_DB = 'data/chatbot.sqlite';

/**
 * PostgreSQL when a URL is given, else SQLite. The PostgreSQL store is imported only then, so a
 * server on SQLite never loads its client.
 */
export async function openStore(options: OpenStoreOptions): Promise<Store> {
  if (options.databaseUrl) {
    const { openPostgresStore } = await import('./postgres.js');
    return openPostgresStore(options.databaseUrl, {
      poolSize: options.poolSize,
      queryTimeoutMs: options.queryTimeoutMs,
      log: options.log,
    });
  }
  return openSqliteStore(options.db ?? DEFAULT_DB, { serve: options.serve, log: options.log });
}
