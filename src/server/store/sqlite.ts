import { chmodSync, existsSync, mkdirSync } from 'node:fs';
import { hostname } from 'node:os';
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
import type { Store, StoreChange } from './types.js';

export { MIGRATIONS } from './sqlite/schema.js';

type Queries = Omit<Store, 'kind' | 'shared' | 'close' | 'ping' | 'onChange'>;

export interface SqliteStoreOptions {
  /**
   * A server's store: the file becomes this process's, and a second server on it is refused
   * (it would process the first one's ingestion again and answer from its own stale index).
   * Commands such as create-key open the file beside a running server, without it.
   */
  serve?: boolean;
  /** Where the store says what it noticed at open. */
  log?: (line: string) => void;
}

/** How often the file is checked for another process's commits. */
const WATCH_MS = 500;

/** Opens (and migrates) a SQLite store; `path` may be `:memory:`. */
export function openSqliteStore(path: string, options: SqliteStoreOptions = {}): Store {
  const inFile = path !== ':memory:';
  // Conversations and key hashes: readable by this user only (SQLite gives its -wal and -shm
  // files the database's mode). A folder or file that exists keeps what its owner chose.
  const created = inFile && !existsSync(path);
  if (inFile) mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const db = new Database(path);
  if (created) chmodSync(path, 0o600);
  let release = () => {};
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('foreign_keys = ON');
    db.pragma('synchronous = NORMAL');
    db.pragma('busy_timeout = 5000');
    migrate(db);
    if (inFile && options.serve) release = claimFile(db, path, options.log);
  } catch (error) {
    db.close();
    throw error;
  }
  const listeners = new Set<(change: StoreChange) => void>();
  const watcher = inFile
    ? watchOthers(db, () => {
        for (const listener of listeners) listener({ kind: 'rows' });
      })
    : undefined;

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
    // One server's file: commands (create-key, revoke-key) may write it beside the server.
    shared: false,
    close: async () => {
      clearInterval(watcher);
      grouped.flush();
      release();
      db.close();
    },
    ping: async () => {
      sql.one('SELECT 1');
    },
    onChange: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    ...promised(queries, grouped),
  };
}

/**
 * Calls `changed` when another process has committed to the file (a key revoked by the CLI, a row
 * edited by hand), so that what this one remembers is read again: `data_version` moves with
 * every other connection's commit and never with this one's.
 */
function watchOthers(db: Database.Database, changed: () => void): NodeJS.Timeout {
  const version = () => db.pragma('data_version', { simple: true });
  let seen = version();
  const timer = setInterval(() => {
    if (!db.open) return;
    const now = version();
    if (now === seen) return;
    seen = now;
    changed();
  }, WATCH_MS);
  timer.unref();
  return timer;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // Alive, and another user's.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Makes the file this server process's, refusing it while another on this machine holds it; a
 * claim left by a process that died (or on another machine, which cannot be asked) is taken
 * over. Answers the release, for a clean stop.
 */
function claimFile(db: Database.Database, path: string, log?: (line: string) => void) {
  const host = hostname();
  db.transaction(() => {
    const held = db.prepare('SELECT pid, host FROM server_claim WHERE id = 1').get() as
      | { pid: number; host: string }
      | undefined;
    if (held && held.pid !== process.pid) {
      if (held.host === host && alive(held.pid)) {
        throw new Error(
          `another server (process ${held.pid}) is using the database ${path}: one SQLite file serves one process; stop that one, or set CHATBOT_DB to another file (several instances share PostgreSQL: DATABASE_URL)`,
        );
      }
      if (held.host !== host) {
        log?.(
          `the database ${path} was last used by a server on ${held.host} (process ${held.pid}) that did not stop cleanly, or still runs there: one SQLite file serves one process`,
        );
      }
    }
    db.prepare(
      'INSERT OR REPLACE INTO server_claim (id, pid, host, started_at) VALUES (1, ?, ?, ?)',
    ).run(process.pid, host, new Date().toISOString());
  }).immediate();
  return () => {
    db.prepare('DELETE FROM server_claim WHERE id = 1 AND pid = ? AND host = ?').run(
      process.pid,
      host,
    );
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
