import type Database from 'better-sqlite3';

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

/** Brings the schema to the last version, one transaction per step. */
export function migrate(db: Database.Database): void {
  const version = Number(db.pragma('user_version', { simple: true }));
  for (let v = version; v < MIGRATIONS.length; v++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[v]!);
      db.pragma(`user_version = ${v + 1}`);
    })();
  }
}
