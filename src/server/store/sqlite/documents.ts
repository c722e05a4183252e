import { document } from '../rows.js';
import type { Store } from '../types.js';
import type { Immediate, Sql } from './db.js';

export type DocumentQueries = Immediate<
  Pick<
    Store,
    | 'createSessionDocument'
    | 'getSessionDocument'
    | 'listSessionDocuments'
    | 'bindSessionDocuments'
    | 'pruneSessionDocuments'
    | 'uploadedDocumentBytes'
  >
>;

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
    uploadedDocumentBytes(chatbotUuid, since) {
      const r = one(
        `SELECT coalesce(sum(size), 0) AS bytes, min(created_at) AS oldest FROM session_documents
          WHERE chatbot_uuid = ? AND created_at >= ?`,
        chatbotUuid,
        since,
      );
      return { bytes: Number(r?.bytes ?? 0), oldest: r?.oldest == null ? null : String(r.oldest) };
    },
  };
}
