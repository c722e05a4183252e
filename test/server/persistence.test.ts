import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { MIGRATIONS, openSqliteStore } from '../../src/server/store/sqlite.js';
import { ADMIN_KEY, ask, type Harness, startHarness } from './helpers.js';
import { sqliteOnly } from './stores.js';

describe('a file database', sqliteOnly('a SQLite file across restarts'), () => {
  const dir = mkdtempSync(join(tmpdir(), 'chatbot-store-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('makes a new database readable by its owner only, its folder and its WAL too', async () => {
    const db = join(dir, 'private', 'chatbot.sqlite');
    const store = openSqliteStore(db);
    try {
      await store.ensureUser('alice');
      const mode = (path: string) => (statSync(path).mode & 0o777).toString(8);
      assert.deepEqual(
        [mode(join(dir, 'private')), mode(db), mode(`${db}-wal`)],
        ['700', '600', '600'],
      );
    } finally {
      await store.close();
    }
  });

  it('keeps every record and the keys across a restart, and answers from the rebuilt index', async () => {
    const db = join(dir, 'nested', 'chatbot.sqlite');
    const first = await startHarness({ db });
    const bot = await first.api.chatbots.create({ name: 'Durable', rate_limit: [7, 70] });
    const agent = await first.api.agents.create(bot.uuid, {
      name: 'Background',
      type: 'background',
    });
    const source = await first.api.sources.upload(
      bot.uuid,
      new Blob(['Alice talked about pizza.']),
      { fileName: 'a.txt' },
    );
    await first.server.idle();
    const tag = await first.api.tags.create(bot.uuid, {
      name: 'Food',
      color: '#FF0000',
      data_source_uuids: [source.uuid],
    });
    const session = await first.api.sessions.create(bot.uuid, { page: 'home' });
    const exchange = await ask(first.api, session.uuid, 'What did Alice talk about?');
    const chatKey = await first.server.createKey('alice', { chatOnly: bot.uuid });
    const before = {
      bots: await first.api.chatbots.list(),
      agents: await first.api.agents.list(bot.uuid),
      sources: await first.api.sources.list(bot.uuid),
      tags: await first.api.tags.list(bot.uuid),
      sessions: await first.api.sessions.list(bot.uuid),
      session: await first.api.sessions.get(session.uuid),
      messages: await first.api.messages.list(session.uuid),
    };
    await first.close();

    // The same file, with no keys in the environment: the stored ones must still work.
    const second = await startHarness({ db, apiKeys: '' });
    try {
      assert.deepEqual(
        {
          bots: await second.api.chatbots.list(),
          agents: await second.api.agents.list(bot.uuid),
          sources: await second.api.sources.list(bot.uuid),
          tags: await second.api.tags.list(bot.uuid),
          sessions: await second.api.sessions.list(bot.uuid),
          session: await second.api.sessions.get(session.uuid),
          messages: await second.api.messages.list(session.uuid),
        },
        before,
      );
      assert.ok(before.agents.some((a) => a.uuid === agent.uuid));
      assert.equal(before.tags[0]!.uuid, tag.uuid);
      assert.equal(before.messages[0]!.uuid, exchange.messageUuid);
      const chat = second.clientFor(chatKey);
      const again = await ask(chat, session.uuid, 'What did Alice talk about?');
      assert.match(again.text, /Alice talked about pizza/);
    } finally {
      await second.close();
    }
  });

  it('finishes sources that a previous run left in a progress status', async () => {
    const db = join(dir, 'recover.sqlite');
    const first = await startHarness({ db });
    const bot = await first.api.chatbots.create({ name: 'Interrupted' });
    const file = await first.api.sources.upload(bot.uuid, new Blob(['The lighthouse is white.']), {
      fileName: 'l.txt',
    });
    const qa = await first.api.sources.createQa(bot.uuid, {
      question: 'Colour?',
      answer: 'White.',
    });
    await first.server.idle();
    await first.close();

    // As if the process had died mid-ingestion, holding the file's job for another hour.
    const store = openSqliteStore(db);
    await store.enqueueJob(file.uuid, Date.now());
    assert.equal(await store.claimJob('the dead run', 3_600_000, Date.now()), file.uuid);
    await store.updateSource(file.uuid, { status: 'chunking' }, '2026-01-01T00:00:00Z');
    await store.updateSource(qa.uuid, { status: 'await' }, '2026-01-01T00:00:00Z');
    await store.close();

    const second = await startHarness({ db, apiKeys: `alice:${ADMIN_KEY}` });
    try {
      await second.server.idle();
      const statuses = (await second.api.sources.list(bot.uuid)).map((s) => s.status);
      assert.deepEqual(statuses, ['success', 'success']);
      const session = await second.api.sessions.create(bot.uuid);
      assert.match(
        (await ask(second.api, session.uuid, 'What colour is the lighthouse?')).text,
        /white/i,
      );
    } finally {
      await second.close();
    }
  });

  it('keeps counting the rate limit across a restart', async () => {
    const db = join(dir, 'limits.sqlite');
    const send = (h: Harness, session: string) =>
      h.raw(`/api/v1/session/${session}/message/non-stream`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ query: 'Hello?' }),
      });
    const first = await startHarness({ db });
    const bot = await first.api.chatbots.create({ name: 'Limited', rate_limit: [3, 60] });
    const session = (await first.api.sessions.create(bot.uuid)).uuid;
    for (let i = 0; i < 3; i++) assert.equal((await send(first, session)).status, 200);
    await first.close();

    const second = await startHarness({ db });
    try {
      const refused = await send(second, session);
      assert.equal(refused.status, 429);
      assert.ok(Number(refused.headers.get('retry-after')) >= 1);
    } finally {
      await second.close();
    }
  });
});

describe('migrations', sqliteOnly('the SQLite migrations'), () => {
  const dir = mkdtempSync(join(tmpdir(), 'chatbot-migrate-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('upgrades a version-1 database and keeps the uploaded bytes', async () => {
    const path = join(dir, 'v1.sqlite');
    const db = new Database(path);
    db.exec(MIGRATIONS[0]!);
    db.pragma('user_version = 1');
    db.prepare("INSERT INTO users (id, name) VALUES (1, 'alice')").run();
    db.prepare(
      'INSERT INTO chatbots VALUES (\'bot\', 1, \'Old\', \'{"rate_limit":[20,240],"rate_limit_message":"m","show_citations":true,"visibility":"private"}\', \'2026-01-01T00:00:00Z\', \'2026-01-01T00:00:00Z\')',
    ).run();
    db.prepare(
      "INSERT INTO data_sources VALUES ('src', 'bot', 'a.txt', 'file', 'success', 'a.txt', 5, 1, '{}', ?, '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z')",
    ).run(Buffer.from('hello'));
    db.close();

    const store = openSqliteStore(path);
    try {
      assert.equal(new TextDecoder().decode((await store.getSourceContent('src'))!), 'hello');
      assert.deepEqual(
        (await store.listSources('bot')).map((s) => s.title),
        ['a.txt'],
      );
    } finally {
      await store.close();
    }
  });
});
