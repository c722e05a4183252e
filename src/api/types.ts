/**
 * Records of the chatbot service, with the interface's exact field names
 * (spec/interface.md and spec/hosted-service-notes.md). Nothing here is renamed or reshaped:
 * what the server sends is what the caller gets.
 */

/** Timestamps are UTC strings such as `2026-11-22T15:36:06Z`. */
export type Timestamp = string;

/** A chatbot's `rate_limit` when it was created without one (the hosted service's default). */
export const DEFAULT_RATE_LIMIT: readonly [number, number] = [20, 240];

export interface ChatbotMeta {
  /** `[N, S]`: at most N messages per S seconds, per session. Default `[20, 240]`. */
  rate_limit: [number, number];
  rate_limit_message: string;
  show_citations: boolean;
  /** The only value the hosted service shows is `private`. */
  visibility: string;
  /**
   * Our addition (the reference server's; the hosted service does not send it): the origins
   * (`scheme://host[:port]`) whose pages may chat with the chatbot through a chat-only key.
   * Present only when the list is not empty; absent, any origin may.
   */
  allowed_origins?: string[];
}

export interface Chatbot {
  uuid: string;
  name: string;
  created_at: Timestamp;
  modified_at: Timestamp;
  meta: ChatbotMeta;
}

export interface ChatbotCreate {
  name: string;
  rate_limit?: [number, number];
  rate_limit_message?: string;
  show_citations?: boolean;
  visibility?: string;
  /**
   * Our addition: the origins allowed to chat through a chat-only key, each `scheme://host[:port]`
   * without a path; `[]` allows any. The server answers 400 naming a bad entry.
   */
  allowed_origins?: string[];
}

export type ChatbotUpdate = Partial<ChatbotCreate>;

export type AgentType =
  | 'user-facing'
  | 'background'
  | 'human-escalation'
  | 'pre-canned'
  | 'spam-defense';

export const AGENT_TYPES: readonly AgentType[] = [
  'user-facing',
  'background',
  'human-escalation',
  'pre-canned',
  'spam-defense',
];

export interface AgentTag {
  name: string;
  /** `#RRGGBB` */
  color: string;
  criteria: string;
}

/** Type-specific agent settings. Which member applies to which type is in hosted-service-notes.md. */
export interface AgentMeta {
  model?: string;
  temperature?: number;
  use_all_sources?: boolean;
  tags?: AgentTag[];
  bias?: number;
  stickness?: number;
  default_message?: string;
}

export interface AgentVariable {
  name: string;
  description: string;
  example: string;
  type: string;
  default_value: { content: string; static: number };
}

export interface HumanEscalationSettings {
  human_requested_message: string;
  live_chat_start_announcement: string;
  live_chat_end_announcement: string;
  monitored_messages: unknown[];
  notifications_enabled: 0 | 1;
  sound_enabled: 0 | 1;
}

export interface ToolFunctionParameters {
  type: 'object' | string;
  properties: Record<string, { type: string; description: string }>;
  required: string[];
}

export interface ToolFunction {
  uuid: string;
  name: string;
  description: string;
  enabled: 0 | 1;
  external_url: string;
  method: string;
  headers: Record<string, string>;
  meta: Record<string, unknown>;
  parameters: ToolFunctionParameters;
  created_at: Timestamp;
  modified_at: Timestamp;
}

export interface Agent {
  uuid: string;
  name: string;
  type: AgentType;
  description: string;
  prompt: string;
  /** Integer 0/1 in create and list responses, boolean in the update response. */
  enabled: 0 | 1 | boolean;
  meta: AgentMeta;
  data_source_uuids?: string[];
  /** Present on human-escalation agents only. */
  human_escalation_settings?: HumanEscalationSettings;
  /** Present in list items. */
  tool_functions?: ToolFunction[];
  /** Present in create and update responses, absent in list items. */
  variables?: AgentVariable[];
  created_at: Timestamp;
  modified_at: Timestamp;
}

/** Type-specific settings may go inside `meta` or top-level, as public clients send them. */
export interface AgentCreate extends AgentMeta {
  name: string;
  type: AgentType;
  description?: string;
  prompt?: string;
  meta?: AgentMeta;
  /** The sources the agent answers from. */
  data_source_uuids?: string[];
}

export interface AgentUpdate {
  name?: string;
  description?: string;
  prompt?: string;
  model?: string;
  enabled?: boolean;
  variables?: AgentVariable[];
  data_source_uuids?: string[];
  human_escalation_settings?: Partial<HumanEscalationSettings>;
  temperature?: number;
  use_all_sources?: boolean;
}

export type DataSourceType = 'qa' | 'link' | 'file';

export type DataSourceStatus =
  | 'await'
  | 'queued'
  | 'downloading'
  | 'extracting'
  | 'chunking'
  | 'embedding'
  | 'running'
  | 'assigned'
  | 'success'
  | 'error'
  | 'fail'
  | 'error:storage'
  | 'error:token';

export const IN_PROGRESS_STATUSES: readonly string[] = [
  'await',
  'queued',
  'downloading',
  'extracting',
  'chunking',
  'embedding',
  'running',
  'assigned',
];

export interface DataSource {
  uuid: string;
  title: string;
  type: DataSourceType | (string & {});
  status: DataSourceStatus | (string & {});
  file_name: string;
  /** Bytes. */
  file_size: number;
  tokens: number;
  /** A JSON-encoded string; for `qa` sources it holds the question and the answer. */
  meta_json: string;
  created_at: Timestamp;
  modified_at: Timestamp;
}

export interface QaSourceCreate {
  question: string;
  answer: string;
  reference_source_link?: string;
}

export interface UrlSourceCreate {
  url: string;
  reference_source_link?: string;
}

/** One item per submitted uuid, in order: `status` on success, `error` otherwise. */
export interface RescrapeResult {
  uuid: string;
  status?: 'restarted scraping' | (string & {});
  error?: 'invalid data source' | (string & {});
}

export interface SourceTag {
  uuid: string;
  name: string;
  /** `#RRGGBB` */
  color: string;
  data_source_uuids: string[];
  created_at: Timestamp;
  modified_at: Timestamp;
}

export interface SourceTagCreate {
  name: string;
  color: string;
  data_source_uuids?: string[];
}

export type SourceTagUpdate = Partial<SourceTagCreate>;

/** Initial data of a session: a flat object, one level deep. */
export type SessionData = Record<string, string | number | boolean | null>;

export interface ChatSession {
  uuid: string;
  created_at: Timestamp;
  modified_at: Timestamp;
  /** Returned when a single session is fetched, and on create when data was given. */
  meta?: SessionData;
}

export interface SessionSummary {
  uuid: string;
  created_at: Timestamp;
  modified_at: Timestamp;
}

/** One exchange: the user's `query` and the bot's `response`. */
export interface Message {
  uuid: string;
  created_at: Timestamp;
  modified_at: Timestamp;
  query: string;
  response: string;
  /** `stop`, or `length` when cut short. */
  finish_reason: string;
  /** JSON-encoded {@link CiteData}. */
  cite_data_json: string;
  meta_json: string;
  error_message?: string;
  feedback_json?: string;
  labels?: unknown[];
  detected_frustrations?: string;
  background_pending_tasks?: number;
  session_documents?: unknown[];
  ai_context_json?: string;
}

/** The decoded `cite_data_json` of a message: citation number → cited source. */
export type CiteData = Record<
  string,
  { data_source_uuid: string; title: string; text: string; file_name: string; type: string }
>;

/** One entry of the reference server's `X-Citations` header. */
export interface Citation {
  n: number;
  data_source_uuid: string;
  title: string;
  type: string;
  url?: string;
}

export interface SuccessResponse {
  success: boolean;
}

/*
 * The review loop: feedback, the message list, export and insights. These routes are this
 * project's additions to the interface (the hosted service may answer them with 404).
 */

export type Rating = 'up' | 'down';

/**
 * The member of a session's initial data that marks it as the owner's own test: the admin's Try
 * it chat sends `{ chatbot_elements_test: true }`. The reference server honours it only from a
 * full-access key, so a visitor cannot hide a conversation from the owner's review (ours; the
 * hosted service stores it as any other member).
 */
export const OWNER_TEST_MEMBER = 'chatbot_elements_test';

/**
 * Which conversations the review reads: the visitors' alone (`exclude`, the default, leaves the
 * owner's tests out), the owner's tests too (`include`), or only those (`only`).
 */
export type TestSessions = 'exclude' | 'include' | 'only';
export type FeedbackReason = 'wrong' | 'incomplete' | 'not-asked' | 'other';

/** Body of `POST /api/v1/message/{uuid}/feedback`; `rating: null` withdraws a rating. */
export interface FeedbackInput {
  rating: Rating | null;
  /** Only kept with `down`. */
  reason?: FeedbackReason;
  /** Only kept with `down`; at most 1000 characters. */
  comment?: string;
}

/** The decoded `feedback_json` of a message the reference server rated. */
export interface Feedback {
  rating: Rating;
  reason?: FeedbackReason;
  comment?: string;
  at: Timestamp;
}

/** Members the reference server writes into every message's `meta_json`. */
export interface AnswerMeta {
  /** The answer drew on the chatbot's sources. */
  covered?: boolean;
  /** uuids of the sources the answer cited. */
  sources?: string[];
  /** Topics offered when the sources did not cover the question. */
  suggestions?: string[];
  /** A human-escalation agent answered. */
  escalated?: boolean;
  [key: string]: unknown;
}

/** Filters shared by the message list, the conversation list and the export. */
export interface MessageFilters {
  /** Full-text search over questions and answers. */
  q?: string;
  /** `none` = not rated. */
  rating?: Rating | 'none';
  covered?: boolean;
  escalated?: boolean;
  error?: boolean;
  /** ISO date (`2026-11-01`, the whole UTC day) or date-time; inclusive. */
  from?: string;
  /** ISO date (the whole UTC day, inclusive) or date-time (exclusive). */
  to?: string;
  session?: string;
  /** The owner's tests (Try it): left out unless asked for (reference server). */
  test?: TestSessions;
}

export interface PageOptions {
  /** `next_cursor` of the previous page. */
  cursor?: string;
  /** 1–200, default 50. */
  limit?: number;
}

export interface Page<T> {
  data: T[];
  /** `null` on the last page. */
  next_cursor: string | null;
}

/** A message with the session it belongs to, as the chatbot-wide list returns it. */
export interface MessageRow extends Message {
  session_uuid: string;
}

export interface ConversationSummary {
  session_uuid: string;
  first_query: string;
  exchanges: number;
  last_activity: Timestamp;
  up: number;
  down: number;
  not_covered: number;
  escalated: number;
  errors: number;
  /** The owner's test in Try it (reference server; absent from one without the `test` filter). */
  test?: boolean;
}

export interface InsightsDay {
  /** `YYYY-MM-DD`: a day of the zone asked for (`tz`), by default UTC. */
  date: string;
  conversations: number;
  messages: number;
  not_covered: number;
  up: number;
  down: number;
}

export interface Insights {
  from: Timestamp;
  to: Timestamp;
  /**
   * Which conversations the figures count; `exclude`: the owner's tests are left out (the
   * reference server's, absent from one that counts every conversation).
   */
  test?: TestSessions;
  /** Every day of the period, days without traffic included. */
  days: InsightsDay[];
  totals: {
    conversations: number;
    messages: number;
    not_covered: number;
    up: number;
    down: number;
    escalated: number;
    errors: number;
  };
  /** Most asked, grouped by normalized wording. */
  top_questions: {
    question: string;
    count: number;
    /** Whether the latest asking was covered. */
    covered: boolean;
    /** How many of `count` the sources did not cover (the reference server's addition). */
    not_covered?: number;
  }[];
  /** Most asked among the questions the sources did not cover. */
  gaps: {
    question: string;
    count: number;
    last_asked: Timestamp;
    /**
     * Whether the chatbot would answer it from its sources as they stand now, a Q&A added since
     * included (the reference server's addition).
     */
    answered_now?: boolean;
  }[];
  sources_cited: { data_source_uuid: string; title: string; count: number }[];
  sources_never_cited: { data_source_uuid: string; title: string }[];
}

export type ExportFormat = 'csv' | 'json';

/**
 * A document a visitor uploaded into a chat session (`POST /api/v1/session-document/upload`).
 * The hosted service answers at least `uuid`; the reference server also the rest.
 */
export interface SessionDocument {
  uuid: string;
  filename?: string;
  /** Bytes. */
  size?: number;
  /** MIME type as uploaded. */
  content_type?: string;
  created_at?: Timestamp;
}
