import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { openSqliteStore } from '../../src/server/store/sqlite.js';
import { type Harness, startHarness } from './helpers.js';
import { sqliteOnly } from './stores.js';

interface ErrorBody {
  error: { code: string; message: string };
}

const SHOP = 'https://shop.example';

describe('allowed origins of a chatbot', () => {
  let h: Harness;

  before(async () => {
    h = await startHarness();
  });
  after(() => h.close());

  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    h.raw(path, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });

  describe('the setting', () => {
    it('should refuse an entry that is not an origin with a 400 naming the member and the entry', async () => {
      for (const [entry, at] of [
        ['https://shop.example/', 0],
        ['https://shop.example/chat', 0],
        ['shop.example', 0],
        ['ftp://shop.example', 0],
        ['https://user@shop.example', 0],
        ['https://shop.example:99999', 0],
        ['https://shop.example?x=1', 0],
        ['*', 0],
      ] as const) {
        const response = await post('/api/v1/chatbot/create', {
          name: 'Bad',
          allowed_origins: [entry],
        });
        assert.equal(response.status, 400, entry);
        const { error } = (await response.json()) as ErrorBody;
        assert.equal(error.code, 'invalid_input');
        assert.ok(
          error.message.startsWith(
            `allowed_origins[${at}] ${JSON.stringify(entry)} is not an origin`,
          ),
          error.message,
        );
      }
      const second = await post('/api/v1/chatbot/create', {
        name: 'Bad',
        allowed_origins: [SHOP, 'http://localhost:8080/'],
      });
      assert.match(((await second.json()) as ErrorBody).error.message, /^allowed_origins\[1\] /);
      const notList = await post('/api/v1/chatbot/create', { name: 'Bad', allowed_origins: SHOP });
      assert.match(((await notList.json()) as ErrorBody).error.message, /^allowed_origins must be/);
      assert.ok((await h.api.chatbots.list()).every((b) => b.name !== 'Bad'));
    });

    it('should keep origins as browsers send them, without repeats, and leave the member out when none are listed', async () => {
      const plain = await h.api.chatbots.create({ name: 'Anyone' });
      assert.equal(plain.meta.allowed_origins, undefined);
      const bot = await h.api.chatbots.create({
        name: 'Listed',
        allowed_origins: [
          'HTTPS://Shop.Example:443',
          SHOP,
          'http://localhost:8080',
          'http://[::1]:3000',
        ],
      });
      assert.deepEqual(bot.meta.allowed_origins, [
        SHOP,
        'http://localhost:8080',
        'http://[::1]:3000',
      ]);
      assert.deepEqual(await h.api.chatbots.get(bot.uuid), bot);
      const renamed = await h.api.chatbots.update(bot.uuid, { name: 'Renamed' });
      assert.deepEqual(renamed.meta.allowed_origins, bot.meta.allowed_origins);
      const cleared = await h.api.chatbots.update(bot.uuid, { allowed_origins: [] });
      assert.equal(cleared.meta.allowed_origins, undefined);
    });
  });

  describe('chat through a chat-only key', () => {
    let bot: string;
    let session: string;
    let chatKey: string;

    before(async () => {
      bot = (await h.api.chatbots.create({ name: 'Shop bot', allowed_origins: [SHOP] })).uuid;
      session = (await h.api.sessions.create(bot)).uuid;
      chatKey = await h.server.createKey('alice', { chatOnly: bot });
    });

    const chat = (origin: string | null, key = chatKey) => {
      const headers: Record<string, string> = { Authorization: `Bearer ${key}` };
      if (origin) headers.Origin = origin;
      return {
        create: () => post(`/api/v1/chatbot/${bot}/session/create`, undefined, headers),
        stream: () =>
          post(`/api/v1/session/${session}/message/stream`, { query: 'hello' }, headers),
        messages: () => h.raw(`/api/v1/session/${session}/messages`, { key, headers }),
      };
    };

    it('should answer 403 with the JSON error, readable by that page so its chat can say why, and change nothing', async () => {
      const before = await h.api.sessions.list(bot);
      const calls = chat('https://evil.example');
      for (const call of [calls.create, calls.stream, calls.messages]) {
        const response = await call();
        assert.equal(response.status, 403);
        assert.equal(response.headers.get('access-control-allow-origin'), 'https://evil.example');
        assert.equal(response.headers.get('vary'), 'Origin');
        const { error } = (await response.json()) as ErrorBody;
        assert.equal(error.code, 'origin_not_allowed');
        assert.match(error.message, /https:\/\/evil\.example/);
      }
      assert.deepEqual(await h.api.sessions.list(bot), before);
      assert.deepEqual(await h.api.messages.list(session), []);
    });

    it('should answer a listed origin with that origin echoed, never *, on JSON and streamed answers', async () => {
      const calls = chat(SHOP);
      for (const call of [calls.create, calls.stream, calls.messages]) {
        const response = await call();
        assert.equal(response.status, 200);
        assert.equal(response.headers.get('access-control-allow-origin'), SHOP);
        assert.equal(response.headers.get('vary'), 'Origin');
        await response.text();
      }
    });

    it('should let a request without Origin through: not from another site in a browser', async () => {
      const response = await chat(null).messages();
      assert.equal(response.status, 200);
    });

    it('should not restrict a full-access key, nor a chatbot that lists none', async () => {
      const admin = await h.raw(`/api/v1/session/${session}/messages`, {
        headers: { Origin: 'https://admin.example' },
      });
      assert.equal(admin.status, 200);
      assert.equal(admin.headers.get('access-control-allow-origin'), '*');
      const open = await h.api.chatbots.create({ name: 'Open' });
      const openKey = await h.server.createKey('alice', { chatOnly: open.uuid });
      const anywhere = await h.raw(`/api/v1/chatbot/${open.uuid}/session/create`, {
        method: 'POST',
        key: openKey,
        headers: { Origin: 'https://anywhere.example' },
      });
      assert.equal(anywhere.status, 200);
      assert.equal(anywhere.headers.get('access-control-allow-origin'), '*');
    });
  });
});

describe('allowed origins with a server-wide list of origins', () => {
  let h: Harness;
  let bot: string;
  let session: string;
  let message: string;

  before(async () => {
    h = await startHarness({ corsOrigins: 'https://admin.example' });
    bot = (await h.api.chatbots.create({ name: 'Shop bot', allowed_origins: [SHOP] })).uuid;
    session = (await h.api.sessions.create(bot)).uuid;
    const stream = await h.api.messages.stream(session, 'hello');
    for await (const _ of stream.text);
    message = stream.messageUuid!;
  });
  after(() => h.close());

  it("should pass the preflight of a chatbot's listed origin on its chat routes, and no other origin", async () => {
    const preflight = (path: string, origin: string) =>
      h.raw(path, {
        method: 'OPTIONS',
        key: null,
        headers: {
          Origin: origin,
          'Access-Control-Request-Method': 'POST',
          'Access-Control-Request-Headers': 'authorization, content-type',
        },
      });
    for (const path of [
      `/api/v1/chatbot/${bot}/session/create`,
      `/api/v1/session/${session}/message/stream`,
      `/api/v1/message/${message}/feedback`,
    ]) {
      const listed = await preflight(path, SHOP);
      assert.equal(listed.status, 204, path);
      assert.equal(listed.headers.get('access-control-allow-origin'), SHOP, path);
      const other = await preflight(path, 'https://evil.example');
      assert.equal(other.headers.get('access-control-allow-origin'), null, path);
    }
    const elsewhere = await preflight('/api/v1/chatbots', SHOP);
    assert.equal(elsewhere.headers.get('access-control-allow-origin'), null);
  });

  it("should pass the session-document upload's preflight for an origin any chatbot lists, and no other origin", async () => {
    const preflight = (origin: string) =>
      h.raw('/api/v1/session-document/upload', {
        method: 'OPTIONS',
        key: null,
        headers: {
          Origin: origin,
          'Access-Control-Request-Method': 'POST',
          'Access-Control-Request-Headers': 'authorization',
        },
      });
    await h.api.chatbots.create({ name: 'Other bot', allowed_origins: ['https://other.example'] });
    for (const origin of [SHOP, 'https://other.example', 'https://admin.example']) {
      const listed = await preflight(origin);
      assert.equal(listed.status, 204, origin);
      assert.equal(listed.headers.get('access-control-allow-origin'), origin, origin);
    }
    const other = await preflight('https://evil.example');
    assert.equal(other.headers.get('access-control-allow-origin'), null);
  });
});

describe('the allowed origins migration', sqliteOnly('a SQLite migration'), () => {
  const dir = mkdtempSync(join(tmpdir(), 'chatbot-origins-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('should give the chatbots of a version-5 store an empty list: any origin, as before', async () => {
    const path = join(dir, 'v5.sqlite');
    // A current store set back to version 5, its chatbot written as version 5 wrote it.
    await openSqliteStore(path).close();
    const db = new Database(path);
    db.prepare("INSERT INTO users (id, name) VALUES (1, 'alice')").run();
    db.prepare(
      'INSERT INTO chatbots VALUES (\'bot\', 1, \'Old\', \'{"rate_limit":[20,240],"rate_limit_message":"m","show_citations":true,"visibility":"private"}\', \'2026-01-01T00:00:00Z\', \'2026-01-01T00:00:00Z\')',
    ).run();
    // Version 6 added allowed origins; later steps skip what a current store has already.
    db.pragma('user_version = 5');
    db.close();
    const store = openSqliteStore(path);
    try {
      assert.deepEqual((await store.getChatbot('bot'))?.allowed_origins, []);
    } finally {
      await store.close();
    }
  });
});
