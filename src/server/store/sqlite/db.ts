import type Database from 'better-sqlite3';

export type Row = Record<string, unknown>;

export const json = (value: unknown) => JSON.stringify(value);
export const parse = <T>(text: unknown): T => JSON.parse(String(text)) as T;

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
