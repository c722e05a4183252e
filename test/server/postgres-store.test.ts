/**
 * What only the PostgreSQL store does: migrate once when instances start together, tell other
 * instances about changes (and only them), and keep listening when its connection is cut. The
 * rows themselves are checked on both stores by store-contract.test.ts.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { MIGRATIONS, openPostgresStore } from '../../src/server/store/postgres.js';
import type { Store, StoreChange } from '../../src/server/store/types.js';
import {
  freshDatabase,
  queryRows as query,
  storeChatbot,
  type TestDatabase,
  until,
} from './stores.js';

const skip = !process.env.CHATBOT_TEST_DATABASE_URL
  ? 'needs PostgreSQL: CHATBOT_TEST_DATABASE_URL is unset (test/run-node-tests.mjs sets it)'
  : process.env.CHATBOT_TEST_STORE === 'sqlite'
    ? 'runs in the PostgreSQL pass'
    : false;

const at = (s: number) => `2026-11-24T10:00:${String(s).padStart(2, '0')}Z`;

/** Every change a store hears, in order. */
function recorder(store: Store) {
  const heard: StoreChange[] = [];
  store.onChange((change) => heard.push(change));
  return heard;
}

describe('the PostgreSQL store', { skip }, () => {
  test('should refuse a database a newer version migrated, and leave it as it was', async () => {
    const database = await freshDatabase();
    try {
      await (await openPostgresStore(database.url)).close();
      const newer = MIGRATIONS.length + 1;
      await query(database.url, 'INSERT INTO schema_migrations (version) VALUES ($1)', [newer]);
      await assert.rejects(openPostgresStore(database.url), {
        message: `this database was migrated by a newer version of the server (schema version ${newer}; this version knows up to ${MIGRATIONS.length}): run the newer version, or restore a backup taken before the upgrade`,
      });
      const rows = await query(database.url, 'SELECT max(version) AS v FROM schema_migrations');
      assert.equal(rows[0]!.v, newer);
    } finally {
      await database.drop();
    }
  });

  test('should migrate once when two instances open a fresh database at once', async () => {
    const database = await freshDatabase();
    const logs: string[][] = [[], [], []];
    try {
      const stores = await Promise.all(
        [0, 1].map((i) => openPostgresStore(database.url, { log: (line) => logs[i]!.push(line) })),
      );
      const third = await openPostgresStore(database.url, { log: (line) => logs[2]!.push(line) });
      await Promise.all([...stores, third].map((store) => store.close()));

      const rows = await query(database.url, 'SELECT version FROM schema_migrations ORDER BY 1');
      assert.deepEqual(
        rows.map((r) => r.version),
        MIGRATIONS.map((_, i) => i + 1),
      );
      const migrated = `migrated the PostgreSQL database to version ${MIGRATIONS.length}`;
      assert.deepEqual(logs.flat(), [migrated], 'exactly one instance applied and said so');
      assert.deepEqual(logs[2], [], 'a later start finds nothing to do');
    } finally {
      await database.drop();
    }
  });

  test('should count a stored escalation or spam reply as no gap in the sources once migrated', async () => {
    const database = await freshDatabase();
    try {
      let store = await openPostgresStore(database.url);
      const bot = await storeChatbot(store, 'Old');
      const t = at(1);
      await store.createSession({
        uuid: 'old',
        chatbotUuid: bot,
        meta: null,
        created_at: t,
        modified_at: t,
      });
      for (const [uuid, rule] of [
        ['spam', 'spam-defense'],
        ['gap', 'not-covered'],
      ] as const) {
        await store.createMessage({
          uuid,
          sessionUuid: 'old',
          query: uuid,
          response: 'r',
          finish_reason: 'stop',
          cite_data: {},
          meta: { rule },
          error_message: '',
          feedback: null,
          created_at: t,
          modified_at: t,
        });
      }
      await store.close();
      // As a store from before the last step wrote them: meta without sources_asked, both
      // counted as not covered.
      const version = MIGRATIONS.findIndex((step) => step.includes('sources_asked')) + 1;
      await query(
        database.url,
        `UPDATE messages SET covered = false, meta_json = $1 WHERE uuid = 'spam'`,
        [JSON.stringify({ rule: 'spam-defense', covered: false, sources: [] })],
      );
      await query(database.url, 'DELETE FROM schema_migrations WHERE version = $1', [version]);
      store = await openPostgresStore(database.url);
      try {
        assert.equal(await store.countMessages(bot, { covered: false }), 1);
        assert.equal((await store.getMessage('spam'))!.meta.sources_asked, false);
        assert.equal((await store.getMessage('gap'))!.meta.sources_asked, undefined);
      } finally {
        await store.close();
      }
    } finally {
      await database.drop();
    }
  });

  test("should upgrade a store from before the owner's tests: its sessions are visitors'", async () => {
    const database = await freshDatabase();
    try {
      let store = await openPostgresStore(database.url);
      const bot = await storeChatbot(store, 'Old');
      await store.close();
      // As the store was before the last step: no flag, a session with the member in its data.
      const version = MIGRATIONS.findIndex((step) => step.includes('sessions_tests')) + 1;
      await query(database.url, 'DROP INDEX sessions_tests');
      await query(database.url, 'ALTER TABLE sessions DROP COLUMN test');
      await query(database.url, 'DELETE FROM schema_migrations WHERE version = $1', [version]);
      await query(
        database.url,
        `INSERT INTO sessions (uuid, chatbot_uuid, meta_json, created_at, modified_at)
          VALUES ('old', $1, '{"chatbot_elements_test":true}', $2, $2)`,
        [bot, at(1)],
      );
      store = await openPostgresStore(database.url);
      try {
        // Which key made it is not known: it stays in the review.
        assert.equal((await store.getSession('old'))!.test, false);
        await store.createSession({
          uuid: 'tried',
          chatbotUuid: bot,
          meta: null,
          test: true,
          created_at: at(2),
          modified_at: at(2),
        });
        assert.equal((await store.getSession('tried'))!.test, true);
      } finally {
        await store.close();
      }
    } finally {
      await database.drop();
    }
  });

  describe('two instances on one database', () => {
    let database: TestDatabase;
    let a: Store;
    let b: Store;
    let heardByA: StoreChange[];
    let heardByB: StoreChange[];
    before(async () => {
      database = await freshDatabase();
      a = await openPostgresStore(database.url);
      b = await openPostgresStore(database.url);
      heardByA = recorder(a);
      heardByB = recorder(b);
    });
    after(async () => {
      await a?.close();
      await b?.close();
      await database?.drop();
    });

    test('should tell the other instance about a write, and not the writer', async () => {
      const user = await a.ensureUser('alice');
      await a.createChatbot({
        uuid: 'bot',
        userId: user.id,
        name: 'Bot',
        rate_limit: [3, 60],
        rate_limit_message: 'Slow down',
        show_citations: true,
        visibility: 'private',
        allowed_origins: [],
        created_at: at(0),
        modified_at: at(0),
      });
      const source = {
        uuid: 'src',
        chatbotUuid: 'bot',
        title: 'Doc',
        type: 'file' as const,
        status: 'await',
        file_name: 'doc.md',
        file_size: 3,
        tokens: 1,
        meta: {},
        created_at: at(1),
        modified_at: at(1),
      };
      await a.createSource(source, new Uint8Array([1, 2, 3]));
      await a.replaceChunks('src', ['one', { text: 'two', heading: 'H' }]);
      await a.enqueueJob('src', Date.now());
      await a.createSession({
        uuid: 'ses',
        chatbotUuid: 'bot',
        meta: null,
        created_at: at(2),
        modified_at: at(2),
      });
      // Writes no cache holds say nothing: a message, its rating, the session's time.
      await a.createMessage({
        uuid: 'msg',
        sessionUuid: 'ses',
        query: 'q',
        response: 'r',
        finish_reason: 'stop',
        cite_data: {},
        meta: {},
        error_message: '',
        feedback: null,
        created_at: at(3),
        modified_at: at(3),
      });
      await a.setFeedback('msg', { rating: 'up' } as never, at(4));
      assert.equal(await a.takeRateLimit('ses', [3, 60], Date.now()), null);
      await a.deleteSources(['src'], at(6));

      const expected: StoreChange[] = [
        { kind: 'rows' }, // ensureUser
        { kind: 'rows' }, // createChatbot
        { kind: 'rows' }, // createSource
        { kind: 'chunks', chatbotUuid: 'bot', sourceUuids: ['src'] },
        { kind: 'jobs' },
        { kind: 'rows' }, // createSession
        { kind: 'rows' }, // deleteSources
        { kind: 'chunks', chatbotUuid: 'bot', sourceUuids: ['src'] },
      ];
      await until(() => heardByB.length >= expected.length, 'B to hear every change');
      assert.deepEqual(heardByB, expected);
      assert.deepEqual(heardByA, [], 'a store does not hear itself');
    });

    test('should say nothing about a write that rolled back', async () => {
      heardByB.length = 0;
      // No such user: the insert fails, and its notification is rolled back with it.
      await assert.rejects(a.addKey({ hash: 'k', userId: 999_999, chatOnly: null }));
      await a.deleteAgent('none');
      await until(() => heardByB.length >= 1, "B to hear A's next write");
      assert.deepEqual(heardByB, [{ kind: 'rows' }]);
    });

    test('should let exactly N messages through when instances take the last places at once', async () => {
      await a.createSession({
        uuid: 'busy',
        chatbotUuid: 'bot',
        meta: null,
        created_at: at(7),
        modified_at: at(7),
      });
      // One clock for all: the database orders them as it likes, and one refused at an earlier
      // time than a place taken would rightly wait 61 s (60.003, rounded up), not 60.
      const now = Date.now();
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).takeRateLimit('busy', [3, 60], now)),
      );
      assert.equal(answers.filter((answer) => answer === null).length, 3);
      for (const answer of answers.filter((answer) => answer !== null)) {
        assert.equal(answer.retryAfter, 60);
      }
    });

    test('should give each job to one instance, and an expired lease to another', async () => {
      for (const uuid of ['j1', 'j2']) {
        await a.createSource(
          {
            uuid,
            chatbotUuid: 'bot',
            title: uuid,
            type: 'qa',
            status: 'await',
            file_name: '',
            file_size: 0,
            tokens: 0,
            meta: {},
            created_at: at(8),
            modified_at: at(8),
          },
          null,
        );
        await b.enqueueJob(uuid, 1_000);
      }
      const claimed = await Promise.all([
        a.claimJob('worker-a', 30_000, 2_000),
        b.claimJob('worker-b', 30_000, 2_000),
      ]);
      assert.deepEqual([...claimed].sort(), ['j1', 'j2']);
      assert.equal(await a.claimJob('worker-c', 30_000, 2_000), null, 'both are held');

      // worker-a died; worker-b lives on and renews. Once worker-a's lease ran out, another
      // instance takes its job over.
      const [abandoned, kept] = claimed as [string, string];
      assert.equal(await b.renewJob(kept, 'worker-b', 30_000, 20_000), true);
      assert.equal(await b.claimJob('worker-b2', 30_000, 32_001), abandoned);
      assert.equal(await a.renewJob(abandoned, 'worker-a', 30_000, 32_002), false);
      await a.finishJob(abandoned, 'worker-a');
      assert.equal(await b.renewJob(abandoned, 'worker-b2', 30_000, 32_003), true);
      await b.finishJob(abandoned, 'worker-b2');
      await b.finishJob(kept, 'worker-b');
      assert.equal(await a.claimJob('worker-c', 30_000, 99_000), null, 'the queue is empty');
    });

    test('should emit reset after its listening connection is cut, and hear again', async () => {
      heardByB.length = 0;
      const pids = await query(
        database.url,
        `SELECT pid FROM pg_stat_activity
          WHERE application_name = 'chatbot-store-listener' AND datname = current_database()`,
      );
      assert.equal(pids.length, 2, 'one listening connection per store');
      // Which one is B's: the one that is not A's. Cut both, and watch B.
      await query(database.url, 'SELECT pg_terminate_backend(pid) FROM unnest($1::int[]) pid', [
        pids.map((r) => r.pid),
      ]);
      await until(() => heardByB.some((c) => c.kind === 'reset'), 'B to emit reset');
      await until(() => heardByA.some((c) => c.kind === 'reset'), 'A to emit reset');
      heardByB.length = 0;
      await a.deleteChatbot('bot');
      await until(() => heardByB.length >= 2, 'B to hear A after reconnecting');
      assert.deepEqual(heardByB, [{ kind: 'rows' }, { kind: 'chunks', chatbotUuid: 'bot' }]);
    });

    test('should close its listener and its pool', async () => {
      const c = await openPostgresStore(database.url);
      const count = async () =>
        (
          await query(
            database.url,
            `SELECT count(*)::int AS n FROM pg_stat_activity
              WHERE application_name LIKE 'chatbot-store%' AND datname = current_database()`,
          )
        )[0]!.n as number;
      const before = await count();
      await c.ping();
      await c.close();
      await until(async () => (await count()) <= before - 2, "C's connections to close");
    });
  });

  test("should commit a question's rate-limit hits without waiting for the disk, and nothing else", async () => {
    const database = await freshDatabase();
    const store = await openPostgresStore(database.url);
    const client = new pg.Client({ connectionString: database.url });
    try {
      await client.connect();
      // As a production server is set (the test cluster turns it off for speed).
      await client.query('SET synchronous_commit = on');
      const chatbotUuid = await storeChatbot(store, 'Durable');
      await store.createSession({
        uuid: 'sync-session',
        chatbotUuid,
        meta: null,
        created_at: at(0),
        modified_at: at(0),
      });
      // As the store calls them, each in the transaction of its statement: what commit waits for.
      const setting = async (call: string, values: unknown[]) => {
        await client.query('BEGIN');
        try {
          await client.query(call, values);
          return (await client.query('SHOW synchronous_commit')).rows[0].synchronous_commit;
        } finally {
          await client.query('ROLLBACK');
        }
      };
      assert.equal(
        await setting('SELECT * FROM take_rate_limit($1, $2, $3, $4)', ['sync-session', 3, 0, 1]),
        'off',
      );
      assert.equal(
        await setting('SELECT * FROM take_visitor_limit($1, $2, $3, $4, $5, $6)', [
          chatbotUuid,
          'visitor',
          3,
          0,
          1,
          2,
        ]),
        'off',
      );
      // Any other statement keeps the server's setting.
      assert.equal(await setting('SELECT 1', []), 'on');
      // And the hit counts at once, for every instance, as before.
      assert.equal(await store.takeRateLimit('sync-session', [1, 60], 1_000), null);
      assert.ok(await store.takeRateLimit('sync-session', [1, 60], 1_001));
    } finally {
      await client.end();
      await store.close();
      await database.drop();
    }
  });

  test('should lock the sessions of messages saved together in one order, so two statements never wait on each other', async () => {
    const database = await freshDatabase();
    const store = await openPostgresStore(database.url);
    const holder = new pg.Client({ connectionString: database.url });
    const first = new pg.Client({ connectionString: database.url });
    try {
      await Promise.all([holder.connect(), first.connect()]);
      const chatbotUuid = await storeChatbot(store, 'Locks');
      // Uuids that sort in the order written: the first is the one every statement locks first.
      const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
      const sessions = Array.from({ length: 10 }, (_, n) => uuid(n + 1));
      const busy = uuid(99);
      // Made in the reverse of their order: a plan that reads the table visits them so.
      for (const s of [busy, ...sessions.toReversed()]) {
        await store.createSession({
          uuid: s,
          chatbotUuid,
          meta: null,
          created_at: at(0),
          modified_at: at(0),
        });
      }
      const message = (sessionUuid: string, n: number) =>
        store.createMessage({
          uuid: `m-${sessionUuid}-${n}`,
          sessionUuid,
          query: `Question ${n}`,
          response: `Answer ${n}`,
          finish_reason: 'stop',
          cite_data: {},
          meta: {},
          error_message: '',
          feedback: null,
          created_at: at(n),
          modified_at: at(n),
        });
      const lock = (client: pg.Client, sessionUuid: string, nowait = '') =>
        client.query(`SELECT 1 FROM sessions WHERE uuid = $1 FOR NO KEY UPDATE ${nowait}`, [
          sessionUuid,
        ]);
      const waiting = async (text: string) =>
        (
          await query(
            database.url,
            `SELECT count(*)::int AS n FROM pg_stat_activity
              WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE $1`,
            [`%${text}%`],
          )
        )[0]!.n as number;

      // The two statements the store runs at once wait on a session held elsewhere, so the
      // messages that come next queue up and go together, in one statement.
      await holder.query('BEGIN');
      await lock(holder, busy);
      const alone = [message(busy, 1), message(busy, 2)];
      await until(async () => (await waiting('INSERT INTO messages')) === 2, 'two saves to wait');
      await first.query('BEGIN');
      await lock(first, sessions[0]!);
      // Queued in the reverse of their order, the one locked elsewhere last.
      const together = [...sessions.slice(1).reverse(), sessions[0]!].map((s, n) => message(s, n));
      await holder.query('COMMIT');
      await Promise.all(alone);
      await until(async () => (await waiting('unnest')) === 1, 'the shared statement to wait');
      // It waits on the session that sorts first, holding none of the others: each is free
      // (NOWAIT: one it held would be an error at once, where waiting would be a deadlock).
      for (const s of sessions.slice(1)) await lock(first, s, 'NOWAIT');
      await first.query('COMMIT');
      await Promise.all(together);
      for (const s of sessions) assert.equal((await store.listMessages(s)).length, 1, s);
    } finally {
      await Promise.allSettled([holder.end(), first.end()]);
      await store.close();
      await database.drop();
    }
  });
});
