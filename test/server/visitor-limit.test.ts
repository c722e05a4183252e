/**
 * The limit on one visitor across sessions (ours, src/server/visitors.ts): a chat-only key can
 * open a session per message, which a per-session rate limit never meets, so the messages one
 * client address sends to a chatbot are counted too, against CHATBOT_VISITOR_SESSIONS × N.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Context } from 'hono';
import type { ChatbotClient } from '../../src/api/client.js';
import { clientAddress, visitorSettings } from '../../src/server/visitors.js';
import { type Harness, startHarness } from './helpers.js';

/** Starts a harness with `env`, read when the app is built. */
async function harnessWith(env: Record<string, string>): Promise<Harness> {
  Object.assign(process.env, env);
  try {
    return await startHarness();
  } finally {
    for (const name of Object.keys(env)) delete process.env[name];
  }
}

describe('visitor settings', () => {
  it('default to five sessions’ worth and no trusted proxy, and refuse a value that is no count', () => {
    assert.deepEqual(visitorSettings({}), { sessions: 5, trustProxy: 0 });
    assert.deepEqual(visitorSettings({ CHATBOT_VISITOR_SESSIONS: '0', CHATBOT_TRUST_PROXY: '2' }), {
      sessions: 0,
      trustProxy: 2,
    });
    assert.throws(
      () => visitorSettings({ CHATBOT_TRUST_PROXY: 'yes' }),
      /CHATBOT_TRUST_PROXY must be a whole number, 0 or more, not "yes"/,
    );
    assert.throws(() => visitorSettings({ CHATBOT_VISITOR_SESSIONS: '-1' }), /VISITOR_SESSIONS/);
  });

  it('read the address from the connection, or as many proxies back as are trusted', () => {
    const request = (forwarded?: string) =>
      ({
        env: { incoming: { socket: { remoteAddress: '10.0.0.9' } } },
        req: { header: (name: string) => (name === 'x-forwarded-for' ? forwarded : undefined) },
      }) as unknown as Context;
    // Not trusted: the header is anyone's to write.
    assert.equal(clientAddress(request('203.0.113.7'), 0), '10.0.0.9');
    assert.equal(clientAddress(request('198.51.100.1, 203.0.113.7'), 1), '203.0.113.7');
    assert.equal(clientAddress(request('198.51.100.1, 203.0.113.7'), 2), '198.51.100.1');
    // Fewer proxies wrote the header than are trusted: the first address it names.
    assert.equal(clientAddress(request('203.0.113.7'), 3), '203.0.113.7');
    assert.equal(clientAddress(request(undefined), 1), '10.0.0.9');
    assert.equal(
      clientAddress({ env: {}, req: request().req } as unknown as Context, 1),
      undefined,
    );
  });
});

describe('the visitor limit', () => {
  let h: Harness;
  let bot: string;
  let visitor: ChatbotClient;
  let chatKey: string;
  before(async () => {
    h = await harnessWith({ CHATBOT_VISITOR_SESSIONS: '2' });
    bot = (
      await h.api.chatbots.create({
        name: 'Visited',
        rate_limit: [2, 3600],
        rate_limit_message: 'Easy there!',
      })
    ).uuid;
    chatKey = await h.server.createKey('alice', { chatOnly: bot });
    visitor = h.clientFor(chatKey);
  });
  after(() => h.close());

  it('counts a chat-only key’s messages from one address across its sessions; owners and other chatbots are not counted', async () => {
    // Two sessions' worth: 2 × 2 messages, whichever sessions they go to.
    for (let s = 0; s < 2; s++) {
      const session = await visitor.sessions.create(bot);
      await visitor.messages.send(session.uuid, `question ${s}a`);
      await visitor.messages.send(session.uuid, `question ${s}b`);
    }
    const fresh = await visitor.sessions.create(bot);
    const refused = await h.raw(`/api/v1/session/${fresh.uuid}/message/stream`, {
      method: 'POST',
      key: chatKey,
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ query: 'one more, in a new session' }),
    });
    assert.equal(refused.status, 429);
    const retryAfter = Number(refused.headers.get('retry-after'));
    assert.ok(retryAfter > 3500 && retryAfter <= 3600, `Retry-After ${retryAfter}`);
    assert.deepEqual(await refused.json(), {
      error: { code: 'rate_limited', message: 'Easy there!' },
    });
    assert.equal((await visitor.messages.list(fresh.uuid)).length, 0);

    // The owner's full key is not a visitor.
    const own = await h.api.sessions.create(bot);
    await h.api.messages.send(own.uuid, 'the owner tries it');
    // Another chatbot's visitors, from the same address, have a window of their own.
    const other = (await h.api.chatbots.create({ name: 'Other', rate_limit: [2, 3600] })).uuid;
    const elsewhere = h.clientFor(await h.server.createKey('alice', { chatOnly: other }));
    const session = await elsewhere.sessions.create(other);
    await elsewhere.messages.send(session.uuid, 'hello there');
  });
});

describe('the visitor limit behind a proxy', () => {
  const ask = (h: Harness, key: string, session: string, forwardedFor: string) =>
    h.raw(`/api/v1/session/${session}/message/non-stream`, {
      method: 'POST',
      key,
      headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': forwardedFor },
      body: JSON.stringify({ query: 'hello' }),
    });

  /** One message each from two addresses, each in a session of its own: how many got through. */
  async function answered(env: Record<string, string>): Promise<number[]> {
    const h = await harnessWith({ CHATBOT_VISITOR_SESSIONS: '1', ...env });
    try {
      const bot = (await h.api.chatbots.create({ name: 'Proxied', rate_limit: [1, 3600] })).uuid;
      const key = await h.server.createKey('alice', { chatOnly: bot });
      const client = h.clientFor(key);
      const statuses: number[] = [];
      for (const address of ['198.51.100.1', '198.51.100.2']) {
        const session = await client.sessions.create(bot);
        statuses.push((await ask(h, key, session.uuid, address)).status);
      }
      return statuses;
    } finally {
      await h.close();
    }
  }

  it('counts the addresses X-Forwarded-For names apart with CHATBOT_TRUST_PROXY=1, and ignores the header without it', async () => {
    assert.deepEqual(await answered({ CHATBOT_TRUST_PROXY: '1' }), [200, 200]);
    // Both come from this test's connection: the second is the same visitor's.
    assert.deepEqual(await answered({}), [200, 429]);
  });
});
