import type pg from 'pg';

import { num, type Row } from '../rows.js';

export { json, num, parse, type Row } from '../rows.js';

/** What a write tells the other instances (see notify.ts), `from` and channel aside. */
export type Change =
  | { kind: 'chunks'; chatbotUuid: string; sourceUuids?: string[] }
  | { kind: 'rows' }
  | { kind: 'jobs' };

export const CHANNEL = 'chatbot_store';

/** What most writes announce: a row a cache may hold changed. */
export const ROWS: readonly Change[] = [{ kind: 'rows' }];

/** The queries of a pool, or of one connection inside a transaction. */
export interface Sql {
  all(text: string, ...params: unknown[]): Promise<Row[]>;
  one(text: string, ...params: unknown[]): Promise<Row | undefined>;
  /** Answers the number of rows the statement changed. */
  run(text: string, ...params: unknown[]): Promise<number>;
  /**
   * Runs `work` in one transaction on one connection, committed when it resolves and rolled back
   * when it throws. Inside a transaction already, it joins that one.
   */
  tx<T>(work: (sql: Sql) => Promise<T>): Promise<T>;
  /**
   * Tells the other instances about a change, with pg_notify: inside a transaction it is
   * delivered at commit and never if it rolls back.
   */
  notify(...changes: Change[]): Promise<void>;
  /** One INSERT, UPDATE or DELETE and the changes it makes, in one transaction. */
  write(changes: readonly Change[], text: string, ...params: unknown[]): Promise<number>;
}

/**
 * Statements are prepared once per connection, under a name given per text; texts built on the
 * fly (more than this many) run unnamed rather than filling every connection's statement cache.
 */
const MAX_NAMED = 500;

/**
 * PostgreSQL's text cannot hold U+0000 (SQLite's can): a NUL a visitor or a file sent is stored
 * as U+FFFD, as an HTML parser would read it, rather than failing the write.
 */
const storable = (value: unknown): unknown =>
  typeof value === 'string'
    ? value.includes('\0')
      ? value.replaceAll('\0', '\uFFFD')
      : value
    : Array.isArray(value)
      ? value.map(storable)
      : value;

export function pgSql(pool: pg.Pool, instanceId: string): Sql {
  const payload = (change: Change) => JSON.stringify({ from: instanceId, ...change });
  const names = new Map<string, string>();
  const config = (text: string, values: unknown[]): pg.QueryConfig => {
    let name = names.get(text);
    if (!name && names.size < MAX_NAMED) {
      name = `s${names.size}`;
      names.set(text, name);
    }
    return name ? { name, text, values } : { text, values };
  };

  const bound = (client: pg.Pool | pg.PoolClient, inTx: boolean): Sql => {
    const query = (text: string, params: unknown[]) =>
      client.query(config(text, params.map(storable)));
    const sql: Sql = {
      all: async (text, ...params) => (await query(text, params)).rows as Row[],
      one: async (text, ...params) => (await query(text, params)).rows[0] as Row | undefined,
      run: async (text, ...params) => (await query(text, params)).rowCount ?? 0,
      tx: (work) => (inTx ? work(sql) : transaction(work)),
      async notify(...changes) {
        for (const change of changes) {
          await query('SELECT pg_notify($1, $2)', [CHANNEL, payload(change)]);
        }
      },
      // One statement is a transaction of its own: the notifications ride along in it.
      async write(changes, text, ...params) {
        const n = params.length;
        const notes = changes.map((_, i) => `, pg_notify($${n + 1}, $${n + 2 + i})`).join('');
        const r = await sql.one(
          `WITH w AS (${text} RETURNING 1) SELECT (SELECT count(*) FROM w) AS n${notes}`,
          ...params,
          CHANNEL,
          ...changes.map(payload),
        );
        return num(r?.n);
      },
    };
    return sql;
  };

  const transaction = async <T>(work: (sql: Sql) => Promise<T>): Promise<T> => {
    const client = await pool.connect();
    // A connection that failed outside the work (BEGIN, COMMIT, ROLLBACK) is dropped rather than
    // handed out again.
    let broken: Error | undefined;
    const control = (text: string) =>
      client.query(text).catch((error: Error) => {
        broken = error;
        throw error;
      });
    try {
      await control('BEGIN');
      let result: T;
      try {
        result = await work(bound(client, true));
      } catch (error) {
        await control('ROLLBACK').catch(() => {});
        throw error;
      }
      await control('COMMIT');
      return result;
    } finally {
      client.release(broken);
    }
  };

  return bound(pool, false);
}
