import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { HTTPException } from 'hono/http-exception';
import { HttpError } from '../../src/server/http.js';
import { NOT_COVERED } from '../../src/server/knowledge/answer.js';
import { createServerApp } from '../../src/server/main.js';
import { ADMIN_KEY, OTHER_KEY } from './helpers.js';
import { testStoreOptions } from './stores.js';

const MISSING = '00000000-0000-4000-8000-000000000000';

interface ErrorBody {
  error: { code: string; message: string };
}

/** The status and the whole JSON error body, for exact assertions. */
async function failure(response: Response) {
  assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
  return { status: response.status, body: (await response.json()) as ErrorBody };
}

const error = (status: number, code: string, message: string) => ({
  status,
  body: { error: { code, message } },
});

describe("the app through app.request() (no port; this pass's store)", () => {
  let server: Awaited<ReturnType<typeof createServerApp>>;
  let database: Awaited<ReturnType<typeof testStoreOptions>>;
  let bot: string;
  let session: string;

  /** A request with alice's key unless `key` says otherwise (null: no Authorization). */
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
  const chatbotNames = async () =>
    ((await (await call('/api/v1/chatbots')).json()) as Array<{ name: string }>).map((b) => b.name);

  before(async () => {
    database = await testStoreOptions();
    server = await createServerApp({
      ...database.options,
      apiKeys: `alice:${ADMIN_KEY},bob:${OTHER_KEY}`,
      log: false,
      streamDelayMs: 0,
    });
    const created = await call('/api/v1/chatbot/create', { json: { name: 'Requested' } });
    bot = ((await created.json()) as { uuid: string }).uuid;
    const opened = await call(`/api/v1/chatbot/${bot}/session/create`, { method: 'POST' });
    session = ((await opened.json()) as { uuid: string }).uuid;
  });
  after(async () => {
    await server.close();
    await database.drop();
  });

  describe('authentication', () => {
    it('should answer 401 with the JSON error shape when the bearer key is missing', async () => {
      assert.deepEqual(
        await failure(await call('/api/v1/chatbots', { key: null })),
        error(401, 'unauthorized', 'missing API key: send Authorization: Bearer <key>'),
      );
    });

    it('should answer 401 for an Authorization header that is not a bearer key', async () => {
      const response = await call('/api/v1/chatbots', {
        key: null,
        headers: { Authorization: `Basic ${ADMIN_KEY}` },
      });
      assert.deepEqual(
        await failure(response),
        error(401, 'unauthorized', 'missing API key: send Authorization: Bearer <key>'),
      );
    });

    it('should answer 401 for an unknown key', async () => {
      assert.deepEqual(
        await failure(await call('/api/v1/chatbots', { key: 'not-a-key' })),
        error(401, 'unauthorized', 'unknown API key'),
      );
    });

    it('should refuse a chat-only key on an admin route with 403, and let it chat', async () => {
      const chatKey = await server.createKey('alice', { chatOnly: bot });
      const refused = error(
        403,
        'forbidden',
        'this key is chat-only: it cannot reach this endpoint',
      );
      assert.deepEqual(await failure(await call('/api/v1/chatbots', { key: chatKey })), refused);
      const agent = { name: 'A', type: 'user-facing' };
      const create = await call(`/api/v1/chatbot/${bot}/agent/create`, {
        key: chatKey,
        json: agent,
      });
      assert.deepEqual(await failure(create), refused);
      const opened = await call(`/api/v1/chatbot/${bot}/session/create`, {
        key: chatKey,
        method: 'POST',
      });
      assert.equal(opened.status, 200);
    });

    it("should answer 404 for another user's chatbot, as for a missing one", async () => {
      assert.deepEqual(
        await failure(await call(`/api/v1/chatbot/${bot}`, { key: OTHER_KEY })),
        error(404, 'not_found', 'chatbot not found'),
      );
    });
  });

  describe('validation', () => {
    it('should answer 400 naming the member of a wrong type, and create nothing', async () => {
      const before = await chatbotNames();
      assert.deepEqual(
        await failure(await call('/api/v1/chatbot/create', { json: { name: 7 } })),
        error(400, 'invalid_input', 'name must be a string'),
      );
      assert.deepEqual(
        await failure(
          await call(`/api/v1/chatbot/${bot}/agent/create`, {
            json: { name: 'a', type: 'user-facing', meta: { temperature: 'hot' } },
          }),
        ),
        error(400, 'invalid_input', 'meta.temperature must be a number'),
      );
      assert.deepEqual(await chatbotNames(), before);
    });

    it('should answer 400 invalid_json for a body that is not JSON', async () => {
      const response = await call('/api/v1/chatbot/create', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: '{"name": ',
      });
      assert.deepEqual(
        await failure(response),
        error(400, 'invalid_json', 'the body is not valid JSON'),
      );
    });

    it('should answer 404 for an unknown uuid', async () => {
      assert.deepEqual(
        await failure(await call(`/api/v1/chatbot/${MISSING}`)),
        error(404, 'not_found', 'chatbot not found'),
      );
      assert.deepEqual(
        await failure(
          await call(`/api/v1/session/${MISSING}/message/stream`, { json: { query: 'hi' } }),
        ),
        error(404, 'not_found', 'session not found'),
      );
    });

    it('should answer 404 with the JSON error shape for a path no route serves', async () => {
      assert.deepEqual(
        await failure(await call('/api/v1/nothing-here')),
        error(404, 'not_found', 'no endpoint GET /api/v1/nothing-here'),
      );
    });

    it('should answer 405 naming the methods it takes for a path asked with another method', async () => {
      const response = await call(`/api/v1/chatbot/${MISSING}`, { method: 'PUT' });
      assert.equal(response.headers.get('allow'), 'GET, HEAD, OPTIONS');
      assert.deepEqual(
        await failure(response),
        error(
          405,
          'method_not_allowed',
          `/api/v1/chatbot/${MISSING} does not take PUT; it takes GET, HEAD, OPTIONS`,
        ),
      );
      const remove = await call(`/api/v1/chatbot/${MISSING}/delete`);
      assert.equal(remove.status, 405);
      assert.equal(remove.headers.get('allow'), 'DELETE, OPTIONS, POST');
      // Without a key the key is what is wrong, as for any other request.
      assert.equal((await call('/api/v1/chatbots', { method: 'DELETE', key: null })).status, 401);
    });
  });

  describe('body size', () => {
    const big = JSON.stringify({ name: 'big', rate_limit_message: 'x'.repeat(1024 * 1024) });
    const tooLarge = error(413, 'too_large', 'the body is larger than 1048576 bytes');

    it('should answer 413 from a declared length over 1 MiB, closing the connection', async () => {
      const before = await chatbotNames();
      const response = await call('/api/v1/chatbot/create', {
        method: 'POST',
        headers: { 'Content-Length': String(Buffer.byteLength(big)) },
        body: big,
      });
      assert.equal(response.headers.get('connection'), 'close');
      assert.deepEqual(await failure(response), tooLarge);
      assert.deepEqual(await chatbotNames(), before);
    });

    it('should answer 413 for a chunked body once it passes 1 MiB', async () => {
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode(big));
          controller.close();
        },
      });
      const response = await call('/api/v1/chatbot/create', {
        method: 'POST',
        headers: { 'Transfer-Encoding': 'chunked' },
        body,
        duplex: 'half',
      } as RequestInit);
      assert.equal(response.headers.get('connection'), 'close');
      assert.deepEqual(await failure(response), tooLarge);
    });
  });

  describe('messages', () => {
    it('should stream an answer as text, and store it as finished', async () => {
      const response = await call(`/api/v1/session/${session}/message/stream`, {
        json: { query: 'anything at all' },
      });
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('content-type'), 'text/plain; charset=utf-8');
      assert.equal(response.headers.get('cache-control'), 'no-store');
      const uuid = response.headers.get('x-message-uuid');
      assert.equal(await response.text(), NOT_COVERED);
      const list = await call(`/api/v1/session/${session}/messages`);
      const stored = ((await list.json()) as Array<Record<string, string>>).find(
        (m) => m.uuid === uuid,
      );
      assert.equal(stored?.response, NOT_COVERED);
      assert.equal(stored?.finish_reason, 'stop');
    });

    it('should store what was sent, cut short, when the reader cancels the stream', async () => {
      const response = await call(`/api/v1/session/${session}/message/stream`, {
        json: { query: 'something else entirely' },
      });
      const uuid = response.headers.get('x-message-uuid');
      const reader = response.body!.getReader();
      await reader.read();
      await reader.cancel();
      // The server saves a cancelled answer once it notices the cancellation, after the client
      // has moved on (a reader that reads to the end finds it at once): wait for the record.
      let stored: Record<string, string> | undefined;
      for (let tries = 0; !stored && tries < 200; tries++) {
        if (tries > 0) await new Promise((resolve) => setTimeout(resolve, 25));
        const list = await call(`/api/v1/session/${session}/messages`);
        stored = ((await list.json()) as Array<Record<string, string>>).find(
          (m) => m.uuid === uuid,
        );
      }
      assert.equal(stored?.finish_reason, 'length');
      assert.ok(stored.response.length > 0 && stored.response.length < NOT_COVERED.length);
      assert.ok(NOT_COVERED.startsWith(stored.response));
    });

    it("should answer 429 with Retry-After and the chatbot's message past its rate limit", async () => {
      const created = await call('/api/v1/chatbot/create', {
        json: { name: 'Limited', rate_limit: [1, 60], rate_limit_message: 'Slow down.' },
      });
      const limited = ((await created.json()) as { uuid: string }).uuid;
      const opened = await call(`/api/v1/chatbot/${limited}/session/create`, { method: 'POST' });
      const uuid = ((await opened.json()) as { uuid: string }).uuid;
      const ask = () =>
        call(`/api/v1/session/${uuid}/message/non-stream`, { json: { query: 'hello' } });
      assert.equal((await ask()).status, 200);
      const refused = await ask();
      // The window's 60 s less the first answer's own time: a second or more on a loaded machine.
      const wait = Number(refused.headers.get('retry-after'));
      assert.ok(wait >= 55 && wait <= 60, `Retry-After ${wait}`);
      assert.deepEqual(await failure(refused), error(429, 'rate_limited', 'Slow down.'));
    });
  });
});

describe('HttpError', () => {
  it("should be Hono's HTTPException, so one onError branch maps it", () => {
    const notFound = new HttpError(404, 'not_found', 'chatbot not found');
    assert.ok(notFound instanceof HTTPException);
    assert.equal(notFound.status, 404);
    assert.equal(HttpError.from(notFound), notFound);
  });

  it("should read Hono's own exceptions as a bad_request", () => {
    const mapped = HttpError.from(new HTTPException(400));
    assert.deepEqual(
      {
        status: mapped.status,
        code: mapped.code,
        message: mapped.message,
        headers: mapped.headers,
      },
      { status: 400, code: 'bad_request', message: 'bad request', headers: {} },
    );
    assert.equal(HttpError.from(new HTTPException(500, { message: 'no body' })).message, 'no body');
  });
});
