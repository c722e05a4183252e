import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { ADMIN_KEY, ask, type Harness, OTHER_KEY, startHarness } from './helpers.js';

interface Route {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  body?: unknown;
  /** Reachable with a chat-only key for its own chatbot. */
  chat?: boolean;
  /** Names another user's resource: must answer 404 to them. */
  owned?: boolean;
}

describe('authentication and isolation', () => {
  let h: Harness;
  let routes: Route[];
  let ids: Record<string, string>;
  let chatKey: string;
  let otherBotChatKey: string;

  before(async () => {
    h = await startHarness({ allowPrivateUrls: true });
    const bot = await h.api.chatbots.create({ name: 'Private' });
    const second = await h.api.chatbots.create({ name: 'Second' });
    const agent = await h.api.agents.create(bot.uuid, { name: 'A', type: 'user-facing' });
    const source = await h.api.sources.createQa(bot.uuid, { question: 'Secret?', answer: 'Yes.' });
    const link = await h.api.sources.createUrl(bot.uuid, { url: 'http://127.0.0.1:9/page' });
    const tag = await h.api.tags.create(bot.uuid, { name: 'T', color: '#123456' });
    const session = await h.api.sessions.create(bot.uuid, { who: 'alice' });
    const message = await ask(h.api, session.uuid, 'hello');
    await h.server.idle();
    ids = {
      bot: bot.uuid,
      agent: agent.uuid,
      source: source.uuid,
      link: link.uuid,
      tag: tag.uuid,
      session: session.uuid,
      message: message.messageUuid!,
    };
    chatKey = await h.server.createKey('alice', { chatOnly: bot.uuid });
    otherBotChatKey = await h.server.createKey('alice', { chatOnly: second.uuid });
    routes = [
      { method: 'GET', path: '/api/v1/chatbots' },
      { method: 'POST', path: '/api/v1/chatbot/create', body: { name: 'X' } },
      { method: 'GET', path: `/api/v1/chatbot/${ids.bot}`, owned: true },
      {
        method: 'POST',
        path: `/api/v1/chatbot/${ids.bot}/update`,
        body: { name: 'Y' },
        owned: true,
      },
      { method: 'DELETE', path: `/api/v1/chatbot/${ids.bot}/delete`, owned: true },
      { method: 'POST', path: `/api/v1/chatbot/${ids.bot}/delete`, owned: true },
      {
        method: 'POST',
        path: `/api/v1/chatbot/${ids.bot}/agent/create`,
        body: { name: 'B', type: 'background' },
        owned: true,
      },
      { method: 'GET', path: `/api/v1/chatbot/${ids.bot}/agents`, owned: true },
      {
        method: 'POST',
        path: `/api/v1/agent/${ids.agent}/update`,
        body: { name: 'Z' },
        owned: true,
      },
      { method: 'POST', path: `/api/v1/agent/${ids.agent}/delete`, owned: true },
      { method: 'DELETE', path: `/api/v1/agent/${ids.agent}/delete`, owned: true },
      {
        method: 'POST',
        path: `/api/v1/chatbot/${ids.bot}/data-source/qa`,
        body: { question: 'q', answer: 'a' },
        owned: true,
      },
      {
        method: 'POST',
        path: `/api/v1/chatbot/${ids.bot}/data-source/url`,
        body: { url: 'http://127.0.0.1:9/' },
        owned: true,
      },
      { method: 'POST', path: `/api/v1/chatbot/${ids.bot}/data-source/upload`, owned: true },
      { method: 'GET', path: `/api/v1/chatbot/${ids.bot}/data-sources`, owned: true },
      {
        method: 'POST',
        path: `/api/v1/data-source/${ids.source}/update`,
        body: { title: 'T' },
        owned: true,
      },
      { method: 'POST', path: `/api/v1/data-source/${ids.source}/delete`, owned: true },
      { method: 'DELETE', path: `/api/v1/data-source/${ids.source}/delete`, owned: true },
      {
        method: 'POST',
        path: '/api/v1/data-sources/delete',
        body: { uuids: [ids.source] },
        owned: true,
      },
      { method: 'POST', path: '/api/v1/data-sources/url/re-scrape', body: { uuids: [ids.link] } },
      { method: 'POST', path: '/api/data-sources/restart', body: { uuids: [ids.source] } },
      {
        method: 'POST',
        path: `/api/v1/chatbot/${ids.bot}/source-tag/create`,
        body: { name: 'N', color: '#000000' },
        owned: true,
      },
      { method: 'GET', path: `/api/v1/chatbot/${ids.bot}/source-tags`, owned: true },
      {
        method: 'POST',
        path: `/api/v1/source-tag/${ids.tag}/update`,
        body: { name: 'M' },
        owned: true,
      },
      { method: 'POST', path: `/api/v1/source-tag/${ids.tag}/delete`, owned: true },
      { method: 'DELETE', path: `/api/v1/source-tag/${ids.tag}/delete`, owned: true },
      {
        method: 'POST',
        path: `/api/v1/chatbot/${ids.bot}/session/create`,
        chat: true,
        owned: true,
      },
      { method: 'GET', path: `/api/v1/session/${ids.session}`, chat: true, owned: true },
      { method: 'GET', path: `/api/v1/chatbot/${ids.bot}/sessions`, owned: true },
      { method: 'POST', path: `/api/v1/session/${ids.session}/delete`, owned: true },
      { method: 'DELETE', path: `/api/v1/session/${ids.session}/delete`, owned: true },
      { method: 'GET', path: `/api/v1/session/${ids.session}/messages`, chat: true, owned: true },
      {
        method: 'POST',
        path: `/api/v1/session/${ids.session}/message/stream`,
        body: { query: 'hi' },
        chat: true,
        owned: true,
      },
      {
        method: 'POST',
        path: `/api/v1/session/${ids.session}/message/non-stream`,
        body: { query: 'hi' },
        chat: true,
        owned: true,
      },
      { method: 'POST', path: `/api/v1/message/${ids.message}/delete`, chat: true, owned: true },
      { method: 'DELETE', path: `/api/v1/message/${ids.message}/delete`, chat: true, owned: true },
      {
        method: 'POST',
        path: '/api/v1/messages/delete',
        body: { uuids: [ids.message] },
        chat: true,
        owned: true,
      },
    ];
  });
  after(() => h.close());

  const call = (route: Route, key: string | null, headers: Record<string, string> = {}) =>
    h.raw(route.path, {
      method: route.method,
      key,
      headers: route.body ? { 'Content-Type': 'application/json', ...headers } : headers,
      body: route.body ? JSON.stringify(route.body) : undefined,
    });

  async function expectError(response: Response, status: number, code: string) {
    assert.equal(response.status, status, `${response.url}`);
    const body = (await response.json()) as { error: { code: string; message: string } };
    assert.equal(body.error.code, code);
    assert.equal(typeof body.error.message, 'string');
  }

  it('every route answers 401 with the JSON error shape when the key is missing', async () => {
    for (const route of routes) await expectError(await call(route, null), 401, 'unauthorized');
  });

  it('every route answers 401 for an unknown key, and for a malformed Authorization header', async () => {
    for (const route of routes) {
      await expectError(await call(route, 'not-a-key'), 401, 'unauthorized');
      await expectError(
        await call(route, null, { Authorization: `Basic ${btoa('alice:x')}` }),
        401,
        'unauthorized',
      );
    }
  });

  it('every route that names a resource answers 404 to another user, and changes nothing', async () => {
    for (const route of routes.filter((r) => r.owned)) {
      await expectError(await call(route, OTHER_KEY), 404, 'not_found');
    }
    assert.equal((await h.api.chatbots.get(ids.bot!)).name, 'Private');
    assert.equal((await h.api.agents.list(ids.bot!)).length, 2);
    assert.equal((await h.api.sources.list(ids.bot!)).length, 2);
    assert.equal((await h.api.tags.list(ids.bot!))[0]!.name, 'T');
    assert.equal((await h.api.sessions.list(ids.bot!)).length, 1);
    assert.equal((await h.api.messages.list(ids.session!)).length, 1);
  });

  it("another user's lists hold nothing of the first user's, and re-scrape reports their uuids as invalid", async () => {
    assert.deepEqual(await h.other.chatbots.list(), []);
    assert.deepEqual(await h.other.sources.rescrape([ids.link!]), [
      { uuid: ids.link, error: 'invalid data source' },
    ]);
    assert.deepEqual(await h.other.sources.restart([ids.source!]), [
      { uuid: ids.source, error: 'invalid data source' },
    ]);
  });

  it('a chat-only key is refused with 403 on every route outside chatting', async () => {
    for (const route of routes.filter((r) => !r.chat)) {
      await expectError(await call(route, chatKey), 403, 'forbidden');
    }
  });

  it("a chat-only key for another chatbot gets 404 on this chatbot's chat routes", async () => {
    for (const route of routes.filter((r) => r.chat)) {
      await expectError(await call(route, otherBotChatKey), 404, 'not_found');
    }
  });

  it('a chat-only key creates sessions and chats with its own chatbot', async () => {
    const chat = h.clientFor(chatKey);
    const session = await chat.sessions.create(ids.bot!, { page: '/pricing' });
    assert.deepEqual((await chat.sessions.get(session.uuid)).meta, { page: '/pricing' });
    const answer = await ask(chat, session.uuid, 'Secret?');
    assert.equal(answer.text, 'Yes.');
    const [message] = await chat.messages.list(session.uuid);
    assert.equal(message!.response, 'Yes.');
    assert.deepEqual(await chat.messages.delete(message!.uuid), { success: true });
  });

  it('errors carry CORS headers so a browser can read them', async () => {
    const response = await h.raw('/api/v1/chatbots', {
      key: null,
      headers: { Origin: 'http://page.test' },
    });
    assert.equal(response.status, 401);
    assert.equal(response.headers.get('access-control-allow-origin'), '*');
  });

  it('answers a CORS preflight without a key, allowing Authorization and exposing the stream headers', async () => {
    const response = await h.raw(`/api/v1/session/${ids.session}/message/stream`, {
      method: 'OPTIONS',
      key: null,
      headers: {
        Origin: 'http://page.test',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'authorization, content-type',
      },
    });
    assert.equal(response.status, 204);
    assert.equal(response.headers.get('access-control-allow-origin'), '*');
    assert.match(response.headers.get('access-control-allow-headers') ?? '', /Authorization/i);
    assert.match(response.headers.get('access-control-allow-methods') ?? '', /POST/);
    const exposed = await h.raw(`/api/v1/chatbots`, { headers: { Origin: 'http://page.test' } });
    const list = (exposed.headers.get('access-control-expose-headers') ?? '').toLowerCase();
    for (const name of ['x-message-uuid', 'x-citations', 'retry-after'])
      assert.ok(list.includes(name), name);
  });

  it('a streamed answer carries the CORS headers', async () => {
    const response = await h.raw(`/api/v1/session/${ids.session}/message/stream`, {
      method: 'POST',
      headers: { Origin: 'http://page.test', 'Content-Type': 'application/json' },
      body: JSON.stringify({ query: 'Secret?' }),
    });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('access-control-allow-origin'), '*');
    assert.match(response.headers.get('access-control-expose-headers') ?? '', /X-Citations/);
    assert.equal(response.headers.get('vary'), null);
    assert.equal(await response.text(), 'Yes.');
  });

  it('answers 400 naming a repeated Authorization header, rather than reading either key', async () => {
    const { status, body } = await new Promise<{ status: number; body: string }>(
      (resolve, reject) => {
        const req = request(`${h.url}/api/v1/chatbots`, {
          // A list of raw headers sends both lines (Node's client then adds no Host of its own).
          headers: [
            'Host',
            new URL(h.url).host,
            'Authorization',
            `Bearer ${ADMIN_KEY}`,
            'Authorization',
            `Bearer ${ADMIN_KEY}`,
          ],
        });
        req.once('response', async (res) => {
          let text = '';
          for await (const chunk of res) text += chunk;
          resolve({ status: res.statusCode!, body: text });
        });
        req.once('error', reject);
        req.end();
      },
    );
    assert.equal(status, 400);
    assert.deepEqual(JSON.parse(body), {
      error: {
        code: 'bad_request',
        message: 'more than one Authorization header: send one, Authorization: Bearer <key>',
      },
    });
  });

  it('an unknown API path answers 404 with the JSON error shape', async () => {
    await expectError(await h.raw('/api/v1/nothing-here'), 404, 'not_found');
  });
});

describe('CORS with a list of origins', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ corsOrigins: 'http://allowed.test, http://also.test' });
  });
  after(() => h.close());

  it('allows the listed origins and no other', async () => {
    const allowed = await h.raw('/api/v1/chatbots', { headers: { Origin: 'http://also.test' } });
    assert.equal(allowed.headers.get('access-control-allow-origin'), 'http://also.test');
    const refused = await h.raw('/api/v1/chatbots', { headers: { Origin: 'http://evil.test' } });
    assert.equal(refused.headers.get('access-control-allow-origin'), null);
    assert.equal(refused.headers.get('vary'), 'Origin');
  });

  it('a streamed answer names the allowed origin and varies on it once, every time', async () => {
    const bot = await h.api.chatbots.create({ name: 'Listed' });
    const session = await h.api.sessions.create(bot.uuid);
    for (let i = 0; i < 3; i++) {
      const response = await h.raw(`/api/v1/session/${session.uuid}/message/stream`, {
        method: 'POST',
        headers: { Origin: 'http://allowed.test', 'Content-Type': 'application/json' },
        body: JSON.stringify({ query: 'anything at all' }),
      });
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('access-control-allow-origin'), 'http://allowed.test');
      assert.equal(response.headers.get('vary'), 'Origin');
      await response.text();
    }
    const list = await h.raw(`/api/v1/session/${session.uuid}/messages`, {
      headers: { Origin: 'http://allowed.test' },
    });
    assert.equal(list.headers.get('vary'), 'Origin');
  });
});
