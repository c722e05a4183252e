/**
 * The narrow interface every route and the knowledge layer use to reach storage. Only
 * implementations of it (`sqlite.ts` with its queries in `sqlite/`, `postgres.ts` with `postgres/`)
 * contain SQL. Async throughout, because PostgreSQL answers over a socket; SQLite's answers are
 * ready at once and cost only the promise. Rows are plain objects; JSON members already decoded.
 */
import type {
  AgentMeta,
  AgentType,
  AgentVariable,
  ConversationSummary,
  Feedback,
  HumanEscalationSettings,
  Rating,
  SessionData,
  TestSessions,
} from '../../api/types.js';

export interface UserRow {
  id: number;
  name: string;
}

export interface KeyRow {
  userId: number;
  /** A chat-only key reaches only this chatbot's session and message endpoints. */
  chatOnly: string | null;
  /** sha256 of the key, hex. */
  hash: string;
}

export interface ChatbotSettings {
  rate_limit: [number, number];
  rate_limit_message: string;
  show_citations: boolean;
  visibility: string;
  /**
   * Origins whose pages may chat through a chat-only key; empty: any. Optional, so rows written
   * without it (tests and benchmarks that fill a store directly) still read as "any".
   */
  allowed_origins?: string[];
}

export interface ChatbotRow extends ChatbotSettings {
  uuid: string;
  userId: number;
  name: string;
  created_at: string;
  modified_at: string;
}

export interface AgentRow {
  uuid: string;
  chatbotUuid: string;
  name: string;
  type: AgentType;
  description: string;
  prompt: string;
  enabled: boolean;
  meta: AgentMeta;
  data_source_uuids: string[];
  human_escalation_settings: HumanEscalationSettings | null;
  variables: AgentVariable[];
  created_at: string;
  modified_at: string;
}

export interface SourceRow {
  uuid: string;
  chatbotUuid: string;
  title: string;
  type: 'qa' | 'link' | 'file';
  status: string;
  file_name: string;
  file_size: number;
  tokens: number;
  meta: Record<string, unknown>;
  created_at: string;
  modified_at: string;
}

export interface ChunkRow {
  id: number;
  sourceUuid: string;
  text: string;
  /** The section path the chunk sits in ("The API module › Errors"); empty for plain text. */
  heading?: string;
}

export interface TagRow {
  uuid: string;
  chatbotUuid: string;
  name: string;
  color: string;
  data_source_uuids: string[];
  created_at: string;
  modified_at: string;
}

export interface SessionRow {
  uuid: string;
  chatbotUuid: string;
  meta: SessionData | null;
  /**
   * The owner's test (the admin's Try it): the review leaves it out unless asked. Optional, so
   * rows written without it (tests and benchmarks that fill a store directly) are visitors'.
   */
  test?: boolean;
  created_at: string;
  modified_at: string;
}

export interface MessageRow {
  uuid: string;
  sessionUuid: string;
  query: string;
  response: string;
  finish_reason: string;
  cite_data: Record<string, unknown>;
  meta: Record<string, unknown>;
  error_message: string;
  /** A visitor's rating of the answer; null when not rated (or the rating was withdrawn). */
  feedback: Feedback | null;
  created_at: string;
  modified_at: string;
  /**
   * Whether its session is the owner's test: read by `findMessages` only, where the filter
   * takes tests and visitors' sessions alike (otherwise the filter says).
   */
  test?: boolean;
}

/**
 * A file a visitor attached to a question, kept as its extracted text. It belongs to the
 * uploading key's user (and, for a chat-only key, to that key's chatbot) until a message sends
 * it, which binds it to that message's session for good.
 */
export interface SessionDocumentRow {
  uuid: string;
  userId: number;
  /** Set when a chat-only key uploaded it: only that chatbot's sessions may use it. */
  chatbotUuid: string | null;
  /** Null until the first message that sends it. */
  sessionUuid: string | null;
  filename: string;
  content_type: string;
  /** Bytes uploaded. */
  size: number;
  /** Markdown (or HTML and Word turned into it): chunked by its structure. */
  markdown: boolean;
  /** What the context limits count: the text's length / 4, rounded up. */
  tokens: number;
  text: string;
  created_at: string;
}

/**
 * What the review lists, the export and the insights select by. Times are `YYYY-MM-DDTHH:MM:SSZ`,
 * as messages store them: `from` inclusive, `to` exclusive.
 */
export interface MessageFilter {
  /** Words every matching message holds in its query or response (the last one as a prefix). */
  words?: string[];
  rating?: Rating | 'none';
  covered?: boolean;
  escalated?: boolean;
  error?: boolean;
  from?: string;
  to?: string;
  session?: string;
  /** The owner's test sessions: left out, or the only ones; absent, counted as any other. */
  test?: Exclude<TestSessions, 'include'>;
}

/** A place in a list ordered by (time DESC, uuid DESC): the page goes on after it. */
export interface Keyset {
  at: string;
  uuid: string;
}

/**
 * A day of an insights period as its reader counts it (review/zone.ts): `date` from `from`
 * (inclusive) to `to` (exclusive). The days of a period follow each other without a gap.
 */
export interface PeriodDay {
  date: string;
  from: string;
  to: string;
}

/** The period's numbers as a store aggregates them; the route fills in days, titles and gaps. */
export interface InsightsRows {
  /** Only days with messages, as the period's days date them. */
  days: Array<{
    date: string;
    conversations: number;
    messages: number;
    not_covered: number;
    up: number;
    down: number;
  }>;
  totals: {
    conversations: number;
    messages: number;
    not_covered: number;
    up: number;
    down: number;
    escalated: number;
    errors: number;
  };
  /**
   * Grouped by normalized wording; `question` is the latest wording, `covered` the latest
   * answer's, `not_covered` how many of `count` the sources did not cover.
   */
  topQuestions: Array<{ question: string; count: number; covered: boolean; not_covered: number }>;
  /** Not-covered messages grouped by normalized wording, most frequent first. */
  gaps: Array<{ question: string; count: number; last_asked: string }>;
  /** Every source cited in the period, with how many answers cited it, most cited first. */
  cited: Array<{ data_source_uuid: string; count: number }>;
}

export type Patch<T> = Partial<Omit<T, 'uuid' | 'created_at' | 'modified_at'>>;

/**
 * What another instance changed, as a store that several server processes share tells this one
 * (SQLite, one server's file, says only `rows`, within a second of another process's commit: a
 * key revoked from the command line, a row edited by hand). `chunks`: a chatbot's chunks were replaced or deleted,
 * so an in-process search index of it is stale: only those of `sourceUuids` when it is given
 * (re-read them), the whole chatbot's otherwise. `rows`: any other row a cache may hold (keys,
 * chatbots, agents, sources, tags, sessions, the documents bound to a session: binding sends it,
 * uploading and pruning unbound ones do not). `jobs`: an ingestion job was queued. `reset`: the
 * listening connection was lost and got back, so changes may have been missed: forget everything.
 */
export type StoreChange =
  | { kind: 'chunks'; chatbotUuid: string; sourceUuids?: string[] }
  | { kind: 'rows' }
  | { kind: 'jobs' }
  | { kind: 'reset' };

export interface Store {
  /** `sqlite` or `postgres`: the health endpoint and the start line name it. */
  readonly kind: 'sqlite' | 'postgres';
  /** True when other server processes may use the same database at the same time. */
  readonly shared: boolean;
  close(): Promise<void>;
  /** Resolves once the database answers a trivial query; rejects when it cannot. */
  ping(): Promise<void>;
  /**
   * Calls `listener` for every change another process made (never for this process's own);
   * returns the function that stops listening.
   */
  onChange(listener: (change: StoreChange) => void): () => void;

  /**
   * The ingestion queue. A source is queued once (queueing it again while queued changes
   * nothing). `claimJob` takes the oldest job nobody holds or whose holder's lease ran out (a
   * dead instance's), atomically across processes; `renewJob` extends a held lease and answers
   * false when this worker no longer holds it; `finishJob` removes it (only this worker's).
   * `releaseJobs` frees every claim: for a store only this process uses, at start.
   */
  enqueueJob(sourceUuid: string, now: number): Promise<void>;
  claimJob(worker: string, leaseMs: number, now: number): Promise<string | null>;
  renewJob(sourceUuid: string, worker: string, leaseMs: number, now: number): Promise<boolean>;
  finishJob(sourceUuid: string, worker: string): Promise<void>;
  releaseJobs(): Promise<void>;

  /**
   * `rate_limit: [N, S]` for one session, counted in the database so it holds across instances
   * and restarts: records a message at `now` (ms) when fewer than N were recorded in the last S
   * seconds and answers null, or answers the whole seconds to wait (at least 1). Atomic: two
   * instances taking the last place at once let exactly one through.
   */
  takeRateLimit(
    sessionUuid: string,
    limit: [number, number],
    now: number,
  ): Promise<{ retryAfter: number } | null>;
  /**
   * The same window for one visitor of a chatbot, across its sessions (ours): `visitor` is a
   * digest of the client's address, never the address. Windows of visitors who do not come back
   * are removed once they have passed.
   */
  takeVisitorLimit(
    chatbotUuid: string,
    visitor: string,
    limit: [number, number],
    now: number,
  ): Promise<{ retryAfter: number } | null>;

  ensureUser(name: string): Promise<UserRow>;
  findUser(name: string): Promise<UserRow | undefined>;
  addKey(key: KeyRow): Promise<void>;
  findKey(hash: string): Promise<KeyRow | undefined>;
  /** Deletes a key; answers whether there was one. */
  deleteKey(hash: string): Promise<boolean>;
  /** Whether any key is stored (the start says how to make one when none is). */
  hasKeys(): Promise<boolean>;

  createChatbot(row: ChatbotRow): Promise<void>;
  getChatbot(uuid: string): Promise<ChatbotRow | undefined>;
  listChatbots(userId: number): Promise<ChatbotRow[]>;
  /** Every origin some chatbot lists in its allowed_origins, each once. */
  listedOrigins(): Promise<string[]>;
  updateChatbot(uuid: string, patch: Patch<ChatbotRow>, now: string): Promise<void>;
  /** Whether it was there to delete: of two deletes at once, only one finds it. */
  deleteChatbot(uuid: string): Promise<boolean>;

  createAgent(row: AgentRow): Promise<void>;
  getAgent(uuid: string): Promise<AgentRow | undefined>;
  listAgents(chatbotUuid: string): Promise<AgentRow[]>;
  updateAgent(uuid: string, patch: Patch<AgentRow>, now: string): Promise<void>;
  /** Whether it was there to delete (deleteChatbot). */
  deleteAgent(uuid: string): Promise<boolean>;

  createSource(row: SourceRow, content: Uint8Array | null): Promise<void>;
  getSource(uuid: string): Promise<SourceRow | undefined>;
  /** The raw bytes an uploaded file was created from, kept so ingestion can run again. */
  getSourceContent(uuid: string): Promise<Uint8Array | null>;
  listSources(chatbotUuid: string): Promise<SourceRow[]>;
  /** Sources left in a progress status (e.g. by a restart). */
  listSourcesWithStatus(statuses: readonly string[]): Promise<SourceRow[]>;
  updateSource(uuid: string, patch: Patch<SourceRow>, now: string): Promise<void>;
  /** Deletes sources and their chunks, and drops them from agents' and tags' lists. */
  /** How many of them were there to delete (deleteChatbot). */
  deleteSources(uuids: string[], now: string): Promise<number>;
  /** Replaces a source's chunks; returns the new chunks with their ids. */
  replaceChunks(
    sourceUuid: string,
    chunks: Array<string | { text: string; heading?: string }>,
  ): Promise<ChunkRow[]>;
  listChunks(chatbotUuid: string): Promise<ChunkRow[]>;
  /** One source's chunks: what another instance's change to it left, for an index to take in. */
  listSourceChunks(sourceUuid: string): Promise<ChunkRow[]>;
  /** Chatbots that have any chunk: the search indexes to build at start. */
  chatbotsWithChunks(): Promise<string[]>;
  chunkIds(sourceUuid: string): Promise<number[]>;

  createTag(row: TagRow): Promise<void>;
  getTag(uuid: string): Promise<TagRow | undefined>;
  listTags(chatbotUuid: string): Promise<TagRow[]>;
  updateTag(uuid: string, patch: Patch<TagRow>, now: string): Promise<void>;
  /** Whether it was there to delete (deleteChatbot). */
  deleteTag(uuid: string): Promise<boolean>;

  createSession(row: SessionRow): Promise<void>;
  /**
   * `fresh`: read past what a cache remembers. Another instance's answers set a session's time
   * without telling this one (each message would be a notification), so a record returned to a
   * client is read afresh on a shared store.
   */
  getSession(uuid: string, opts?: { fresh?: boolean }): Promise<SessionRow | undefined>;
  listSessions(chatbotUuid: string): Promise<SessionRow[]>;
  /** Whether it was there to delete (deleteChatbot). */
  deleteSession(uuid: string): Promise<boolean>;

  createSessionDocument(row: SessionDocumentRow): Promise<void>;
  getSessionDocument(uuid: string): Promise<SessionDocumentRow | undefined>;
  /** The documents bound to a session, oldest first. */
  listSessionDocuments(sessionUuid: string): Promise<SessionDocumentRow[]>;
  /**
   * Binds documents to a session; one bound already stays where it is. Changes what
   * `listSessionDocuments` answers, so other instances hear of it (`rows`).
   */
  bindSessionDocuments(uuids: string[], sessionUuid: string): Promise<void>;
  /** Deletes the documents no message sent that were uploaded before `before`. */
  pruneSessionDocuments(before: string): Promise<void>;
  /**
   * The bytes uploaded through a chatbot's chat-only keys since `since` (sent with a message or
   * not), and when the oldest of those uploads was made: what its upload window holds.
   */
  uploadedDocumentBytes(
    chatbotUuid: string,
    since: string,
  ): Promise<{ bytes: number; oldest: string | null }>;

  /** Also moves the session's `modified_at` on to the message's (never back), atomically. */
  createMessage(row: MessageRow): Promise<void>;
  getMessage(uuid: string): Promise<MessageRow | undefined>;
  listMessages(sessionUuid: string): Promise<MessageRow[]>;
  /** The last `limit` exchanges, oldest first. */
  recentMessages(sessionUuid: string, limit: number): Promise<MessageRow[]>;
  deleteMessages(uuids: string[]): Promise<void>;
  /** Sets (or, with null, clears) a message's rating. */
  setFeedback(uuid: string, feedback: Feedback | null, now: string): Promise<void>;

  /** A chatbot's messages of every session that match, newest first (created_at, uuid). */
  findMessages(
    chatbotUuid: string,
    filter: MessageFilter,
    after: Keyset | null,
    limit: number,
  ): Promise<MessageRow[]>;
  countMessages(chatbotUuid: string, filter: MessageFilter): Promise<number>;
  /**
   * Sessions with a matching message, latest activity first (last message's created_at, session
   * uuid); the counts are the whole session's.
   */
  findConversations(
    chatbotUuid: string,
    filter: MessageFilter,
    after: Keyset | null,
    limit: number,
  ): Promise<ConversationSummary[]>;
  /**
   * Messages of the period `days` make up (the first one's `from` to the last one's `to`),
   * aggregated, each day's counted in it; lists at most `top` long. `test` as in MessageFilter.
   */
  insights(
    chatbotUuid: string,
    days: PeriodDay[],
    top: number,
    test?: MessageFilter['test'],
  ): Promise<InsightsRows>;
}
