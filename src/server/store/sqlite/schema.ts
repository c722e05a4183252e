import type Database from 'better-sqlite3';
import { answerMeta, normalizeQuestion, searchedResponseSql } from '../facts.js';
import { newerSchema } from '../newer-schema.js';

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
  // Review: messages are listed per chatbot, filtered by rating, coverage, escalation and error,
  // searched in full text and aggregated by day and by question. The table is rebuilt so that its
  // rowid is an INTEGER PRIMARY KEY: the full-text index refers to rows by rowid, which VACUUM may
  // renumber otherwise. Old messages get the meta members review reads (see facts.ts).
  `
  CREATE TABLE messages_v4 (
    id INTEGER PRIMARY KEY,
    uuid TEXT NOT NULL UNIQUE,
    session_uuid TEXT NOT NULL REFERENCES sessions(uuid) ON DELETE CASCADE,
    chatbot_uuid TEXT NOT NULL,
    query TEXT NOT NULL,
    -- normalizeQuestion(query): top questions and gaps group by it
    query_norm TEXT NOT NULL,
    response TEXT NOT NULL,
    finish_reason TEXT NOT NULL,
    cite_data_json TEXT NOT NULL,
    meta_json TEXT NOT NULL,
    error_message TEXT NOT NULL,
    feedback_json TEXT NOT NULL DEFAULT '',
    -- copies of what meta_json and feedback_json say, for indexes: 'up', 'down' or NULL; 0 or 1
    rating TEXT,
    covered INTEGER NOT NULL,
    escalated INTEGER NOT NULL,
    created_at TEXT NOT NULL,
    modified_at TEXT NOT NULL
  );
  INSERT INTO messages_v4 (id, uuid, session_uuid, chatbot_uuid, query, query_norm, response,
      finish_reason, cite_data_json, meta_json, error_message, covered, escalated, created_at,
      modified_at)
    SELECT id, uuid, session_uuid, chatbot_uuid, query, normalize_question(query), response,
        finish_reason, cite_data_json, meta, error_message,
        json_extract(meta, '$.covered'), coalesce(json_extract(meta, '$.escalated'), 0),
        created_at, modified_at
      FROM (SELECT m.rowid AS id, m.*, s.chatbot_uuid,
              answer_meta(m.meta_json, m.cite_data_json) AS meta
            FROM messages m JOIN sessions s ON s.uuid = m.session_uuid)
      ORDER BY id;
  DROP TABLE messages;
  ALTER TABLE messages_v4 RENAME TO messages;
  CREATE INDEX messages_session ON messages(session_uuid, created_at);
  CREATE INDEX messages_chatbot ON messages(chatbot_uuid, created_at, uuid);
  CREATE INDEX messages_chatbot_rating ON messages(chatbot_uuid, rating, created_at, uuid);
  CREATE INDEX messages_chatbot_covered ON messages(chatbot_uuid, covered, created_at, uuid);
  CREATE INDEX messages_chatbot_escalated ON messages(chatbot_uuid, created_at, uuid)
    WHERE escalated = 1;
  CREATE INDEX messages_chatbot_error ON messages(chatbot_uuid, created_at, uuid)
    WHERE error_message <> '';

  -- The conversation list pages through sessions by their last message, kept here by triggers.
  ALTER TABLE sessions ADD COLUMN last_activity TEXT;
  UPDATE sessions SET last_activity =
    (SELECT max(created_at) FROM messages WHERE session_uuid = sessions.uuid);
  CREATE INDEX sessions_activity ON sessions(chatbot_uuid, last_activity, uuid)
    WHERE last_activity IS NOT NULL;

  CREATE VIRTUAL TABLE messages_fts USING fts5(
    query, response, content = 'messages', content_rowid = 'id',
    tokenize = 'porter unicode61 remove_diacritics 2'
  );
  INSERT INTO messages_fts (messages_fts) VALUES ('rebuild');

  -- Deleting a session or a chatbot deletes its messages by cascade, which fires these too.
  CREATE TRIGGER messages_inserted AFTER INSERT ON messages BEGIN
    INSERT INTO messages_fts (rowid, query, response) VALUES (new.id, new.query, new.response);
    UPDATE sessions SET last_activity = new.created_at
      WHERE uuid = new.session_uuid
        AND (last_activity IS NULL OR last_activity < new.created_at);
  END;
  CREATE TRIGGER messages_deleted AFTER DELETE ON messages BEGIN
    INSERT INTO messages_fts (messages_fts, rowid, query, response)
      VALUES ('delete', old.id, old.query, old.response);
    UPDATE sessions SET last_activity =
        (SELECT max(created_at) FROM messages WHERE session_uuid = old.session_uuid)
      WHERE uuid = old.session_uuid;
  END;
  CREATE TRIGGER messages_edited AFTER UPDATE OF query, response ON messages BEGIN
    INSERT INTO messages_fts (messages_fts, rowid, query, response)
      VALUES ('delete', old.id, old.query, old.response);
    INSERT INTO messages_fts (rowid, query, response) VALUES (new.id, new.query, new.response);
  END;
  `,
  // Insights at 100,000 messages: the day, question and source counts read indexes only, never
  // the wide message rows. messages_activity also orders the chatbot-wide list, in place of
  // messages_chatbot; failed is error_message <> '' as a column an index can hold.
  `
  ALTER TABLE messages ADD COLUMN failed INTEGER NOT NULL DEFAULT 0;
  UPDATE messages SET failed = 1 WHERE error_message <> '';
  DROP INDEX messages_chatbot;
  DROP INDEX messages_chatbot_error;
  CREATE INDEX messages_activity ON messages(chatbot_uuid, created_at, uuid, session_uuid, covered,
    rating, escalated, failed, query_norm);
  CREATE INDEX messages_chatbot_failed ON messages(chatbot_uuid, created_at, uuid)
    WHERE failed = 1;

  -- The sources each message cited (meta_json's sources), one row each, for counting.
  CREATE TABLE message_sources (
    message_id INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
    source_uuid TEXT NOT NULL,
    chatbot_uuid TEXT NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (message_id, source_uuid)
  ) WITHOUT ROWID;
  INSERT OR IGNORE INTO message_sources (message_id, source_uuid, chatbot_uuid, created_at)
    SELECT m.id, j.value, m.chatbot_uuid, m.created_at
      FROM messages m, json_each(m.meta_json, '$.sources') j;
  CREATE INDEX message_sources_cited ON message_sources(chatbot_uuid, created_at, source_uuid);
  CREATE TRIGGER messages_cited AFTER INSERT ON messages BEGIN
    INSERT OR IGNORE INTO message_sources (message_id, source_uuid, chatbot_uuid, created_at)
      SELECT new.id, j.value, new.chatbot_uuid, new.created_at
        FROM json_each(new.meta_json, '$.sources') j;
  END;
  `,
  // Chatbots list the origins allowed to chat through a chat-only key; none listed: any.
  `
  UPDATE chatbots SET settings_json = json_set(settings_json, '$.allowed_origins', json('[]'))
    WHERE json_type(settings_json, '$.allowed_origins') IS NULL;
  `,
  // Documents visitors attach to questions, as their extracted text: owned by the uploading key's
  // user (and chatbot, for a chat-only key) until a message binds them to its session.
  `
  CREATE TABLE session_documents (
    uuid TEXT PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    chatbot_uuid TEXT REFERENCES chatbots(uuid) ON DELETE CASCADE,
    session_uuid TEXT REFERENCES sessions(uuid) ON DELETE CASCADE,
    filename TEXT NOT NULL,
    content_type TEXT NOT NULL,
    size INTEGER NOT NULL,
    markdown INTEGER NOT NULL,
    tokens INTEGER NOT NULL,
    text TEXT NOT NULL,
    created_at TEXT NOT NULL
  );
  CREATE INDEX session_documents_session ON session_documents(session_uuid, created_at);
  CREATE INDEX session_documents_chatbot ON session_documents(chatbot_uuid);
  CREATE INDEX session_documents_unbound ON session_documents(created_at)
    WHERE session_uuid IS NULL;
  `,
  // Work and limits that several server processes share move from memory into the database: the
  // ingestion queue (times in ms since the epoch), and each session's recent messages, counted
  // against its chatbot's rate limit, so that a restart no longer forgives.
  `
  CREATE TABLE ingest_jobs (
    source_uuid TEXT PRIMARY KEY REFERENCES data_sources(uuid) ON DELETE CASCADE,
    queued_at INTEGER NOT NULL,
    worker TEXT,
    lease_until INTEGER,
    -- the source changed while a worker held it: it runs once more when that worker finishes
    again INTEGER NOT NULL DEFAULT 0
  );
  CREATE INDEX ingest_jobs_queued ON ingest_jobs(queued_at);
  CREATE TABLE rate_hits (
    session_uuid TEXT NOT NULL REFERENCES sessions(uuid) ON DELETE CASCADE,
    at INTEGER NOT NULL
  );
  CREATE INDEX rate_hits_session ON rate_hits(session_uuid, at);
  `,
  // A chatbot's uploads through its chat-only keys are counted by time, against its upload limit.
  // IF (NOT) EXISTS: a store whose user_version was set back by hand runs this step again.
  `
  CREATE INDEX IF NOT EXISTS session_documents_uploads ON session_documents(chatbot_uuid, created_at);
  DROP INDEX IF EXISTS session_documents_chatbot;
  `,
  // Each visitor's recent messages to a chatbot, across sessions (a digest of the client's
  // address, never the address), until each leaves its window (times in ms since the epoch).
  `
  CREATE TABLE IF NOT EXISTS visitor_hits (
    chatbot_uuid TEXT NOT NULL REFERENCES chatbots(uuid) ON DELETE CASCADE,
    visitor TEXT NOT NULL,
    at INTEGER NOT NULL,
    until INTEGER NOT NULL
  );
  CREATE INDEX IF NOT EXISTS visitor_hits_visitor ON visitor_hits(chatbot_uuid, visitor, at);
  CREATE INDEX IF NOT EXISTS visitor_hits_until ON visitor_hits(until);
  `,
  // A message an agent answered before the sources were searched is no gap in them: review's
  // covered column counts it as covered (facts.ts, coveredForReview), and its meta says so.
  `
  UPDATE messages SET meta_json = answer_meta(meta_json, cite_data_json), covered = 1
    WHERE covered = 0 AND (escalated = 1
      OR json_extract(meta_json, '$.rule') IN ('spam-defense', 'human-escalation', 'no-agent'));
  `,
  // The server process using the file (see claimFile in sqlite.ts): one row at most.
  `
  CREATE TABLE IF NOT EXISTS server_claim (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    pid INTEGER NOT NULL,
    host TEXT NOT NULL,
    started_at TEXT NOT NULL
  );
  `,
  // Insights count each source's citations of a period: in source order, the grouping reads the
  // index as it is instead of sorting the period's rows (48 → 19 ms at 100,000 messages).
  `
  DROP INDEX IF EXISTS message_sources_cited;
  CREATE INDEX IF NOT EXISTS message_sources_by_source
    ON message_sources(chatbot_uuid, source_uuid, created_at);
  `,
  // The owner's tests (the admin's Try it) are kept out of the review, which finds them here and
  // leaves out their messages by rowid, which every index holds: reading the flag would cost each
  // message's session row. The sessions stored before are visitors': which key made them is not
  // known.
  `
  ALTER TABLE sessions ADD COLUMN test INTEGER NOT NULL DEFAULT 0;
  CREATE INDEX IF NOT EXISTS sessions_tests ON sessions(chatbot_uuid, uuid) WHERE test = 1;
  `,
  // The search reads a refusal up to its offered topics (facts.ts searchedResponseSql): the
  // index's content is a view of the text it reads (what a rebuild or SQLite's integrity check
  // compares it with), and its triggers give it the same text to delete.
  `
  DROP TRIGGER messages_inserted;
  DROP TRIGGER messages_deleted;
  DROP TRIGGER messages_edited;
  DROP TABLE messages_fts;
  CREATE VIEW messages_searched AS
    SELECT id, query, ${searchedResponseSql('', 'sqlite')} AS response FROM messages;
  CREATE VIRTUAL TABLE messages_fts USING fts5(
    query, response, content = 'messages_searched', content_rowid = 'id',
    tokenize = 'porter unicode61 remove_diacritics 2'
  );
  INSERT INTO messages_fts (messages_fts) VALUES ('rebuild');
  CREATE TRIGGER messages_inserted AFTER INSERT ON messages BEGIN
    INSERT INTO messages_fts (rowid, query, response)
      VALUES (new.id, new.query, ${searchedResponseSql('new.', 'sqlite')});
    UPDATE sessions SET last_activity = new.created_at
      WHERE uuid = new.session_uuid
        AND (last_activity IS NULL OR last_activity < new.created_at);
  END;
  CREATE TRIGGER messages_deleted AFTER DELETE ON messages BEGIN
    INSERT INTO messages_fts (messages_fts, rowid, query, response)
      VALUES ('delete', old.id, old.query, ${searchedResponseSql('old.', 'sqlite')});
    UPDATE sessions SET last_activity =
        (SELECT max(created_at) FROM messages WHERE session_uuid = old.session_uuid)
      WHERE uuid = old.session_uuid;
  END;
  CREATE TRIGGER messages_edited AFTER UPDATE OF query, response, meta_json ON messages BEGIN
    INSERT INTO messages_fts (messages_fts, rowid, query, response)
      VALUES ('delete', old.id, old.query, ${searchedResponseSql('old.', 'sqlite')});
    INSERT INTO messages_fts (rowid, query, response)
      VALUES (new.id, new.query, ${searchedResponseSql('new.', 'sqlite')});
  END;
  `,
];

/** JavaScript the migrations call, so that they fill columns in as the store's inserts do. */
function registerFunctions(db: Database.Database): void {
  db.function('normalize_question', { deterministic: true }, (query) =>
    normalizeQuestion(String(query)),
  );
  db.function('answer_meta', { deterministic: true }, (meta, citeData) =>
    JSON.stringify(answerMeta(JSON.parse(String(meta)), JSON.parse(String(citeData)))),
  );
}

/**
 * Whether a step's tables are there already, for the steps that cannot run twice: a store whose
 * user_version was set back by hand (as tests fake an older store) keeps its newer tables, and
 * such a step is then skipped rather than failing the start.
 */
const APPLIED: Record<number, string> = {
  3: "SELECT 1 FROM pragma_table_info('messages') WHERE name = 'chatbot_uuid'",
  4: "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'message_sources'",
  6: "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'session_documents'",
  7: "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'ingest_jobs'",
  13: "SELECT 1 FROM pragma_table_info('sessions') WHERE name = 'test'",
  14: "SELECT 1 FROM sqlite_master WHERE type = 'view' AND name = 'messages_searched'",
};

/** Brings the schema to the last version, one transaction per step. */
export function migrate(db: Database.Database): void {
  const version = Number(db.pragma('user_version', { simple: true }));
  // Its tables may mean what this version cannot know: writing them could lose data.
  if (version > MIGRATIONS.length) throw newerSchema(version, MIGRATIONS.length);
  if (version < MIGRATIONS.length) registerFunctions(db);
  for (let v = version; v < MIGRATIONS.length; v++) {
    db.transaction(() => {
      const applied = APPLIED[v] !== undefined && db.prepare(APPLIED[v]).get() !== undefined;
      if (!applied) db.exec(MIGRATIONS[v]!);
      db.pragma(`user_version = ${v + 1}`);
    })();
  }
}
