import { chunk, SOURCE_COLUMNS, source } from '../rows.js';
import type { ChunkRow, Store } from '../types.js';
import { dropSourcesFromAgents } from './chatbots.js';
import { type Change, json, num, ROWS, type Sql } from './db.js';

export type SourceQueries = Pick<
  Store,
  | 'createSource'
  | 'getSource'
  | 'getSourceContent'
  | 'listSources'
  | 'listSourcesWithStatus'
  | 'updateSource'
  | 'deleteSources'
  | 'replaceChunks'
  | 'listChunks'
  | 'listSourceChunks'
  | 'chatbotsWithChunks'
  | 'chunkIds'
>;

/**
 * At most this many sources are named in one notification (PostgreSQL's payloads end at 8,000
 * bytes); past it, the other instances read the whole chatbot's chunks again.
 */
const MAX_NAMED_SOURCES = 100;

/** The chunks of `sources` changed: the other instances re-read those, not the whole chatbot. */
function chunksChanged(chatbotUuid: string, sources: string[]): Change {
  return sources.length > MAX_NAMED_SOURCES
    ? { kind: 'chunks', chatbotUuid }
    : { kind: 'chunks', chatbotUuid, sourceUuids: sources };
}

/**
 * Data sources and their chunks. Deleting sources and replacing chunks tell the other instances
 * which sources' chunks their search indexes hold stale, in the same transaction as the change.
 */
export function sourceQueries(sql: Sql): SourceQueries {
  const queries: SourceQueries = {
    createSource: (row, content) =>
      sql.tx(async (t) => {
        await t.run(
          `INSERT INTO data_sources (uuid, chatbot_uuid, title, type, status, file_name, file_size,
            tokens, meta_json, created_at, modified_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
          row.uuid,
          row.chatbotUuid,
          row.title,
          row.type,
          row.status,
          row.file_name,
          row.file_size,
          row.tokens,
          json(row.meta),
          row.created_at,
          row.modified_at,
        );
        if (content) {
          await t.run(
            'INSERT INTO source_contents (source_uuid, content) VALUES ($1, $2)',
            row.uuid,
            Buffer.from(content),
          );
        }
        await t.notify(...ROWS);
      }),
    async getSource(uuid) {
      const r = await sql.one(`SELECT ${SOURCE_COLUMNS} FROM data_sources WHERE uuid = $1`, uuid);
      return r ? source(r) : undefined;
    },
    async getSourceContent(uuid) {
      const r = await sql.one('SELECT content FROM source_contents WHERE source_uuid = $1', uuid);
      return r?.content ? new Uint8Array(r.content as Buffer) : null;
    },
    async listSources(chatbotUuid) {
      const rows = await sql.all(
        `SELECT ${SOURCE_COLUMNS} FROM data_sources WHERE chatbot_uuid = $1 ORDER BY seq`,
        chatbotUuid,
      );
      return rows.map(source);
    },
    async listSourcesWithStatus(statuses) {
      if (statuses.length === 0) return [];
      const rows = await sql.all(
        `SELECT ${SOURCE_COLUMNS} FROM data_sources WHERE status = ANY($1) ORDER BY seq`,
        [...statuses],
      );
      return rows.map(source);
    },
    updateSource: (uuid, patch, now) =>
      sql.tx(async (t) => {
        const r = await t.one(
          `SELECT ${SOURCE_COLUMNS} FROM data_sources WHERE uuid = $1 FOR UPDATE`,
          uuid,
        );
        if (!r) return;
        const next = { ...source(r), ...patch };
        await t.run(
          `UPDATE data_sources SET title = $1, status = $2, file_name = $3, file_size = $4,
            tokens = $5, meta_json = $6, modified_at = $7 WHERE uuid = $8`,
          next.title,
          next.status,
          next.file_name,
          next.file_size,
          next.tokens,
          json(next.meta),
          now,
          uuid,
        );
        await t.notify(...ROWS);
      }),
    deleteSources: (uuids, now) =>
      sql.tx(async (t) => {
        // Chunks, contents, tag memberships and queued jobs go by cascade.
        const deleted = await t.all(
          'DELETE FROM data_sources WHERE uuid = ANY($1) RETURNING uuid, chatbot_uuid',
          uuids,
        );
        const byChatbot = new Map<string, string[]>();
        for (const r of deleted) {
          const chatbotUuid = String(r.chatbot_uuid);
          const sources = byChatbot.get(chatbotUuid) ?? [];
          sources.push(String(r.uuid));
          byChatbot.set(chatbotUuid, sources);
        }
        if (byChatbot.size === 0) return 0;
        await dropSourcesFromAgents(t, [...byChatbot.keys()], new Set(uuids), now);
        await t.notify(
          ...ROWS,
          ...[...byChatbot].map(([chatbotUuid, sources]) => chunksChanged(chatbotUuid, sources)),
        );
        return deleted.length;
      }),
    replaceChunks: (sourceUuid, chunks) =>
      sql.tx(async (t) => {
        // Held, so that the source cannot be deleted between the read and the insert.
        const r = await t.one(
          'SELECT chatbot_uuid FROM data_sources WHERE uuid = $1 FOR SHARE',
          sourceUuid,
        );
        await t.run('DELETE FROM chunks WHERE source_uuid = $1', sourceUuid);
        if (!r) return [];
        const chatbotUuid = String(r.chatbot_uuid);
        const parts = chunks.map((chunk) =>
          typeof chunk === 'string'
            ? { text: chunk, heading: '' }
            : { text: chunk.text, heading: chunk.heading ?? '' },
        );
        const ids = await t.all(
          `INSERT INTO chunks (source_uuid, chatbot_uuid, seq, text, heading)
           SELECT $1, $2, u.n - 1, u.text, u.heading
             FROM unnest($3::text[], $4::text[]) WITH ORDINALITY AS u(text, heading, n)
             ORDER BY u.n
           RETURNING id, seq`,
          sourceUuid,
          chatbotUuid,
          parts.map((p) => p.text),
          parts.map((p) => p.heading),
        );
        const idOf = new Map(ids.map((row) => [num(row.seq), num(row.id)]));
        await t.notify(chunksChanged(chatbotUuid, [sourceUuid]));
        return parts.map(
          ({ text, heading }, seq): ChunkRow => ({ id: idOf.get(seq)!, sourceUuid, text, heading }),
        );
      }),
    async listChunks(chatbotUuid) {
      const rows = await sql.all(
        'SELECT id, source_uuid, text, heading FROM chunks WHERE chatbot_uuid = $1 ORDER BY id',
        chatbotUuid,
      );
      return rows.map(chunk);
    },
    async listSourceChunks(sourceUuid) {
      const rows = await sql.all(
        'SELECT id, source_uuid, text, heading FROM chunks WHERE source_uuid = $1 ORDER BY id',
        sourceUuid,
      );
      return rows.map(chunk);
    },
    async chatbotsWithChunks() {
      const rows = await sql.all('SELECT DISTINCT chatbot_uuid FROM chunks ORDER BY chatbot_uuid');
      return rows.map((r) => String(r.chatbot_uuid));
    },
    async chunkIds(sourceUuid) {
      const rows = await sql.all(
        'SELECT id FROM chunks WHERE source_uuid = $1 ORDER BY id',
        sourceUuid,
      );
      return rows.map((r) => num(r.id));
    },
  };
  return queries;
}
