import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { notCoveredText } from '../../src/server/knowledge/suggestions.js';
import { answerMeta, coveredForReview, normalizeQuestion } from '../../src/server/store/facts.js';
import { MIGRATIONS, openSqliteStore } from '../../src/server/store/sqlite.js';
import type { MessageRow, Store } from '../../src/server/store/types.js';
import { sqliteOnly } from './stores.js';

const T = '2026-03-10T00:00:00Z';
const at = (s: number) =>
  new Date(Date.parse(T) + s * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');

function message(uuid: string, sessionUuid: string, s: number, query: string): MessageRow {
  return {
    uuid,
    sessionUuid,
    query,
    response: `answer to ${query}`,
    finish_reason: 'stop',
    cite_data: {},
    meta: { rule: 'not-covered' },
    error_message: '',
    feedback: null,
    created_at: at(s),
    modified_at: at(s),
  };
}

/** The full-text index agrees with the messages table, row for row (SQLite's own check). */
function ftsInStep(path: string) {
  const db = new Database(path);
  try {
    db.exec("INSERT INTO messages_fts (messages_fts, rank) VALUES ('integrity-check', 1)");
  } finally {
    db.close();
  }
}

const words = async (store: Store, chatbot: string, ...w: string[]) =>
  (await store.findMessages(chatbot, { words: w }, null, 100)).map((m) => m.uuid);

const SQLITE_ONLY = sqliteOnly('the SQLite schema and its FTS5 index');
describe('the review columns and the full-text index in the SQLite store', SQLITE_ONLY, () => {
  const dir = mkdtempSync(join(tmpdir(), 'chatbot-review-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('should keep the index in step through inserts, deletes and cascades of sessions and chatbots', async () => {
    const path = join(dir, 'step.sqlite');
    const store = openSqliteStore(path);
    try {
      const user = await store.ensureUser('alice');
      for (const bot of ['bot-a', 'bot-b']) {
        await store.createChatbot({
          uuid: bot,
          userId: user.id,
          name: bot,
          rate_limit: [20, 240],
          rate_limit_message: '',
          show_citations: true,
          visibility: 'private',
          created_at: T,
          modified_at: T,
        });
      }
      const session = async (uuid: string, chatbotUuid: string) =>
        await store.createSession({ uuid, chatbotUuid, meta: null, created_at: T, modified_at: T });
      await session('s1', 'bot-a');
      await session('s2', 'bot-a');
      await session('s3', 'bot-b');
      await store.createMessage(message('m1', 's1', 1, 'penguins on ice'));
      await store.createMessage(message('m2', 's1', 2, 'penguins in water'));
      await store.createMessage(message('m3', 's2', 3, 'penguins at night'));
      await store.createMessage(message('m4', 's3', 4, 'penguins of the other bot'));
      ftsInStep(path);
      assert.deepEqual(await words(store, 'bot-a', 'penguins'), ['m3', 'm2', 'm1']);

      // A refusal is read up to the topics it offered; the index still agrees with its content.
      await store.createMessage({
        ...message('m5', 's2', 5, 'walruses'),
        response: notCoveredText({ close: true, topics: ['Penguin feeding times'] }),
        meta: { rule: 'not-covered', suggestions: ['Penguin feeding times'] },
      });
      ftsInStep(path);
      assert.deepEqual(await words(store, 'bot-a', 'feeding'), []);
      assert.deepEqual(await words(store, 'bot-a', 'walruses'), ['m5']);
      await store.deleteMessages(['m5']);
      ftsInStep(path);

      await store.deleteMessages(['m2']);
      ftsInStep(path);
      assert.deepEqual(await words(store, 'bot-a', 'water'), []);

      await store.deleteSession('s1');
      ftsInStep(path);
      assert.deepEqual(await words(store, 'bot-a', 'penguins'), ['m3']);

      await store.deleteChatbot('bot-b');
      ftsInStep(path);
      assert.deepEqual(await words(store, 'bot-b', 'penguins'), []);
      assert.equal(await store.countMessages('bot-b', {}), 0);
    } finally {
      await store.close();
    }
  });

  it('should find the same pages whether a search has few matches or very many', async () => {
    const store = openSqliteStore(':memory:');
    try {
      const user = await store.ensureUser('alice');
      await store.createChatbot({
        uuid: 'bot',
        userId: user.id,
        name: 'bot',
        rate_limit: [20, 240],
        rate_limit_message: '',
        show_citations: true,
        visibility: 'private',
        created_at: T,
        modified_at: T,
      });
      for (let s = 0; s < 60; s++) {
        await store.createSession({
          uuid: `s${s}`,
          chatbotUuid: 'bot',
          meta: null,
          created_at: T,
          modified_at: T,
        });
      }
      // 1,500 messages say "common" (more than the few a search fetches by id), every 100th "rare".
      const all: Array<{ uuid: string; s: number; session: string; rare: boolean }> = [];
      for (let i = 0; i < 1500; i++) {
        const rare = i % 100 === 0;
        const row = message(
          `m${i}`,
          `s${i % 60}`,
          10 + ((i * 7) % 1500),
          `common ${rare ? 'rare' : ''}`,
        );
        await store.createMessage(row);
        all.push({ uuid: row.uuid, s: 10 + ((i * 7) % 1500), session: row.sessionUuid, rare });
      }
      const newest = (rows: typeof all) =>
        [...rows].sort((a, b) => b.s - a.s || (a.uuid < b.uuid ? 1 : -1)).map((r) => r.uuid);
      const page = async (w: string) =>
        (await store.findMessages('bot', { words: [w] }, null, 40)).map((m) => m.uuid);
      assert.deepEqual(await page('common'), newest(all).slice(0, 40));
      assert.deepEqual(await page('rare'), newest(all.filter((r) => r.rare)));
      assert.equal(await store.countMessages('bot', { words: ['common'] }), 1500);
      const sessions = async (w: string) =>
        (await store.findConversations('bot', { words: [w] }, null, 100)).map(
          (c) => c.session_uuid,
        );
      assert.equal((await sessions('common')).length, 60);
      assert.deepEqual(
        new Set(await sessions('rare')),
        new Set(all.filter((r) => r.rare).map((r) => r.session)),
      );
      // Pages of a many-match search follow on from each other.
      const first = await store.findMessages('bot', { words: ['common'] }, null, 700);
      const last = first.at(-1)!;
      const next = await store.findMessages(
        'bot',
        { words: ['common'] },
        { at: last.created_at, uuid: last.uuid },
        1000,
      );
      assert.deepEqual(
        [...first, ...next].map((m) => m.uuid),
        newest(all),
      );
    } finally {
      await store.close();
    }
  });

  it('should store a rating in the columns the filters read, and clear it', async () => {
    const store = openSqliteStore(':memory:');
    try {
      const user = await store.ensureUser('alice');
      await store.createChatbot({
        uuid: 'bot',
        userId: user.id,
        name: 'bot',
        rate_limit: [20, 240],
        rate_limit_message: '',
        show_citations: true,
        visibility: 'private',
        created_at: T,
        modified_at: T,
      });
      await store.createSession({
        uuid: 's',
        chatbotUuid: 'bot',
        meta: null,
        created_at: T,
        modified_at: T,
      });
      await store.createMessage(message('m', 's', 1, 'hello'));
      await store.setFeedback('m', { rating: 'down', reason: 'other', at: at(5) }, at(5));
      assert.deepEqual((await store.getMessage('m'))!.feedback, {
        rating: 'down',
        reason: 'other',
        at: at(5),
      });
      assert.equal((await store.getMessage('m'))!.modified_at, at(5));
      assert.equal(await store.countMessages('bot', { rating: 'down' }), 1);
      await store.setFeedback('m', null, at(6));
      assert.equal((await store.getMessage('m'))!.feedback, null);
      assert.equal(await store.countMessages('bot', { rating: 'none' }), 1);
    } finally {
      await store.close();
    }
  });

  it('should upgrade a version-3 store: old messages get covered, sources and escalated, and are searchable', async () => {
    const path = join(dir, 'v3.sqlite');
    const db = new Database(path);
    for (const step of MIGRATIONS.slice(0, 3)) db.exec(step);
    db.pragma('user_version = 3');
    db.prepare("INSERT INTO users (id, name) VALUES (1, 'alice')").run();
    db.prepare(
      `INSERT INTO chatbots VALUES ('bot', 1, 'Old', '{"rate_limit":[20,240],"rate_limit_message":"m","show_citations":true,"visibility":"private"}', ?, ?)`,
    ).run(T, T);
    db.prepare("INSERT INTO sessions VALUES ('s', 'bot', NULL, ?, ?)").run(T, T);
    const insert = db.prepare(
      "INSERT INTO messages VALUES (?, 's', ?, 'an answer', 'stop', ?, ?, ?, ?, ?)",
    );
    const cites = JSON.stringify({
      1: { data_source_uuid: 'src', title: 'Guide', text: 't', file_name: '', type: 'qa' },
      2: { data_source_uuid: 'src', title: 'Guide', text: 'u', file_name: '', type: 'qa' },
    });
    insert.run('old-1', 'How do I install it?', cites, '{"rule":"passages"}', '', at(1), at(1));
    insert.run(
      'old-2',
      'Talk to a human!',
      '{}',
      '{"agent_type":"human-escalation"}',
      '',
      at(2),
      at(2),
    );
    insert.run(
      'old-3',
      'how do I install it',
      '{}',
      '{"rule":"not-covered"}',
      'failed',
      at(3),
      at(3),
    );
    db.close();

    const store = openSqliteStore(path);
    try {
      assert.deepEqual(
        (await store.listMessages('s')).map((m) => [m.uuid, m.meta, m.feedback]),
        [
          ['old-1', { rule: 'passages', covered: true, sources: ['src'] }, null],
          [
            'old-2',
            {
              agent_type: 'human-escalation',
              covered: false,
              sources: [],
              escalated: true,
              sources_asked: false,
            },
            null,
          ],
          ['old-3', { rule: 'not-covered', covered: false, sources: [] }, null],
        ],
      );
      assert.deepEqual(await words(store, 'bot', 'install'), ['old-3', 'old-1']);
      assert.equal(await store.countMessages('bot', { escalated: true }), 1);
      assert.equal(await store.countMessages('bot', { error: true }), 1);
      assert.deepEqual(await store.findConversations('bot', {}, null, 10), [
        {
          session_uuid: 's',
          first_query: 'How do I install it?',
          exchanges: 3,
          last_activity: at(3),
          up: 0,
          down: 0,
          // The escalation is no gap in the sources.
          not_covered: 1,
          escalated: 1,
          errors: 1,
          test: false,
        },
      ]);
      const insights = await store.insights(
        'bot',
        [{ date: T.slice(0, 10), from: T, to: at(86_400) }],
        10,
      );
      assert.deepEqual(insights.topQuestions[0], {
        question: 'how do I install it',
        count: 2,
        covered: false,
        // The first asking was covered, the latest not.
        not_covered: 1,
      });
      assert.deepEqual(insights.cited, [{ data_source_uuid: 'src', count: 1 }]);
    } finally {
      await store.close();
    }
    ftsInStep(path);
  });

  it('should upgrade a version-13 store: its sessions are visitors’, and new ones may be tests', async () => {
    const path = join(dir, 'v13.sqlite');
    // A current store set back to version 13, its session written as version 13 wrote it.
    await openSqliteStore(path).close();
    const db = new Database(path);
    db.exec('DROP INDEX sessions_tests; ALTER TABLE sessions DROP COLUMN test');
    db.prepare("INSERT INTO users (id, name) VALUES (1, 'alice')").run();
    db.prepare(
      `INSERT INTO chatbots VALUES ('bot', 1, 'Old', '{"rate_limit":[20,240],"rate_limit_message":"m","show_citations":true,"visibility":"private"}', ?, ?)`,
    ).run(T, T);
    db.prepare(
      'INSERT INTO sessions (uuid, chatbot_uuid, meta_json, created_at, modified_at) VALUES (?, ?, ?, ?, ?)',
    ).run('old', 'bot', '{"chatbot_elements_test":true}', T, T);
    db.pragma('user_version = 13');
    db.close();
    const store = openSqliteStore(path);
    try {
      // Which key made it is not known: it stays in the review.
      assert.equal((await store.getSession('old'))!.test, false);
      await store.createSession({
        uuid: 'tried',
        chatbotUuid: 'bot',
        meta: null,
        test: true,
        created_at: T,
        modified_at: T,
      });
      await store.createMessage(message('m-old', 'old', 1, 'asked by a visitor'));
      await store.createMessage(message('m-tried', 'tried', 2, 'asked by the owner'));
      const listed = async (test?: 'exclude' | 'only') =>
        (await store.findMessages('bot', { test }, null, 10)).map((m) => m.uuid);
      assert.deepEqual(await listed('exclude'), ['m-old']);
      assert.deepEqual(await listed('only'), ['m-tried']);
      assert.deepEqual(await listed(), ['m-tried', 'm-old']);
    } finally {
      await store.close();
    }
  });

  it('should open a store whose version was set back by hand over tables it already has', async () => {
    const path = join(dir, 'rewound.sqlite');
    await openSqliteStore(path).close();
    const db = new Database(path);
    db.pragma('user_version = 3');
    db.close();
    const store = openSqliteStore(path);
    try {
      assert.equal(await store.countMessages('none', { words: ['anything'] }), 0);
    } finally {
      await store.close();
    }
  });
});

describe('facts.ts', () => {
  it('should keep what the answer path said and fill in the rest from the citations', () => {
    const cited = {
      1: { data_source_uuid: 'a' },
      2: { data_source_uuid: 'b' },
      3: { data_source_uuid: 'a' },
    };
    assert.deepEqual(answerMeta({ rule: 'x' }, cited), {
      rule: 'x',
      covered: true,
      sources: ['a', 'b'],
    });
    assert.deepEqual(answerMeta({ covered: false, sources: ['c'] }, cited), {
      covered: false,
      sources: ['c'],
    });
    assert.deepEqual(answerMeta({ agent_type: 'human-escalation' }, {}), {
      agent_type: 'human-escalation',
      covered: false,
      sources: [],
      escalated: true,
      sources_asked: false,
    });
    assert.equal(answerMeta({ rule: 'spam-defense' }, {}).sources_asked, false);
    // A pre-canned reply from before sources_asked: the fallback's or a trigger's, unknown.
    assert.equal(answerMeta({ rule: 'pre-canned' }, {}).sources_asked, undefined);
  });

  it('should count as no gap in the sources what an agent answered before they were asked', () => {
    assert.equal(coveredForReview(answerMeta({ rule: 'not-covered', covered: false }, {})), false);
    assert.equal(coveredForReview(answerMeta({ rule: 'spam-defense', covered: false }, {})), true);
    assert.equal(
      coveredForReview({ rule: 'pre-canned', covered: false, sources_asked: false }),
      true,
    );
    assert.equal(
      coveredForReview(answerMeta({ rule: 'passages' }, { 1: { data_source_uuid: 'a' } })),
      true,
    );
  });

  it('should group questions by wording: case, punctuation and spacing aside', () => {
    assert.equal(normalizeQuestion('  What does it COST?!  '), 'what does it cost');
    assert.equal(normalizeQuestion('what—does   it cost'), 'what does it cost');
    assert.equal(normalizeQuestion('Ｗhat ｄoes it cost'), 'what does it cost');
    assert.equal(normalizeQuestion('Où est la gare ?'), 'où est la gare');
  });
});
