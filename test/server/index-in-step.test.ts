/**
 * Two instances' search indexes on one PostgreSQL database: a change to some sources through one
 * instance reaches the other's index as those sources' chunks, read again on their own, never as a
 * rebuild of the whole chatbot (seconds at a few hundred thousand chunks). PostgreSQL pass only.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { Knowledge } from '../../src/server/knowledge/knowledge.js';
import { openPostgresStore } from '../../src/server/store/postgres.js';
import type { ChunkRow, Store } from '../../src/server/store/types.js';
import {
  freshDatabase,
  postgresOnly,
  queryRows as query,
  storeChatbot,
  type TestDatabase,
  until,
} from './stores.js';

/** `promise`, or a failure naming `what` after 20 s (which only a defect takes). */
async function bounded<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(what)), 20_000);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** A promise and the function that resolves it. */
function signal() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** B's store, counting whole-chatbot reads and able to hold a source's read once it has read. */
function watched(store: Store) {
  const watch = {
    wholeReads: 0,
    /** When set, a read of this source waits for `release` after reading. */
    hold: null as null | { sourceUuid: string; read: () => void; release: Promise<void> },
    /** When set, the next read of a whole chatbot waits for `release` after reading. */
    holdWhole: null as null | { read: () => void; release: Promise<void> },
  };
  const proxy = new Proxy(store, {
    get(target, name, receiver) {
      if (name === 'listChunks') {
        return async (chatbotUuid: string): Promise<ChunkRow[]> => {
          watch.wholeReads++;
          const rows = await target.listChunks(chatbotUuid);
          const hold = watch.holdWhole;
          if (hold) {
            watch.holdWhole = null;
            hold.read();
            await hold.release;
          }
          return rows;
        };
      }
      if (name === 'listSourceChunks') {
        return async (sourceUuid: string): Promise<ChunkRow[]> => {
          const rows = await target.listSourceChunks(sourceUuid);
          const hold = watch.hold;
          if (hold?.sourceUuid === sourceUuid) {
            watch.hold = null;
            hold.read();
            await hold.release;
          }
          return rows;
        };
      }
      return Reflect.get(target, name, receiver);
    },
  });
  return { store: proxy, watch };
}

describe(
  'search indexes of two instances on one database',
  postgresOnly('needs PostgreSQL'),
  () => {
    let database: TestDatabase;
    let a: Store;
    let b: Store;
    let knowledgeB: Knowledge;
    let watch: ReturnType<typeof watched>['watch'];
    let chatbot: string;

    const addSource = async (store: Store, text: string) => {
      const uuid = randomUUID();
      const at = '2026-11-27T10:00:00Z';
      await store.createSource(
        {
          uuid,
          chatbotUuid: chatbot,
          title: text.split(' ').slice(0, 2).join(' '),
          type: 'file',
          status: 'success',
          file_name: 'notes.txt',
          file_size: text.length,
          tokens: 1,
          meta: {},
          created_at: at,
          modified_at: at,
        },
        new TextEncoder().encode(text),
      );
      await store.replaceChunks(uuid, [text]);
      return uuid;
    };
    /** What B's index finds for `query`: each hit's source and text. */
    const onB = async (query: string) =>
      (await knowledgeB.index.search(chatbot, query)).hits.map((h) => `${h.sourceUuid}: ${h.text}`);

    before(async () => {
      database = await freshDatabase();
      a = await openPostgresStore(database.url);
      const opened = watched(await openPostgresStore(database.url));
      b = opened.store;
      watch = opened.watch;
      knowledgeB = new Knowledge(b, { allowPrivateUrls: false });
      chatbot = await storeChatbot(a, 'Harbour');
    });
    after(async () => {
      await knowledgeB?.close();
      await Promise.all([a?.close(), b?.close()]);
      await database?.drop();
    });

    test("should take in A's added, replaced and deleted sources without reading the chatbot again", async () => {
      const lighthouse = await addSource(a, 'The lighthouse is painted red and white.');
      const ferry = await addSource(a, 'The ferry leaves the harbour at noon.');
      assert.deepEqual(await onB('lighthouse'), [
        `${lighthouse}: The lighthouse is painted red and white.`,
      ]);
      assert.equal(watch.wholeReads, 1, 'B built its index once');

      const bakery = await addSource(a, 'The bakery on the quay opens at seven.');
      await until(async () => (await onB('bakery')).length > 0, 'B to find the added source');
      assert.deepEqual(await onB('bakery'), [`${bakery}: The bakery on the quay opens at seven.`]);

      await a.replaceChunks(lighthouse, ['The lighthouse was repainted blue in May.']);
      await until(
        async () => (await onB('lighthouse'))[0]?.includes('blue') ?? false,
        'B to see it',
      );
      // Replaced, not added beside the old text.
      assert.deepEqual(await onB('lighthouse'), [
        `${lighthouse}: The lighthouse was repainted blue in May.`,
      ]);

      await a.deleteSources([ferry], '2026-11-27T10:01:00Z');
      await until(async () => (await onB('ferry')).length === 0, 'B to forget the deleted source');
      assert.deepEqual(
        (await onB('harbour ferry quay bakery lighthouse')).sort(),
        [
          `${bakery}: The bakery on the quay opens at seven.`,
          `${lighthouse}: The lighthouse was repainted blue in May.`,
        ].sort(),
      );
      assert.equal(watch.wholeReads, 1, "B never read the whole chatbot's chunks again");
    });

    test("should keep B's own later change when a read of A's change was overtaken by it", async () => {
      const tide = await addSource(b, 'High tide is at six.');
      knowledgeB.index.setChunks(chatbot, tide, await b.listSourceChunks(tide), []);
      await until(async () => (await onB('tide')).length > 0, 'B to index its own source');

      // A's change is read by B, then held; meanwhile B itself processes the source again.
      const read = signal();
      const release = signal();
      watch.hold = { sourceUuid: tide, read: read.resolve, release: release.promise };
      await a.replaceChunks(tide, ['High tide is at seven.']);
      await bounded(read.promise, "B never read A's change");
      const oldIds = (await b.listSourceChunks(tide)).map((c) => c.id);
      const rows = await b.replaceChunks(tide, ['High tide is at eight, said B.']);
      knowledgeB.index.setChunks(chatbot, tide, rows, oldIds);
      release.resolve();
      // Queued behind the held re-read, so it settles after it.
      await knowledgeB.index.refreshSources(chatbot, []);
      assert.deepEqual(await onB('tide'), [`${tide}: High tide is at eight, said B.`]);
      assert.equal(watch.wholeReads, 1);
    });

    test('should answer from the index B has while it reads the chatbot again after missing changes', async () => {
      const reads = watch.wholeReads;
      // A change no instance is told of, as when B's listening connection was down.
      const [bakery] = (await a.listChunks(chatbot)).filter((c) => c.text.includes('bakery'));
      await query(database.url, 'UPDATE chunks SET text = $1 WHERE id = $2', [
        'The bakery on the quay opens at eight.',
        bakery!.id,
      ]);
      const read = signal();
      const release = signal();
      watch.holdWhole = { read: read.resolve, release: release.promise };
      // B's listener is cut; it reconnects and, having missed what was said meanwhile, reads again.
      await query(
        database.url,
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
          WHERE application_name = 'chatbot-store-listener' AND datname = current_database()`,
      );
      await bounded(read.promise, 'B never read the chatbot again');
      // The read is held: B still answers, from what it had.
      assert.deepEqual(await bounded(onB('bakery'), 'B stopped answering while it read'), [
        `${bakery!.sourceUuid}: The bakery on the quay opens at seven.`,
      ]);
      release.resolve();
      await until(
        async () => (await onB('bakery'))[0]?.includes('eight') ?? false,
        'the new index to answer',
      );
      assert.deepEqual(await onB('bakery'), [
        `${bakery!.sourceUuid}: The bakery on the quay opens at eight.`,
      ]);
      assert.equal(watch.wholeReads, reads + 1);
    });
  },
);
