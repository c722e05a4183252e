import { createHash } from 'node:crypto';
import type { Context } from 'hono';
import type { Auth } from './context.js';
import { envCount } from './env.js';
import { HttpError, incomingOf, requestHeader } from './http.js';
import { RATE_LIMIT_MAX } from './routes/chatbots.js';
import type { ChatbotRow, Store } from './store/types.js';

/**
 * The limit on one visitor across sessions (ours). `rate_limit: [N, S]` counts a session's
 * messages, and a page's chat-only key may open as many sessions as it likes: one per message
 * would never meet the limit. So the messages one client address sends to a chatbot through
 * chat-only keys are counted too, and the sessions it opens (a flood of sessions is a visitor's
 * too), against `sessions` × N per S seconds (several people can share an address: an office, a
 * school, a mobile carrier).
 */
export interface VisitorSettings {
  /** How many sessions' worth one address may send: `CHATBOT_VISITOR_SESSIONS`, default 5; 0 off. */
  sessions: number;
  /**
   * How many proxies in front of the server append to `X-Forwarded-For` (a load balancer: 1):
   * `CHATBOT_TRUST_PROXY`, default 0, when the address is the connection's and the header, which
   * anyone can write, is not read.
   */
  trustProxy: number;
}

export function visitorSettings(env: Record<string, string | undefined>): VisitorSettings {
  return {
    sessions: envCount(env, 'CHATBOT_VISITOR_SESSIONS', 5, 0),
    trustProxy: envCount(env, 'CHATBOT_TRUST_PROXY', 0, 0),
  };
}

/**
 * The client's address: the connection's, or, behind `trustProxy` proxies, the one the
 * outermost of them saw (that many entries from the end of `X-Forwarded-For`, which each proxy
 * appends to). Undefined when the request came through no socket (an in-process request).
 */
export function clientAddress(c: Context, trustProxy: number): string | undefined {
  const socket = incomingOf(c)?.socket?.remoteAddress;
  if (!socket) return undefined;
  if (trustProxy === 0) return socket;
  const forwarded = (requestHeader(c, 'x-forwarded-for') ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  const chain = [...forwarded, socket];
  return chain[Math.max(0, chain.length - 1 - trustProxy)];
}

/** What the store keeps of a visitor: a digest of the address, per chatbot, never the address. */
export const visitorOf = (chatbotUuid: string, address: string) =>
  createHash('sha256').update(`${chatbotUuid} ${address}`).digest('base64url').slice(0, 22);

/**
 * The 429 of a full window: the chatbot's own words, and when to try again. A chatbot saved
 * before `rate_limit` was bounded can have a window of 1e308 seconds, whose wait would be said
 * as `Infinity`, which no client reads: it is said as the longest window taken now.
 */
export const rateLimited = (chatbot: ChatbotRow, retryAfter: number) =>
  new HttpError(429, 'rate_limited', chatbot.rate_limit_message, {
    'Retry-After': String(Math.min(retryAfter, RATE_LIMIT_MAX[1])),
  });

/**
 * Takes one from the window of the visitor at `address` (a message, or a new session): the
 * seconds to wait when it is full, else null; null too for an owner's key, with the limit off,
 * or without an address.
 */
export function takeVisitor(
  store: Store,
  settings: VisitorSettings,
  auth: Auth,
  chatbot: ChatbotRow,
  address: string | undefined,
  at: number,
): Promise<{ retryAfter: number } | null> {
  if (auth.chatOnly === null || settings.sessions === 0 || address === undefined) {
    return Promise.resolve(null);
  }
  const [n, seconds] = chatbot.rate_limit;
  return store.takeVisitorLimit(
    chatbot.uuid,
    visitorOf(chatbot.uuid, address),
    [n * settings.sessions, seconds],
    at,
  );
}
