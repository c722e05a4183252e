import type { KeyRow, Store, UserRow } from '../types.js';
import type { Immediate, Sql } from './db.js';

export type AccountQueries = Immediate<
  Pick<Store, 'ensureUser' | 'findUser' | 'addKey' | 'findKey' | 'deleteKey' | 'hasKeys'>
>;

/** Users and their API keys. */
export function accountQueries(sql: Sql): AccountQueries {
  const { one, run } = sql;
  const queries: AccountQueries = {
    ensureUser(name) {
      run('INSERT OR IGNORE INTO users (name) VALUES (?)', name);
      return queries.findUser(name)!;
    },
    findUser(name) {
      const r = one('SELECT id, name FROM users WHERE name = ?', name);
      return r ? ({ id: Number(r.id), name: String(r.name) } satisfies UserRow) : undefined;
    },
    addKey(key) {
      run(
        'INSERT OR IGNORE INTO api_keys (hash, user_id, chat_only) VALUES (?, ?, ?)',
        key.hash,
        key.userId,
        key.chatOnly,
      );
    },
    deleteKey(hash) {
      return run('DELETE FROM api_keys WHERE hash = ?', hash).changes > 0;
    },
    hasKeys() {
      return one('SELECT 1 AS found FROM api_keys LIMIT 1') !== undefined;
    },
    findKey(hash) {
      const r = one('SELECT hash, user_id, chat_only FROM api_keys WHERE hash = ?', hash);
      return r
        ? ({
            hash: String(r.hash),
            userId: Number(r.user_id),
            chatOnly: r.chat_only == null ? null : String(r.chat_only),
          } satisfies KeyRow)
        : undefined;
    },
  };
  return queries;
}
