import { badInput, notFound } from './http.js';
import type { Knowledge } from './knowledge/knowledge.js';
import type { RateLimiter } from './rate-limit.js';
import type {
  AgentRow,
  ChatbotRow,
  MessageRow,
  SessionRow,
  SourceRow,
  Store,
  TagRow,
} from './store/types.js';

export interface Auth {
  userId: number;
  /** Set for chat-only keys: the one chatbot the key may chat with. */
  chatOnly: string | null;
}

export interface AppEnv {
  /** `corsHeaders`: the CORS headers this request's response carries (see cors.ts). */
  Variables: { auth: Auth; corsHeaders: Record<string, string> };
}

export interface ServerContext {
  store: Store;
  knowledge: Knowledge;
  rateLimiter: RateLimiter;
  uploadLimitBytes: number;
}

/**
 * Lookups that answer 404 both for a missing resource and for one that belongs to another user
 * (or, for a chat-only key, to another chatbot), so a caller learns nothing about others' data.
 */
export function ownedChatbot(ctx: ServerContext, auth: Auth, uuid: string): ChatbotRow {
  const chatbot = ctx.store.getChatbot(uuid);
  if (!chatbot || chatbot.userId !== auth.userId) throw notFound('chatbot');
  if (auth.chatOnly !== null && auth.chatOnly !== chatbot.uuid) throw notFound('chatbot');
  return chatbot;
}

export function ownedAgent(ctx: ServerContext, auth: Auth, uuid: string): AgentRow {
  const agent = ctx.store.getAgent(uuid);
  if (!agent || !owns(ctx, auth, agent.chatbotUuid)) throw notFound('agent');
  return agent;
}

export function ownedSource(ctx: ServerContext, auth: Auth, uuid: string): SourceRow {
  const source = findOwnedSource(ctx, auth, uuid);
  if (!source) throw notFound('data source');
  return source;
}

export function findOwnedSource(
  ctx: ServerContext,
  auth: Auth,
  uuid: string,
): SourceRow | undefined {
  const source = ctx.store.getSource(uuid);
  return source && owns(ctx, auth, source.chatbotUuid) ? source : undefined;
}

export function ownedTag(ctx: ServerContext, auth: Auth, uuid: string): TagRow {
  const tag = ctx.store.getTag(uuid);
  if (!tag || !owns(ctx, auth, tag.chatbotUuid)) throw notFound('source tag');
  return tag;
}

export function ownedSession(ctx: ServerContext, auth: Auth, uuid: string): SessionRow {
  const session = ctx.store.getSession(uuid);
  if (!session || !owns(ctx, auth, session.chatbotUuid)) throw notFound('session');
  return session;
}

export function ownedMessage(ctx: ServerContext, auth: Auth, uuid: string): MessageRow {
  const message = findOwnedMessage(ctx, auth, uuid);
  if (!message) throw notFound('message');
  return message;
}

export function findOwnedMessage(
  ctx: ServerContext,
  auth: Auth,
  uuid: string,
): MessageRow | undefined {
  const message = ctx.store.getMessage(uuid);
  if (!message) return undefined;
  const session = ctx.store.getSession(message.sessionUuid);
  return session && owns(ctx, auth, session.chatbotUuid) ? message : undefined;
}

function owns(ctx: ServerContext, auth: Auth, chatbotUuid: string): boolean {
  if (auth.chatOnly !== null && auth.chatOnly !== chatbotUuid) return false;
  return ctx.store.getChatbot(chatbotUuid)?.userId === auth.userId;
}

/**
 * `data_source_uuids` of an agent or tag, checked to be sources of the chatbot (a 400 names the
 * first that is not), without repeats; undefined stays undefined (the member was not sent).
 */
export function ownSourceUuids(
  ctx: ServerContext,
  chatbotUuid: string,
  uuids: string[] | undefined,
): string[] | undefined {
  if (!uuids) return undefined;
  const own = new Set(ctx.store.listSources(chatbotUuid).map((s) => s.uuid));
  uuids.forEach((u, i) => {
    if (!own.has(u)) throw badInput(`data_source_uuids[${i}] is not a data source of this chatbot`);
  });
  return [...new Set(uuids)];
}
