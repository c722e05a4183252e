import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { type ChatbotClient, createClient } from '../../src/api/index.js';
import { IN_PROGRESS_STATUSES } from '../../src/api/types.js';
import { freePort, startCli } from './spawn-server.js';
import { sqliteOnly } from './stores.js';

const KEY = 'crash-test-key';
const ROUNDS = Number(process.env.CRASH_ROUNDS ?? 3);
/** Writes in flight in each burst; the kill comes once a third of them are acknowledged. */
const BURST = 90;

/** A Markdown file of many sections: long enough to be mid-ingestion when the kill comes. */
function manual(round: number): string {
  const parts: string[] = [];
  for (let i = 0; i < 3000; i++) {
    parts.push(
      `## Lighthouse ${round}-${i}\n\nThe lighthouse ${round}-${i} stands on cape ${i} and is painted in stripe pattern ${i % 17}. Its keeper logs the weather every ${i % 9} hours.\n`,
    );
  }
  return parts.join('\n');
}

/** What the server acknowledged (answered 200 to), to look for after the restart. */
interface Acknowledged {
  sources: Map<string, string>;
  tags: Map<string, string>;
  sessions: Map<string, Record<string, string>>;
  agents: Map<string, string>;
  titles: Map<string, string>;
  /** Answers whose end the client received, by session. */
  answers: Map<string, string>;
  /** Sessions whose answer was on its way at the kill: stored whole, cut short, or not at all. */
  unfinished: Set<string>;
}

const SQLITE_ONLY = sqliteOnly('a SQLite file after SIGKILL (PostgreSQL: multi-instance.test.ts)');
describe('the real server killed (SIGKILL) mid-work and restarted', SQLITE_ONLY, () => {
  const dir = mkdtempSync(join(tmpdir(), 'chatbot-crash-'));
  const db = join(dir, 'crash.sqlite');
  let child: ChildProcess | undefined;
  let api: ChatbotClient;
  // A site whose pages answer only once released: a URL source stays mid-download until then.
  const held: ServerResponse[] = [];
  let holding = true;
  const site = createServer((_req, res) => {
    if (holding) held.push(res);
    else res.end(PAGE);
  });
  const PAGE =
    '<html><head><title>Harbour</title></head><body><p>The harbour opens at six.</p></body></html>';
  const siteUrl = new Promise<string>((resolve) =>
    site.listen(0, '127.0.0.1', () =>
      resolve(`http://127.0.0.1:${(site.address() as AddressInfo).port}`),
    ),
  );
  after(() => {
    child?.kill('SIGKILL');
    site.closeAllConnections();
    site.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function start(): Promise<number> {
    const port = await freePort();
    const t0 = performance.now();
    const started = await startCli({
      PORT: String(port),
      CHATBOT_DB: db,
      CHATBOT_API_KEYS: `alice:${KEY}`,
      CHATBOT_ALLOW_PRIVATE_URLS: '1',
    });
    child = started.child;
    api = createClient({ baseUrl: `http://127.0.0.1:${port}`, apiKey: KEY, retry: false });
    return performance.now() - t0;
  }

  async function kill(): Promise<void> {
    const exited = once(child!, 'exit');
    child!.kill('SIGKILL');
    await exited;
    child = undefined;
  }

  /** Every acknowledged write, read back after the restart. */
  async function expectAll(bot: string, ack: Acknowledged): Promise<void> {
    const sources = new Map((await api.sources.list(bot)).map((s) => [s.uuid, s]));
    for (const [uuid, title] of ack.sources) assert.ok(sources.has(uuid), `source ${title}`);
    for (const [uuid, title] of ack.titles) assert.equal(sources.get(uuid)?.title, title);
    const tags = new Map((await api.tags.list(bot)).map((t) => [t.uuid, t.name]));
    for (const [uuid, name] of ack.tags) assert.equal(tags.get(uuid), name);
    const agents = new Map((await api.agents.list(bot)).map((a) => [a.uuid, a.name]));
    for (const [uuid, name] of ack.agents) assert.equal(agents.get(uuid), name);
    for (const [uuid, meta] of ack.sessions) {
      assert.deepEqual((await api.sessions.get(uuid)).meta, meta);
    }
    for (const session of ack.unfinished) {
      const messages = await api.messages.list(session);
      assert.ok(messages.length <= 1, `${messages.length} answers to one question`);
      for (const m of messages) assert.ok(['stop', 'length'].includes(m.finish_reason));
    }
    for (const [session, response] of ack.answers) {
      const messages = await api.messages.list(session);
      assert.deepEqual(
        messages.map((m) => [m.response, m.finish_reason]),
        [[response, 'stop']],
      );
    }
  }

  /** Polls (bounded) until no source of the chatbot is in a progress status. */
  async function settled(bot: string) {
    const deadline = Date.now() + 120_000;
    for (;;) {
      const list = await api.sources.list(bot);
      const busy = list.filter((s) => IN_PROGRESS_STATUSES.includes(s.status));
      if (busy.length === 0) return list;
      if (Date.now() > deadline) {
        assert.fail(`${busy.length} sources still in progress: ${busy[0]!.status}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  it(`should keep every acknowledged write across ${ROUNDS} kills during ingestion, streamed answers and write bursts, and leave no source in progress`, async (t) => {
    t.diagnostic(`first start ${(await start()).toFixed(0)} ms`);
    const bot = (await api.chatbots.create({ name: 'Crash' })).uuid;
    const all: Acknowledged = {
      sources: new Map(),
      tags: new Map(),
      sessions: new Map(),
      agents: new Map(),
      titles: new Map(),
      answers: new Map(),
      unfinished: new Set(),
    };
    let acknowledgedWrites = 0;
    for (let round = 0; round < ROUNDS; round++) {
      // Ingestion: a large file, and a page that is still downloading when the kill comes.
      const file = await api.sources.upload(bot, new Blob([manual(round)]), {
        fileName: `manual-${round}.md`,
      });
      all.sources.set(file.uuid, file.title);
      holding = true;
      const link = await api.sources.createUrl(bot, { url: `${await siteUrl}/page-${round}` });
      all.sources.set(link.uuid, link.title);
      // Streamed answers: some read to their end (acknowledged), some left open for the kill.
      const streams = [];
      for (let i = 0; i < 6; i++) {
        const session = await api.sessions.create(bot);
        streams.push({
          session: session.uuid,
          stream: await api.messages.stream(session.uuid, `Which cape, ${round}-${i}?`),
        });
      }
      for (const { session, stream } of streams.slice(0, 3)) {
        let text = '';
        for await (const piece of stream.text) text += piece;
        all.answers.set(session, text);
      }
      const open = streams.slice(3).map(({ session, stream }) => {
        all.unfinished.add(session);
        return stream.text[Symbol.asyncIterator]().next();
      });
      // A burst of writes; the kill comes while the rest are still on their way.
      const earlier = [...all.sources.keys()].filter(
        (uuid) => !all.titles.has(uuid) && uuid !== file.uuid && uuid !== link.uuid,
      );
      let acked = 0;
      let inProgressAtKill = 0;
      const killed = new Promise<void>((resolve) => {
        const writes = Array.from({ length: BURST }, (_, i) => {
          const name = `r${round}-w${i}`;
          const write = (async () => {
            switch (i % 5) {
              case 0: {
                const s = await api.sources.createQa(bot, {
                  question: `${name}?`,
                  answer: `${name}.`,
                });
                all.sources.set(s.uuid, s.title);
                break;
              }
              case 1: {
                const tag = await api.tags.create(bot, { name, color: '#123456' });
                all.tags.set(tag.uuid, name);
                break;
              }
              case 2: {
                const s = await api.sessions.create(bot, { name });
                all.sessions.set(s.uuid, { name });
                break;
              }
              case 3: {
                const agent = await api.agents.create(bot, { name, type: 'background' });
                all.agents.set(agent.uuid, name);
                break;
              }
              default: {
                // Each rename targets its own earlier source, so the last acknowledged title is it.
                const target = earlier.shift();
                if (!target) return;
                await api.sources.update(target, { title: name });
                all.titles.set(target, name);
              }
            }
            acknowledgedWrites++;
            if (++acked === BURST / 3) {
              const list = await api.sources.list(bot);
              inProgressAtKill = list.filter((s) => IN_PROGRESS_STATUSES.includes(s.status)).length;
              await kill();
              resolve();
            }
          })();
          return write.catch(() => {});
        });
        void Promise.all(writes);
      });
      await killed;
      await Promise.allSettled(open);
      assert.ok(inProgressAtKill > 0, 'the kill came while sources were being ingested');

      // The file is whole after the kill, before any restart.
      const check = new Database(db);
      assert.equal(check.pragma('integrity_check', { simple: true }), 'ok');
      check.close();

      // The page the killed server was waiting for is answered at once from now on.
      holding = false;
      for (const res of held.splice(0)) res.destroy();
      t.diagnostic(
        `round ${round}: ${acked} writes acknowledged before the kill; restart ${(await start()).toFixed(0)} ms`,
      );
      await expectAll(bot, all);
      const sources = await settled(bot);
      // Ingested from the start again after the kill: whole, not half.
      const ingested = sources.find((s) => s.uuid === file.uuid);
      assert.equal(ingested?.status, 'success');
      assert.ok(ingested.tokens > 10_000, `${ingested.tokens} tokens`);
      const fetched = sources.find((s) => s.uuid === link.uuid);
      assert.equal(fetched?.status, 'success', fetched?.meta_json);
    }
    t.diagnostic(`${ROUNDS} kills, ${acknowledgedWrites} acknowledged writes, every one read back`);
    await kill();
  });
});
