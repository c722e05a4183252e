import { agent, chatbot } from '../rows.js';
import type { AgentRow, Store } from '../types.js';
import { json, parse, ROWS, type Sql } from './db.js';

export type ChatbotQueries = Pick<
  Store,
  | 'createChatbot'
  | 'getChatbot'
  | 'listChatbots'
  | 'listedOrigins'
  | 'updateChatbot'
  | 'deleteChatbot'
  | 'createAgent'
  | 'getAgent'
  | 'listAgents'
  | 'updateAgent'
  | 'deleteAgent'
>;

/** Writes an agent's members back (its uuid, chatbot, type and created_at never change). */
const writeAgent = (t: Sql, a: AgentRow, now: string) =>
  t.run(
    `UPDATE agents SET name = $1, description = $2, prompt = $3, enabled = $4, meta_json = $5,
      data_source_uuids_json = $6, human_escalation_json = $7, variables_json = $8,
      modified_at = $9 WHERE uuid = $10`,
    a.name,
    a.description,
    a.prompt,
    a.enabled,
    json(a.meta),
    json(a.data_source_uuids),
    a.human_escalation_settings ? json(a.human_escalation_settings) : null,
    json(a.variables),
    now,
    a.uuid,
  );

/**
 * Chatbots and their agents. Updates read the row and write it back in one transaction, holding
 * it (FOR UPDATE) so that two instances patching it at once both keep their members.
 */
export function chatbotQueries(sql: Sql): ChatbotQueries {
  return {
    async createChatbot(row) {
      const { uuid, userId, name, created_at, modified_at, ...settings } = row;
      await sql.write(
        ROWS,
        `INSERT INTO chatbots (uuid, user_id, name, settings_json, created_at, modified_at)
         VALUES ($1, $2, $3, $4, $5, $6)`,
        uuid,
        userId,
        name,
        json(settings),
        created_at,
        modified_at,
      );
    },
    async getChatbot(uuid) {
      const r = await sql.one('SELECT * FROM chatbots WHERE uuid = $1', uuid);
      return r ? chatbot(r) : undefined;
    },
    async listChatbots(userId) {
      const rows = await sql.all('SELECT * FROM chatbots WHERE user_id = $1 ORDER BY seq', userId);
      return rows.map(chatbot);
    },
    async listedOrigins() {
      const rows = await sql.all('SELECT settings_json FROM chatbots ORDER BY seq');
      const origins = rows.flatMap(
        (r) => parse<{ allowed_origins?: string[] }>(r.settings_json).allowed_origins ?? [],
      );
      return [...new Set(origins)];
    },
    updateChatbot: (uuid, patch, now) =>
      sql.tx(async (t) => {
        const r = await t.one('SELECT * FROM chatbots WHERE uuid = $1 FOR UPDATE', uuid);
        if (!r) return;
        const {
          uuid: _u,
          userId: _id,
          name,
          created_at: _c,
          modified_at: _m,
          ...settings
        } = {
          ...chatbot(r),
          ...patch,
        };
        await t.run(
          'UPDATE chatbots SET name = $1, settings_json = $2, modified_at = $3 WHERE uuid = $4',
          name,
          json(settings),
          now,
          uuid,
        );
        await t.notify(...ROWS);
      }),
    async deleteChatbot(uuid) {
      // Its agents, sources, chunks, tags, sessions and messages go by cascade.
      const deleted = await sql.write(
        [...ROWS, { kind: 'chunks', chatbotUuid: uuid }],
        'DELETE FROM chatbots WHERE uuid = $1',
        uuid,
      );
      return deleted > 0;
    },

    async createAgent(row) {
      await sql.write(
        ROWS,
        `INSERT INTO agents (uuid, chatbot_uuid, name, type, description, prompt, enabled, meta_json,
          data_source_uuids_json, human_escalation_json, variables_json, created_at, modified_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
        row.uuid,
        row.chatbotUuid,
        row.name,
        row.type,
        row.description,
        row.prompt,
        row.enabled,
        json(row.meta),
        json(row.data_source_uuids),
        row.human_escalation_settings ? json(row.human_escalation_settings) : null,
        json(row.variables),
        row.created_at,
        row.modified_at,
      );
    },
    async getAgent(uuid) {
      const r = await sql.one('SELECT * FROM agents WHERE uuid = $1', uuid);
      return r ? agent(r) : undefined;
    },
    async listAgents(chatbotUuid) {
      const rows = await sql.all(
        'SELECT * FROM agents WHERE chatbot_uuid = $1 ORDER BY seq',
        chatbotUuid,
      );
      return rows.map(agent);
    },
    updateAgent: (uuid, patch, now) =>
      sql.tx(async (t) => {
        const r = await t.one('SELECT * FROM agents WHERE uuid = $1 FOR UPDATE', uuid);
        if (!r) return;
        await writeAgent(t, { ...agent(r), ...patch }, now);
        await t.notify(...ROWS);
      }),
    async deleteAgent(uuid) {
      return (await sql.write(ROWS, 'DELETE FROM agents WHERE uuid = $1', uuid)) > 0;
    },
  };
}

/**
 * Takes deleted sources out of the lists of the agents of `chatbots` that name them, as part of
 * the deleting transaction `t`.
 */
export async function dropSourcesFromAgents(
  t: Sql,
  chatbots: string[],
  gone: Set<string>,
  now: string,
): Promise<void> {
  const rows = await t.all(
    'SELECT * FROM agents WHERE chatbot_uuid = ANY($1) ORDER BY seq FOR UPDATE',
    chatbots,
  );
  for (const a of rows.map(agent)) {
    const kept = a.data_source_uuids.filter((u) => !gone.has(u));
    if (kept.length === a.data_source_uuids.length) continue;
    await writeAgent(t, { ...a, data_source_uuids: kept }, now);
  }
}
