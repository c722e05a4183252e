import { oneEvent } from '@open-wc/testing';
import { type ChatbotClient, createClient } from '../../src/api/client.js';
import { encodeCitations } from '../../src/api/stream.js';
import type { Citation } from '../../src/api/types.js';
import type { ChatbotChat } from '../../src/chat/chatbot-chat.js';

export interface TestEnv {
  baseUrl: string | null;
  apiKey: string;
  otherApiKey: string;
}

let env: TestEnv | undefined;
export async function testEnv(): Promise<TestEnv> {
  env ??= (await (await fetch('/__test-env.json')).json()) as TestEnv;
  return env;
}

/** A real chatbot on the reference server with one Q&A source. */
export async function realChatbot(
  options: {
    rate_limit?: [number, number];
    rate_limit_message?: string;
    show_citations?: boolean;
  } = {},
): Promise<{ client: ChatbotClient; chatbotUuid: string; baseUrl: string; apiKey: string }> {
  const { baseUrl, apiKey } = await testEnv();
  if (!baseUrl) throw new Error('the reference server is not running (src/server/cli.ts missing?)');
  const client = createClient({ baseUrl, apiKey });
  const chatbot = await client.chatbots.create({
    name: `chat test ${Math.random().toString(36).slice(2)}`,
    show_citations: true,
    ...options,
  });
  await client.sources.createQa(chatbot.uuid, {
    question: 'What are the opening hours of the bakery?',
    answer: 'The bakery is open from 7 am to 6 pm, Monday to Saturday.',
  });
  return { client, chatbotUuid: chatbot.uuid, baseUrl, apiKey };
}

export interface ScriptedAnswer {
  /** Chunks of the answer body. */
  chunks?: string[];
  /** Status other than 200 (with a JSON error body). */
  status?: number;
  message?: string;
  retryAfter?: number;
  /** Cut the stream after the chunks with a network error. */
  drop?: boolean;
  /** Wait for this promise before each chunk (to hold a stream open). */
  gate?: () => Promise<void>;
  /** Never answer at all, not even the headers (a server still thinking), until aborted. */
  silent?: boolean;
  citations?: Citation[];
  /** Sent as `X-Suggestions`, as the reference server does for a refusal. */
  suggestions?: string[];
  messageUuid?: string;
}

export interface FakeService {
  fetch: typeof fetch;
  client: ChatbotClient;
  calls: Array<{ method: string; path: string; body: unknown }>;
  answers: ScriptedAnswer[];
  /** Sessions that answer 404. */
  goneSessions: Set<string>;
  /** Message records by session, for `messages.list`. */
  records: Map<string, unknown[]>;
  sessionsCreated: number;
}

/**
 * A scripted service for conditions the reference server cannot produce on demand: a stream
 * that drops mid-answer, a 5xx, a held-open stream.
 */
export function fakeService(answers: ScriptedAnswer[] = []): FakeService {
  const service: FakeService = {
    calls: [],
    answers,
    goneSessions: new Set(),
    records: new Map(),
    sessionsCreated: 0,
    client: undefined as unknown as ChatbotClient,
    fetch: undefined as unknown as typeof fetch,
  };
  const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
    new Response(JSON.stringify(body), {
      status,
      headers: { 'content-type': 'application/json', ...headers },
    });
  service.fetch = async (input, init) => {
    const url = new URL(String(input));
    const path = url.pathname;
    const method = init?.method ?? 'GET';
    const body = init?.body ? JSON.parse(String(init.body)) : undefined;
    service.calls.push({ method, path, body });
    const session = /\/session\/([^/]+)\//.exec(path)?.[1];
    if (session && service.goneSessions.has(session)) {
      return json({ error: { code: 'not_found', message: 'session not found' } }, 404);
    }
    if (path.endsWith('/session/create')) {
      service.sessionsCreated += 1;
      const uuid = `s-${service.sessionsCreated}-${Math.random().toString(36).slice(2)}`;
      return json({
        uuid,
        created_at: '2026-01-01T00:00:00Z',
        modified_at: '2026-01-01T00:00:00Z',
      });
    }
    if (path.endsWith('/messages')) {
      const records = service.records.get(session ?? '');
      if (!records) return json({ error: { code: 'not_found', message: 'no list' } }, 404);
      return json(records);
    }
    if (path.endsWith('/delete')) return json({ success: true });
    if (path.endsWith('/message/stream')) {
      const answer = service.answers.shift() ?? { chunks: ['Hello.'] };
      if (answer.silent) {
        return new Promise<Response>((_resolve, reject) => {
          const signal = init?.signal;
          signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
        });
      }
      if (answer.status && answer.status !== 200) {
        return json(
          { error: { code: 'error', message: answer.message ?? 'failed' } },
          answer.status,
          answer.retryAfter !== undefined ? { 'retry-after': String(answer.retryAfter) } : {},
        );
      }
      const encoder = new TextEncoder();
      const chunks = [...(answer.chunks ?? [])];
      const signal = init?.signal;
      const stream = new ReadableStream<Uint8Array>({
        start(controller) {
          // As a real fetch's body does: an aborted request (Stop, the client's stall timeout)
          // fails the read waiting on it, even while the gate holds the next chunk.
          signal?.addEventListener('abort', () => controller.error(signal.reason), { once: true });
        },
        async pull(controller) {
          if (answer.gate) await answer.gate();
          if (signal?.aborted) return;
          const chunk = chunks.shift();
          if (chunk !== undefined) controller.enqueue(encoder.encode(chunk));
          else if (answer.drop) controller.error(new TypeError('network error'));
          else controller.close();
        },
      });
      const headers: Record<string, string> = { 'content-type': 'text/plain; charset=utf-8' };
      if (answer.messageUuid) headers['x-message-uuid'] = answer.messageUuid;
      if (answer.citations) headers['x-citations'] = encodeCitations(answer.citations);
      if (answer.suggestions) {
        // The same encoding as X-Citations' (base64url of UTF-8 JSON), over a list of strings.
        headers['x-suggestions'] = encodeCitations(answer.suggestions as unknown as Citation[]);
      }
      return new Response(stream, { status: 200, headers });
    }
    return json({ error: { code: 'not_found', message: 'unknown path' } }, 404);
  };
  service.client = createClient({
    baseUrl: 'https://fake.test',
    apiKey: 'fake-key',
    fetch: service.fetch,
    retry: false,
  });
  return service;
}

/** A gate that holds a stream until `release()`. */
export function gate(): { wait: () => Promise<void>; release: () => void } {
  let release!: () => void;
  const promise = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { wait: () => promise, release };
}

export const shadow = (el: ChatbotChat) => el.shadowRoot!;

export function input(el: ChatbotChat): HTMLTextAreaElement {
  return shadow(el).querySelector('textarea')!;
}

export function button(el: ChatbotChat, name: string): HTMLButtonElement | undefined {
  return [...shadow(el).querySelectorAll('button')].find(
    (b) => (b.getAttribute('aria-label') ?? b.textContent ?? '').trim() === name,
  );
}

/** Waits for `n` animation frames: what a scroll or a layout change shows after. */
export async function frames(n = 2): Promise<void> {
  for (let i = 0; i < n; i++) await new Promise((resolve) => requestAnimationFrame(resolve));
}

/** The first exchange wholly in the log's view: what the reader is reading. */
export function firstInView(el: ChatbotChat, log: HTMLElement): HTMLElement {
  const edge = log.getBoundingClientRect().top;
  return [...shadow(el).querySelectorAll<HTMLElement>('.exchange')].find(
    (x) => x.getBoundingClientRect().top >= edge,
  )!;
}

/**
 * Waits for a condition the element reaches asynchronously. The deadline is generous on purpose:
 * it only bounds a failing test, and CI shares two cores with other work (a 1-3 s margin failed
 * there), so no test reads "fast enough" into it.
 */
export async function until(check: () => unknown, what = 'condition', ms = 20_000): Promise<void> {
  const end = performance.now() + ms;
  while (!check()) {
    if (performance.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Sends `question` through the element's API and waits until its answer has finished. */
export async function ask(el: ChatbotChat, question: string): Promise<void> {
  const finished = oneEvent(el, 'chatbot-answer-finished');
  await el.send(question);
  await finished;
}

/** Types and sends a message through the textbox and the Enter key. */
export async function typeAndEnter(el: ChatbotChat, text: string): Promise<void> {
  const box = input(el);
  box.focus();
  box.value = text;
  box.dispatchEvent(new Event('input', { bubbles: true }));
  box.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, composed: true }));
}

export function answers(el: ChatbotChat): HTMLElement[] {
  return [...shadow(el).querySelectorAll<HTMLElement>('.exchange .assistant')];
}

export function userMessages(el: ChatbotChat): string[] {
  return [...shadow(el).querySelectorAll<HTMLElement>('.exchange .user')].map((n) =>
    (n.textContent ?? '').replace(/^\s*You:\s*/, '').trim(),
  );
}

export function alertText(el: ChatbotChat): string {
  return (shadow(el).querySelector('[role="alert"]')?.textContent ?? '').trim();
}

export { TestHost } from '../ui/test-host.js';
