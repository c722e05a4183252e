/**
 * Which store the server's suites run on. `test/run-node-tests.mjs` runs them twice: on SQLite
 * (`:memory:`, as always), then with CHATBOT_TEST_STORE=postgres and CHATBOT_TEST_DATABASE_URL
 * naming a cluster the tests may create databases on. Every harness then gets a database of its
 * own, dropped when it closes, so no test sees another's rows.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type pg from 'pg';
import { openSqliteStore } from '../../src/server/store/sqlite.js';
import type { Store } from '../../src/server/store/types.js';

export type TestStoreKind = 'sqlite' | 'postgres';

export const TEST_STORE: TestStoreKind =
  process.env.CHATBOT_TEST_STORE === 'postgres' ? 'postgres' : 'sqlite';

export const onPostgres = TEST_STORE === 'postgres';

/**
 * Test options for a describe/test that is about SQLite by nature (a file on disk, its
 * migrations): skipped in the PostgreSQL pass, with the reason shown.
 */
export function sqliteOnly(reason: string): { skip?: string } {
  return onPostgres ? { skip: `SQLite only: ${reason}` } : {};
}

/** Test options for a describe/test that needs PostgreSQL: run in the PostgreSQL pass only. */
export function postgresOnly(reason: string): { skip?: string } {
  return onPostgres ? {} : { skip: `PostgreSQL only: ${reason}` };
}

function clusterUrl(): string {
  const url = process.env.CHATBOT_TEST_DATABASE_URL;
  if (!url) {
    throw new Error(
      'CHATBOT_TEST_STORE=postgres needs CHATBOT_TEST_DATABASE_URL (test/run-node-tests.mjs sets both)',
    );
  }
  return url;
}

// pg and the PostgreSQL store are imported only in the PostgreSQL pass, as the server does.
async function connect(url: string): Promise<pg.Client> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return client;
}

/** Runs `use` with a connection of its own to the PostgreSQL database at `url`. */
export async function withClient<T>(
  url: string,
  use: (client: pg.Client) => Promise<T>,
): Promise<T> {
  const client = await connect(url);
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

async function onCluster(sql: string): Promise<void> {
  await withClient(clusterUrl(), (client) => client.query(sql));
}

export interface TestDatabase {
  url: string;
  /** Drops the database, cutting whatever connections are still open on it. */
  drop(): Promise<void>;
}

/** A new, empty database on the test cluster (`t_` and random hex, so a valid bare identifier). */
export async function freshDatabase(): Promise<TestDatabase> {
  const name = `t_${randomBytes(8).toString('hex')}`;
  await onCluster(`CREATE DATABASE ${name}`);
  const url = new URL(clusterUrl());
  url.pathname = `/${name}`;
  let dropped: Promise<void> | undefined;
  return {
    url: url.toString(),
    drop: () => {
      dropped ??= onCluster(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      return dropped;
    },
  };
}

/**
 * What to merge into the server's options so it runs on this pass's store: SQLite in memory, or
 * a fresh PostgreSQL database; `drop` is called once the server has closed.
 */
export async function testStoreOptions(): Promise<{
  options: { db?: string; databaseUrl?: string };
  drop(): Promise<void>;
}> {
  if (!onPostgres) return { options: { db: ':memory:' }, drop: async () => {} };
  const database = await freshDatabase();
  return { options: { databaseUrl: database.url }, drop: database.drop };
}

export interface OpenedStore {
  store: Store;
  /** Another store on the same database, as a second server instance would open it. */
  another(): Promise<Store>;
  /** Closes every store it opened, then drops the database. */
  close(): Promise<void>;
}

export interface StoreFactory {
  kind: TestStoreKind;
  /** Whether `another()` reaches the same rows (a shared database). */
  shared: boolean;
  open(): Promise<OpenedStore>;
}

const sqliteFactory: StoreFactory = {
  kind: 'sqlite',
  shared: false,
  async open() {
    const opened = [await openSqliteStore(':memory:')];
    return {
      store: opened[0]!,
      // A second :memory: database: no rows shared, as two processes on SQLite would not.
      async another() {
        const store = await openSqliteStore(':memory:');
        opened.push(store);
        return store;
      },
      async close() {
        await Promise.all(opened.map((store) => store.close()));
      },
    };
  },
};

const postgresFactory: StoreFactory = {
  kind: 'postgres',
  shared: true,
  async open() {
    const { openPostgresStore } = await import('../../src/server/store/postgres.js');
    const database = await freshDatabase();
    const opened: Store[] = [];
    const open = async () => {
      const store = await openPostgresStore(database.url, { poolSize: 4 });
      opened.push(store);
      return store;
    };
    try {
      const store = await open();
      return {
        store,
        another: open,
        async close() {
          await Promise.all(opened.map((s) => s.close()));
          await database.drop();
        },
      };
    } catch (error) {
      await database.drop();
      throw error;
    }
  },
};

/** The stores a suite that compares them runs on: SQLite always, PostgreSQL in its pass. */
export function storeFactories(): StoreFactory[] {
  return onPostgres ? [sqliteFactory, postgresFactory] : [sqliteFactory];
}

/** This pass's store, bare (no server): SQLite in memory or a fresh PostgreSQL database. */
export function openTestStore(kind: TestStoreKind = TEST_STORE): Promise<OpenedStore> {
  return (kind === 'postgres' ? postgresFactory : sqliteFactory).open();
}

/** One table's rows, each as one string, in an order that only a change of the rows changes. */
export interface TableDump {
  table: string;
  rows: string[];
}

/**
 * A database that outlives a server, on this pass's store: a SQLite file in a temporary directory
 * or a fresh PostgreSQL database. For suites that check what a server stored, or restart one on
 * the same rows.
 */
export interface KeptDatabase {
  kind: TestStoreKind;
  /** What to merge into the server's options (`startHarness`, `startServer`) to run on it. */
  serverOptions: { db: string } | { databaseUrl: string };
  /** A store of its own on the same rows, as another process would open it; closed by `close()`. */
  openStore(): Promise<Store>;
  /** Every row of every table, tables by name: what the server has committed so far. */
  dump(): Promise<TableDump[]>;
  /** Closes what it opened, then removes the file or drops the database. */
  close(): Promise<void>;
}

export async function keptDatabase(): Promise<KeptDatabase> {
  return onPostgres ? keptPostgresDatabase() : keptSqliteDatabase();
}

function keptSqliteDatabase(): KeptDatabase {
  const dir = mkdtempSync(join(tmpdir(), 'chatbot-kept-'));
  const path = join(dir, 'chatbot.sqlite');
  const stores: Store[] = [];
  // Opened at the first dump: the server creates the file.
  let reader: Database.Database | undefined;
  return {
    kind: 'sqlite',
    serverOptions: { db: path },
    async openStore() {
      const store = openSqliteStore(path);
      stores.push(store);
      return store;
    },
    async dump() {
      reader ??= new Database(path, { readonly: true });
      const tables = reader
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        .pluck()
        .all() as string[];
      return tables.map((table) => ({
        table,
        rows: reader!
          .prepare(`SELECT * FROM "${table}"`)
          .raw()
          .all()
          .map((row) =>
            JSON.stringify(row, (_, v) => (Buffer.isBuffer(v) ? v.toString('hex') : v)),
          ),
      }));
    },
    async close() {
      reader?.close();
      await Promise.all(stores.map((store) => store.close()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function keptPostgresDatabase(): Promise<KeptDatabase> {
  const { openPostgresStore } = await import('../../src/server/store/postgres.js');
  const database = await freshDatabase();
  const stores: Store[] = [];
  let reader: Promise<pg.Client> | undefined;
  return {
    kind: 'postgres',
    serverOptions: { databaseUrl: database.url },
    async openStore() {
      const store = await openPostgresStore(database.url, { poolSize: 2 });
      stores.push(store);
      return store;
    },
    async dump() {
      reader ??= connect(database.url);
      const client = await reader;
      const { rows } = await client.query<{ name: string }>(
        "SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename",
      );
      const tables = rows.map((r) => r.name);
      if (tables.length === 0) return [];
      // A row as PostgreSQL writes it out names every column, and byte order sorts the rows
      // whatever their keys; one round trip for every table.
      const results = await client.query<{ row: string }>(
        tables
          .map((t) => `SELECT r::text AS row FROM "${t}" r ORDER BY r::text COLLATE "C";`)
          .join('\n'),
      );
      const each = tables.length === 1 ? [results] : (results as unknown as pg.QueryResult[]);
      return tables.map((table, i) => ({
        table,
        rows: each[i]!.rows.map((r) => String(r.row)),
      }));
    },
    async close() {
      await (await reader?.catch(() => undefined))?.end();
      await Promise.all(stores.map((store) => store.close()));
      await database.drop();
    },
  };
}

/** A chatbot of a user ("alice", made on first use) straight in the store; answers its uuid. */
export async function storeChatbot(store: Store, name: string): Promise<string> {
  const at = '2026-03-10T00:00:00Z';
  const user = await store.ensureUser('alice');
  const uuid = randomUUID();
  await store.createChatbot({
    uuid,
    userId: user.id,
    name,
    rate_limit: [20, 60],
    rate_limit_message: '',
    show_citations: true,
    visibility: 'private',
    created_at: at,
    modified_at: at,
  });
  return uuid;
}

/** The rows of one statement on the database at `url`, on a connection of its own. */
export function queryRows(url: string, text: string, params: unknown[] = []) {
  return withClient(url, async (client) => (await client.query(text, params)).rows);
}

/**
 * Answers once `check` holds, polling every 20 ms; fails naming `what` after `ms`, which bounds
 * a failure only (a change between instances is promised within 1 s; no test asserts a clock).
 */
export async function until(
  check: () => boolean | Promise<boolean>,
  what: string,
  ms = 20_000,
): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
