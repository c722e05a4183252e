import type Database from 'better-sqlite3';

import type { Row } from '../rows.js';

export { json, parse, type Row } from '../rows.js';

/**
 * Store methods as better-sqlite3 runs them: the same, with the answer at once rather than a
 * promise. The query groups are written this way (and call each other so); `sqlite.ts` turns
 * them into the async interface once.
 */
export type Immediate<T> = {
  [K in keyof T]: T[K] extends (...args: infer A) => Promise<infer R> ? (...args: A) => R : never;
};

/** A database with its statements prepared once each, as the query groups share them. */
export interface Sql {
  readonly db: Database.Database;
  all(text: string, ...params: unknown[]): Row[];
  one(text: string, ...params: unknown[]): Row | undefined;
  run(text: string, ...params: unknown[]): Database.RunResult;
}

export function preparedSql(db: Database.Database): Sql {
  const statements = new Map<string, Database.Statement>();
  const sql = (text: string) => {
    let statement = statements.get(text);
    if (!statement) {
      statement = db.prepare(text);
      statements.set(text, statement);
    }
    return statement;
  };
  const all = (text: string, ...params: unknown[]) => sql(text).all(...params) as Row[];
  const one = (text: string, ...params: unknown[]) => sql(text).get(...params) as Row | undefined;
  const run = (text: string, ...params: unknown[]) => sql(text).run(...params);
  return { db, all, one, run };
}
