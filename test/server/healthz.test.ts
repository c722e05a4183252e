import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { createServerApp } from '../../src/server/main.js';
import { pauseCluster, resumeCluster, startCluster, stopCluster } from '../postgres-cluster.mjs';
import { postgresOnly, TEST_STORE, testStoreOptions } from './stores.js';

describe('GET /healthz, what a load balancer probes', () => {
  let server: Awaited<ReturnType<typeof createServerApp>>;
  let drop: () => Promise<void>;

  before(async () => {
    const database = await testStoreOptions();
    drop = database.drop;
    server = await createServerApp({
      ...database.options,
      log: false,
      corsOrigins: 'https://shop.example',
    });
  });
  after(async () => {
    await server.close();
    await drop();
  });

  it('should answer 200 with the store kind, without a key and from any origin', async () => {
    const response = await server.app.request('/healthz', {
      headers: { Origin: 'https://elsewhere.example' },
    });
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), { status: 'ok', store: TEST_STORE });
  });

  it('should answer 503 with the JSON error shape once the store no longer answers', async (t) => {
    const logged = t.mock.method(console, 'error', () => {});
    // The store closed under the running app: its ping now fails as an unreachable one does.
    await server.ctx.store.close();
    const response = await server.app.request('/healthz');
    assert.equal(response.status, 503);
    assert.deepEqual(await response.json(), {
      error: { code: 'unavailable', message: `the ${TEST_STORE} store does not answer` },
    });
    assert.equal(logged.mock.callCount(), 1, 'the reason is logged');
    // In one line, with no stack: a balancer probes every few seconds during an outage.
    const [line, ...more] = logged.mock.calls[0]!.arguments;
    assert.deepEqual(more, [], 'no error object, which console prints with its stack');
    assert.match(String(line), /^GET \/healthz: the \w+ store does not answer \([^\n]*\)$/);
  });
});

describe(
  'a database that stops answering',
  postgresOnly('an outage of its own PostgreSQL cluster'),
  () => {
    it('should answer 503 unavailable with Retry-After, logging one line, until it answers again', async (t) => {
      const cluster = await startCluster();
      const server = await createServerApp({
        databaseUrl: cluster.url,
        apiKeys: 'alice:alice-key',
        log: false,
      });
      try {
        const list = () =>
          server.app.request('/api/v1/chatbots', {
            headers: { Authorization: 'Bearer alice-key' },
          });
        assert.equal((await list()).status, 200);
        const logged = t.mock.method(console, 'error', () => {});
        stopCluster(cluster);
        const response = await list();
        assert.equal(response.status, 503);
        assert.equal(response.headers.get('retry-after'), '5');
        assert.deepEqual(await response.json(), {
          error: {
            code: 'unavailable',
            message: 'the database does not answer: try again in a few seconds',
          },
        });
        const lines = logged.mock.calls.map((call) => call.arguments.map(String).join(' '));
        // The ingestion queue's poller may notice the outage in the same moment: its own line.
        const request = lines.filter((line) => !line.startsWith('ingestion'));
        assert.equal(request.length, 1, lines.join('\n'));
        assert.match(
          request[0]!,
          /^GET \/api\/v1\/chatbots: the postgres store does not answer \(/,
        );
        for (const line of lines) assert.doesNotMatch(line, /\n\s+at /, 'no stack for an outage');
      } finally {
        await server.close().catch(() => {});
        stopCluster(cluster);
      }
    });

    it('should have the ingestion queue say once that the database is gone, not a stack each poll, and once that it is back', async (t) => {
      const cluster = await startCluster();
      // Claims polled every 50 ms (half the lease).
      const server = await createServerApp({
        databaseUrl: cluster.url,
        log: false,
        ingestLeaseMs: 100,
      });
      const errors = t.mock.method(console, 'error', () => {});
      const infos = t.mock.method(console, 'log', () => {});
      const text = (mock: typeof errors) =>
        mock.mock.calls.map((call) => call.arguments.map(String).join(' '));
      const until = async (done: () => boolean) => {
        while (!done()) await new Promise((resolve) => setTimeout(resolve, 20));
      };
      try {
        pauseCluster(cluster);
        await until(() => text(errors).length > 0);
        // Ten more polls at least, as the machine allows.
        await new Promise((resolve) => setTimeout(resolve, 500));
        const lines = text(errors);
        assert.equal(lines.length, 1, lines.join('\n'));
        assert.match(lines[0]!, /^ingestion waits: the postgres store does not answer \(/);
        assert.doesNotMatch(lines[0]!, /\n\s+at /);
        resumeCluster(cluster);
        await until(() => text(infos).some((line) => line.startsWith('ingestion')));
        assert.deepEqual(
          text(infos).filter((line) => line.startsWith('ingestion')),
          ['ingestion resumes: the postgres store answers again'],
        );
      } finally {
        await server.close().catch(() => {});
        stopCluster(cluster);
      }
    });

    it('should answer 503 when the database hangs instead of refusing, and recover once it wakes', async (t) => {
      const cluster = await startCluster();
      const server = await createServerApp({
        databaseUrl: cluster.url,
        apiKeys: 'alice:alice-key',
        log: false,
        // One connection, and a short bound, so the test freezes the one the request uses.
        poolSize: 1,
        queryTimeoutMs: 500,
      });
      const admin = new pg.Client({ connectionString: cluster.url });
      await admin.connect();
      let frozen: number[] = [];
      try {
        const list = () =>
          server.app.request('/api/v1/chatbots', {
            headers: { Authorization: 'Bearer alice-key' },
          });
        assert.equal((await list()).status, 200);
        const { rows } = await admin.query(
          "SELECT pid FROM pg_stat_activity WHERE application_name = 'chatbot-store'",
        );
        frozen = rows.map((row: { pid: number }) => row.pid);
        assert.ok(frozen.length > 0);
        // A frozen backend answers nothing at all, as a hung server or a dead network path does.
        for (const pid of frozen) process.kill(pid, 'SIGSTOP');
        t.mock.method(console, 'error', () => {});
        const response = await list();
        assert.equal(response.status, 503);
        assert.equal(response.headers.get('retry-after'), '5');
        for (const pid of frozen.splice(0)) process.kill(pid, 'SIGCONT');
        let status = 0;
        for (let i = 0; i < 50 && status !== 200; i++) status = (await list()).status;
        assert.equal(status, 200, 'answers again once the database does, without a restart');
      } finally {
        for (const pid of frozen) process.kill(pid, 'SIGCONT');
        await admin.end().catch(() => {});
        await server.close().catch(() => {});
        stopCluster(cluster);
      }
    });
  },
);
