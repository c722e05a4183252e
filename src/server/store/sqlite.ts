import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type {
  AgentRow,
  ChatbotRow,
  ChunkRow,
  KeyRow,
  MessageRow,
  SessionRow,
  SourceRow,
  Store,
  TagRow,
  UserRow,
} from './types.js';

/** Each entry moves the schema one version forward; `PRAGMA user_version` records where it is. */
export const MIGRATIONS: string[] = [
  `
  CREATE TABLE users (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE
  );
  CREATE TABLE api_keys (
    hash TEXT PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    chat_only TEXT
  );
  CREATE TABLE chatbots (
    uuid TEXT PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    settings_json TEXT NOT NULL,
    created_at TEXT NOT NULL,
    modified_at TEXT NOT NULL
  );
  CREATE INDEX chatbots_user ON chatbots(user_id);
  CREATE TABLE agents (
    uuid TEXT PRIMARY KEY,
    chatbot_uuid TEXT NOT NULL REFERENCES chatbots(uuid) ON DELETE CASCADE,
    name TEXT NOT NULL,
    type TEXT NOT NULL,
    description TEXT NOT NULL,
    prompt TEXT NOT NULL,
    enabled INTEGER NOT NULL,
    meta_json TEXT NOT NULL,
    data_source_uuids_json TEXT NOT NULL,
    human_escalation_json TEXT,
    variables_json TEXT NOT NULL,
    created_at TEXT NOT NULL,
    modified_at TEXT NOT NULL
  );
  CREATE INDEX agents_chatbot ON agents(chatbot_uuid);
  CREATE TABLE data_sources (
    uuid TEXT PRIMARY KEY,
    chatbot_uuid TEXT NOT NULL REFERENCES chatbots(uuid) ON DELETE CASCADE,
    title TEXT NOT NULL,
    type TEXT NOT NULL,
    status TEXT NOT NULL,
    file_name TEXT NOT NULL,
    file_size INTEGER NOT NULL,
    tokens INTEGER NOT NULL,
    meta_json TEXT NOT NULL,
    content BLOB,
    created_at TEXT NOT NULL,
    modified_at TEXT NOT NULL
  );
  CREATE INDEX data_sources_chatbot ON data_sources(chatbot_uuid);
  CREATE INDEX data_sources_status ON data_sources(status);
  CREATE TABLE chunks (
    id INTEGER PRIMARY KEY,
    source_uuid TEXT NOT NULL REFERENCES data_sources(uuid) ON DELETE CASCADE,
    chatbot_uuid TEXT NOT NULL,
    seq INTEGER NOT NULL,
    text TEXT NOT NULL
  );
  CREATE INDEX chunks_source ON chunks(source_uuid);
  CREATE INDEX chunks_chatbot ON chunks(chatbot_uuid);
  CREATE TABLE source_tags (
    uuid TEXT PRIMARY KEY,
    chatbot_uuid TEXT NOT NULL REFERENCES chatbots(uuid) ON DELETE CASCADE,
    name TEXT NOT NULL,
    color TEXT NOT NULL,
    created_at TEXT NOT NULL,
    modified_at TEXT NOT NULL
  );
  CREATE TABLE source_tag_members (
    tag_uuid TEXT NOT NULL REFERENCES source_tags(uuid) ON DELETE CASCADE,
    source_uuid TEXT NOT NULL REFERENCES data_sources(uuid) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    PRIMARY KEY (tag_uuid, source_uuid)
  );
  CREATE TABLE sessions (
    uuid TEXT PRIMARY KEY,
    chatbot_uuid TEXT NOT NULL REFERENCES chatbots(uuid) ON DELETE CASCADE,
    meta_json TEXT,
    created_at TEXT NOT NULL,
    modified_at TEXT NOT NULL
  );
  CREATE INDEX sessions_chatbot ON sessions(chatbot_uuid);
  CREATE TABLE messages (
    uuid TEXT PRIMARY KEY,
    session_uuid TEXT NOT NULL REFERENCES sessions(uuid) ON DELETE CASCADE,
    query TEXT NOT NULL,
    response TEXT NOT NULL,
    finish_reason TEXT NOT NULL,
    cite_data_json TEXT NOT NULL,
    meta_json TEXT NOT NULL,
    error_message TEXT NOT NULL,
    created_at TEXT NOT NULL,
    modified_at TEXT NOT NULL
  );
  CREATE INDEX messages_session ON messages(session_uuid);
  `,
  // Uploaded bytes move out of data_sources: SQLite reads through a row's large blob to reach the
  // columns after it, which made every source list read whole files.
  `
  CREATE TABLE source_contents (
    source_uuid TEXT PRIMARY KEY REFERENCES data_sources(uuid) ON DELETE CASCADE,
    content BLOB NOT NULL
  );
  INSERT INTO source_contents (source_uuid, content)
    SELECT uuid, content FROM data_sources WHERE content IS NOT NULL;
  ALTER TABLE data_sources DROP COLUMN content;
  `,
  // Chunks carry their section path, and Markdown/HTML/DOCX files are now chunked by structure:
  // stored files are queued again (`recover` at start picks up 'await'), so old stores get the
  // new chunks. Link sources keep theirs: re-chunking them would mean fetching the site again.
  `
  ALTER TABLE chunks ADD COLUMN heading TEXT NOT NULL DEFAULT '';
  UPDATE data_sources SET status = 'await'
    WHERE status = 'success' AND type = 'file'
      AND uuid IN (SELECT source_uuid FROM chunks);
  `,
];

type Row = Record<string, unknown>;

const json = (value: unknown) => JSON.stringify(value);
const parse = <T>(text: unknown): T => JSON.parse(String(text)) as T;

/** Opens (and migrates) a SQLite store; `path` may be `:memory:`. */
export function openSqliteStore(path: string): Store {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  migrate(db);

  const statements = new Map<string, Database.Statement>();
  const sql = (text: string) => {
    let statement = statements.get(text);
    if (!statement) {
      statement = db.prepare(text);
      statements.set(text, statement);
    }
    return statement;
  };
  const all = (text: string, ...params: unknown[]) => sql(text).all(...params) as Row[];
  const one = (text: string, ...params: unknown[]) => sql(text).get(...params) as Row | undefined;
  const run = (text: string, ...params: unknown[]) => sql(text).run(...params);

  const chatbot = (r: Row): ChatbotRow => ({
    uuid: String(r.uuid),
    userId: Number(r.user_id),
    name: String(r.name),
    ...parse<Omit<ChatbotRow, 'uuid' | 'userId' | 'name' | 'created_at' | 'modified_at'>>(
      r.settings_json,
    ),
    created_at: String(r.created_at),
    modified_at: String(r.modified_at),
  });
  const agent = (r: Row): AgentRow => ({
    uuid: String(r.uuid),
    chatbotUuid: String(r.chatbot_uuid),
    name: String(r.name),
    type: String(r.type) as AgentRow['type'],
    description: String(r.description),
    prompt: String(r.prompt),
    enabled: r.enabled === 1,
    meta: parse(r.meta_json),
    data_source_uuids: parse(r.data_source_uuids_json),
    human_escalation_settings: r.human_escalation_json ? parse(r.human_escalation_json) : null,
    variables: parse(r.variables_json),
    created_at: String(r.created_at),
    modified_at: String(r.modified_at),
  });
  const source = (r: Row): SourceRow => ({
    uuid: String(r.uuid),
    chatbotUuid: String(r.chatbot_uuid),
    title: String(r.title),
    type: String(r.type) as SourceRow['type'],
    status: String(r.status),
    file_name: String(r.file_name),
    file_size: Number(r.file_size),
    tokens: Number(r.tokens),
    meta: parse(r.meta_json),
    created_at: String(r.created_at),
    modified_at: String(r.modified_at),
  });
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
  const session = (r: Row): SessionRow => ({
    uuid: String(r.uuid),
    chatbotUuid: String(r.chatbot_uuid),
    meta: r.meta_json == null ? null : parse(r.meta_json),
    created_at: String(r.created_at),
    modified_at: String(r.modified_at),
  });
  const message = (r: Row): MessageRow => ({
    uuid: String(r.uuid),
    sessionUuid: String(r.session_uuid),
    query: String(r.query),
    response: String(r.response),
    finish_reason: String(r.finish_reason),
    cite_data: parse(r.cite_data_json),
    meta: parse(r.meta_json),
    error_message: String(r.error_message),
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

  const store: Store = {
    close: () => db.close(),

    ensureUser(name) {
      run('INSERT OR IGNORE INTO users (name) VALUES (?)', name);
      return store.findUser(name)!;
    },
    findUser(name) {
      const r = one('SELECT id, name FROM users WHERE name = ?', name);
      return r ? ({ id: Number(r.id), name: String(r.name) } satisfies UserRow) : undefined;
    },
    addKey(key) {
      run(
        'INSERT OR IGNORE INTO api_keys (hash, user_id, chat_only) VALUES (?, ?, ?)',
        key.hash,
        key.userId,
        key.chatOnly,
      );
    },
    findKey(hash) {
      const r = one('SELECT hash, user_id, chat_only FROM api_keys WHERE hash = ?', hash);
      return r
        ? ({
            hash: String(r.hash),
            userId: Number(r.user_id),
            chatOnly: r.chat_only == null ? null : String(r.chat_only),
          } satisfies KeyRow)
        : undefined;
    },

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
    updateChatbot(uuid, patch, now) {
      const current = store.getChatbot(uuid);
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
      run('DELETE FROM chatbots WHERE uuid = ?', uuid);
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
      const current = store.getAgent(uuid);
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
      run('DELETE FROM agents WHERE uuid = ?', uuid);
    },

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
      const current = store.getSource(uuid);
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
        for (const uuid of uuids) {
          const r = one('SELECT chatbot_uuid FROM data_sources WHERE uuid = ?', uuid);
          if (r) chatbots.add(String(r.chatbot_uuid));
          run('DELETE FROM data_sources WHERE uuid = ?', uuid);
        }
        for (const chatbotUuid of chatbots) {
          for (const a of store.listAgents(chatbotUuid)) {
            const kept = a.data_source_uuids.filter((u) => !gone.has(u));
            if (kept.length !== a.data_source_uuids.length) {
              store.updateAgent(a.uuid, { data_source_uuids: kept }, now);
            }
          }
        }
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
      ).map((r) => ({
        id: Number(r.id),
        sourceUuid: String(r.source_uuid),
        text: String(r.text),
        heading: String(r.heading ?? ''),
      }));
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
        const current = store.getTag(uuid);
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
      run('DELETE FROM source_tags WHERE uuid = ?', uuid);
    },

    createSession(row) {
      run(
        'INSERT INTO sessions (uuid, chatbot_uuid, meta_json, created_at, modified_at) VALUES (?, ?, ?, ?, ?)',
        row.uuid,
        row.chatbotUuid,
        row.meta == null ? null : json(row.meta),
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
      run('DELETE FROM sessions WHERE uuid = ?', uuid);
    },
    touchSession(uuid, now) {
      run('UPDATE sessions SET modified_at = ? WHERE uuid = ?', now, uuid);
    },

    createMessage(row) {
      run(
        `INSERT INTO messages (uuid, session_uuid, query, response, finish_reason, cite_data_json,
          meta_json, error_message, created_at, modified_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        row.uuid,
        row.sessionUuid,
        row.query,
        row.response,
        row.finish_reason,
        json(row.cite_data),
        json(row.meta),
        row.error_message,
        row.created_at,
        row.modified_at,
      );
    },
    getMessage(uuid) {
      const r = one('SELECT * FROM messages WHERE uuid = ?', uuid);
      return r ? message(r) : undefined;
    },
    listMessages(sessionUuid) {
      return all('SELECT * FROM messages WHERE session_uuid = ? ORDER BY rowid', sessionUuid).map(
        message,
      );
    },
    recentMessages(sessionUuid, limit) {
      return all(
        'SELECT * FROM messages WHERE session_uuid = ? ORDER BY rowid DESC LIMIT ?',
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
  };
  return store;
}

function migrate(db: Database.Database): void {
  const version = Number(db.pragma('user_version', { simple: true }));
  for (let v = version; v < MIGRATIONS.length; v++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[v]!);
      db.pragma(`user_version = ${v + 1}`);
    })();
  }
}
