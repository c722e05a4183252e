import type {
  AgentRow,
  ChatbotRow,
  KeyRow,
  SessionDocumentRow,
  SessionRow,
  SourceRow,
  Store,
} from './types.js';

/**
 * A store that remembers what every chat message reads before its first byte: the key, the
 * session, the chatbot, its agents, its sources and the documents bound to the session. Read from SQLite and parsed from JSON on each
 * message, they cost about as much as the whole no-work request does; answering 200 questions
 * at once made that the difference between a quick and a slow first byte.
 *
 * It relies on seeing every write to those tables: this process's own, and other instances' as
 * the store reports them (`onChange`, which on SQLite covers the `create-key` and `revoke-key`
 * commands of another process; only found keys are remembered, never misses). Any write
 * other than a message's forgets everything, which is simple and cannot go stale; messages are
 * written once per answer (and rated) and only touch their session's time. Nothing about
 * messages is remembered, so the review reads are never stale. Of the session documents only
 * binding changes what is remembered (an upload is unbound, pruning deletes only unbound ones);
 * it comes with a message that sends new attachments, rarely enough to forget everything too.
 *
 * Remembered rows are frozen, so code that changed a row it was given (and so, silently, every
 * later reader's copy) fails loudly in tests instead.
 */
export function cachedStore(store: Store): Store {
  const keys = new Map<string, KeyRow>();
  const chatbots = new Map<string, ChatbotRow | undefined>();
  const sessions = new Map<string, SessionRow | undefined>();
  const agents = new Map<string, AgentRow[]>();
  const sources = new Map<string, SourceRow[]>();
  const documents = new Map<string, SessionDocumentRow[]>();
  // The documents' text, counted: a few thousand sessions with documents hold much more than rows.
  let documentChars = 0;
  // Bumped by every forget: a read that began before one must not store what it read.
  let generation = 0;
  const forget = () => {
    generation++;
    keys.clear();
    chatbots.clear();
    sessions.clear();
    agents.clear();
    sources.clear();
    documents.clear();
    documentChars = 0;
  };
  const keep = <K, V>(map: Map<K, V>, key: K, value: V, readAt: number) => {
    if (generation !== readAt) return;
    // Bounded: a store with very many sessions or chatbots must not grow without end.
    if (map.size >= ENTRIES) map.clear();
    map.set(key, value);
  };
  /**
   * Reads under way, per map and key: the questions that arrive together after a start or a
   * forget all miss, and each read the same rows (200 at once took 240 ms each on PostgreSQL,
   * queued for the pool's connections). They share one read instead, unless a forget came since
   * it began.
   */
  const reading = new Map<
    Map<unknown, unknown>,
    Map<unknown, { at: number; value: Promise<unknown> }>
  >();
  const once = <K, V>(map: Map<K, V>, key: K, read: (readAt: number) => Promise<V>): Promise<V> => {
    let pending = reading.get(map as Map<unknown, unknown>);
    if (!pending) {
      pending = new Map();
      reading.set(map as Map<unknown, unknown>, pending);
    }
    const running = pending.get(key);
    if (running && running.at === generation) return running.value as Promise<V>;
    const readAt = generation;
    const value = read(readAt);
    const entry = { at: readAt, value };
    pending.set(key, entry);
    const done = () => {
      if (pending.get(key) === entry) pending.delete(key);
    };
    value.then(done, done);
    return value;
  };
  const remember = async <K, V>(map: Map<K, V>, key: K, read: () => Promise<V>): Promise<V> => {
    if (map.has(key)) return map.get(key) as V;
    return once(map, key, async (readAt) => {
      const value = deepFreeze(await read());
      keep(map, key, value, readAt);
      return value;
    });
  };

  const cached = { ...methodsOf(store), kind: store.kind, shared: store.shared } as Store;
  // Every method that writes forgets all; the reads below and the message writes are the exceptions.
  const READS = new Set<keyof Store>([
    'close',
    'ping',
    'onChange',
    // The queue and the rate-limit windows: nothing remembered reads them.
    'enqueueJob',
    'claimJob',
    'renewJob',
    'finishJob',
    'releaseJobs',
    'takeRateLimit',
    'takeVisitorLimit',
    'findUser',
    'findKey',
    'hasKeys',
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
    'listSourceChunks',
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
    // Session documents: uploads and pruning touch only unbound ones, which nothing remembers.
    'createSessionDocument',
    'getSessionDocument',
    'listSessionDocuments',
    'pruneSessionDocuments',
    'uploadedDocumentBytes',
    'findMessages',
    'countMessages',
    'findConversations',
    'insights',
  ]);
  for (const [name, write] of Object.entries(methodsOf(store))) {
    if (READS.has(name as keyof Store)) continue;
    (cached as unknown as Record<string, unknown>)[name] = async (...args: unknown[]) => {
      try {
        return await write(...args);
      } finally {
        forget();
      }
    };
  }
  // Another instance's writes: the same as ours for what is remembered here.
  store.onChange((change) => {
    if (change.kind !== 'jobs') forget();
  });

  cached.findKey = async (hash) => {
    const hit = keys.get(hash);
    if (hit) return hit;
    return once(keys as Map<string, KeyRow | undefined>, hash, async (readAt) => {
      const key = await store.findKey(hash);
      // Only found keys are remembered: anyone can send made-up ones.
      if (key) keep(keys, hash, deepFreeze(key), readAt);
      return key;
    });
  };
  cached.getChatbot = (uuid) => remember(chatbots, uuid, () => store.getChatbot(uuid));
  cached.getSession = (uuid, opts) => {
    if (opts?.fresh) sessions.delete(uuid);
    return remember(sessions, uuid, () => store.getSession(uuid));
  };
  cached.listAgents = (chatbotUuid) =>
    remember(agents, chatbotUuid, () => store.listAgents(chatbotUuid));
  cached.listSources = (chatbotUuid) =>
    remember(sources, chatbotUuid, () => store.listSources(chatbotUuid));
  cached.listSessionDocuments = async (sessionUuid) => {
    const hit = documents.get(sessionUuid);
    if (hit) return hit;
    const readAt = generation;
    const listed = deepFreeze(await store.listSessionDocuments(sessionUuid));
    if (generation !== readAt || documents.has(sessionUuid)) return listed;
    const chars = listed.reduce((n, d) => n + d.text.length, 0);
    if (documents.size >= ENTRIES || documentChars + chars > DOCUMENT_CHARS) {
      documents.clear();
      documentChars = 0;
    }
    documents.set(sessionUuid, listed);
    documentChars += chars;
    return listed;
  };
  // Every answer sets its session's time: keep the entry, or each next message would read it again.
  cached.createMessage = async (row) => {
    await store.createMessage(row);
    const session = sessions.get(row.sessionUuid);
    if (session) {
      sessions.set(row.sessionUuid, deepFreeze({ ...session, modified_at: row.modified_at }));
    }
  };
  return cached;
}

/** How many rows (or lists) of one kind are remembered at most: past it, all of them go. */
const ENTRIES = 10_000;
/** How much document text is remembered at most (about 32 MB): past it, all of it goes. */
const DOCUMENT_CHARS = 16_000_000;

/**
 * A store's methods, bound to it, whether it is a plain object of functions or a class instance
 * (whose methods live on its prototype, where a spread does not reach).
 */
function methodsOf(store: Store): Record<string, (...args: unknown[]) => Promise<unknown>> {
  const methods: Record<string, (...args: unknown[]) => Promise<unknown>> = {};
  for (
    let level: object | null = store;
    level && level !== Object.prototype;
    level = Object.getPrototypeOf(level)
  ) {
    for (const name of Object.getOwnPropertyNames(level)) {
      const value = (store as unknown as Record<string, unknown>)[name];
      if (name === 'constructor' || name in methods || typeof value !== 'function') continue;
      methods[name] = (value as (...args: unknown[]) => Promise<unknown>).bind(store);
    }
  }
  return methods;
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
