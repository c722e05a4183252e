/**
 * Rows as both stores hand them out, read from their columns (PostgreSQL's are named as SQLite's
 * are), so the two give the same objects member for member. The few differences of the engines
 * are absorbed here: a flag is 0/1 in SQLite and a boolean in PostgreSQL, and PostgreSQL sends
 * int8 counts as strings.
 */
import { answerMeta, coveredForReview, normalizeQuestion } from './facts.js';
import type {
  AgentRow,
  ChatbotRow,
  ChunkRow,
  MessageFilter,
  MessageRow,
  SessionDocumentRow,
  SessionRow,
  SourceRow,
} from './types.js';

export type Row = Record<string, unknown>;

/** JSON's escape of U+0000, after an even number of backslashes (an odd one escapes the "\"). */
const NUL_ESCAPE = /(?<!\\)((?:\\\\)*)\\u0000/g;

/**
 * JSON text, with U+FFFD for any NUL a user's text carried in (as an HTML parser reads one):
 * PostgreSQL's jsonb cannot hold U+0000 (a message's trigger reads its meta_json as jsonb), nor
 * its text a NUL byte; both stores write the same.
 */
export const json = (value: unknown): string => {
  const text = JSON.stringify(value);
  return text?.includes('\\u0000') ? text.replace(NUL_ESCAPE, '$1\\ufffd') : text;
};
export const parse = <T>(text: unknown): T => JSON.parse(String(text)) as T;
/** Counts and ids: int8 arrives as a string from PostgreSQL (ours never exceed a double). */
export const num = (value: unknown) => Number(value ?? 0);
const flag = (value: unknown) => value === true || value === 1;

export const chatbot = (r: Row): ChatbotRow => ({
  uuid: String(r.uuid),
  userId: num(r.user_id),
  name: String(r.name),
  ...parse<Omit<ChatbotRow, 'uuid' | 'userId' | 'name' | 'created_at' | 'modified_at'>>(
    r.settings_json,
  ),
  created_at: String(r.created_at),
  modified_at: String(r.modified_at),
});

export const agent = (r: Row): AgentRow => ({
  uuid: String(r.uuid),
  chatbotUuid: String(r.chatbot_uuid),
  name: String(r.name),
  type: String(r.type) as AgentRow['type'],
  description: String(r.description),
  prompt: String(r.prompt),
  enabled: flag(r.enabled),
  meta: parse(r.meta_json),
  data_source_uuids: parse(r.data_source_uuids_json),
  human_escalation_settings: r.human_escalation_json ? parse(r.human_escalation_json) : null,
  variables: parse(r.variables_json),
  created_at: String(r.created_at),
  modified_at: String(r.modified_at),
});

export const SOURCE_COLUMNS = `uuid, chatbot_uuid, title, type, status, file_name, file_size, tokens,
  meta_json, created_at, modified_at`;

export const source = (r: Row): SourceRow => ({
  uuid: String(r.uuid),
  chatbotUuid: String(r.chatbot_uuid),
  title: String(r.title),
  type: String(r.type) as SourceRow['type'],
  status: String(r.status),
  file_name: String(r.file_name),
  file_size: num(r.file_size),
  tokens: num(r.tokens),
  meta: parse(r.meta_json),
  created_at: String(r.created_at),
  modified_at: String(r.modified_at),
});

/** A row of `chunks`, as both stores read it (`id, source_uuid, text, heading`). */
export const chunk = (r: Row): ChunkRow => ({
  id: num(r.id),
  sourceUuid: String(r.source_uuid),
  text: String(r.text),
  heading: String(r.heading ?? ''),
});

export const session = (r: Row): SessionRow => ({
  uuid: String(r.uuid),
  chatbotUuid: String(r.chatbot_uuid),
  meta: r.meta_json == null ? null : parse(r.meta_json),
  test: flag(r.test),
  created_at: String(r.created_at),
  modified_at: String(r.modified_at),
});

/** The columns `message` reads: never the search vector, which is as long as the text again. */
export const MESSAGE_COLUMNS = `uuid, session_uuid, query, response, finish_reason, cite_data_json,
  meta_json, error_message, feedback_json, created_at, modified_at`;

export const message = (r: Row): MessageRow => ({
  uuid: String(r.uuid),
  sessionUuid: String(r.session_uuid),
  query: String(r.query),
  response: String(r.response),
  finish_reason: String(r.finish_reason),
  cite_data: parse(r.cite_data_json),
  meta: parse(r.meta_json),
  error_message: String(r.error_message),
  feedback: r.feedback_json ? parse(r.feedback_json) : null,
  created_at: String(r.created_at),
  modified_at: String(r.modified_at),
  ...(r.test == null ? {} : { test: flag(r.test) }),
});

/** Whether the session of message `m` is the owner's test: a lookup by the session's key. */
export const SESSION_TEST = '(SELECT s.test FROM sessions s WHERE s.uuid = m.session_uuid) AS test';

/**
 * The column `message` reads as `test` for a filter that takes the owner's tests with visitors'
 * sessions (`test` absent): which they are, per row read.
 */
export const testColumn = (test: MessageFilter['test']) => (test ? '' : `, ${SESSION_TEST}`);

/**
 * What storing a message writes, both stores alike: the columns in order, the chatbot's third
 * (each store reads it from the session), and the values of the others. The copies of what
 * meta_json, feedback_json and error_message say are for the review's indexes; flags are
 * booleans here, which SQLite's statement turns into 0/1.
 */
export const MESSAGE_INSERT_COLUMNS = `uuid, session_uuid, chatbot_uuid, query, query_norm, response,
  finish_reason, cite_data_json, meta_json, error_message, failed, feedback_json, rating, covered,
  escalated, created_at, modified_at`;

export function messageValues(row: MessageRow): unknown[] {
  const meta = answerMeta(row.meta, row.cite_data);
  return [
    row.uuid,
    row.sessionUuid,
    row.query,
    normalizeQuestion(row.query),
    row.response,
    row.finish_reason,
    json(row.cite_data),
    json(meta),
    row.error_message,
    Boolean(row.error_message),
    row.feedback ? json(row.feedback) : '',
    row.feedback?.rating ?? null,
    coveredForReview(meta),
    Boolean(meta.escalated),
    row.created_at,
    row.modified_at,
  ];
}

export const document = (r: Row): SessionDocumentRow => ({
  uuid: String(r.uuid),
  userId: num(r.user_id),
  chatbotUuid: r.chatbot_uuid == null ? null : String(r.chatbot_uuid),
  sessionUuid: r.session_uuid == null ? null : String(r.session_uuid),
  filename: String(r.filename),
  content_type: String(r.content_type),
  size: num(r.size),
  markdown: flag(r.markdown),
  tokens: num(r.tokens),
  text: String(r.text),
  created_at: String(r.created_at),
});

/**
 * What a rate-limit window answers (a session's or a visitor's), from its `hits` and `oldest`
 * hit as a store counted them: full once `limit` hits are in it, and then the whole seconds until
 * the oldest leaves it (at least 1); null while there is room. Times in ms since the epoch.
 */
export function windowWait(
  counted: Row | undefined,
  limit: number,
  windowMs: number,
  now: number,
): { retryAfter: number } | null {
  if (Number(counted?.hits ?? 0) < limit) return null;
  const oldest = counted?.oldest == null ? now : Number(counted.oldest);
  return { retryAfter: Math.max(1, Math.ceil((oldest + windowMs - now) / 1000)) };
}
