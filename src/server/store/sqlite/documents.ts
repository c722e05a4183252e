import type { SessionDocumentRow, Store } from '../types.js';
import type { Immediate, Row, Sql } from './db.js';

export type DocumentQueries = Immediate<
  Pick<
    Store,
    | 'createSessionDocument'
    | 'getSessionDocument'
    | 'listSessionDocuments'
    | 'bindSessionDocuments'
    | 'pruneSessionDocuments'
  >
>;

const document = (r: Row): SessionDocumentRow => ({
  uuid: String(r.uuid),
  userId: Number(r.user_id),
  chatbotUuid: r.chatbot_uuid == null ? null : String(r.chatbot_uuid),
  sessionUuid: r.session_uuid == null ? null : String(r.session_uuid),
  filename: String(r.filename),
  content_type: String(r.content_type),
  size: Number(r.size),
  markdown: r.markdown === 1,
  tokens: Number(r.tokens),
  text: String(r.text),
  created_at: String(r.created_at),
});

/**
 * Documents visitors attach to questions. Deleting a session, a chatbot or a user deletes theirs
 * by cascade; those never sent with a message are pruned by age.
 */
export function documentQueries(sql: Sql): DocumentQueries {
  const { db, all, one, run } = sql;
  return {
    createSessionDocument(row) {
      run(
        `INSERT INTO session_documents (uuid, user_id, chatbot_uuid, session_uuid, filename,
          content_type, size, markdown, tokens, text, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        row.uuid,
        row.userId,
        row.chatbotUuid,
        row.sessionUuid,
        row.filename,
        row.content_type,
        row.size,
        row.markdown ? 1 : 0,
        row.tokens,
        row.text,
        row.created_at,
      );
    },
    getSessionDocument(uuid) {
      const r = one('SELECT * FROM session_documents WHERE uuid = ?', uuid);
      return r ? document(r) : undefined;
    },
    listSessionDocuments(sessionUuid) {
      return all(
        'SELECT * FROM session_documents WHERE session_uuid = ? ORDER BY created_at, rowid',
        sessionUuid,
      ).map(document);
    },
    bindSessionDocuments: (uuids, sessionUuid) =>
      db.transaction(() => {
        for (const uuid of uuids) {
          run(
            'UPDATE session_documents SET session_uuid = ? WHERE uuid = ? AND session_uuid IS NULL',
            sessionUuid,
            uuid,
          );
        }
      })(),
    pruneSessionDocuments(before) {
      run('DELETE FROM session_documents WHERE session_uuid IS NULL AND created_at < ?', before);
    },
  };
}
