/**
 * A server for the review routes' tests, through app.request() (no port), with messages put
 * straight into its store at chosen times so that filters, pages and counts can be asserted
 * exactly.
 */
import { randomUUID } from 'node:crypto';
import type { CiteData, Feedback } from '../../src/api/types.js';
import { createServerApp, type ServerOptions } from '../../src/server/main.js';
import { ADMIN_KEY, OTHER_KEY } from './helpers.js';
import { testStoreOptions } from './stores.js';

export interface ErrorBody {
  error: { code: string; message: string };
}

export interface PutMessage {
  /** Seconds after BASE. */
  at: number;
  query?: string;
  response?: string;
  rating?: 'up' | 'down';
  reason?: Feedback['reason'];
  comment?: string;
  /** Sources cited: [uuid, title] pairs. */
  cites?: Array<[string, string]>;
  escalated?: boolean;
  error?: string;
  /** A refusal that offered these topics (meta_json's suggestions). */
  offered?: string[];
}

/** 2026-03-10T00:00:00Z: the test messages' times count from here. */
export const BASE = Date.UTC(2026, 2, 10);
export const iso = (seconds: number) =>
  new Date(BASE + seconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
export const DAY = 86_400;

/** On this pass's store (stores.ts), as startHarness; a test naming a SQLite file gets that file. */
export async function reviewServer(options: ServerOptions = {}) {
  const database = options.db ? null : await testStoreOptions();
  const server = await createServerApp({
    ...database?.options,
    apiKeys: `alice:${ADMIN_KEY},bob:${OTHER_KEY}`,
    log: false,
    streamDelayMs: 0,
    ...options,
  }).catch(async (error: unknown) => {
    await database?.drop();
    throw error;
  });
  const { store } = server.ctx;

  /** A request with alice's key unless `key` says otherwise; `json` is sent as a JSON body. */
  const call = (path: string, init: RequestInit & { key?: string | null; json?: unknown } = {}) => {
    const { key = ADMIN_KEY, json, ...rest } = init;
    const headers = new Headers(rest.headers);
    if (key !== null) headers.set('Authorization', `Bearer ${key}`);
    if (json !== undefined) headers.set('Content-Type', 'application/json');
    return server.app.request(path, {
      ...rest,
      headers,
      ...(json !== undefined ? { method: rest.method ?? 'POST', body: JSON.stringify(json) } : {}),
    });
  };

  /** The status and parsed JSON body of a request. */
  const get = async <T = unknown>(path: string, init?: Parameters<typeof call>[1]) => {
    const response = await call(path, init);
    return { status: response.status, body: (await response.json()) as T };
  };

  return {
    server,
    store,
    call,
    get,
    async close() {
      await server.close();
      await database?.drop();
    },

    async chatbot(name = 'Reviewed', key = ADMIN_KEY): Promise<string> {
      const created = await get<{ uuid: string }>('/api/v1/chatbot/create', {
        key,
        json: { name },
      });
      return created.body.uuid;
    },

    /** A session straight in the store; `test`: the owner's test, as Try it makes one. */
    async session(chatbotUuid: string, at = 0, { test = false } = {}): Promise<string> {
      const uuid = randomUUID();
      await store.createSession({
        uuid,
        chatbotUuid,
        meta: null,
        test,
        created_at: iso(at),
        modified_at: iso(at),
      });
      return uuid;
    },

    /** Stores one exchange as the answer path would; returns its uuid. */
    async put(sessionUuid: string, m: PutMessage): Promise<string> {
      const uuid = randomUUID();
      const citeData: CiteData = {};
      (m.cites ?? []).forEach(([source, title], i) => {
        citeData[String(i + 1)] = {
          data_source_uuid: source,
          title,
          text: 'quoted',
          file_name: '',
          type: 'qa',
        };
      });
      await store.createMessage({
        uuid,
        sessionUuid,
        query: m.query ?? `question at ${m.at}`,
        response: m.response ?? `answer at ${m.at}`,
        finish_reason: 'stop',
        cite_data: citeData,
        meta: m.escalated
          ? { rule: 'human-escalation', agent_type: 'human-escalation' }
          : m.offered
            ? { rule: 'not-covered', suggestions: m.offered }
            : { rule: 'passages' },
        error_message: m.error ?? '',
        feedback: m.rating
          ? {
              rating: m.rating,
              ...(m.reason ? { reason: m.reason } : {}),
              ...(m.comment ? { comment: m.comment } : {}),
              at: iso(m.at),
            }
          : null,
        created_at: iso(m.at),
        modified_at: iso(m.at),
      });
      return uuid;
    },

    chatKey: (chatbotUuid: string) => server.createKey('alice', { chatOnly: chatbotUuid }),
  };
}

export type ReviewServer = Awaited<ReturnType<typeof reviewServer>>;

/** Every page of a list, following next_cursor; `between` runs before each next page. */
export async function allPages<T>(
  s: ReviewServer,
  path: string,
  between: (page: number) => void | Promise<void> = () => {},
): Promise<T[]> {
  const rows: T[] = [];
  let cursor: string | null = null;
  let page = 0;
  do {
    const separator = path.includes('?') ? '&' : '?';
    const url: string = cursor ? `${path}${separator}cursor=${encodeURIComponent(cursor)}` : path;
    const { status, body } = await s.get<{ data: T[]; next_cursor: string | null }>(url);
    if (status !== 200) throw new Error(`${url} answered ${status}: ${JSON.stringify(body)}`);
    rows.push(...body.data);
    cursor = body.next_cursor;
    if (cursor) await between(++page);
  } while (cursor);
  return rows;
}
