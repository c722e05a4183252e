import type { Store, TagRow } from '../types.js';
import { ROWS, type Row, type Sql } from './db.js';

export type TagQueries = Pick<
  Store,
  'createTag' | 'getTag' | 'listTags' | 'updateTag' | 'deleteTag'
>;

/** A tag's columns and its sources in their order, read in one query. */
const TAG = `SELECT t.uuid, t.chatbot_uuid, t.name, t.color, t.created_at, t.modified_at,
    array(SELECT m.source_uuid FROM source_tag_members m WHERE m.tag_uuid = t.uuid ORDER BY m.seq)
      AS data_source_uuids
  FROM source_tags t`;

const tag = (r: Row): TagRow => ({
  uuid: String(r.uuid),
  chatbotUuid: String(r.chatbot_uuid),
  name: String(r.name),
  color: String(r.color),
  data_source_uuids: (r.data_source_uuids as unknown[]).map(String),
  created_at: String(r.created_at),
  modified_at: String(r.modified_at),
});

const setMembers = async (t: Sql, tagUuid: string, sources: string[]) => {
  await t.run('DELETE FROM source_tag_members WHERE tag_uuid = $1', tagUuid);
  await t.run(
    `INSERT INTO source_tag_members (tag_uuid, source_uuid, seq)
     SELECT $1, u.source_uuid, u.n - 1 FROM unnest($2::text[]) WITH ORDINALITY AS u(source_uuid, n)`,
    tagUuid,
    sources,
  );
};

/** The tags that group a chatbot's sources; deleting a source takes it out by cascade. */
export function tagQueries(sql: Sql): TagQueries {
  return {
    createTag: (row) =>
      sql.tx(async (t) => {
        await t.run(
          `INSERT INTO source_tags (uuid, chatbot_uuid, name, color, created_at, modified_at)
           VALUES ($1, $2, $3, $4, $5, $6)`,
          row.uuid,
          row.chatbotUuid,
          row.name,
          row.color,
          row.created_at,
          row.modified_at,
        );
        await setMembers(t, row.uuid, row.data_source_uuids);
        await t.notify(...ROWS);
      }),
    async getTag(uuid) {
      const r = await sql.one(`${TAG} WHERE t.uuid = $1`, uuid);
      return r ? tag(r) : undefined;
    },
    async listTags(chatbotUuid) {
      const rows = await sql.all(`${TAG} WHERE t.chatbot_uuid = $1 ORDER BY t.seq`, chatbotUuid);
      return rows.map(tag);
    },
    updateTag: (uuid, patch, now) =>
      sql.tx(async (t) => {
        const r = await t.one(`${TAG} WHERE t.uuid = $1 FOR UPDATE OF t`, uuid);
        if (!r) return;
        const next = { ...tag(r), ...patch };
        await t.run(
          'UPDATE source_tags SET name = $1, color = $2, modified_at = $3 WHERE uuid = $4',
          next.name,
          next.color,
          now,
          uuid,
        );
        if (patch.data_source_uuids) await setMembers(t, uuid, patch.data_source_uuids);
        await t.notify(...ROWS);
      }),
    async deleteTag(uuid) {
      return (await sql.write(ROWS, 'DELETE FROM source_tags WHERE uuid = $1', uuid)) > 0;
    },
  };
}
