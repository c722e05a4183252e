import { agent, chatbot } from '../rows.js';
import type { ChatbotRow, Store } from '../types.js';
import { type Immediate, json, parse, type Sql } from './db.js';

export type ChatbotQueries = Immediate<
  Pick<
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
  >
>;

/** Chatbots and their agents. */
export function chatbotQueries(sql: Sql): ChatbotQueries {
  const { all, one, run } = sql;
  const queries: ChatbotQueries = {
    createChatbot(row) {
      const { uuid, userId, name, created_at, modified_at, ...settings } = row;
      run(
        'INSERT INTO chatbots (uuid, user_id, name, settings_json, created_at, modified_at) VALUES (?, ?, ?, ?, ?, ?)',
        uuid,
        userId,
        name,
        json(settings),
        created_at,
        modified_at,
      );
    },
    getChatbot(uuid) {
      const r = one('SELECT * FROM chatbots WHERE uuid = ?', uuid);
      return r ? chatbot(r) : undefined;
    },
    listChatbots(userId) {
      return all('SELECT * FROM chatbots WHERE user_id = ? ORDER BY rowid', userId).map(chatbot);
    },
    listedOrigins() {
      const origins = all('SELECT settings_json FROM chatbots').flatMap(
        (r) => parse<Pick<ChatbotRow, 'allowed_origins'>>(r.settings_json).allowed_origins ?? [],
      );
      return [...new Set(origins)];
    },
    updateChatbot(uuid, patch, now) {
      const current = queries.getChatbot(uuid);
      if (!current) return;
      const {
        uuid: _u,
        userId,
        name,
        created_at,
        modified_at,
        ...settings
      } = {
        ...current,
        ...patch,
      };
      run(
        'UPDATE chatbots SET name = ?, settings_json = ?, modified_at = ? WHERE uuid = ?',
        name,
        json(settings),
        now,
        uuid,
      );
    },
    deleteChatbot(uuid) {
      return run('DELETE FROM chatbots WHERE uuid = ?', uuid).changes > 0;
    },

    createAgent(row) {
      run(
        `INSERT INTO agents (uuid, chatbot_uuid, name, type, description, prompt, enabled, meta_json,
          data_source_uuids_json, human_escalation_json, variables_json, created_at, modified_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        row.uuid,
        row.chatbotUuid,
        row.name,
        row.type,
        row.description,
        row.prompt,
        row.enabled ? 1 : 0,
        json(row.meta),
        json(row.data_source_uuids),
        row.human_escalation_settings ? json(row.human_escalation_settings) : null,
        json(row.variables),
        row.created_at,
        row.modified_at,
      );
    },
    getAgent(uuid) {
      const r = one('SELECT * FROM agents WHERE uuid = ?', uuid);
      return r ? agent(r) : undefined;
    },
    listAgents(chatbotUuid) {
      return all('SELECT * FROM agents WHERE chatbot_uuid = ? ORDER BY rowid', chatbotUuid).map(
        agent,
      );
    },
    updateAgent(uuid, patch, now) {
      const current = queries.getAgent(uuid);
      if (!current) return;
      const next = { ...current, ...patch };
      run(
        `UPDATE agents SET name = ?, description = ?, prompt = ?, enabled = ?, meta_json = ?,
          data_source_uuids_json = ?, human_escalation_json = ?, variables_json = ?, modified_at = ?
         WHERE uuid = ?`,
        next.name,
        next.description,
        next.prompt,
        next.enabled ? 1 : 0,
        json(next.meta),
        json(next.data_source_uuids),
        next.human_escalation_settings ? json(next.human_escalation_settings) : null,
        json(next.variables),
        now,
        uuid,
      );
    },
    deleteAgent(uuid) {
      return run('DELETE FROM agents WHERE uuid = ?', uuid).changes > 0;
    },
  };
  return queries;
}
