import {
  MESSAGE_COLUMNS,
  MESSAGE_INSERT_COLUMNS,
  message,
  messageValues,
  session,
} from '../rows.js';
import type { MessageRow, Store } from '../types.js';
import { BATCH_MAX, BATCHES_IN_FLIGHT, batched } from './batch.js';
import { json, ROWS, type Sql } from './db.js';

export type SessionQueries = Pick<
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
>;

const SESSION_COLUMNS = 'uuid, chatbot_uuid, meta_json, test, created_at, modified_at';

/**
 * Chat sessions and their messages. Messages, their ratings and a session's time are written on
 * every exchange and held in no cache, so they tell the other instances nothing.
 */
export function sessionQueries(sql: Sql): SessionQueries {
  const storeMessage = batched<MessageRow, void>({
    async one(row) {
      await sql.run(
        `WITH touched AS (
           UPDATE sessions SET modified_at = greatest(modified_at, $16) WHERE uuid = $2
         )
         INSERT INTO messages (${MESSAGE_INSERT_COLUMNS})
         VALUES ($1, $2, (SELECT chatbot_uuid FROM sessions WHERE uuid = $2), $3, $4, $5, $6, $7,
          $8, $9, $10, $11, $12, $13, $14, $15, $16)`,
        ...messageValues(row),
      );
    },
    async many(rows) {
      const values = rows.map(messageValues);
      const columns = values[0]!.map((_, c) => values.map((v) => v[c]));
      // Each session's time is the latest of its messages here, set once, and never earlier than
      // it was: a message saved alone can commit after a batch holding a later one. The sessions are
      // locked first, in the order of their uuids, as every statement that locks several does
      // (the rate limits too): in whatever order a plan visits them, two statements holding
      // each other's sessions would deadlock.
      await sql.run(
        `WITH r AS (
           SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[],
             $6::text[], $7::text[], $8::text[], $9::text[], $10::boolean[], $11::text[],
             $12::text[], $13::boolean[], $14::boolean[], $15::text[], $16::text[])
             WITH ORDINALITY AS r(uuid, session_uuid, query, query_norm, response, finish_reason,
               cite_data_json, meta_json, error_message, failed, feedback_json, rating, covered,
               escalated, created_at, modified_at, i)
         ), locked AS MATERIALIZED (
           SELECT uuid FROM sessions WHERE uuid IN (SELECT session_uuid FROM r)
           ORDER BY uuid FOR NO KEY UPDATE
         ), touched AS (
           UPDATE sessions s SET modified_at = greatest(s.modified_at, m.modified_at)
           FROM (SELECT session_uuid, max(modified_at) AS modified_at FROM r GROUP BY session_uuid) m
           WHERE s.uuid = m.session_uuid AND s.uuid IN (SELECT uuid FROM locked)
         )
         INSERT INTO messages (${MESSAGE_INSERT_COLUMNS})
         SELECT uuid, session_uuid, (SELECT chatbot_uuid FROM sessions WHERE sessions.uuid = r.session_uuid),
           query, query_norm, response, finish_reason, cite_data_json, meta_json, error_message,
           failed, feedback_json, rating, covered, escalated, created_at, modified_at
         FROM r ORDER BY i`,
        ...columns,
      );
      return rows.map(() => undefined);
    },
    inFlight: BATCHES_IN_FLIGHT,
    max: BATCH_MAX,
  });
  return {
    async createSession(row) {
      await sql.write(
        ROWS,
        `INSERT INTO sessions (uuid, chatbot_uuid, meta_json, test, created_at, modified_at)
         VALUES ($1, $2, $3, $4, $5, $6)`,
        row.uuid,
        row.chatbotUuid,
        row.meta == null ? null : json(row.meta),
        Boolean(row.test),
        row.created_at,
        row.modified_at,
      );
    },
    async getSession(uuid) {
      const r = await sql.one(`SELECT ${SESSION_COLUMNS} FROM sessions WHERE uuid = $1`, uuid);
      return r ? session(r) : undefined;
    },
    async listSessions(chatbotUuid) {
      const rows = await sql.all(
        `SELECT ${SESSION_COLUMNS} FROM sessions WHERE chatbot_uuid = $1 ORDER BY seq`,
        chatbotUuid,
      );
      return rows.map(session);
    },
    async deleteSession(uuid) {
      return (await sql.write(ROWS, 'DELETE FROM sessions WHERE uuid = $1', uuid)) > 0;
    },

    // One statement, so one round trip, moves the session's time with its last message.
    createMessage: storeMessage,
    async getMessage(uuid) {
      const r = await sql.one(`SELECT ${MESSAGE_COLUMNS} FROM messages WHERE uuid = $1`, uuid);
      return r ? message(r) : undefined;
    },
    async listMessages(sessionUuid) {
      const rows = await sql.all(
        `SELECT ${MESSAGE_COLUMNS} FROM messages WHERE session_uuid = $1 ORDER BY id`,
        sessionUuid,
      );
      return rows.map(message);
    },
    async recentMessages(sessionUuid, limit) {
      const rows = await sql.all(
        `SELECT ${MESSAGE_COLUMNS} FROM messages WHERE session_uuid = $1 ORDER BY id DESC LIMIT $2`,
        sessionUuid,
        limit,
      );
      return rows.map(message).reverse();
    },
    async deleteMessages(uuids) {
      await sql.run('DELETE FROM messages WHERE uuid = ANY($1)', uuids);
    },
    async setFeedback(uuid, feedback, now) {
      await sql.run(
        'UPDATE messages SET feedback_json = $1, rating = $2, modified_at = $3 WHERE uuid = $4',
        feedback ? json(feedback) : '',
        feedback?.rating ?? null,
        now,
        uuid,
      );
    },
  };
}
