import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { parseRetryAfter } from '../../src/api/errors.js';
import {
  ApiError,
  ChatbotApiError,
  createClient,
  isAbortError,
  isApiError,
  isChatbotApiError,
  isNetworkError,
  isTimeoutError,
  NetworkError,
  TimeoutError,
} from '../../src/api/index.js';
import { fixtureBase } from './fixture-url.js';
import { client, type Echo, fast, origin, rejection, useFixtureServer } from './helpers.js';

useFixtureServer();

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

  // A body that starts and then stalls: the headers arrived, so only a signal kept past them can
  // end the call. Without it these would hang, so each test has its own limit.
  const stalledJson = () =>
    fixtureBase(origin, 'stream', {
      contentType: 'application/json',
      chunks: ['{"uuid": "cb1", '],
      hold: true,
    });

  it('a JSON body that stalls after its headers still times out', { timeout: 10_000 }, async () => {
    const error = await rejection(client(stalledJson(), { timeoutMs: 200 }).chatbots.get('cb1'));
    assert.ok(error instanceof TimeoutError, String(error));
  });

  it(
    "a JSON body that stalls after its headers still ends on the caller's abort",
    { timeout: 10_000 },
    async () => {
      const controller = new AbortController();
      const c = client(stalledJson(), {
        retry: false,
        fetch: async (input, init) => {
          const response = await fetch(input, init);
          setTimeout(() => controller.abort(), 0); // strictly after the headers
          return response;
        },
      });
      const error = await rejection(c.chatbots.get('cb1', { signal: controller.signal }));
      assert.ok(isAbortError(error), String(error));
    },
  );

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

  it("passes getToken's own failure on as it is, without sending or retrying", async () => {
    let calls = 0;
    const refused = new Error('signed out: no token');
    const c = createClient({
      baseUrl: fixtureBase(origin, 'flaky', { id: 'token-fails', fail: 0 }),
      getToken: () => {
        calls++;
        throw refused;
      },
      retry: fast,
    });
    const error = await rejection(c.chatbots.list());
    assert.equal(error, refused);
    assert.equal(calls, 1);
    assert.ok(!isNetworkError(error));
  });
});

describe('the error family', () => {
  it('every failure of a call is a ChatbotApiError naming its kind, method and path', async () => {
    const body = '{"error":{"code":"not_found","message":"chatbot not found"}}';
    const failures: Array<[unknown, string, string, string]> = [
      [
        await rejection(
          client(fixtureBase(origin, 'status', { status: 404, body })).chatbots.get('cb9'),
        ),
        'ApiError',
        'GET',
        '/api/v1/chatbot/cb9',
      ],
      [
        await rejection(client(fixtureBase(origin, 'drop', {})).chatbots.create({ name: 'x' })),
        'NetworkError',
        'POST',
        '/api/v1/chatbot/create',
      ],
      [
        await rejection(
          client(fixtureBase(origin, 'slow', { ms: 400 }), { timeoutMs: 50 }).chatbots.list(),
        ),
        'TimeoutError',
        'GET',
        '/api/v1/chatbots',
      ],
    ];
    for (const [error, name, method, path] of failures) {
      assert.ok(error instanceof ChatbotApiError, `${name} extends ChatbotApiError`);
      assert.ok(error instanceof Error);
      assert.ok(isChatbotApiError(error));
      assert.equal(error.name, name);
      assert.equal(error.method, method);
      assert.equal(error.path, path);
      assert.ok(error.message.startsWith(`${method} ${path} `), error.message);
    }
  });

  it('a stream cut off mid-answer is one of the family too', async () => {
    const stream = await client(
      fixtureBase(origin, 'stream', { chunks: ['partial'], endEarly: true, delayMs: 10 }),
    ).messages.stream('se1', 'q');
    const error = await rejection(
      (async () => {
        for await (const _ of stream.text);
      })(),
    );
    assert.ok(error instanceof NetworkError);
    assert.ok(error instanceof ChatbotApiError);
    assert.equal(error.method, 'POST');
    assert.equal(error.path, '/api/v1/session/se1/message/stream');
  });

  it("the caller's abort is apart from the family: a DOMException named AbortError", async () => {
    const controller = new AbortController();
    const pending = client(fixtureBase(origin, 'slow', { ms: 400 })).chatbots.list({
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 20);
    const error = await rejection(pending);
    assert.ok(error instanceof DOMException);
    assert.equal(error.name, 'AbortError');
    assert.ok(isAbortError(error));
    assert.ok(!(error instanceof ChatbotApiError));
    assert.ok(!isChatbotApiError(error));
  });

  it('the guard holds across copies of the module, where instanceof does not', async () => {
    // A query string makes Node load a second, separate copy, as a second bundle or an iframe would.
    const other: typeof import('../../src/api/errors.js') = await import(
      new URL('../../src/api/errors.ts?second-copy', import.meta.url).href
    );
    assert.notEqual(other.ChatbotApiError, ChatbotApiError);
    const request = { method: 'GET', path: '/api/v1/chatbots' };
    const foreign = [
      new other.ApiError({ status: 500, serverMessage: 'boom', request }),
      new other.NetworkError(request, new Error('reset')),
      new other.TimeoutError(request, 50),
    ];
    for (const error of foreign) {
      assert.ok(isChatbotApiError(error), `${error.name} from another copy`);
      assert.ok(!((error as unknown) instanceof ChatbotApiError));
    }
    assert.ok(isApiError(foreign[0]) && isNetworkError(foreign[1]) && isTimeoutError(foreign[2]));
  });

  it('the brand the guard reads is a Symbol.for key, so a plain object carrying it passes', () => {
    const branded = { [Symbol.for('chatbot-elements.ChatbotApiError')]: true };
    assert.ok(isChatbotApiError(branded));
  });

  it('the guard refuses errors that are not ours', () => {
    for (const value of [
      new Error('GET /api/v1/chatbots failed'),
      new TypeError('createClient needs a baseUrl'),
      new DOMException('The operation timed out.', 'TimeoutError'),
      new DOMException('The operation was aborted.', 'AbortError'),
      { name: 'ChatbotApiError' },
      null,
      undefined,
      'ApiError',
    ]) {
      assert.ok(!isChatbotApiError(value), String(value));
    }
  });
});
