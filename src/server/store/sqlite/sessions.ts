import type { MessageRow, SessionRow, Store } from '../types.js';
import { json, parse, type Row, type Sql } from './db.js';

export type SessionQueries = Pick<
  Store,
  | 'createSession'
  | 'getSession'
  | 'listSessions'
  | 'deleteSession'
  | 'touchSession'
  | 'createMessage'
  | 'getMessage'
  | 'listMessages'
  | 'recentMessages'
  | 'deleteMessages'
>;

const session = (r: Row): SessionRow => ({
  uuid: String(r.uuid),
  chatbotUuid: String(r.chatbot_uuid),
  meta: r.meta_json == null ? null : parse(r.meta_json),
  created_at: String(r.created_at),
  modified_at: String(r.modified_at),
});
const message = (r: Row): MessageRow => ({
  uuid: String(r.uuid),
  sessionUuid: String(r.session_uuid),
  query: String(r.query),
  response: String(r.response),
  finish_reason: String(r.finish_reason),
  cite_data: parse(r.cite_data_json),
  meta: parse(r.meta_json),
  error_message: String(r.error_message),
  created_at: String(r.created_at),
  modified_at: String(r.modified_at),
});

/** Chat sessions and their messages. */
export function sessionQueries(sql: Sql): SessionQueries {
  const { db, all, one, run } = sql;
  const queries: SessionQueries = {
    createSession(row) {
      run(
        'INSERT INTO sessions (uuid, chatbot_uuid, meta_json, created_at, modified_at) VALUES (?, ?, ?, ?, ?)',
        row.uuid,
        row.chatbotUuid,
        row.meta == null ? null : json(row.meta),
        row.created_at,
        row.modified_at,
      );
    },
    getSession(uuid) {
      const r = one('SELECT * FROM sessions WHERE uuid = ?', uuid);
      return r ? session(r) : undefined;
    },
    listSessions(chatbotUuid) {
      return all('SELECT * FROM sessions WHERE chatbot_uuid = ? ORDER BY rowid', chatbotUuid).map(
        session,
      );
    },
    deleteSession(uuid) {
      run('DELETE FROM sessions WHERE uuid = ?', uuid);
    },
    touchSession(uuid, now) {
      run('UPDATE sessions SET modified_at = ? WHERE uuid = ?', now, uuid);
    },

    createMessage(row) {
      run(
        `INSERT INTO messages (uuid, session_uuid, query, response, finish_reason, cite_data_json,
          meta_json, error_message, created_at, modified_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        row.uuid,
        row.sessionUuid,
        row.query,
        row.response,
        row.finish_reason,
        json(row.cite_data),
        json(row.meta),
        row.error_message,
        row.created_at,
        row.modified_at,
      );
    },
    getMessage(uuid) {
      const r = one('SELECT * FROM messages WHERE uuid = ?', uuid);
      return r ? message(r) : undefined;
    },
    listMessages(sessionUuid) {
      return all('SELECT * FROM messages WHERE session_uuid = ? ORDER BY rowid', sessionUuid).map(
        message,
      );
    },
    recentMessages(sessionUuid, limit) {
      return all(
        'SELECT * FROM messages WHERE session_uuid = ? ORDER BY rowid DESC LIMIT ?',
        sessionUuid,
        limit,
      )
        .map(message)
        .reverse();
    },
    deleteMessages: (uuids) =>
      db.transaction(() => {
        for (const uuid of uuids) run('DELETE FROM messages WHERE uuid = ?', uuid);
      })(),
  };
  return queries;
}
