import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createServerApp } from '../../src/server/main.js';
import { TEST_STORE, testStoreOptions } from './stores.js';

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
  });
});
