import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { parseRetryAfter } from '../../src/api/errors.js';
import {
  ApiError,
  type ChatbotClient,
  createClient,
  isAbortError,
  isApiError,
  isNetworkError,
  isTimeoutError,
  NetworkError,
  TimeoutError,
} from '../../src/api/index.js';
import { handleFixture } from './fixture-server.mjs';
import { chunked, collect, fixtureBase, utf8 } from './fixture-url.js';

let server: Server;
let origin: string;

before(async () => {
  server = createServer((req, res) => void handleFixture(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

after(() => {
  server.closeAllConnections();
  server.close();
});

const KEY = 'test-key-123';
const fast = { limit: 2, baseDelayMs: 1, maxDelayMs: 5_000 };

function client(baseUrl: string, extra: Partial<Parameters<typeof createClient>[0]> = {}) {
  return createClient({ baseUrl, apiKey: KEY, retry: fast, ...extra });
}

interface Echo {
  request: {
    method: string;
    path: string;
    headers: Record<string, string>;
    body: string | null;
  };
}

async function attempts(id: string): Promise<{ attempts: number; closed: boolean }> {
  return (await fetch(`${origin}/fixture/count/${id}`)).json() as Promise<{
    attempts: number;
    closed: boolean;
  }>;
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  assert.fail('expected the call to fail');
}

describe('createClient', () => {
  it('refuses to start without a base URL or a key, saying which is missing', () => {
    assert.throws(() => createClient({ baseUrl: '', apiKey: 'k' }), /needs a baseUrl/);
    assert.throws(() => createClient({ baseUrl: 'http://x' }), /needs an apiKey or a getToken/);
  });

  it('accepts a base URL with a trailing slash or /api/v1 and calls the same paths', async () => {
    for (const suffix of ['/', '/api/v1', '/api/v1/']) {
      const result = (await client(
        fixtureBase(origin, 'echo') + suffix,
      ).chatbots.list()) as unknown as Echo;
      assert.equal(result.request.path, '/api/v1/chatbots');
    }
  });
});

describe('every endpoint sends its method, path, headers and body', () => {
  type Case = [string, (c: ChatbotClient) => Promise<unknown>, string, string, unknown];
  const cases: Case[] = [
    ['chatbots.list', (c) => c.chatbots.list(), 'GET', '/api/v1/chatbots', null],
    ['chatbots.get', (c) => c.chatbots.get('cb1'), 'GET', '/api/v1/chatbot/cb1', null],
    [
      'chatbots.create',
      (c) => c.chatbots.create({ name: 'Help desk', rate_limit: [5, 60], show_citations: true }),
      'POST',
      '/api/v1/chatbot/create',
      { name: 'Help desk', rate_limit: [5, 60], show_citations: true },
    ],
    [
      'chatbots.update',
      (c) => c.chatbots.update('cb1', { rate_limit_message: 'Slow down' }),
      'POST',
      '/api/v1/chatbot/cb1/update',
      { rate_limit_message: 'Slow down' },
    ],
    [
      'chatbots.delete',
      (c) => c.chatbots.delete('cb1'),
      'DELETE',
      '/api/v1/chatbot/cb1/delete',
      null,
    ],
    ['agents.list', (c) => c.agents.list('cb1'), 'GET', '/api/v1/chatbot/cb1/agents', null],
    [
      'agents.create',
      (c) => c.agents.create('cb1', { name: 'Guide', type: 'user-facing', temperature: 0.2 }),
      'POST',
      '/api/v1/chatbot/cb1/agent/create',
      { name: 'Guide', type: 'user-facing', temperature: 0.2 },
    ],
    [
      'agents.update',
      (c) => c.agents.update('a1', { enabled: true, data_source_uuids: ['s1'] }),
      'POST',
      '/api/v1/agent/a1/update',
      { enabled: true, data_source_uuids: ['s1'] },
    ],
    ['agents.delete', (c) => c.agents.delete('a1'), 'POST', '/api/v1/agent/a1/delete', null],
    ['sources.list', (c) => c.sources.list('cb1'), 'GET', '/api/v1/chatbot/cb1/data-sources', null],
    [
      'sources.createQa',
      (c) =>
        c.sources.createQa('cb1', {
          question: 'Opening hours?',
          answer: '9 to 5',
          reference_source_link: 'https://example.com/hours',
        }),
      'POST',
      '/api/v1/chatbot/cb1/data-source/qa',
      {
        question: 'Opening hours?',
        answer: '9 to 5',
        reference_source_link: 'https://example.com/hours',
      },
    ],
    [
      'sources.createUrl',
      (c) => c.sources.createUrl('cb1', { url: 'https://example.com/faq' }),
      'POST',
      '/api/v1/chatbot/cb1/data-source/url',
      { url: 'https://example.com/faq' },
    ],
    [
      'sources.update',
      (c) => c.sources.update('s1', { title: 'FAQ' }),
      'POST',
      '/api/v1/data-source/s1/update',
      { title: 'FAQ' },
    ],
    [
      'sources.rescrape',
      (c) => c.sources.rescrape(['s1', 's2']),
      'POST',
      '/api/v1/data-sources/url/re-scrape',
      { uuids: ['s1', 's2'] },
    ],
    [
      'sources.restart',
      (c) => c.sources.restart(['s1']),
      'POST',
      '/api/data-sources/restart',
      { uuids: ['s1'] },
    ],
    [
      'sources.delete',
      (c) => c.sources.delete('s1'),
      'POST',
      '/api/v1/data-source/s1/delete',
      null,
    ],
    [
      'sources.deleteMany',
      (c) => c.sources.deleteMany(['s1', 's2']),
      'POST',
      '/api/v1/data-sources/delete',
      { uuids: ['s1', 's2'] },
    ],
    ['tags.list', (c) => c.tags.list('cb1'), 'GET', '/api/v1/chatbot/cb1/source-tags', null],
    [
      'tags.create',
      (c) => c.tags.create('cb1', { name: 'Billing', color: '#FF8800', data_source_uuids: ['s1'] }),
      'POST',
      '/api/v1/chatbot/cb1/source-tag/create',
      { name: 'Billing', color: '#FF8800', data_source_uuids: ['s1'] },
    ],
    [
      'tags.update',
      (c) => c.tags.update('t1', { color: '#000000' }),
      'POST',
      '/api/v1/source-tag/t1/update',
      { color: '#000000' },
    ],
    ['tags.delete', (c) => c.tags.delete('t1'), 'POST', '/api/v1/source-tag/t1/delete', null],
    [
      'sessions.create with data',
      (c) => c.sessions.create('cb1', { page: 'pricing', visits: 3 }),
      'POST',
      '/api/v1/chatbot/cb1/session/create',
      { page: 'pricing', visits: 3 },
    ],
    ['sessions.get', (c) => c.sessions.get('se1'), 'GET', '/api/v1/session/se1', null],
    ['sessions.list', (c) => c.sessions.list('cb1'), 'GET', '/api/v1/chatbot/cb1/sessions', null],
    [
      'sessions.delete',
      (c) => c.sessions.delete('se1'),
      'POST',
      '/api/v1/session/se1/delete',
      null,
    ],
    ['messages.list', (c) => c.messages.list('se1'), 'GET', '/api/v1/session/se1/messages', null],
    [
      'messages.send',
      (c) => c.messages.send('se1', 'Hi there'),
      'POST',
      '/api/v1/session/se1/message/non-stream',
      { query: 'Hi there' },
    ],
    ['messages.delete', (c) => c.messages.delete('m1'), 'POST', '/api/v1/message/m1/delete', null],
    [
      'messages.deleteMany',
      (c) => c.messages.deleteMany(['m1']),
      'POST',
      '/api/v1/messages/delete',
      { uuids: ['m1'] },
    ],
  ];

  for (const [name, call, method, path, body] of cases) {
    it(`${name} sends ${method} ${path}${body ? ' with a JSON body' : ''} and returns the parsed answer`, async () => {
      const result = (await call(client(fixtureBase(origin, 'echo')))) as Echo;
      const { request } = result;
      assert.equal(request.method, method);
      assert.equal(request.path, path);
      assert.equal(request.headers.authorization, `Bearer ${KEY}`);
      assert.equal(request.headers.accept, 'application/json');
      if (body === null) {
        assert.equal(request.body, null);
        assert.equal(request.headers['content-type'], undefined);
      } else {
        assert.equal(request.headers['content-type'], 'application/json');
        assert.deepEqual(JSON.parse(request.body ?? ''), body);
      }
    });
  }

  it('sessions.create without data sends a bare POST with no body and no Content-Type', async () => {
    const { request } = (await client(fixtureBase(origin, 'echo')).sessions.create(
      'cb1',
    )) as unknown as Echo;
    assert.equal(request.method, 'POST');
    assert.equal(request.path, '/api/v1/chatbot/cb1/session/create');
    assert.equal(request.body, null);
    assert.equal(request.headers['content-type'], undefined);
  });

  it('escapes uuids in paths so a crafted id cannot reach another endpoint', async () => {
    const { request } = (await client(fixtureBase(origin, 'echo')).chatbots.get(
      '../../x?y',
    )) as unknown as Echo;
    assert.equal(request.path, '/api/v1/chatbot/..%2F..%2Fx%3Fy');
  });

  it('messages.stream posts the query as JSON and accepts plain text or SSE', async () => {
    const stream = await client(fixtureBase(origin, 'echo')).messages.stream('se1', 'Héllo');
    const { request } = JSON.parse((await collect(stream.text)).join('')) as Echo;
    assert.equal(request.method, 'POST');
    assert.equal(request.path, '/api/v1/session/se1/message/stream');
    assert.equal(request.headers.authorization, `Bearer ${KEY}`);
    assert.equal(request.headers['content-type'], 'application/json');
    assert.equal(request.headers.accept, 'text/plain, text/event-stream');
    assert.deepEqual(JSON.parse(request.body ?? ''), { query: 'Héllo' });
  });

  it('sources.upload sends multipart with the file and reference_source_link, and reports completion', async () => {
    const progress: Array<{ loaded: number; total: number }> = [];
    const file = new File(['# Returns\nWithin 30 days.'], 'returns.md', { type: 'text/markdown' });
    const record = (await client(fixtureBase(origin, 'upload')).sources.upload('cb1', file, {
      referenceSourceLink: 'https://example.com/returns',
      onProgress: (p) => progress.push(p),
    })) as unknown as { file_name: string; meta_json: string; received: Record<string, string> };
    assert.equal(record.received.method, 'POST');
    assert.equal(record.received.path, '/api/v1/chatbot/cb1/data-source/upload');
    assert.equal(record.received.authorization, `Bearer ${KEY}`);
    assert.match(record.received.contentType, /^multipart\/form-data; boundary=/);
    assert.equal(record.file_name, 'returns.md');
    assert.equal(JSON.parse(record.meta_json).reference_source_link, 'https://example.com/returns');
    assert.deepEqual(progress, [{ loaded: file.size, total: file.size }]);
  });
});

describe('responses', () => {
  it('returns records exactly as the server sent them, field names and 0/1 integers included', async () => {
    const agent = {
      uuid: 'a1',
      name: 'Guide',
      type: 'user-facing',
      description: '',
      prompt: '',
      enabled: 0,
      meta: { model: 'gpt-4o-mini', temperature: 0.3, use_all_sources: true },
      variables: [],
      created_at: '2026-11-22T10:00:00Z',
      modified_at: '2026-11-22T10:00:00Z',
    };
    const base = fixtureBase(origin, 'status', { status: 200, body: JSON.stringify(agent) });
    assert.deepEqual(
      await client(base).agents.create('cb1', { name: 'Guide', type: 'user-facing' }),
      agent,
    );
  });

  it('a success answer that is not JSON is an ApiError saying so', async () => {
    const base = fixtureBase(origin, 'status', { status: 200, body: '<html>portal</html>' });
    const error = await rejection(client(base).chatbots.list());
    assert.ok(error instanceof ApiError);
    assert.equal(error.code, 'invalid_response');
    assert.match(
      error.message,
      /GET \/api\/v1\/chatbots failed with 200: the response is not JSON/,
    );
  });
});

describe('errors', () => {
  it('an HTTP error carries status, code and the server message, and names the method and path', async () => {
    const body = JSON.stringify({ error: { code: 'not_found', message: 'chatbot not found' } });
    const error = await rejection(
      client(fixtureBase(origin, 'status', { status: 404, body })).chatbots.get('cb9'),
    );
    assert.ok(error instanceof ApiError);
    assert.ok(isApiError(error));
    assert.equal(error.name, 'ApiError');
    assert.equal(error.status, 404);
    assert.equal(error.code, 'not_found');
    assert.equal(error.serverMessage, 'chatbot not found');
    assert.equal(error.method, 'GET');
    assert.equal(error.path, '/api/v1/chatbot/cb9');
    assert.equal(error.message, 'GET /api/v1/chatbot/cb9 failed with 404: chatbot not found');
    assert.deepEqual(error.body, JSON.parse(body));
  });

  it('understands {error: "text"} and plain-text bodies, and falls back to the status text for HTML', async () => {
    const asString = await rejection(
      client(
        fixtureBase(origin, 'status', { status: 400, body: '{"error":"name is required"}' }),
      ).chatbots.create({
        name: '',
      }),
    );
    assert.equal((asString as ApiError).serverMessage, 'name is required');
    const plain = await rejection(
      client(
        fixtureBase(origin, 'status', { status: 415, body: 'file type not allowed' }),
      ).sources.createQa('cb1', {
        question: 'q',
        answer: 'a',
      }),
    );
    assert.equal((plain as ApiError).serverMessage, 'file type not allowed');
    const html = await rejection(
      client(fixtureBase(origin, 'status', { status: 502, body: '<html>Bad gateway</html>' }), {
        retry: false,
      }).chatbots.list(),
    );
    assert.equal((html as ApiError).serverMessage, 'Bad Gateway');
  });

  it('a 429 carries Retry-After in seconds, from a number or an HTTP date', async () => {
    const error = await rejection(
      client(
        fixtureBase(origin, 'status', {
          status: 429,
          retryAfter: 42,
          body: '{"error":{"code":"rate_limited","message":"Too many messages"}}',
        }),
      ).messages.send('se1', 'hi'),
    );
    assert.equal((error as ApiError).status, 429);
    assert.equal((error as ApiError).retryAfter, 42);
    assert.equal((error as ApiError).serverMessage, 'Too many messages');
    const now = Date.parse('2026-11-22T12:00:00Z');
    assert.equal(parseRetryAfter('Sun, 22 Nov 2026 12:00:30 GMT', now), 30);
    assert.equal(parseRetryAfter('yesterday', now), undefined);
    assert.equal(parseRetryAfter(null, now), undefined);
  });

  it('a connection that fails is a NetworkError with its cause, naming the method and path', async () => {
    const error = await rejection(
      client(fixtureBase(origin, 'drop', {})).chatbots.create({ name: 'x' }),
    );
    assert.ok(error instanceof NetworkError);
    assert.ok(isNetworkError(error));
    assert.ok((error as NetworkError).cause instanceof Error);
    assert.match(
      (error as Error).message,
      /^POST \/api\/v1\/chatbot\/create could not reach the server: /,
    );
  });

  it('an unreachable server is a NetworkError too', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));
    const error = await rejection(
      client(`http://127.0.0.1:${port}`, { retry: false }).chatbots.list(),
    );
    assert.ok(isNetworkError(error));
  });

  it('a request slower than timeoutMs is a TimeoutError, not retried', async () => {
    const base = fixtureBase(origin, 'slow', { ms: 400 });
    const error = await rejection(client(base, { timeoutMs: 50 }).chatbots.list());
    assert.ok(error instanceof TimeoutError);
    assert.ok(isTimeoutError(error));
    assert.equal((error as TimeoutError).timeoutMs, 50);
    assert.equal((error as Error).message, 'GET /api/v1/chatbots got no answer within 50 ms');
  });

  it("the caller's abort stays an AbortError, apart from failures", async () => {
    const controller = new AbortController();
    const pending = client(fixtureBase(origin, 'slow', { ms: 400 })).chatbots.list({
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 20);
    const error = await rejection(pending);
    assert.ok(isAbortError(error));
    assert.ok(!isNetworkError(error) && !isTimeoutError(error) && !isApiError(error));

    const aborted = AbortSignal.abort();
    assert.ok(
      isAbortError(
        await rejection(client(fixtureBase(origin, 'echo')).chatbots.list({ signal: aborted })),
      ),
    );
  });

  it('asks getToken for the key before every attempt', async () => {
    let calls = 0;
    const c = createClient({
      baseUrl: fixtureBase(origin, 'flaky', { id: 'token-1', fail: 1 }),
      getToken: async () => `token-${++calls}`,
      retry: fast,
    });
    const { request } = (await c.chatbots.list()) as unknown as Echo;
    assert.equal(calls, 2);
    assert.equal(request.headers.authorization, 'Bearer token-2');
  });
});

describe('retries', () => {
  it('retries a GET after 503s and succeeds within the limit', async () => {
    const result = (await client(
      fixtureBase(origin, 'flaky', { id: 'get-503', fail: 2 }),
    ).chatbots.list()) as unknown as Echo;
    assert.equal(result.request.path, '/api/v1/chatbots');
    assert.equal((await attempts('get-503')).attempts, 3);
  });

  it('gives up after the limit and throws the last HTTP error', async () => {
    const error = await rejection(
      client(fixtureBase(origin, 'flaky', { id: 'get-limit', fail: 5 })).chatbots.list(),
    );
    assert.equal((error as ApiError).status, 503);
    assert.equal((error as ApiError).serverMessage, 'attempt 3 fails');
    assert.equal((await attempts('get-limit')).attempts, 3);
  });

  it('retries 408, 429 and 500 but not 400, 401, 404 or 422', async () => {
    for (const status of [408, 429, 500]) {
      await client(
        fixtureBase(origin, 'flaky', { id: `retry-${status}`, fail: 1, status }),
      ).chatbots.list();
      assert.equal((await attempts(`retry-${status}`)).attempts, 2, `status ${status}`);
    }
    for (const status of [400, 401, 404, 422]) {
      await rejection(
        client(
          fixtureBase(origin, 'flaky', { id: `no-retry-${status}`, fail: 1, status }),
        ).chatbots.list(),
      );
      assert.equal((await attempts(`no-retry-${status}`)).attempts, 1, `status ${status}`);
    }
  });

  it('retries a GET whose connection dropped', async () => {
    await client(
      fixtureBase(origin, 'flaky', { id: 'get-drop', fail: 1, status: 'drop' }),
    ).sources.list('cb1');
    assert.equal((await attempts('get-drop')).attempts, 2);
  });

  it('never retries a POST that creates or changes something', async () => {
    const base = fixtureBase(origin, 'flaky', { id: 'post-503', fail: 1 });
    await rejection(client(base).chatbots.create({ name: 'once' }));
    assert.equal((await attempts('post-503')).attempts, 1);
    await rejection(
      client(
        fixtureBase(origin, 'flaky', { id: 'post-drop', fail: 1, status: 'drop' }),
      ).sources.createQa('cb1', {
        question: 'q',
        answer: 'a',
      }),
    );
    assert.equal((await attempts('post-drop')).attempts, 1);
  });

  it('never retries the message stream, even on 503', async () => {
    const error = await rejection(
      client(fixtureBase(origin, 'flaky', { id: 'stream-503', fail: 1 })).messages.stream(
        'se1',
        'hi',
      ),
    );
    assert.equal((error as ApiError).status, 503);
    assert.equal((await attempts('stream-503')).attempts, 1);
  });

  it('retries a delete, and a 404 after a lost answer counts as deleted', async () => {
    const base = fixtureBase(origin, 'flaky', {
      id: 'delete-lost',
      fail: 1,
      status: 'drop',
      thenStatus: 404,
    });
    assert.deepEqual(await client(base).sources.delete('s1'), { success: true });
    assert.equal((await attempts('delete-lost')).attempts, 2);
  });

  it('a first-attempt 404 on delete is still an error', async () => {
    const body = '{"error":{"code":"not_found","message":"data source not found"}}';
    const error = await rejection(
      client(fixtureBase(origin, 'status', { status: 404, body })).sources.delete('s1'),
    );
    assert.equal((error as ApiError).status, 404);
  });

  it('waits for Retry-After before retrying', async () => {
    const started = Date.now();
    await client(
      fixtureBase(origin, 'flaky', { id: 'retry-after', fail: 1, status: 429, retryAfter: 1 }),
    ).chatbots.list();
    assert.ok(Date.now() - started >= 950, 'waited at least the Retry-After second');
    assert.equal((await attempts('retry-after')).attempts, 2);
  });

  it('does not wait for a Retry-After longer than maxDelayMs: the error says when to come back', async () => {
    const base = fixtureBase(origin, 'flaky', {
      id: 'retry-after-long',
      fail: 1,
      status: 503,
      retryAfter: 120,
    });
    const error = await rejection(client(base).chatbots.list());
    assert.equal((error as ApiError).retryAfter, 120);
    assert.equal((await attempts('retry-after-long')).attempts, 1);
  });

  it('retry: false makes exactly one attempt', async () => {
    await rejection(
      client(fixtureBase(origin, 'flaky', { id: 'no-retry', fail: 1 }), {
        retry: false,
      }).chatbots.list(),
    );
    assert.equal((await attempts('no-retry')).attempts, 1);
  });

  it('an abort during the backoff wait ends the call with AbortError', async () => {
    const controller = new AbortController();
    // Retry-After fixes the wait at 5 s: a jittered backoff can be shorter than any fixed
    // abort delay, and then the retry succeeds before the abort.
    const base = fixtureBase(origin, 'flaky', {
      id: 'abort-backoff',
      fail: 1,
      status: 503,
      retryAfter: 5,
    });
    let answered: () => void = () => {};
    const firstAnswer = new Promise<void>((resolve) => {
      answered = resolve;
    });
    const pending = client(base, {
      fetch: async (input, init) => {
        const response = await fetch(input, init);
        answered();
        return response;
      },
    }).chatbots.list({ signal: controller.signal });
    await firstAnswer;
    // The 503's small body is read at once; then the client sleeps.
    setTimeout(() => controller.abort(), 50);
    const stillWaiting = new Promise((resolve) => setTimeout(resolve, 2_500, 'still waiting'));
    const outcome = await Promise.race([rejection(pending), stillWaiting]);
    assert.ok(isAbortError(outcome), 'the abort ends the 5 s wait at once');
    assert.equal((await attempts('abort-backoff')).attempts, 1, 'no retry after the abort');
  });
});

describe('messages.stream', () => {
  const streamBase = (plan: object) => fixtureBase(origin, 'stream', plan);
  const text = 'Hello 👋 世界 — ünïcödé 🎉 done.';

  for (const size of [1, 2, 3, 5]) {
    it(`decodes UTF-8 split every ${size} byte(s), inside emoji and CJK characters`, async () => {
      const stream = await client(
        streamBase({ chunks: chunked(utf8(text), size) }),
      ).messages.stream('se1', 'q');
      const pieces = await collect(stream.text);
      assert.equal(pieces.join(''), text);
      assert.ok(pieces.every((piece) => piece.length > 0 && !piece.includes('\uFFFD')));
    });
  }

  it('skips empty chunks without yielding empty strings', async () => {
    const stream = await client(
      streamBase({ chunks: [[], utf8('a'), [], [], utf8('b'), []] }),
    ).messages.stream('se1', 'q');
    const pieces = await collect(stream.text);
    assert.equal(pieces.join(''), 'ab');
    assert.ok(pieces.every((piece) => piece !== ''));
  });

  it('surfaces X-Message-Uuid and X-Citations (base64url UTF-8 JSON) as soon as headers arrive', async () => {
    const citations = [
      { n: 1, data_source_uuid: 's1', title: 'Prices — Überblick ✓', type: 'file' },
    ];
    const header = Buffer.from(JSON.stringify(citations)).toString('base64url');
    const stream = await client(
      streamBase({
        headers: { 'x-message-uuid': 'm-42', 'x-citations': header },
        chunks: ['See [1].'],
      }),
    ).messages.stream('se1', 'q');
    assert.equal(stream.messageUuid, 'm-42');
    assert.deepEqual(stream.citations, citations);
    assert.equal((await collect(stream.text)).join(''), 'See [1].');
  });

  it('works without the extra headers, and ignores a malformed X-Citations', async () => {
    const plain = await client(streamBase({ chunks: ['ok'] })).messages.stream('se1', 'q');
    assert.equal(plain.messageUuid, undefined);
    assert.equal(plain.citations, undefined);
    const broken = await client(
      streamBase({ headers: { 'x-citations': '%%%not-base64' }, chunks: ['ok'] }),
    ).messages.stream('se1', 'q');
    assert.equal(broken.citations, undefined);
    assert.equal((await collect(broken.text)).join(''), 'ok');
  });

  it('a body that ends early throws NetworkError after yielding what arrived', async () => {
    const stream = await client(
      streamBase({ chunks: ['The first part', ' and more'], endEarly: true, delayMs: 10 }),
    ).messages.stream('se1', 'q');
    const pieces: string[] = [];
    let failure: unknown;
    try {
      for await (const piece of stream.text) pieces.push(piece);
    } catch (error) {
      failure = error;
    }
    assert.equal(pieces.join(''), 'The first part and more');
    assert.ok(isNetworkError(failure));
    assert.match(
      (failure as Error).message,
      /POST \/api\/v1\/session\/se1\/message\/stream answer stream was interrupted/,
    );
  });

  it("the caller's abort mid-stream ends the iteration quietly and closes the connection", async () => {
    const controller = new AbortController();
    const stream = await client(
      streamBase({ id: 'abort-mid', chunks: ['partial'], hold: true }),
    ).messages.stream('se1', 'q', {
      signal: controller.signal,
    });
    const pieces: string[] = [];
    for await (const piece of stream.text) {
      pieces.push(piece);
      controller.abort();
    }
    assert.deepEqual(pieces, ['partial']);
    await waitFor(async () => (await attempts('abort-mid')).closed);
  });

  it('breaking out of the loop aborts the request', async () => {
    const stream = await client(
      streamBase({ id: 'break-out', chunks: ['one', 'two'], delayMs: 20, hold: true }),
    ).messages.stream('se1', 'q');
    for await (const piece of stream.text) {
      assert.equal(piece, 'one');
      break;
    }
    await waitFor(async () => (await attempts('break-out')).closed);
  });

  it('stream.abort() stops the answer like the signal does', async () => {
    const stream = await client(
      streamBase({ id: 'abort-method', chunks: ['x'], hold: true }),
    ).messages.stream('se1', 'q');
    const pieces: string[] = [];
    for await (const piece of stream.text) {
      pieces.push(piece);
      stream.abort();
    }
    assert.deepEqual(pieces, ['x']);
    await waitFor(async () => (await attempts('abort-method')).closed);
  });

  it('a stream that stalls longer than streamIdleTimeoutMs throws TimeoutError', async () => {
    const stream = await client(streamBase({ chunks: ['start'], hold: true }), {
      streamIdleTimeoutMs: 100,
    }).messages.stream('se1', 'q');
    const pieces: string[] = [];
    let failure: unknown;
    try {
      for await (const piece of stream.text) pieces.push(piece);
    } catch (error) {
      failure = error;
    }
    assert.deepEqual(pieces, ['start']);
    assert.ok(isTimeoutError(failure));
    assert.match((failure as Error).message, /answer stream stalled: no data within 100 ms/);
  });

  it('a refused stream is an ApiError with the server message and Retry-After', async () => {
    const body = '{"error":{"code":"rate_limited","message":"You are sending messages too fast."}}';
    const error = await rejection(
      client(fixtureBase(origin, 'status', { status: 429, retryAfter: 30, body })).messages.stream(
        'se1',
        'q',
      ),
    );
    assert.equal((error as ApiError).status, 429);
    assert.equal((error as ApiError).retryAfter, 30);
    assert.equal((error as ApiError).serverMessage, 'You are sending messages too fast.');
  });

  it('understands text/event-stream: data lines, JSON deltas, CRLF split across chunks, [DONE]', async () => {
    const sse =
      ': keep-alive\r\n\r\n' +
      'data: Hello\r\n\r\n' +
      'data: {"text":", wörld"}\r\n\r\n' +
      'event: delta\r\ndata: {"delta":" 🌍"}\r\n\r\n' +
      'data: {"choices":[{"delta":{"content":"!"}}]}\r\n\r\n' +
      'data: line one\r\ndata: line two\r\n\r\n' +
      'data: [DONE]\r\n\r\n' +
      'data: after done\r\n\r\n';
    const stream = await client(
      streamBase({ contentType: 'text/event-stream', chunks: chunked(utf8(sse), 3) }),
    ).messages.stream('se1', 'q');
    assert.equal((await collect(stream.text)).join(''), 'Hello, wörld 🌍!line one\nline two');
  });
});

async function waitFor(check: () => Promise<boolean>, timeoutMs = 3_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  assert.fail('condition not met in time');
}
