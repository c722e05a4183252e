/**
 * Turns stored rows into the interface's records: exact member names, no members that do not
 * apply (public clients reject unknown ones), JSON members as JSON-encoded strings where the
 * interface says so.
 */
import type {
  Agent,
  AgentMeta,
  AgentType,
  Chatbot,
  ChatSession,
  DataSource,
  HumanEscalationSettings,
  Message,
  MessageRow as MessageListItem,
  SessionSummary,
  SourceTag,
} from '../api/types.js';
import type {
  AgentRow,
  ChatbotRow,
  MessageRow,
  SessionRow,
  SourceRow,
  TagRow,
} from './store/types.js';

export function chatbotRecord(row: ChatbotRow): Chatbot {
  return {
    uuid: row.uuid,
    name: row.name,
    created_at: row.created_at,
    modified_at: row.modified_at,
    meta: {
      rate_limit: row.rate_limit,
      rate_limit_message: row.rate_limit_message,
      show_citations: row.show_citations,
      visibility: row.visibility,
      // Only when set: public clients reject members they do not know.
      ...(row.allowed_origins?.length ? { allowed_origins: row.allowed_origins } : {}),
    },
  };
}

/** Which agent settings exist for which type (hosted-service-notes.md, "Agent create"). */
export const META_MEMBERS: Record<AgentType, ReadonlyArray<keyof AgentMeta>> = {
  'user-facing': ['model', 'temperature', 'use_all_sources', 'bias', 'stickness'],
  background: ['model', 'temperature', 'tags'],
  'human-escalation': ['bias', 'stickness'],
  'pre-canned': ['bias', 'stickness', 'default_message'],
  'spam-defense': ['bias', 'stickness', 'default_message'],
};

export function defaultMeta(type: AgentType): AgentMeta {
  const all: Required<AgentMeta> = {
    model: 'default',
    temperature: 0.2,
    use_all_sources: true,
    tags: [],
    bias: 0,
    stickness: 0,
    default_message:
      type === 'spam-defense'
        ? 'Sorry, this message looks like spam, so it was not answered.'
        : 'Thanks for your message. We will get back to you soon.',
  };
  return Object.fromEntries(META_MEMBERS[type].map((m) => [m, all[m]])) as AgentMeta;
}

export function defaultEscalationSettings(): HumanEscalationSettings {
  return {
    human_requested_message:
      'I have asked a member of our team to join this conversation. They will reply here as soon as they can.',
    live_chat_start_announcement: 'A member of our team has joined the conversation.',
    live_chat_end_announcement: 'The team member has left the conversation.',
    monitored_messages: [],
    notifications_enabled: 0,
    sound_enabled: 0,
  };
}

/**
 * `enabled` is 0/1 in create and list responses and a boolean in the update response; list
 * items carry `tool_functions` and no `variables`; create carries `variables` only.
 */
export function agentRecord(row: AgentRow, view: 'create' | 'list' | 'update'): Agent {
  const record: Agent = {
    uuid: row.uuid,
    name: row.name,
    type: row.type,
    description: row.description,
    prompt: row.prompt,
    enabled: view === 'update' ? row.enabled : row.enabled ? 1 : 0,
    meta: row.meta,
    data_source_uuids: row.data_source_uuids,
    created_at: row.created_at,
    modified_at: row.modified_at,
  };
  if (row.type === 'human-escalation' && row.human_escalation_settings) {
    record.human_escalation_settings = row.human_escalation_settings;
  }
  // No endpoint creates tool functions, so an agent's list is always empty here.
  if (view !== 'create') record.tool_functions = [];
  if (view !== 'list') record.variables = row.variables;
  return record;
}

export function sourceRecord(row: SourceRow): DataSource {
  return {
    uuid: row.uuid,
    title: row.title,
    type: row.type,
    status: row.status,
    file_name: row.file_name,
    file_size: row.file_size,
    tokens: row.tokens,
    meta_json: JSON.stringify(row.meta),
    created_at: row.created_at,
    modified_at: row.modified_at,
  };
}

export function tagRecord(row: TagRow): SourceTag {
  return {
    uuid: row.uuid,
    name: row.name,
    color: row.color,
    data_source_uuids: row.data_source_uuids,
    created_at: row.created_at,
    modified_at: row.modified_at,
  };
}

export function sessionSummary(row: SessionRow): SessionSummary {
  return { uuid: row.uuid, created_at: row.created_at, modified_at: row.modified_at };
}

export function sessionRecord(row: SessionRow): ChatSession {
  return { ...sessionSummary(row), meta: row.meta ?? {} };
}

export function messageRecord(row: MessageRow): Message {
  // The documents a message sent are kept in its meta (routes/messages.ts); listed apart here.
  const { session_documents: documents, ...meta } = row.meta;
  return {
    uuid: row.uuid,
    created_at: row.created_at,
    modified_at: row.modified_at,
    query: row.query,
    response: row.response,
    finish_reason: row.finish_reason,
    cite_data_json: JSON.stringify(row.cite_data),
    meta_json: JSON.stringify(meta),
    error_message: row.error_message,
    feedback_json: row.feedback ? JSON.stringify(row.feedback) : '',
    labels: [],
    detected_frustrations: '',
    background_pending_tasks: 0,
    session_documents: Array.isArray(documents) ? documents : [],
  };
}

/** A message in a chatbot-wide list: the record and the session it belongs to. */
export function messageListItem(row: MessageRow): MessageListItem {
  return { ...messageRecord(row), session_uuid: row.sessionUuid };
}
