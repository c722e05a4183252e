import { MESSAGE_INSERT_COLUMNS, message, messageValues, session } from '../rows.js';
import type { MessageRow, Store } from '../types.js';
import { type Immediate, json, type Sql } from './db.js';

export type SessionQueries = Immediate<
  Pick<
    Store,
    | 'createSession'
    | 'getSession'
    | 'listSessions'
    | 'deleteSession'
    | 'createMessage'
    | 'getMessage'
    | 'listMessages'
    | 'recentMessages'
    | 'deleteMessages'
    | 'setFeedback'
  >
>;

/** Chat sessions and their messages. */
export function sessionQueries(sql: Sql): SessionQueries {
  const { db, all, one, run } = sql;
  const insertMessage = (row: MessageRow) => {
    const [uuid, sessionUuid, ...rest] = messageValues(row).map((v) =>
      typeof v === 'boolean' ? Number(v) : v,
    );
    run(
      `INSERT INTO messages (${MESSAGE_INSERT_COLUMNS})
       VALUES (?, ?, (SELECT chatbot_uuid FROM sessions WHERE uuid = ?), ?, ?, ?, ?, ?, ?, ?, ?,
        ?, ?, ?, ?, ?, ?)`,
      uuid,
      sessionUuid,
      sessionUuid,
      ...rest,
    );
  };
  const queries: SessionQueries = {
    createSession(row) {
      run(
        'INSERT INTO sessions (uuid, chatbot_uuid, meta_json, test, created_at, modified_at) VALUES (?, ?, ?, ?, ?, ?)',
        row.uuid,
        row.chatbotUuid,
        row.meta == null ? null : json(row.meta),
        row.test ? 1 : 0,
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
      return run('DELETE FROM sessions WHERE uuid = ?', uuid).changes > 0;
    },

    // The session's time moves with its last message, in the same transaction.
    createMessage: (row) =>
      db.transaction(() => {
        insertMessage(row);
        // Never back: as on PostgreSQL, where messages saved at once may commit out of order.
        run(
          'UPDATE sessions SET modified_at = max(modified_at, ?) WHERE uuid = ?',
          row.modified_at,
          row.sessionUuid,
        );
      })(),
    getMessage(uuid) {
      const r = one('SELECT * FROM messages WHERE uuid = ?', uuid);
      return r ? message(r) : undefined;
    },
    listMessages(sessionUuid) {
      return all('SELECT * FROM messages WHERE session_uuid = ? ORDER BY id', sessionUuid).map(
        message,
      );
    },
    recentMessages(sessionUuid, limit) {
      return all(
        'SELECT * FROM messages WHERE session_uuid = ? ORDER BY id DESC LIMIT ?',
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
    setFeedback(uuid, feedback, now) {
      run(
        'UPDATE messages SET feedback_json = ?, rating = ?, modified_at = ? WHERE uuid = ?',
        feedback ? json(feedback) : '',
        feedback?.rating ?? null,
        now,
        uuid,
      );
    },
  };
  return queries;
}
