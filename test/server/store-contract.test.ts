/**
 * The Store members that several server instances share (types.ts): the ingestion queue, rate
 * limits, ping and change events. The same assertions on every store of this pass (stores.ts):
 * SQLite always, PostgreSQL in its pass, where the "other instance" is a second store opened on
 * the same database.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { MessageRow, Store, StoreChange } from '../../src/server/store/types.js';
import {
  type OpenedStore,
  openTestStore,
  postgresOnly,
  storeChatbot,
  storeFactories,
} from './stores.js';

const AT = '2026-03-10T00:00:00Z';
/** A time in ms, far from Date.now(): the queue and the limits take `now` from their callers. */
const T0 = 1_000_000;
/** Later than any lease these tests take: every job is claimable then. */
const FAR = 10 ** 12;
const LEASE = 1_000;

/** A chatbot (of a user made once) with `count` sources: jobs reference sources. */
async function chatbotWithSources(store: Store, count: number) {
  const chatbotUuid = await storeChatbot(store, 'Shared');
  const sources: string[] = [];
  for (let i = 0; i < count; i++) {
    const uuid = randomUUID();
    await store.createSource(
      {
        uuid,
        chatbotUuid,
        title: `Source ${i}`,
        type: 'qa',
        status: 'ready',
        file_name: '',
        file_size: 0,
        tokens: 0,
        meta: {},
        created_at: AT,
        modified_at: AT,
      },
      null,
    );
    sources.push(uuid);
  }
  return { chatbotUuid, sources };
}

async function session(store: Store, chatbotUuid: string) {
  const uuid = randomUUID();
  await store.createSession({ uuid, chatbotUuid, meta: null, created_at: AT, modified_at: AT });
  return uuid;
}

/** A message of `sessionUuid`, written at `at`. */
const messageRow = (
  sessionUuid: string,
  at: string,
  fields: Partial<MessageRow> = {},
): MessageRow => ({
  uuid: randomUUID(),
  sessionUuid,
  query: 'Where do penguins live?',
  response: 'In the south.',
  finish_reason: 'stop',
  cite_data: {},
  meta: { rule: 'passages' },
  error_message: '',
  feedback: null,
  created_at: at,
  modified_at: at,
  ...fields,
});

/** Claims and finishes whatever is queued, so that each test starts from an empty queue. */
async function drain(store: Store) {
  for (
    let id = await store.claimJob('drain', 1, FAR);
    id;
    id = await store.claimJob('drain', 1, FAR)
  )
    await store.finishJob(id, 'drain');
}

/** Collects what a store's onChange reports. */
function recorder(store: Store) {
  const seen: StoreChange[] = [];
  const stop = store.onChange((change) => seen.push(change));
  return {
    seen,
    stop,
    /** Resolves once a change matching `test` has arrived; rejects after `ms`. */
    async until(test: (change: StoreChange) => boolean, ms = 20_000) {
      const start = Date.now();
      while (!seen.some(test)) {
        if (Date.now() - start > ms) {
          throw new Error(`no matching change within ${ms} ms; saw ${JSON.stringify(seen)}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
  };
}

for (const factory of storeFactories()) {
  describe(`the ${factory.kind} store's shared state`, () => {
    let opened: OpenedStore;
    let store: Store;
    /** Another instance on the same database; on SQLite (one process) the same store. */
    let peer: Store;
    before(async () => {
      opened = await factory.open();
      store = opened.store;
      peer = factory.shared ? await opened.another() : store;
    });
    after(() => opened?.close());

    it('should name its kind and whether other processes share it', () => {
      assert.equal(store.kind, factory.kind);
      assert.equal(store.shared, factory.shared);
    });

    it('should say whether it holds any key, as keys are added and deleted', async () => {
      // A fresh database: the start tells the operator how to make a first key.
      const fresh = await factory.open();
      try {
        assert.equal(await fresh.store.hasKeys(), false);
        const user = await fresh.store.ensureUser('keyholder');
        await fresh.store.addKey({ hash: 'first-key-hash', userId: user.id, chatOnly: null });
        assert.equal(await fresh.store.hasKeys(), true);
        await fresh.store.deleteKey('first-key-hash');
        assert.equal(await fresh.store.hasKeys(), false);
      } finally {
        await fresh.close();
      }
    });

    describe('the ingestion queue', () => {
      beforeEach(() => drain(store));

      it('should hand out the oldest job first, each once; queueing a queued job again changes nothing', async () => {
        const { sources } = await chatbotWithSources(store, 3);
        const [a, b, c] = sources as [string, string, string];
        await store.enqueueJob(a, T0);
        await store.enqueueJob(b, T0 + 1);
        await store.enqueueJob(a, T0 + 2);
        await store.enqueueJob(c, T0 + 3);
        assert.equal(await store.claimJob('w1', LEASE, T0 + 10), a);
        assert.equal(await peer.claimJob('w2', LEASE, T0 + 10), b);
        assert.equal(await store.claimJob('w1', LEASE, T0 + 10), c);
        assert.equal(await peer.claimJob('w2', LEASE, T0 + 10), null);
      });

      it('should not queue a source that does not exist, and drop the job of a deleted source', async () => {
        const { sources } = await chatbotWithSources(store, 1);
        await store.enqueueJob(randomUUID(), T0);
        assert.equal(await store.claimJob('w1', LEASE, T0), null);
        await store.enqueueJob(sources[0]!, T0);
        await store.deleteSources(sources, AT);
        assert.equal(await store.claimJob('w1', LEASE, T0), null);
      });

      it('should never give two claimers at once the same job', async () => {
        const { sources } = await chatbotWithSources(store, 12);
        for (const [i, uuid] of sources.entries()) await store.enqueueJob(uuid, T0 + i);
        const claims = await Promise.all(
          Array.from({ length: 16 }, (_, i) =>
            (i % 2 ? peer : store).claimJob(`w${i}`, LEASE, T0 + 100),
          ),
        );
        const taken = claims.filter((id): id is string => id !== null);
        assert.equal(taken.length, 12);
        assert.deepEqual([...taken].sort(), [...sources].sort());
      });

      it('should let another worker take over a job whose lease ran out; the first then loses it', async () => {
        const { sources } = await chatbotWithSources(store, 1);
        const job = sources[0]!;
        await store.enqueueJob(job, T0);
        assert.equal(await store.claimJob('dead', LEASE, T0), job);
        assert.equal(await peer.claimJob('alive', LEASE, T0 + LEASE - 1), null, 'still leased');
        assert.equal(await store.renewJob(job, 'dead', LEASE, T0 + 500), true);
        assert.equal(await peer.claimJob('alive', LEASE, T0 + LEASE + 1), null, 'renewed');
        assert.equal(await peer.claimJob('alive', LEASE, T0 + 500 + LEASE + 1), job);
        assert.equal(await store.renewJob(job, 'dead', LEASE, T0 + 2_000), false);
        // Only the holder's finish counts.
        await store.finishJob(job, 'dead');
        assert.equal(await peer.renewJob(job, 'alive', LEASE, T0 + 2_000), true);
        await peer.finishJob(job, 'alive');
        assert.equal(await store.claimJob('next', LEASE, FAR), null);
      });

      it('should run a job once more when its source was queued again while held', async () => {
        const { sources } = await chatbotWithSources(store, 1);
        const job = sources[0]!;
        await store.enqueueJob(job, T0);
        assert.equal(await store.claimJob('w1', LEASE, T0), job);
        await peer.enqueueJob(job, T0 + 10);
        assert.equal(await peer.claimJob('w2', LEASE, T0 + 20), null, 'held by w1');
        await store.finishJob(job, 'w1');
        assert.equal(await peer.claimJob('w2', LEASE, T0 + 30), job);
        await peer.finishJob(job, 'w2');
        assert.equal(await store.claimJob('w1', LEASE, FAR), null);
      });

      it('should free every claim on releaseJobs', async () => {
        const { sources } = await chatbotWithSources(store, 1);
        await store.enqueueJob(sources[0]!, T0);
        assert.equal(await store.claimJob('before-restart', 60_000, T0), sources[0]);
        await store.releaseJobs();
        assert.equal(await store.claimJob('after-restart', LEASE, T0 + 1), sources[0]);
      });
    });

    describe('rate limits', () => {
      const LIMIT: [number, number] = [3, 60];

      it('should let N through per window, then answer the whole seconds until the oldest leaves it', async () => {
        const { chatbotUuid } = await chatbotWithSources(store, 0);
        const s = await session(store, chatbotUuid);
        assert.equal(await store.takeRateLimit(s, LIMIT, T0), null);
        assert.equal(await peer.takeRateLimit(s, LIMIT, T0 + 1_000), null);
        assert.equal(await store.takeRateLimit(s, LIMIT, T0 + 2_000), null);
        assert.deepEqual(await peer.takeRateLimit(s, LIMIT, T0 + 2_500), { retryAfter: 58 });
        // A refusal takes no place: the oldest still leaves at T0 + 60 s.
        assert.deepEqual(await store.takeRateLimit(s, LIMIT, T0 + 59_999), { retryAfter: 1 });
        assert.equal(await store.takeRateLimit(s, LIMIT, T0 + 60_001), null);
        // Full again; the oldest (T0 + 1 s) leaves in 0.999 s: at least 1.
        assert.deepEqual(await peer.takeRateLimit(s, LIMIT, T0 + 60_002), { retryAfter: 1 });
        // Another session has its own window.
        assert.equal(await store.takeRateLimit(await session(store, chatbotUuid), LIMIT, T0), null);
      });

      it('should let exactly N of 10 concurrent takes through', async () => {
        const { chatbotUuid } = await chatbotWithSources(store, 0);
        const s = await session(store, chatbotUuid);
        const now = Date.now();
        const results = await Promise.all(
          Array.from({ length: 10 }, (_, i) => (i % 2 ? peer : store).takeRateLimit(s, LIMIT, now)),
        );
        assert.equal(results.filter((r) => r === null).length, 3);
        for (const r of results.filter((r) => r !== null)) assert.deepEqual(r, { retryAfter: 60 });
      });
    });

    it("should read one source's chunks as they were stored, and none of a deleted one", async () => {
      const { sources } = await chatbotWithSources(store, 2);
      const [first, second] = sources as [string, string];
      const stored = await store.replaceChunks(first, [
        'Penguins live in the south.',
        { text: 'They cannot fly.', heading: 'Birds' },
      ]);
      await store.replaceChunks(second, ['Puffins live in the north.']);
      assert.deepEqual(await peer.listSourceChunks(first), stored);
      await store.deleteSources([first], AT);
      assert.deepEqual(await peer.listSourceChunks(first), []);
      assert.equal((await peer.listSourceChunks(second))[0]?.text, 'Puffins live in the north.');
    });

    it('should answer ping while open, and reject once closed', async () => {
      await store.ping();
      await peer.ping();
      const spare = await factory.open();
      await spare.store.ping();
      await spare.close();
      await assert.rejects(spare.store.ping());
    });

    it(
      factory.shared
        ? 'should tell another instance of rows, chunks and jobs within 1 s, and never itself'
        : 'should report no change: no other process writes its database',
      async () => {
        const own = recorder(store);
        const other = recorder(peer === store ? await opened.another() : peer);
        try {
          const { chatbotUuid, sources } = await chatbotWithSources(store, 2);
          const [first, second] = sources as [string, string];
          const s = await session(store, chatbotUuid);
          await store.replaceChunks(first, ['Penguins live in the south.']);
          // The writes no cache holds tell nobody: between the chunks above and the job below,
          // the other instance hears nothing.
          await store.takeRateLimit(s, [3, 60], T0);
          const message = messageRow(s, AT);
          await store.createMessage(message);
          await store.setFeedback(message.uuid, { rating: 'up', at: AT }, AT);
          await store.deleteMessages([message.uuid]);
          await store.releaseJobs();
          await store.enqueueJob(second, T0);
          await store.deleteSources([first], AT);
          if (!factory.shared) {
            // Nothing is sent, so there is nothing to wait for but a turn of the event loop.
            await new Promise((resolve) => setTimeout(resolve, 50));
            assert.deepEqual(other.seen, []);
          } else {
            const chunks = (c: StoreChange) => c.kind === 'chunks';
            // deleteSources: chunks and rows, after the job.
            await other.until(() => {
              const job = other.seen.findIndex((c) => c.kind === 'jobs');
              const rest = job < 0 ? [] : other.seen.slice(job + 1);
              return rest.some(chunks) && rest.some((c) => c.kind === 'rows');
            });
            const replaced = other.seen.findIndex(chunks);
            assert.deepEqual(
              other.seen[replaced + 1],
              { kind: 'jobs' },
              JSON.stringify(other.seen),
            );
            assert.ok(
              other.seen.slice(0, replaced).some((c) => c.kind === 'rows'),
              'the chatbot',
            );
            // Both name the source, so the other instance re-reads it alone.
            for (const change of other.seen.filter(chunks)) {
              assert.deepEqual(change, { kind: 'chunks', chatbotUuid, sourceUuids: [first] });
            }
          }
          assert.deepEqual(own.seen, [], 'a store is never told of its own writes');
        } finally {
          own.stop();
          other.stop();
        }
      },
    );

    it("should set a session's time to its new message's in the same write", async () => {
      const { chatbotUuid } = await chatbotWithSources(store, 0);
      const s = await session(store, chatbotUuid);
      const later = '2026-03-10T00:05:00Z';
      await store.createMessage(messageRow(s, later));
      assert.equal((await store.getSession(s))?.modified_at, later);
      assert.equal((await peer.getSession(s))?.modified_at, later);
      assert.equal((await store.listMessages(s)).length, 1);
    });

    it(
      factory.shared
        ? 'should tell another instance when documents are bound to a session, not of uploads or pruning'
        : 'should report no change for session documents: no other process writes its database',
      async () => {
        const other = recorder(peer === store ? await opened.another() : peer);
        try {
          const { chatbotUuid, sources } = await chatbotWithSources(store, 2);
          const [first, second] = sources as [string, string];
          const s = await session(store, chatbotUuid);
          const { id: userId } = await store.ensureUser('alice');
          // A job on each side: what arrives between them is what the documents' writes sent.
          await store.enqueueJob(first, T0);
          const uuid = randomUUID();
          await store.createSessionDocument({
            uuid,
            userId,
            chatbotUuid,
            sessionUuid: null,
            filename: 'notes.txt',
            content_type: 'text/plain',
            size: 5,
            markdown: false,
            tokens: 2,
            text: 'notes',
            created_at: AT,
          });
          await store.pruneSessionDocuments('2000-01-01T00:00:00Z');
          await store.bindSessionDocuments([uuid], s);
          await store.enqueueJob(second, T0);
          assert.deepEqual(
            (await peer.listSessionDocuments(s)).map((d) => d.uuid),
            [uuid],
          );
          if (!factory.shared) {
            await new Promise((resolve) => setTimeout(resolve, 50));
            assert.deepEqual(other.seen, []);
            return;
          }
          const jobs = () => other.seen.filter((c) => c.kind === 'jobs').length;
          await other.until(() => jobs() >= 2);
          const between = other.seen.slice(other.seen.findIndex((c) => c.kind === 'jobs') + 1);
          assert.deepEqual(
            between,
            [{ kind: 'rows' }, { kind: 'jobs' }],
            JSON.stringify(other.seen),
          );
        } finally {
          other.stop();
        }
      },
    );
  });
}

/** Messages whose words the SQLite index (FTS5, porter unicode61) splits at every punctuation mark. */
const SEARCHED = [
  'Write to support@acme.com, or see https://docs.acme.com/setup/install.html',
  'Version 1.2.3 costs 3.14 euros; foo_bar is state-of-the-art',
  'The naïve café serves crème brûlée — 日本語 spoken, don’t worry',
  'Refunds take five days; refunding is done by the billing team',
  '日本語。中文、台湾 naïve·café a…b x•y ¿qué? ¡sí! 10€ e-mail bob.smith@x.org /usr/local/bin',
];
const SEARCHES = [
  ['support'],
  ['acme'],
  ['docs'],
  ['setup'],
  ['install'],
  ['html'],
  ['version', '1'],
  ['2'],
  ['14'],
  ['foo'],
  ['bar'],
  ['state', 'art'],
  ['naive'],
  ['cafe'],
  ['creme', 'brulee'],
  ['日本語'],
  ['don'],
  ['refund'],
  ['refunded'],
  ['bill'],
  ['billi'],
  ['fiv'],
  ['team', 'five'],
  ['中文'],
  ['台湾'],
  ['a'],
  ['y'],
  ['que'],
  ['si'],
  ['10'],
  ['mail'],
  ['smith'],
  ['org'],
  ['usr'],
  ['bin'],
];

describe(
  'the review search on both stores',
  postgresOnly('compares PostgreSQL with SQLite'),
  () => {
    // PostgreSQL's parser alone keeps addresses, paths, versions and non-ASCII punctuation
    // inside one token; messages.search (postgres/schema.ts) splits the text first, as FTS5's
    // unicode61 does, so every search below must agree.
    it('should find the same messages for the same words', async () => {
      const opened = await Promise.all([openTestStore('sqlite'), openTestStore('postgres')]);
      try {
        const found = await Promise.all(
          opened.map(async ({ store }) => {
            const { chatbotUuid } = await chatbotWithSources(store, 0);
            const s = await session(store, chatbotUuid);
            for (const [i, text] of SEARCHED.entries()) {
              await store.createMessage(
                messageRow(s, AT, { uuid: `m${i}`, query: text, response: '' }),
              );
            }
            const results: Record<string, string[]> = {};
            for (const words of SEARCHES) {
              const rows = await store.findMessages(chatbotUuid, { words }, null, 10);
              results[words.join(' ')] = rows.map((m) => m.uuid);
            }
            return results;
          }),
        );
        const [sqlite, postgres] = found as [Record<string, string[]>, Record<string, string[]>];
        const differ = Object.keys(sqlite).filter(
          (words) => sqlite[words]!.join() !== postgres[words]!.join(),
        );
        assert.deepEqual(
          differ.map((w) => `${w}: ${sqlite[w]} | ${postgres[w]}`),
          [],
          'searches whose matches differ (sqlite | postgres)',
        );
      } finally {
        await Promise.all(opened.map((o) => o.close()));
      }
    });
  },
);
