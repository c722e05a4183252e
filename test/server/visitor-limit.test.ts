/**
 * The limit on one visitor across sessions (ours, src/server/visitors.ts): a chat-only key can
 * open a session per message, which a per-session rate limit never meets, so the messages one
 * client address sends to a chatbot, and the sessions it opens, are counted too, against
 * CHATBOT_VISITOR_SESSIONS × N.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Context } from 'hono';
import type { ChatbotClient } from '../../src/api/client.js';
import { clientAddress, visitorSettings } from '../../src/server/visitors.js';
import { type Harness, startHarnessWith } from './helpers.js';

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
    h = await startHarnessWith({ CHATBOT_VISITOR_SESSIONS: '3' });
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

  it('counts the messages and new sessions of a chat-only key from one address; owners and other chatbots are not counted', async () => {
    // Three sessions' worth: 3 × 2, whether sessions or messages, whichever session they go to.
    const [first, second, third] = [
      await visitor.sessions.create(bot),
      await visitor.sessions.create(bot),
      await visitor.sessions.create(bot),
    ];
    await visitor.messages.send(first!.uuid, 'question one');
    await visitor.messages.send(first!.uuid, 'question two');
    await visitor.messages.send(second!.uuid, 'question three');
    // The second session has room in its own window, but the visitor has none.
    const refused = await h.raw(`/api/v1/session/${second!.uuid}/message/stream`, {
      method: 'POST',
      key: chatKey,
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ query: 'one more' }),
    });
    assert.equal(refused.status, 429);
    const retryAfter = Number(refused.headers.get('retry-after'));
    assert.ok(retryAfter > 3500 && retryAfter <= 3600, `Retry-After ${retryAfter}`);
    assert.deepEqual(await refused.json(), {
      error: { code: 'rate_limited', message: 'Easy there!' },
    });
    await assert.rejects(visitor.messages.send(third!.uuid, 'and here?'), { status: 429 });
    // Nor does a new session escape it.
    await assert.rejects(visitor.sessions.create(bot), {
      status: 429,
      serverMessage: 'Easy there!',
    });
    assert.equal((await visitor.messages.list(second!.uuid)).length, 1);

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
  /**
   * Each of two addresses opens a session and asks once (2 of a window of 2 per address), the
   * address in X-Forwarded-For: the statuses, in order, until one is refused.
   */
  async function statuses(env: Record<string, string>): Promise<number[]> {
    const h = await startHarnessWith({ CHATBOT_VISITOR_SESSIONS: '1', ...env });
    try {
      const bot = (await h.api.chatbots.create({ name: 'Proxied', rate_limit: [2, 3600] })).uuid;
      const key = await h.server.createKey('alice', { chatOnly: bot });
      const out: number[] = [];
      for (const address of ['198.51.100.1', '198.51.100.2']) {
        const headers = { 'Content-Type': 'application/json', 'X-Forwarded-For': address };
        const created = await h.raw(`/api/v1/chatbot/${bot}/session/create`, {
          method: 'POST',
          key,
          headers,
        });
        out.push(created.status);
        if (created.status !== 200) break;
        const { uuid } = (await created.json()) as { uuid: string };
        const asked = await h.raw(`/api/v1/session/${uuid}/message/non-stream`, {
          method: 'POST',
          key,
          headers,
          body: JSON.stringify({ query: 'hello' }),
        });
        out.push(asked.status);
      }
      return out;
    } finally {
      await h.close();
    }
  }

  it('counts the addresses X-Forwarded-For names apart with CHATBOT_TRUST_PROXY=1, and ignores the header without it', async () => {
    assert.deepEqual(await statuses({ CHATBOT_TRUST_PROXY: '1' }), [200, 200, 200, 200]);
    // All come from this test's connection: the second address is the same visitor, whose
    // window the first session and message have filled.
    assert.deepEqual(await statuses({}), [200, 200, 429]);
  });
});
