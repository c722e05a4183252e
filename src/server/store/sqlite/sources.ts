import { chunk, source } from '../rows.js';
import type { ChunkRow, Store, TagRow } from '../types.js';
import { type Immediate, json, type Row, type Sql } from './db.js';

export type SourceQueries = Immediate<
  Pick<
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
    | 'createTag'
    | 'getTag'
    | 'listTags'
    | 'updateTag'
    | 'deleteTag'
  >
>;

/**
 * Data sources, their chunks and the tags that group them. `agents`: deleting sources takes them
 * out of the agents that name them, in the same transaction.
 */
export function sourceQueries(
  sql: Sql,
  agents: Immediate<Pick<Store, 'listAgents' | 'updateAgent'>>,
): SourceQueries {
  const { db, all, one, run } = sql;
  const tag = (r: Row): TagRow => ({
    uuid: String(r.uuid),
    chatbotUuid: String(r.chatbot_uuid),
    name: String(r.name),
    color: String(r.color),
    data_source_uuids: all(
      'SELECT source_uuid FROM source_tag_members WHERE tag_uuid = ? ORDER BY seq',
      r.uuid,
    ).map((m) => String(m.source_uuid)),
    created_at: String(r.created_at),
    modified_at: String(r.modified_at),
  });

  const setTagMembers = (tagUuid: string, sources: string[]) => {
    run('DELETE FROM source_tag_members WHERE tag_uuid = ?', tagUuid);
    sources.forEach((sourceUuid, seq) => {
      run(
        'INSERT INTO source_tag_members (tag_uuid, source_uuid, seq) VALUES (?, ?, ?)',
        tagUuid,
        sourceUuid,
        seq,
      );
    });
  };

  const queries: SourceQueries = {
    createSource: (row, content) =>
      db.transaction(() => {
        run(
          `INSERT INTO data_sources (uuid, chatbot_uuid, title, type, status, file_name, file_size, tokens,
          meta_json, created_at, modified_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
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
          run(
            'INSERT INTO source_contents (source_uuid, content) VALUES (?, ?)',
            row.uuid,
            Buffer.from(content),
          );
        }
      })(),
    getSource(uuid) {
      const r = one(
        `SELECT uuid, chatbot_uuid, title, type, status, file_name, file_size, tokens, meta_json,
          created_at, modified_at FROM data_sources WHERE uuid = ?`,
        uuid,
      );
      return r ? source(r) : undefined;
    },
    getSourceContent(uuid) {
      const r = one('SELECT content FROM source_contents WHERE source_uuid = ?', uuid);
      return r?.content ? new Uint8Array(r.content as Buffer) : null;
    },
    listSources(chatbotUuid) {
      return all(
        `SELECT uuid, chatbot_uuid, title, type, status, file_name, file_size, tokens, meta_json,
          created_at, modified_at FROM data_sources WHERE chatbot_uuid = ? ORDER BY rowid`,
        chatbotUuid,
      ).map(source);
    },
    listSourcesWithStatus(statuses) {
      if (statuses.length === 0) return [];
      return db
        .prepare(
          `SELECT uuid, chatbot_uuid, title, type, status, file_name, file_size, tokens, meta_json,
            created_at, modified_at FROM data_sources
           WHERE status IN (${statuses.map(() => '?').join(', ')}) ORDER BY rowid`,
        )
        .all(...statuses)
        .map((r) => source(r as Row));
    },
    updateSource(uuid, patch, now) {
      const current = queries.getSource(uuid);
      if (!current) return;
      const next = { ...current, ...patch };
      run(
        `UPDATE data_sources SET title = ?, status = ?, file_name = ?, file_size = ?, tokens = ?,
          meta_json = ?, modified_at = ? WHERE uuid = ?`,
        next.title,
        next.status,
        next.file_name,
        next.file_size,
        next.tokens,
        json(next.meta),
        now,
        uuid,
      );
    },
    deleteSources: (uuids, now) =>
      db.transaction(() => {
        const gone = new Set(uuids);
        const chatbots = new Set<string>();
        let deleted = 0;
        for (const uuid of uuids) {
          const r = one('SELECT chatbot_uuid FROM data_sources WHERE uuid = ?', uuid);
          if (r) chatbots.add(String(r.chatbot_uuid));
          deleted += run('DELETE FROM data_sources WHERE uuid = ?', uuid).changes;
        }
        for (const chatbotUuid of chatbots) {
          for (const a of agents.listAgents(chatbotUuid)) {
            const kept = a.data_source_uuids.filter((u) => !gone.has(u));
            if (kept.length !== a.data_source_uuids.length) {
              agents.updateAgent(a.uuid, { data_source_uuids: kept }, now);
            }
          }
        }
        return deleted;
      })(),
    replaceChunks: (sourceUuid, chunks) =>
      db.transaction(() => {
        const r = one('SELECT chatbot_uuid FROM data_sources WHERE uuid = ?', sourceUuid);
        run('DELETE FROM chunks WHERE source_uuid = ?', sourceUuid);
        if (!r) return [];
        return chunks.map((chunk, seq) => {
          const { text, heading = '' } = typeof chunk === 'string' ? { text: chunk } : chunk;
          const info = run(
            'INSERT INTO chunks (source_uuid, chatbot_uuid, seq, text, heading) VALUES (?, ?, ?, ?, ?)',
            sourceUuid,
            r.chatbot_uuid,
            seq,
            text,
            heading,
          );
          return { id: Number(info.lastInsertRowid), sourceUuid, text, heading } satisfies ChunkRow;
        });
      })(),
    listChunks(chatbotUuid) {
      return all(
        'SELECT id, source_uuid, text, heading FROM chunks WHERE chatbot_uuid = ? ORDER BY id',
        chatbotUuid,
      ).map(chunk);
    },
    listSourceChunks(sourceUuid) {
      return all(
        'SELECT id, source_uuid, text, heading FROM chunks WHERE source_uuid = ? ORDER BY id',
        sourceUuid,
      ).map(chunk);
    },
    chatbotsWithChunks() {
      return all('SELECT DISTINCT chatbot_uuid FROM chunks').map((r) => String(r.chatbot_uuid));
    },
    chunkIds(sourceUuid) {
      return all('SELECT id FROM chunks WHERE source_uuid = ?', sourceUuid).map((r) =>
        Number(r.id),
      );
    },

    createTag: (row) =>
      db.transaction(() => {
        run(
          'INSERT INTO source_tags (uuid, chatbot_uuid, name, color, created_at, modified_at) VALUES (?, ?, ?, ?, ?, ?)',
          row.uuid,
          row.chatbotUuid,
          row.name,
          row.color,
          row.created_at,
          row.modified_at,
        );
        setTagMembers(row.uuid, row.data_source_uuids);
      })(),
    getTag(uuid) {
      const r = one('SELECT * FROM source_tags WHERE uuid = ?', uuid);
      return r ? tag(r) : undefined;
    },
    listTags(chatbotUuid) {
      return all(
        'SELECT * FROM source_tags WHERE chatbot_uuid = ? ORDER BY rowid',
        chatbotUuid,
      ).map(tag);
    },
    updateTag: (uuid, patch, now) =>
      db.transaction(() => {
        const current = queries.getTag(uuid);
        if (!current) return;
        const next = { ...current, ...patch };
        run(
          'UPDATE source_tags SET name = ?, color = ?, modified_at = ? WHERE uuid = ?',
          next.name,
          next.color,
          now,
          uuid,
        );
        if (patch.data_source_uuids) setTagMembers(uuid, patch.data_source_uuids);
      })(),
    deleteTag(uuid) {
      return run('DELETE FROM source_tags WHERE uuid = ?', uuid).changes > 0;
    },
  };
  return queries;
}
