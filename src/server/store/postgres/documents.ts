import { document } from '../rows.js';
import type { Store } from '../types.js';
import { ROWS, type Sql } from './db.js';

export type DocumentQueries = Pick<
  Store,
  | 'createSessionDocument'
  | 'getSessionDocument'
  | 'listSessionDocuments'
  | 'bindSessionDocuments'
  | 'pruneSessionDocuments'
  | 'uploadedDocumentBytes'
>;

const DOCUMENT_COLUMNS = `uuid, user_id, chatbot_uuid, session_uuid, filename, content_type, size,
  markdown, tokens, text, created_at`;

/**
 * Documents visitors attach to questions. Deleting a session, a chatbot or a user deletes theirs
 * by cascade; those never sent with a message are pruned by age. Caches remember the documents
 * bound to a session, so binding tells the other instances; uploads and pruning concern only
 * unbound ones, which no cache holds, and tell them nothing.
 */
export function documentQueries(sql: Sql): DocumentQueries {
  return {
    async createSessionDocument(row) {
      await sql.run(
        `INSERT INTO session_documents (${DOCUMENT_COLUMNS})
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
        row.uuid,
        row.userId,
        row.chatbotUuid,
        row.sessionUuid,
        row.filename,
        row.content_type,
        row.size,
        row.markdown,
        row.tokens,
        row.text,
        row.created_at,
      );
    },
    async getSessionDocument(uuid) {
      const r = await sql.one(
        `SELECT ${DOCUMENT_COLUMNS} FROM session_documents WHERE uuid = $1`,
        uuid,
      );
      return r ? document(r) : undefined;
    },
    async listSessionDocuments(sessionUuid) {
      const rows = await sql.all(
        `SELECT ${DOCUMENT_COLUMNS} FROM session_documents WHERE session_uuid = $1
          ORDER BY created_at, seq`,
        sessionUuid,
      );
      return rows.map(document);
    },
    async bindSessionDocuments(uuids, sessionUuid) {
      await sql.write(
        ROWS,
        `UPDATE session_documents SET session_uuid = $1
          WHERE uuid = ANY($2) AND session_uuid IS NULL`,
        sessionUuid,
        uuids,
      );
    },
    async pruneSessionDocuments(before) {
      await sql.run(
        'DELETE FROM session_documents WHERE session_uuid IS NULL AND created_at < $1',
        before,
      );
    },
    async uploadedDocumentBytes(chatbotUuid, since) {
      const r = await sql.one(
        `SELECT coalesce(sum(size), 0) AS bytes, min(created_at) AS oldest FROM session_documents
          WHERE chatbot_uuid = $1 AND created_at >= $2`,
        chatbotUuid,
        since,
      );
      return { bytes: Number(r?.bytes ?? 0), oldest: r?.oldest == null ? null : String(r.oldest) };
    },
  };
}
