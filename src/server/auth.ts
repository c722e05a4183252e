import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv } from './context.js';
import { answerOrigin } from './cors.js';
import { HttpError, headerLines, requestHeader } from './http.js';
import type { Store } from './store/types.js';

/**
 * Keys are random and high-entropy, so a plain sha256 is enough to store them: there is nothing
 * for a slow hash to protect against brute force.
 */
export const hashKey = (key: string) => createHash('sha256').update(key, 'utf8').digest('hex');

export const generateKey = () => `cbk_${randomBytes(24).toString('base64url')}`;

/** Creates a key for `user` (and the user if needed). A chat-only key must name the user's chatbot. */
export async function createKey(
  store: Store,
  userName: string,
  opts: { chatOnly?: string; key?: string } = {},
): Promise<string> {
  if (!/^[\w.@-]{1,100}$/.test(userName)) {
    throw new Error('a user name is 1 to 100 letters, digits, and the characters . _ @ -');
  }
  const user = await store.ensureUser(userName);
  if (opts.chatOnly !== undefined) {
    const chatbot = await store.getChatbot(opts.chatOnly);
    if (!chatbot || chatbot.userId !== user.id) {
      throw new Error(`user ${userName} has no chatbot ${opts.chatOnly}`);
    }
  }
  const key = opts.key ?? generateKey();
  await store.addKey({ hash: hashKey(key), userId: user.id, chatOnly: opts.chatOnly ?? null });
  return key;
}

/** Parses `user:key,user:key` and makes sure each user and full-access key exists. */
export async function seedKeys(store: Store, spec: string | undefined): Promise<void> {
  for (const [index, entry] of (spec ?? '').split(',').entries()) {
    const trimmed = entry.trim();
    if (!trimmed) continue;
    const colon = trimmed.indexOf(':');
    if (colon <= 0 || colon === trimmed.length - 1) {
      // Named by its place and user, never by its text: without a colon the text is the key,
      // and the error goes to a log.
      const user = colon > 0 ? ` ("${trimmed.slice(0, colon)}:")` : '';
      throw new Error(`CHATBOT_API_KEYS entry ${index + 1}${user} is not user:key`);
    }
    const user = trimmed.slice(0, colon);
    const key = trimmed.slice(colon + 1);
    const existing = await store.findKey(hashKey(key));
    if (existing) continue;
    await createKey(store, user, { key });
  }
}

/**
 * What a chat-only key may reach: creating and reading sessions of its chatbot, uploading
 * documents for them, and sending, listing, rating and deleting their messages. Everything else
 * answers 403 for such a key.
 */
const CHAT_ROUTES: Array<[RegExp, RegExp]> = [
  [/^POST$/, /^\/api\/v1\/chatbot\/[^/]+\/session\/create$/],
  [/^GET$/, /^\/api\/v1\/session\/[^/]+$/],
  [/^GET$/, /^\/api\/v1\/session\/[^/]+\/messages$/],
  [/^POST$/, /^\/api\/v1\/session\/[^/]+\/message\/(stream|non-stream)$/],
  [/^POST$/, /^\/api\/v1\/session-document\/upload$/],
  [/^(POST|DELETE)$/, /^\/api\/v1\/message\/[^/]+\/delete$/],
  [/^POST$/, /^\/api\/v1\/message\/[^/]+\/feedback$/],
  [/^(POST|DELETE)$/, /^\/api\/v1\/messages\/delete$/],
];

/**
 * The hashes of keys seen recently: the same few keys come with every request, and hashing is a
 * good part of what authenticating one costs. Bounded, as anyone can send made-up keys.
 */
const hashes = new Map<string, string>();
function knownHash(key: string): string {
  let hash = hashes.get(key);
  if (hash === undefined) {
    hash = hashKey(key);
    if (hashes.size >= 1000) hashes.clear();
    hashes.set(key, hash);
  }
  return hash;
}

export function authenticate(store: Store): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    // Which of several keys is meant cannot be known; taking the first (as Node's parsed headers
    // do) or none would hide the client's mistake behind the wrong key's answer.
    if (headerLines(c, 'authorization') > 1) {
      throw new HttpError(
        400,
        'bad_request',
        'more than one Authorization header: send one, Authorization: Bearer <key>',
      );
    }
    const header = requestHeader(c, 'authorization') ?? '';
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match) {
      throw new HttpError(401, 'unauthorized', 'missing API key: send Authorization: Bearer <key>');
    }
    const hash = knownHash(match[1]!);
    const key = await store.findKey(hash);
    // The lookup is by hash, so timing reveals nothing about the key; the constant-time compare
    // keeps it that way should the lookup ever become a scan.
    if (!key || !timingSafeEqual(Buffer.from(key.hash, 'hex'), Buffer.from(hash, 'hex'))) {
      throw new HttpError(401, 'unauthorized', 'unknown API key');
    }
    if (key.chatOnly !== null) {
      const allowed = CHAT_ROUTES.some(
        ([method, path]) => method.test(c.req.method) && path.test(c.req.path),
      );
      if (!allowed) {
        throw new HttpError(
          403,
          'forbidden',
          'this key is chat-only: it cannot reach this endpoint',
        );
      }
    }
    if (key.chatOnly !== null) await checkOrigin(c, store, key.chatOnly);
    c.set('auth', { userId: key.userId, chatOnly: key.chatOnly });
    await next();
  };
}

/**
 * A chat-only key's requests come from pages of the chatbot's allowed origins, when it lists
 * any: a browser always sends `Origin` on a request from another site's page, so another origin
 * is a 403. A request without one is not from another site's page in a browser (a same-origin
 * GET, or a script, which could claim any origin anyway), and passes.
 */
async function checkOrigin(c: Context<AppEnv>, store: Store, chatbotUuid: string): Promise<void> {
  const allowed = (await store.getChatbot(chatbotUuid))?.allowed_origins ?? [];
  const origin = requestHeader(c, 'origin');
  if (allowed.length === 0 || origin === undefined) return;
  // The refusal too is readable by the page it refuses, and only the refusal: without it the
  // browser hides the 403, and the chat there could only say the connection was lost.
  answerOrigin(c, origin);
  if (allowed.includes(origin)) return;
  throw new HttpError(
    403,
    'origin_not_allowed',
    `this chatbot does not chat with pages of ${origin.slice(0, 200)}: add the origin to its allowed origins`,
  );
}
