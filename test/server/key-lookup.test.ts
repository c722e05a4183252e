/**
 * What SECURITY.md promises of key comparison, proven without a clock: the raw key never reaches
 * the store, every lookup is by the key's SHA-256, and a key that misses by its last character
 * takes the same path as one that misses entirely. The app and its store are the real ones; the
 * store's methods are wrapped only to record what they were called with.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { generateKey } from '../../src/server/auth.js';
import { createServerApp } from '../../src/server/main.js';
import type { Store } from '../../src/server/store/types.js';
import { testStoreOptions } from './stores.js';

const sha256 = (key: string) => createHash('sha256').update(key, 'utf8').digest('hex');

interface Call {
  method: string;
  args: unknown[];
}

/** Replaces each method of `store` with one that records its call, then calls the original. */
function record(store: Store): Call[] {
  const calls: Call[] = [];
  const target = store as unknown as Record<string, unknown>;
  for (const name of Object.keys(target)) {
    const original = target[name];
    if (typeof original !== 'function') continue;
    target[name] = (...args: unknown[]) => {
      calls.push({ method: name, args });
      return original.apply(store, args);
    };
  }
  return calls;
}

/** A key differing from `key` in its last character only. */
function nearMiss(key: string, variant = 0): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  const others = [...alphabet].filter((c) => c !== key.at(-1));
  return key.slice(0, -1) + others[variant % others.length];
}

function commonPrefix(a: string, b: string): number {
  let n = 0;
  while (n < a.length && a[n] === b[n]) n++;
  return n;
}

describe('API key lookup', () => {
  let server: Awaited<ReturnType<typeof createServerApp>>;
  let drop: () => Promise<void>;
  let key: string;
  let calls: Call[];

  before(async () => {
    const database = await testStoreOptions();
    drop = database.drop;
    server = await createServerApp({ ...database.options, log: false });
    key = await server.createKey('alice');
    calls = record(server.ctx.store);
  });

  after(async () => {
    await server?.close();
    await drop?.();
  });

  /** One authenticated request; returns its response and the store calls it made. */
  async function request(bearer: string) {
    calls.length = 0;
    const response = await server.app.request('/api/v1/chatbots', {
      headers: { Authorization: `Bearer ${bearer}` },
    });
    return { status: response.status, body: await response.text(), calls: [...calls] };
  }

  it('should never hand the raw key to the store, and look every key up by its 64-hex SHA-256', async () => {
    const keys = [key, nearMiss(key), generateKey(), 'short', `${'k'.repeat(300)}é`];
    for (const bearer of keys) {
      const seen = await request(bearer);
      assert.ok(seen.calls.length > 0, 'the request reached the store');
      const lookups = seen.calls.filter((c) => c.method === 'findKey');
      assert.deepEqual(
        lookups.map((c) => c.args),
        [[sha256(bearer)]],
        `one lookup, by the hash of ${bearer.slice(0, 12)}…`,
      );
      assert.match(lookups[0]!.args[0] as string, /^[0-9a-f]{64}$/);
      for (const call of seen.calls) {
        assert.equal(
          JSON.stringify(call.args).includes(bearer),
          false,
          `${call.method} was given the raw key`,
        );
      }
    }
  });

  it('should take the same path for a key missing by its last character as for one missing entirely', async () => {
    const good = await request(key);
    assert.equal(good.status, 200);
    const near = await request(nearMiss(key));
    const far = await request(generateKey());
    const path = (seen: typeof near) => seen.calls.map((c) => c.method);
    assert.deepEqual(path(near), ['findKey'], 'one lookup, then the refusal');
    assert.deepEqual(path(far), path(near));
    assert.equal(near.status, 401);
    assert.deepEqual([far.status, far.body], [near.status, near.body], 'the same refusal');
  });

  it("should compare hashes that share no more with the key's own than a stranger's would", () => {
    // An index compares the looked-up hash byte by byte and stops at the first difference: how
    // far it gets says nothing about how near the key was. Across every last-character variant
    // the common prefix stays at chance level (1 hex digit in 16), as for random keys.
    const own = sha256(key);
    const variants = Array.from({ length: 63 }, (_, i) => sha256(nearMiss(key, i)));
    const strangers = Array.from({ length: 63 }, () => sha256(generateKey()));
    const longest = (hashes: string[]) => Math.max(...hashes.map((h) => commonPrefix(own, h)));
    assert.equal(new Set(variants).size, 63);
    assert.ok(longest(variants) <= 6, `near misses share ${longest(variants)} hex digits`);
    assert.ok(longest(strangers) <= 6, `strangers share ${longest(strangers)} hex digits`);
  });
});
