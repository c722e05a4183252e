/**
 * The store's cache (store/cached.ts) on this pass's store: questions that arrive together on a
 * cold cache share one read of each row, and a write between them is never hidden by it.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { cachedStore } from '../../src/server/store/cached.js';
import type { Store } from '../../src/server/store/types.js';
import { type OpenedStore, openTestStore, storeChatbot } from './stores.js';

const AT = '2026-03-10T00:00:00Z';

/** The store, with how often each of its reads reached it. */
function counted(store: Store) {
  const calls = new Map<string, number>();
  const spied = Object.create(store) as Store;
  for (const name of ['listSources', 'getChatbot', 'findKey'] as const) {
    const real = store[name].bind(store) as (...args: unknown[]) => Promise<unknown>;
    (spied as unknown as Record<string, unknown>)[name] = (...args: unknown[]) => {
      calls.set(name, (calls.get(name) ?? 0) + 1);
      return real(...args);
    };
  }
  return { spied, calls };
}

describe('the store cache', () => {
  let opened: OpenedStore;
  let chatbotUuid: string;

  before(async () => {
    opened = await openTestStore();
    chatbotUuid = await storeChatbot(opened.store, 'Cached');
  });
  after(() => opened.close());

  it('reads a row once for the questions that miss it together', async () => {
    const { spied, calls } = counted(opened.store);
    const cache = cachedStore(spied);
    const lists = await Promise.all(
      Array.from({ length: 50 }, () => cache.listSources(chatbotUuid)),
    );
    const bots = await Promise.all(Array.from({ length: 50 }, () => cache.getChatbot(chatbotUuid)));
    const keys = await Promise.all(Array.from({ length: 20 }, () => cache.findKey('made-up')));
    assert.equal(calls.get('listSources'), 1);
    assert.equal(calls.get('getChatbot'), 1);
    assert.equal(calls.get('findKey'), 1);
    assert.ok(lists.every((l) => l === lists[0]));
    assert.equal(bots[0]?.name, 'Cached');
    assert.deepEqual(keys, Array(20).fill(undefined));
    // A key nobody has is not remembered: the next question asks the store again.
    await cache.findKey('made-up');
    assert.equal(calls.get('findKey'), 2);
  });

  it('does not hand a read begun before a write to a question asked after it', async () => {
    const { spied, calls } = counted(opened.store);
    const cache = cachedStore(spied);
    const before = cache.getChatbot(chatbotUuid);
    await cache.updateChatbot(chatbotUuid, { name: 'Renamed' }, AT);
    const afterWrite = await cache.getChatbot(chatbotUuid);
    await before;
    assert.equal(calls.get('getChatbot'), 2);
    assert.equal(afterWrite?.name, 'Renamed');
  });
});
