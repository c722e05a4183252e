import { type ChatbotClient, createClient } from '../../src/api/client.js';
import { type RunningServer, type ServerOptions, startServer } from '../../src/server/main.js';
import { testStoreOptions } from './stores.js';

export const ADMIN_KEY = 'test-admin-key';
export const OTHER_KEY = 'test-other-key';

export interface Harness {
  server: RunningServer;
  /** Client with the `alice` user's full-access key. */
  api: ChatbotClient;
  /** Client with the `bob` user's key: a different user. */
  other: ChatbotClient;
  url: string;
  clientFor(apiKey: string): ChatbotClient;
  /** Raw fetch against the server, with alice's key unless `headers.Authorization` says otherwise. */
  raw(path: string, init?: RequestInit & { key?: string | null }): Promise<Response>;
  close(): Promise<void>;
}

/**
 * A server on a free port, on this pass's store (stores.ts): SQLite in memory, or a fresh
 * PostgreSQL database dropped at close. A test that names a SQLite file (`db`) gets that file.
 */
export async function startHarness(options: ServerOptions = {}): Promise<Harness> {
  const database = options.db || options.databaseUrl ? null : await testStoreOptions();
  let server: RunningServer;
  try {
    server = await startServer({
      port: 0,
      ...database?.options,
      apiKeys: `alice:${ADMIN_KEY},bob:${OTHER_KEY}`,
      log: false,
      streamDelayMs: 0,
      ...options,
    });
  } catch (error) {
    await database?.drop();
    throw error;
  }
  const clientFor = (apiKey: string) => createClient({ baseUrl: server.url, apiKey, retry: false });
  return {
    server,
    url: server.url,
    api: clientFor(ADMIN_KEY),
    other: clientFor(OTHER_KEY),
    clientFor,
    raw(path, init = {}) {
      const { key = ADMIN_KEY, ...rest } = init;
      const headers = new Headers(rest.headers);
      if (key !== null && !headers.has('authorization'))
        headers.set('Authorization', `Bearer ${key}`);
      return fetch(server.url + path, { ...rest, headers });
    },
    async close() {
      await server.close();
      await database?.drop();
    },
  };
}

/**
 * A harness whose server reads `env` as its environment (settings read when the app is built:
 * session document limits, the visitor limit); the variables are gone again once it has started.
 */
export async function startHarnessWith(
  env: Record<string, string>,
  options: ServerOptions = {},
): Promise<Harness> {
  Object.assign(process.env, env);
  try {
    return await startHarness(options);
  } finally {
    for (const name of Object.keys(env)) delete process.env[name];
  }
}

/** Polls the source list until the source leaves the progress statuses. */
export async function settled(h: Harness, chatbotUuid: string, sourceUuid: string) {
  await h.server.idle();
  const source = (await h.api.sources.list(chatbotUuid)).find((s) => s.uuid === sourceUuid);
  if (!source) throw new Error(`source ${sourceUuid} is gone`);
  return source;
}

/** Uploads `content` as the file `fileName` and waits until ingestion is done with it. */
export async function ingested(
  h: Harness,
  chatbotUuid: string,
  fileName: string,
  content: string | Uint8Array,
) {
  const created = await h.api.sources.upload(
    chatbotUuid,
    new Blob([content as string | Uint8Array<ArrayBuffer>]),
    { fileName },
  );
  return settled(h, chatbotUuid, created.uuid);
}

/** Sends a message and collects the whole streamed answer. */
export async function ask(api: ChatbotClient, sessionUuid: string, query: string) {
  const stream = await api.messages.stream(sessionUuid, query);
  let text = '';
  let pieces = 0;
  for await (const piece of stream.text) {
    text += piece;
    pieces++;
  }
  return { text, pieces, messageUuid: stream.messageUuid, citations: stream.citations };
}

export const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The sorted member names of a record, for exact-shape assertions. */
export const keys = (value: object) => Object.keys(value).sort();

/** The members of a message record, sorted, as every endpoint that answers one sends them. */
export const MESSAGE_KEYS = [
  'background_pending_tasks',
  'cite_data_json',
  'created_at',
  'detected_frustrations',
  'error_message',
  'feedback_json',
  'finish_reason',
  'labels',
  'meta_json',
  'modified_at',
  'query',
  'response',
  'session_documents',
  'uuid',
];
