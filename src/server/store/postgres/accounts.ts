import type { KeyRow, Store, UserRow } from '../types.js';
import { num, ROWS, type Sql } from './db.js';

export type AccountQueries = Pick<
  Store,
  'ensureUser' | 'findUser' | 'addKey' | 'findKey' | 'deleteKey' | 'hasKeys'
>;

/** Users and their API keys. */
export function accountQueries(sql: Sql): AccountQueries {
  const queries: AccountQueries = {
    async ensureUser(name) {
      // Looked up first: an insert that meets an existing name would still use up an id.
      const found = await queries.findUser(name);
      if (found) return found;
      await sql.write(ROWS, 'INSERT INTO users (name) VALUES ($1) ON CONFLICT DO NOTHING', name);
      return (await queries.findUser(name))!;
    },
    async findUser(name) {
      const r = await sql.one('SELECT id, name FROM users WHERE name = $1', name);
      return r ? ({ id: num(r.id), name: String(r.name) } satisfies UserRow) : undefined;
    },
    async addKey(key) {
      await sql.write(
        ROWS,
        'INSERT INTO api_keys (hash, user_id, chat_only) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
        key.hash,
        key.userId,
        key.chatOnly,
      );
    },
    async deleteKey(hash) {
      return (await sql.write(ROWS, 'DELETE FROM api_keys WHERE hash = $1', hash)) > 0;
    },
    async hasKeys() {
      return (await sql.one('SELECT 1 AS found FROM api_keys LIMIT 1')) !== undefined;
    },
    async findKey(hash) {
      const r = await sql.one(
        'SELECT hash, user_id, chat_only FROM api_keys WHERE hash = $1',
        hash,
      );
      return r
        ? ({
            hash: String(r.hash),
            userId: num(r.user_id),
            chatOnly: r.chat_only == null ? null : String(r.chat_only),
          } satisfies KeyRow)
        : undefined;
    },
  };
  return queries;
}
