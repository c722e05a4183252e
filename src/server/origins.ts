/**
 * A chatbot's allowed origins: the pages that may chat with it through a chat-only key. An
 * origin is kept as browsers send it in `Origin` (lower-case host, no default port), so the
 * check is a plain comparison.
 */
import type { ChatbotRow, Store } from './store/types.js';

/** No `*`: a URL's host may hold one, but origins are compared as text, so it would match nothing. */
const ORIGIN_SHAPE = /^https?:\/\/[^/?#@*\s\\]+$/i;

/** `scheme://host[:port]` as a browser serializes it, or null when `entry` is not such an origin. */
export function parseOrigin(entry: string): string | null {
  if (!ORIGIN_SHAPE.test(entry)) return null;
  try {
    return new URL(entry).origin;
  } catch {
    return null;
  }
}

/**
 * The chatbot a chat route's path names, directly or through its session or message; undefined
 * for other paths. A preflight carries no key, so this is all it can go by.
 */
export async function chatbotOfPath(store: Store, path: string): Promise<ChatbotRow | undefined> {
  const [, kind, uuid] = /^\/api\/v1\/(chatbot|session|message)\/([^/]+)(?:\/|$)/.exec(path) ?? [];
  if (!uuid) return undefined;
  if (kind === 'chatbot') return await store.getChatbot(uuid);
  const sessionUuid = kind === 'session' ? uuid : (await store.getMessage(uuid))?.sessionUuid;
  const session = sessionUuid === undefined ? undefined : await store.getSession(sessionUuid);
  return session ? await store.getChatbot(session.chatbotUuid) : undefined;
}

/**
 * The origins whose preflight a path passes beside the server-wide list. The session-document
 * upload names no chatbot, so any chatbot's listed origin passes it; the upload itself is checked
 * against its key's chatbot (auth.ts).
 */
export async function preflightOrigins(store: Store, path: string): Promise<readonly string[]> {
  if (path === '/api/v1/session-document/upload') return await store.listedOrigins();
  return (await chatbotOfPath(store, path))?.allowed_origins ?? [];
}
