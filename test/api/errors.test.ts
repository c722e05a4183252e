import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { parseRetryAfter } from '../../src/api/errors.js';
import {
  ApiError,
  createClient,
  isAbortError,
  isApiError,
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
