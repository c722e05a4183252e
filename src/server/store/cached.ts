import type { ChatbotRow, KeyRow, SessionRow, Store } from './types.js';

/**
 * A store that remembers what every chat message reads before its first byte: the key, the
 * session, the chatbot, its agents and its sources. Read from SQLite and parsed from JSON on each
 * message, they cost about as much as the whole no-work request does; answering 200 questions
 * at once made that the difference between a quick and a slow first byte.
 *
 * It relies on this process being the only writer of those tables (the `create-key` command of
 * another process only adds users and keys, and only found keys are remembered, never misses; no
 * key is ever removed). Any write other than a message's forgets everything, which is simple and
 * cannot go stale; messages are written once per answer (and rated) and only touch their
 * session's time. Nothing about messages is remembered, so the review reads are never stale.
 *
 * Remembered rows are frozen, so code that changed a row it was given (and so, silently, every
 * later reader's copy) fails loudly in tests instead.
 */
export function cachedStore(store: Store): Store {
  const keys = new Map<string, KeyRow>();
  const chatbots = new Map<string, ChatbotRow | undefined>();
  const sessions = new Map<string, SessionRow | undefined>();
  const agents = new Map<string, ReturnType<Store['listAgents']>>();
  const sources = new Map<string, ReturnType<Store['listSources']>>();
  const forget = () => {
    keys.clear();
    chatbots.clear();
    sessions.clear();
    agents.clear();
    sources.clear();
  };
  const remember = <K, V>(map: Map<K, V>, key: K, read: () => V): V => {
    if (map.has(key)) return map.get(key) as V;
    const value = deepFreeze(read());
    // Bounded: a store with very many sessions or chatbots must not grow without end.
    if (map.size >= 10_000) map.clear();
    map.set(key, value);
    return value;
  };

  const cached: Store = { ...store };
  // Every method that writes forgets all; the reads below and the message writes are the exceptions.
  const READS = new Set<keyof Store>([
    'close',
    'findUser',
    'findKey',
    'getChatbot',
    'listChatbots',
    'listedOrigins',
    'getAgent',
    'listAgents',
    'getSource',
    'getSourceContent',
    'listSources',
    'listSourcesWithStatus',
    'listChunks',
    'chatbotsWithChunks',
    'chunkIds',
    'getTag',
    'listTags',
    'getSession',
    'listSessions',
    'getMessage',
    'listMessages',
    'recentMessages',
    'createMessage',
    'deleteMessages',
    'setFeedback',
    'touchSession',
    // Session documents: nothing remembered reads them, and uploads must not empty the cache.
    'createSessionDocument',
    'getSessionDocument',
    'listSessionDocuments',
    'bindSessionDocuments',
    'pruneSessionDocuments',
    'findMessages',
    'countMessages',
    'findConversations',
    'insights',
  ]);
  for (const name of Object.keys(store) as Array<keyof Store>) {
    if (READS.has(name)) continue;
    const write = store[name] as (...args: unknown[]) => unknown;
    (cached as unknown as Record<string, unknown>)[name] = (...args: unknown[]) => {
      try {
        return write(...args);
      } finally {
        forget();
      }
    };
  }

  cached.findKey = (hash) => {
    const hit = keys.get(hash);
    if (hit) return hit;
    const key = store.findKey(hash);
    if (key) remember(keys, hash, () => key);
    return key;
  };
  cached.getChatbot = (uuid) => remember(chatbots, uuid, () => store.getChatbot(uuid));
  cached.getSession = (uuid) => remember(sessions, uuid, () => store.getSession(uuid));
  cached.listAgents = (chatbotUuid) =>
    remember(agents, chatbotUuid, () => store.listAgents(chatbotUuid));
  cached.listSources = (chatbotUuid) =>
    remember(sources, chatbotUuid, () => store.listSources(chatbotUuid));
  // Every answer touches its session: keep the entry, or each next message would read it again.
  cached.touchSession = (uuid, now) => {
    store.touchSession(uuid, now);
    const session = sessions.get(uuid);
    if (session) sessions.set(uuid, deepFreeze({ ...session, modified_at: now }));
  };
  return cached;
}

/** Without recursion: a stored value is never too deep to be remembered. */
function deepFreeze<T>(value: T): T {
  const open: unknown[] = [value];
  while (open.length > 0) {
    const item = open.pop();
    if (typeof item !== 'object' || item === null || Object.isFrozen(item)) continue;
    Object.freeze(item);
    for (const member of Object.values(item)) open.push(member);
  }
  return value;
}
