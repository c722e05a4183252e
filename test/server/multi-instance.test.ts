/**
 * Several real server processes (the CLI, as `npm run server` starts it) on one PostgreSQL
 * database: what one instance does, the others see; the queue and the rate limits are shared; an
 * instance killed mid-ingestion leaves its job to another. PostgreSQL pass only.
 */
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { createServer, get, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { type ChatbotClient, createClient } from '../../src/api/client.js';
import { MIGRATIONS } from '../../src/server/store/postgres.js';
import { askWith, file } from './documents-helpers.js';
import { ADMIN_KEY, ask } from './helpers.js';
import { freePort, runCli, startCli } from './spawn-server.js';
import { freshDatabase, postgresOnly, type TestDatabase } from './stores.js';

interface Instance {
  url: string;
  child: ChildProcess;
  api: ChatbotClient;
  raw(path: string, init?: RequestInit): Promise<Response>;
  /** SIGTERM, and the exit it leads to (SIGKILL after 10 s). */
  stop(): Promise<void>;
}

const LEASE_SECONDS = 2;

/** Starts one server process on `databaseUrl`; every instance is stopped by `stopAll`. */
const instances = new Set<Instance>();
async function instance(databaseUrl: string, env: Record<string, string> = {}) {
  const port = await freePort();
  const { child, line } = await startCli({
    PORT: String(port),
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl,
    CHATBOT_API_KEYS: `alice:${ADMIN_KEY}`,
    CHATBOT_ALLOW_PRIVATE_URLS: '1',
    CHATBOT_INGEST_LEASE_SECONDS: String(LEASE_SECONDS),
    ...env,
  });
  // `listening on http://127.0.0.1:PORT (PostgreSQL)`
  const url = line.match(/https?:\/\/\S+/)![0];
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
  const started: Instance = {
    url,
    child,
    api: createClient({ baseUrl: url, apiKey: ADMIN_KEY, retry: false }),
    raw(path, init = {}) {
      const headers = new Headers(init.headers);
      headers.set('Authorization', `Bearer ${ADMIN_KEY}`);
      return fetch(url + path, { ...init, headers });
    },
    async stop() {
      instances.delete(started);
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
  instances.add(started);
  return started;
}

const stopAll = () => Promise.all([...instances].map((i) => i.stop()));

/** How long a change may take to reach the other instance before a test fails. */
const SPREAD = 20_000;

/**
 * Polls `probe` every 20 ms until it answers true, and answers how long that took; fails after
 * `ms`. The deadline only bounds a failure: the spread of changes between instances is promised
 * within 1 s, and those tests report the time it took (a wall-clock assertion would fail on a
 * loaded CI machine, not on a slow change).
 */
async function within(ms: number, what: string, probe: () => Promise<boolean>): Promise<number> {
  const began = Date.now();
  const deadline = began + ms;
  for (;;) {
    if (await probe()) return Date.now() - began;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * GET /healthz on a connection of its own: fetch would reuse a kept-alive one, and each worker
 * holds the connections it was handed (one killed takes its own with it).
 */
function healthz(url: string): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    get(`${url}/healthz`, { agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
    }).on('error', reject);
  });
}

async function sourceStatus(api: ChatbotClient, chatbotUuid: string, sourceUuid: string) {
  return (await api.sources.list(chatbotUuid)).find((s) => s.uuid === sourceUuid)?.status;
}

const cites = async (api: ChatbotClient, session: string, query: string, source: string) =>
  ((await ask(api, session, query)).citations ?? []).some((c) => c.data_source_uuid === source);

async function query(databaseUrl: string, text: string) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query(text)).rows;
  } finally {
    await client.end();
  }
}

describe(
  'several server instances on one PostgreSQL database',
  postgresOnly('needs PostgreSQL'),
  () => {
    after(stopAll);

    describe('two instances, A and B', () => {
      let database: TestDatabase;
      let a: Instance;
      let b: Instance;
      before(async () => {
        database = await freshDatabase();
        [a, b] = await Promise.all([instance(database.url), instance(database.url)]);
      });
      after(async () => {
        await stopAll();
        await database?.drop();
      });

      it('should list on B a chatbot made on A', async (t) => {
        const before = await b.api.chatbots.list();
        const made = await a.api.chatbots.create({ name: 'Made on A' });
        const ms = await within(SPREAD, 'B lists it', async () =>
          (await b.api.chatbots.list()).some((bot) => bot.uuid === made.uuid),
        );
        t.diagnostic(`B listed it ${ms} ms after A answered (promised: within 1 s)`);
        assert.equal((await b.api.chatbots.list()).length, before.length + 1);
        assert.equal((await b.api.chatbots.get(made.uuid)).name, 'Made on A');
      });

      it('should answer through B from a source ingested through A, and stop once it is deleted through A', async (t) => {
        const bot = await a.api.chatbots.create({ name: 'Lighthouse' });
        const session = await a.api.sessions.create(bot.uuid);
        const question = 'What colour is the lighthouse?';
        // B builds its index of the chatbot before the source exists, so it must hear of it.
        await ask(b.api, session.uuid, question);
        const source = await a.api.sources.createQa(bot.uuid, {
          question,
          answer: 'The lighthouse is painted red and white.',
        });
        await within(60_000, 'ingested', async () => {
          return (await sourceStatus(a.api, bot.uuid, source.uuid)) === 'success';
        });
        const added = await within(SPREAD, 'B answers from it', () =>
          cites(b.api, session.uuid, question, source.uuid),
        );
        assert.match((await ask(b.api, session.uuid, question)).text, /red and white/);
        await a.api.sources.delete(source.uuid);
        const deleted = await within(SPREAD, 'B no longer answers from it', async () => {
          return !(await cites(b.api, session.uuid, question, source.uuid));
        });
        t.diagnostic(
          `B answered from it ${added} ms after ingestion, stopped ${deleted} ms after deletion (promised: within 1 s)`,
        );
        assert.equal(await sourceStatus(b.api, bot.uuid, source.uuid), undefined);
      });

      it("should give a session's time on B as A's answer set it", async () => {
        const bot = await a.api.chatbots.create({ name: 'Clock', rate_limit: [1000, 60] });
        const session = await a.api.sessions.create(bot.uuid);
        // B reads the session first, so it remembers it.
        const before = await b.api.sessions.get(session.uuid);
        // Times are kept to the second: the answer comes in a later one.
        while (new Date().toISOString().slice(0, 19) <= before.modified_at.slice(0, 19)) {
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        await ask(a.api, session.uuid, 'What time is it?');
        const latest = (await a.api.messages.list(session.uuid)).at(-1)!;
        const after = await b.api.sessions.get(session.uuid);
        // B listed the old time before: its cache is not told of another instance's answers.
        assert.ok(
          after.modified_at > before.modified_at,
          `${after.modified_at} after ${before.modified_at}`,
        );
        assert.equal(after.modified_at, (await a.api.sessions.get(session.uuid)).modified_at);
        assert.ok(after.modified_at >= latest.created_at);
      });

      it("should read on B a session's document that a message through A attached", async (t) => {
        const bot = await a.api.chatbots.create({ name: 'Drones', rate_limit: [1000, 60] });
        const session = await a.api.sessions.create(bot.uuid);
        const question = 'How much does the Zephyr-9 weigh?';
        // B remembers the session's documents before there are any, so it must hear of the new one.
        assert.deepEqual((await ask(b.api, session.uuid, question)).citations ?? [], []);
        const document = await a.api.sessions.uploadDocument(
          file('The Zephyr-9 drone weighs 1.2 kilograms with its guards fitted.', 'zephyr.md'),
        );
        await askWith(a.api, session.uuid, 'What is the Zephyr-9?', [document.uuid]);
        const readsIt = async () => {
          const { text, citations } = await askWith(b.api, session.uuid, question);
          return /1\.2 kilograms/.test(text) && citations[0]?.data_source_uuid === document.uuid;
        };
        const ms = await within(SPREAD, 'B reads the document', readsIt);
        t.diagnostic(`B read it ${ms} ms after A's message (promised: within 1 s)`);
        assert.equal(await readsIt(), true);
      });

      it('should let exactly 3 of 8 messages through A and B together under rate_limit [3, 60]', async () => {
        const bot = await a.api.chatbots.create({ name: 'Limited', rate_limit: [3, 60] });
        const session = await b.api.sessions.create(bot.uuid);
        const statuses = await Promise.all(
          Array.from({ length: 8 }, async (_, i) => {
            const response = await (i % 2 ? b : a).raw(
              `/api/v1/session/${session.uuid}/message/stream`,
              {
                method: 'POST',
                headers: { 'Content-Type': 'application/json' },
                body: JSON.stringify({ query: `question ${i}` }),
              },
            );
            await response.arrayBuffer();
            return response.status;
          }),
        );
        assert.deepEqual(
          [...statuses].sort(),
          [200, 200, 200, 429, 429, 429, 429, 429],
          JSON.stringify(statuses),
        );
        // Still full a moment later, on either instance.
        await assert.rejects(a.api.messages.send(session.uuid, 'one more'), { status: 429 });
        await assert.rejects(b.api.messages.send(session.uuid, 'one more'), { status: 429 });
        assert.equal((await a.api.messages.list(session.uuid)).length, 3);
      });

      it('should refuse on A and B a key revoked from the command line', async (t) => {
        const cli = (...args: string[]) => runCli(args, { DATABASE_URL: database.url });
        const made = cli('create-key', 'grace');
        assert.equal(made.status, 0, made.stderr);
        const key = made.stdout.trim();
        const status = async (on: Instance) =>
          (
            await fetch(`${on.url}/api/v1/chatbots`, {
              headers: { Authorization: `Bearer ${key}` },
            })
          ).status;
        // Both remember the key once they have used it.
        assert.deepEqual([await status(a), await status(b)], [200, 200]);
        const revoked = cli('revoke-key', key);
        assert.equal(revoked.status, 0, revoked.stderr);
        const ms = await within(SPREAD, 'A and B refuse it', async () => {
          return (await status(a)) === 401 && (await status(b)) === 401;
        });
        t.diagnostic(`A and B refused it ${ms} ms after revoke-key (promised: within 1 s)`);
      });

      it("should count one visitor's sessions and messages through A and B in one window", async () => {
        // rate_limit [1, 60] and the default five sessions' worth: five requests an address.
        const bot = await a.api.chatbots.create({ name: 'Visited', rate_limit: [1, 60] });
        const made = runCli(['create-key', 'alice', '--chat-only', bot.uuid], {
          DATABASE_URL: database.url,
        });
        assert.equal(made.status, 0, made.stderr);
        const key = made.stdout.trim();
        const call = (on: Instance, path: string, body?: object) =>
          fetch(on.url + path, {
            method: 'POST',
            headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
            body: body && JSON.stringify(body),
          });
        const statuses: number[] = [];
        // Each conversation opened on one instance and asked on the other.
        for (const [open, askOn] of [
          [a, b],
          [b, a],
          [a, b],
        ] as const) {
          const created = await call(open, `/api/v1/chatbot/${bot.uuid}/session/create`);
          statuses.push(created.status);
          if (created.status !== 200) break;
          const { uuid } = (await created.json()) as { uuid: string };
          const asked = await call(askOn, `/api/v1/session/${uuid}/message/non-stream`, {
            query: 'When do you open?',
          });
          await asked.arrayBuffer();
          statuses.push(asked.status);
        }
        assert.deepEqual(statuses, [200, 200, 200, 200, 200, 429]);
      });
    });

    it('should finish on another instance the ingestion an instance killed with SIGKILL had claimed', async () => {
      // The first request stalls (the instance that made it dies holding the job); later ones answer.
      let requests = 0;
      const held: ServerResponse[] = [];
      let claimed!: () => void;
      const firstRequest = new Promise<void>((resolve) => {
        claimed = resolve;
      });
      const site = createServer((_req, res) => {
        requests++;
        if (requests === 1) {
          held.push(res);
          claimed();
          return;
        }
        res.writeHead(200, { 'Content-Type': 'text/plain' });
        res.end('Tide notes: the ferry leaves at seven every morning.');
      });
      await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
      const database = await freshDatabase();
      try {
        const a = await instance(database.url);
        const bot = await a.api.chatbots.create({ name: 'Ferry' });
        const { port } = site.address() as AddressInfo;
        const source = await a.api.sources.createUrl(bot.uuid, {
          url: `http://127.0.0.1:${port}/tides.txt`,
        });
        // Only A runs: A claimed it.
        await firstRequest;
        const b = await instance(database.url);
        a.child.kill('SIGKILL');
        await a.stop();
        // The lease runs out after 2 s; B looks for expired leases every second.
        await within(60_000, 'finished by B', async () => {
          return (await sourceStatus(b.api, bot.uuid, source.uuid)) === 'success';
        });
        assert.equal(requests, 2);
        const session = await b.api.sessions.create(bot.uuid);
        assert.ok(await cites(b.api, session.uuid, 'When does the ferry leave?', source.uuid));
        const jobs = await query(database.url, 'SELECT count(*)::int AS n FROM ingest_jobs');
        assert.deepEqual(jobs, [{ n: 0 }]);
      } finally {
        await stopAll();
        for (const res of held) res.destroy();
        site.closeAllConnections();
        await new Promise((resolve) => site.close(resolve));
        await database.drop();
      }
    });

    it('should migrate a fresh database once when two instances start at once; both answer /healthz', async () => {
      const database = await freshDatabase();
      try {
        const started = await Promise.all([instance(database.url), instance(database.url)]);
        for (const i of started) {
          assert.deepEqual(await healthz(i.url), {
            status: 200,
            body: { status: 'ok', store: 'postgres' },
          });
        }
        const versions = await query(
          database.url,
          'SELECT version, count(*)::int AS n FROM schema_migrations GROUP BY version ORDER BY version',
        );
        assert.deepEqual(
          versions,
          MIGRATIONS.map((_, i) => ({ version: i + 1, n: 1 })),
        );
      } finally {
        await stopAll();
        await database.drop();
      }
    });

    it('should serve and answer /healthz with two workers (CHATBOT_WORKERS=2), replace one that dies, and stop both', async () => {
      const database = await freshDatabase();
      try {
        const primary = await instance(database.url, { CHATBOT_WORKERS: '2' });
        const workers = () =>
          execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(primary.child.pid)], {
            encoding: 'utf8',
          })
            .split('\n')
            .filter((line) => line.includes('cli.ts'))
            .map((line) => Number.parseInt(line, 10));
        const healthy = async () => {
          for (let i = 0; i < 4; i++) {
            assert.deepEqual(await healthz(primary.url), {
              status: 200,
              body: { status: 'ok', store: 'postgres' },
            });
          }
        };
        const first = workers();
        assert.equal(first.length, 2, 'two worker processes');
        await healthy();
        const made = await primary.api.chatbots.create({ name: 'Clustered' });
        assert.ok((await primary.api.chatbots.list()).some((bot) => bot.uuid === made.uuid));

        // A worker that dies is replaced.
        process.kill(first[0]!, 'SIGKILL');
        await within(60_000, 'a new worker', async () => {
          const now = workers();
          return now.length === 2 && !now.includes(first[0]!);
        });
        await healthy();
        const all = [...new Set([...first, ...workers()])];

        await primary.stop();
        const alive = (pid: number) => {
          try {
            process.kill(pid, 0);
            return true;
          } catch {
            return false;
          }
        };
        await within(20_000, 'the workers stop with the primary', async () => !all.some(alive));
      } finally {
        await stopAll();
        await database.drop();
      }
    });
  },
);
