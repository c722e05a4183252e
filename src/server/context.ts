import type { Drain } from './drain.js';
import { badInput, notFound } from './http.js';
import type { ExtractLimits } from './knowledge/isolated.js';
import type { Knowledge } from './knowledge/knowledge.js';
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
  uploadLimitBytes: number;
  /** How long and in how much memory an attached PDF or .docx may be read. */
  extractLimits: Partial<ExtractLimits>;
  /** Requests and answers in flight, which a stop lets finish (main.ts). */
  drain: Drain;
}

/**
 * Lookups that answer 404 both for a missing resource and for one that belongs to another user
 * (or, for a chat-only key, to another chatbot), so a caller learns nothing about others' data.
 */
export async function ownedChatbot(
  ctx: ServerContext,
  auth: Auth,
  uuid: string,
): Promise<ChatbotRow> {
  const chatbot = await ctx.store.getChatbot(uuid);
  if (!chatbot || chatbot.userId !== auth.userId) throw notFound('chatbot');
  if (auth.chatOnly !== null && auth.chatOnly !== chatbot.uuid) throw notFound('chatbot');
  return chatbot;
}

export async function ownedAgent(ctx: ServerContext, auth: Auth, uuid: string): Promise<AgentRow> {
  const agent = await ctx.store.getAgent(uuid);
  if (!agent || !(await owns(ctx, auth, agent.chatbotUuid))) throw notFound('agent');
  return agent;
}

export async function ownedSource(
  ctx: ServerContext,
  auth: Auth,
  uuid: string,
): Promise<SourceRow> {
  const source = await findOwnedSource(ctx, auth, uuid);
  if (!source) throw notFound('data source');
  return source;
}

export async function findOwnedSource(
  ctx: ServerContext,
  auth: Auth,
  uuid: string,
): Promise<SourceRow | undefined> {
  const source = await ctx.store.getSource(uuid);
  return source && (await owns(ctx, auth, source.chatbotUuid)) ? source : undefined;
}

export async function ownedTag(ctx: ServerContext, auth: Auth, uuid: string): Promise<TagRow> {
  const tag = await ctx.store.getTag(uuid);
  if (!tag || !(await owns(ctx, auth, tag.chatbotUuid))) throw notFound('source tag');
  return tag;
}

export async function ownedSession(
  ctx: ServerContext,
  auth: Auth,
  uuid: string,
  opts?: { fresh?: boolean },
): Promise<SessionRow> {
  const session = await ctx.store.getSession(uuid, opts);
  if (!session || !(await owns(ctx, auth, session.chatbotUuid))) throw notFound('session');
  return session;
}

export async function ownedMessage(
  ctx: ServerContext,
  auth: Auth,
  uuid: string,
): Promise<MessageRow> {
  const message = await findOwnedMessage(ctx, auth, uuid);
  if (!message) throw notFound('message');
  return message;
}

export async function findOwnedMessage(
  ctx: ServerContext,
  auth: Auth,
  uuid: string,
): Promise<MessageRow | undefined> {
  const message = await ctx.store.getMessage(uuid);
  if (!message) return undefined;
  const session = await ctx.store.getSession(message.sessionUuid);
  return session && (await owns(ctx, auth, session.chatbotUuid)) ? message : undefined;
}

async function owns(ctx: ServerContext, auth: Auth, chatbotUuid: string): Promise<boolean> {
  if (auth.chatOnly !== null && auth.chatOnly !== chatbotUuid) return false;
  return (await ctx.store.getChatbot(chatbotUuid))?.userId === auth.userId;
}

/**
 * `data_source_uuids` of an agent or tag, checked to be sources of the chatbot (a 400 names the
 * first that is not), without repeats; undefined stays undefined (the member was not sent).
 */
export async function ownSourceUuids(
  ctx: ServerContext,
  chatbotUuid: string,
  uuids: string[] | undefined,
): Promise<string[] | undefined> {
  if (!uuids) return undefined;
  const own = new Set((await ctx.store.listSources(chatbotUuid)).map((s) => s.uuid));
  uuids.forEach((u, i) => {
    if (!own.has(u)) throw badInput(`data_source_uuids[${i}] is not a data source of this chatbot`);
  });
  return [...new Set(uuids)];
}
