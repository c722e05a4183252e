/**
 * Many chats at once on this pass's store: rate limits and messages that arrive together (on
 * PostgreSQL they go to the database in shared statements, postgres/batch.ts) count and store
 * exactly as the same calls one at a time would, and one that fails fails alone.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { MessageRow, Store } from '../../src/server/store/types.js';
import { type OpenedStore, openTestStore, storeChatbot } from './stores.js';

const AT = '2026-03-10T00:00:00Z';
const T0 = 1_000_000;

const messageRow = (sessionUuid: string, n: number): MessageRow => ({
  uuid: randomUUID(),
  sessionUuid,
  query: `Question ${n}, with "quotes", commas and a\nnewline`,
  response: `Answer ${n}`,
  finish_reason: 'stop',
  cite_data: {},
  meta: { rule: 'passages', covered: n % 2 === 0, sources: [] },
  error_message: n % 5 === 0 ? 'the answer failed' : '',
  feedback: null,
  created_at: `2026-03-10T00:00:${String(n % 60).padStart(2, '0')}Z`,
  modified_at: `2026-03-10T00:01:${String(n % 60).padStart(2, '0')}Z`,
});

describe('calls that arrive together', () => {
  let opened: OpenedStore;
  let store: Store;
  let chatbotUuid: string;
  const session = async () => {
    const uuid = randomUUID();
    await store.createSession({ uuid, chatbotUuid, meta: null, created_at: AT, modified_at: AT });
    return uuid;
  };

  before(async () => {
    opened = await openTestStore();
    store = opened.store;
    chatbotUuid = await storeChatbot(store, 'Busy');
  });
  after(() => opened.close());

  it('a rate limit takes exactly its number from questions sent at once, per session', async () => {
    const sessions = [await session(), await session(), await session()];
    // 3 sessions × 12 questions at once, with a limit of 5: 5 taken each, 7 refused each.
    const asked = sessions.flatMap((s) =>
      Array.from({ length: 12 }, (_, i) => ({ s, at: T0 + i })),
    );
    const answers = await Promise.all(asked.map((a) => store.takeRateLimit(a.s, [5, 60], a.at)));
    for (const s of sessions) {
      const own = answers.filter((_, i) => asked[i]!.s === s);
      assert.equal(own.filter((a) => a === null).length, 5, 'taken');
      for (const refused of own.filter((a) => a !== null)) {
        assert.ok(refused.retryAfter >= 1 && refused.retryAfter <= 60);
      }
    }
  });

  it('a visitor window takes exactly its number from questions sent at once, per visitor', async () => {
    const visitors = ['visitor-a', 'visitor-b', 'visitor-c'];
    const asked = visitors.flatMap((v) =>
      Array.from({ length: 12 }, (_, i) => ({ v, at: T0 + i })),
    );
    const answers = await Promise.all(
      asked.map((a) => store.takeVisitorLimit(chatbotUuid, a.v, [5, 60], a.at)),
    );
    for (const v of visitors) {
      const own = answers.filter((_, i) => asked[i]!.v === v);
      assert.equal(own.filter((a) => a === null).length, 5, 'taken');
      for (const refused of own.filter((a) => a !== null)) {
        assert.ok(refused.retryAfter >= 1 && refused.retryAfter <= 60);
      }
    }
    // A minute on, the window is empty again.
    assert.equal(
      await store.takeVisitorLimit(chatbotUuid, 'visitor-a', [5, 60], T0 + 60_012),
      null,
    );
  });

  it('stores every message sent at once, and each session’s time is its latest', async () => {
    const sessions = [await session(), await session()];
    const rows = Array.from({ length: 40 }, (_, n) => messageRow(sessions[n % 2]!, n));
    await Promise.all(rows.map((r) => store.createMessage(r)));
    for (const [k, s] of sessions.entries()) {
      const stored = await store.listMessages(s);
      const sent = rows.filter((_, n) => n % 2 === k);
      // Sent at once, so in no particular order: as a set.
      const fields = (m: MessageRow) => [m.uuid, m.query, m.response, m.error_message].join('|');
      assert.deepEqual(stored.map(fields).sort(), sent.map(fields).sort());
      const latest = sent
        .map((m) => m.modified_at)
        .sort()
        .at(-1);
      assert.equal((await store.getSession(s))?.modified_at, latest);
    }
  });

  it(
    'on SQLite, a read that comes while writes are on their way sees them, in their order',
    {
      // PostgreSQL reads on another connection than the writes are on: nothing promised there.
      skip: process.env.CHATBOT_TEST_STORE === 'postgres' && 'SQLite only',
    },
    async () => {
      const s = await session();
      const rows = Array.from({ length: 3 }, (_, n) => messageRow(s, n));
      // Not awaited before the reads: SQLite commits a turn's writes together (sqlite.ts).
      const writes = rows.map((r) => store.createMessage(r));
      const taken = store.takeRateLimit(s, [1, 60], T0);
      const listed = await store.listMessages(s);
      assert.deepEqual(
        listed.map((m) => m.uuid),
        rows.map((r) => r.uuid),
      );
      await Promise.all(writes);
      assert.equal(await taken, null);
      assert.ok(await store.takeRateLimit(s, [1, 60], T0 + 1), 'the first take counted');
    },
  );

  it('a message that cannot be stored fails alone', async () => {
    const s = await session();
    const good = Array.from({ length: 10 }, (_, n) => messageRow(s, n));
    const orphan = messageRow(randomUUID(), 99); // its session does not exist
    const results = await Promise.allSettled(
      [...good.slice(0, 5), orphan, ...good.slice(5)].map((r) => store.createMessage(r)),
    );
    assert.deepEqual(
      results.map((r) => r.status),
      [...Array(5).fill('fulfilled'), 'rejected', ...Array(5).fill('fulfilled')],
    );
    assert.deepEqual(
      (await store.listMessages(s)).map((m) => m.uuid).sort(),
      good.map((m) => m.uuid).sort(),
    );
  });
});
