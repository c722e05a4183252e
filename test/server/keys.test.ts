import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { ADMIN_KEY, OTHER_KEY, startHarness } from './helpers.js';
import { keptDatabase } from './stores.js';

const sha256 = (key: string) => createHash('sha256').update(key).digest('hex');

describe('API keys', () => {
  it('should store only the SHA-256 of each key: no key is anywhere in the database', async () => {
    const database = await keptDatabase();
    try {
      const h = await startHarness(database.serverOptions);
      const bot = await h.api.chatbots.create({ name: 'Keys' });
      const chatKey = await h.server.createKey('alice', { chatOnly: bot.uuid });
      const made = await h.server.createKey('carol');
      assert.equal((await h.clientFor(made).chatbots.list()).length, 0);
      await h.close();

      const keys = [ADMIN_KEY, OTHER_KEY, chatKey, made];
      if ('db' in database.serverOptions) {
        // SQLite: the files' bytes, so the -wal file and freed pages are searched too.
        const dir = dirname(database.serverOptions.db);
        for (const file of readdirSync(dir)) {
          const bytes = readFileSync(join(dir, file));
          for (const key of keys) assert.equal(bytes.includes(key), false, `${key} in ${file}`);
        }
      } else {
        const rows = JSON.stringify(await database.dump());
        for (const key of keys) assert.equal(rows.includes(key), false, `${key} in a table`);
      }
      const store = await database.openStore();
      for (const key of keys) assert.ok(await store.findKey(sha256(key)), `the hash of ${key}`);
    } finally {
      await database.close();
    }
  });

  it('should write a path as one log line: a decoded new line or colour code cannot forge another', async () => {
    const lines: string[] = [];
    const original = console.log;
    console.log = (...args: unknown[]) => lines.push(args.map(String).join(' '));
    try {
      const h = await startHarness({ log: true });
      try {
        await h.raw('/api/v1/chatbot/x%0APOST%20/api/v1/chatbot/forged/delete%20200%201.0ms', {
          key: null,
        });
        await h.raw('/api/v1/chatbot/%1B[31mred%0D', { key: null });
      } finally {
        await h.close();
      }
    } finally {
      console.log = original;
    }
    const logged = lines.filter((l) => l.includes('/api/v1/chatbot/'));
    assert.deepEqual(logged.length, 2, logged.join('\n'));
    for (const line of logged) assert.doesNotMatch(line, /\p{Cc}/u, line);
    assert.ok(
      logged.some((l) => l.includes('x%0APOST')),
      logged.join('\n'),
    );
  });

  it('should write no key to the log: not for a good key, a wrong one, a key in the query string, nor a failing request', async () => {
    const lines: string[] = [];
    const original = { log: console.log, error: console.error, warn: console.warn };
    const capture = (...args: unknown[]) => lines.push(args.map(String).join(' '));
    console.log = console.error = console.warn = capture;
    const wrong = 'cbk_wrong-key-that-must-not-be-logged';
    try {
      const h = await startHarness({ log: true });
      try {
        const bot = await h.api.chatbots.create({ name: 'Logged' });
        await h.raw('/api/v1/chatbots', { key: wrong });
        await h.raw(`/api/v1/chatbots?api_key=${ADMIN_KEY}`, { key: null });
        await h.raw(`/api/v1/chatbot/${bot.uuid}/update`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: `{"name": "${ADMIN_KEY}"`,
        });
        await h.raw(`/api/v1/session/${bot.uuid}/messages`, { key: OTHER_KEY });
      } finally {
        await h.close();
      }
    } finally {
      Object.assign(console, original);
    }
    assert.ok(
      lines.some((l) => l.includes('/api/v1/chatbots')),
      'requests are logged',
    );
    for (const line of lines) {
      for (const key of [ADMIN_KEY, OTHER_KEY, wrong]) {
        assert.equal(line.includes(key), false, `a key in the log line "${line}"`);
      }
    }
  });
});
