import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type ApiError, isAbortError } from '../../src/api/index.js';
import { fixtureBase } from './fixture-url.js';
import { attempts, client, type Echo, origin, rejection, useFixtureServer } from './helpers.js';

useFixtureServer();

describe('retries', () => {
  it('retries a GET after 503s and succeeds within the limit', async () => {
    const result = (await client(
      fixtureBase(origin, 'flaky', { id: 'get-503', fail: 2 }),
    ).chatbots.list()) as unknown as Echo;
    assert.equal(result.request.path, '/api/v1/chatbots');
    assert.equal((await attempts('get-503')).attempts, 3);
  });

  it('gives up after the limit and throws the last HTTP error', async () => {
    const error = await rejection(
      client(fixtureBase(origin, 'flaky', { id: 'get-limit', fail: 5 })).chatbots.list(),
    );
    assert.equal((error as ApiError).status, 503);
    assert.equal((error as ApiError).serverMessage, 'attempt 3 fails');
    assert.equal((await attempts('get-limit')).attempts, 3);
  });

  it('retries 408, 429 and 500 but not 400, 401, 404 or 422', async () => {
    for (const status of [408, 429, 500]) {
      await client(
        fixtureBase(origin, 'flaky', { id: `retry-${status}`, fail: 1, status }),
      ).chatbots.list();
      assert.equal((await attempts(`retry-${status}`)).attempts, 2, `status ${status}`);
    }
    for (const status of [400, 401, 404, 422]) {
      await rejection(
        client(
          fixtureBase(origin, 'flaky', { id: `no-retry-${status}`, fail: 1, status }),
        ).chatbots.list(),
      );
      assert.equal((await attempts(`no-retry-${status}`)).attempts, 1, `status ${status}`);
    }
  });

  it('retries a GET whose connection dropped', async () => {
    await client(
      fixtureBase(origin, 'flaky', { id: 'get-drop', fail: 1, status: 'drop' }),
    ).sources.list('cb1');
    assert.equal((await attempts('get-drop')).attempts, 2);
  });

  it('never retries a POST that creates or changes something', async () => {
    const base = fixtureBase(origin, 'flaky', { id: 'post-503', fail: 1 });
    await rejection(client(base).chatbots.create({ name: 'once' }));
    assert.equal((await attempts('post-503')).attempts, 1);
    await rejection(
      client(
        fixtureBase(origin, 'flaky', { id: 'post-drop', fail: 1, status: 'drop' }),
      ).sources.createQa('cb1', {
        question: 'q',
        answer: 'a',
      }),
    );
    assert.equal((await attempts('post-drop')).attempts, 1);
  });

  it('never retries the message stream, even on 503', async () => {
    const error = await rejection(
      client(fixtureBase(origin, 'flaky', { id: 'stream-503', fail: 1 })).messages.stream(
        'se1',
        'hi',
      ),
    );
    assert.equal((error as ApiError).status, 503);
    assert.equal((await attempts('stream-503')).attempts, 1);
  });

  it('retries a delete, and a 404 after a lost answer counts as deleted', async () => {
    const base = fixtureBase(origin, 'flaky', {
      id: 'delete-lost',
      fail: 1,
      status: 'drop',
      thenStatus: 404,
    });
    assert.deepEqual(await client(base).sources.delete('s1'), { success: true });
    assert.equal((await attempts('delete-lost')).attempts, 2);
  });

  it('a first-attempt 404 on delete is still an error', async () => {
    const body = '{"error":{"code":"not_found","message":"data source not found"}}';
    const error = await rejection(
      client(fixtureBase(origin, 'status', { status: 404, body })).sources.delete('s1'),
    );
    assert.equal((error as ApiError).status, 404);
  });

  it('waits for Retry-After before retrying', async () => {
    const started = Date.now();
    await client(
      fixtureBase(origin, 'flaky', { id: 'retry-after', fail: 1, status: 429, retryAfter: 1 }),
    ).chatbots.list();
    assert.ok(Date.now() - started >= 950, 'waited at least the Retry-After second');
    assert.equal((await attempts('retry-after')).attempts, 2);
  });

  it('does not wait for a Retry-After longer than maxDelayMs: the error says when to come back', async () => {
    const base = fixtureBase(origin, 'flaky', {
      id: 'retry-after-long',
      fail: 1,
      status: 503,
      retryAfter: 120,
    });
    const error = await rejection(client(base).chatbots.list());
    assert.equal((error as ApiError).retryAfter, 120);
    assert.equal((await attempts('retry-after-long')).attempts, 1);
  });

  it('retry: false makes exactly one attempt', async () => {
    await rejection(
      client(fixtureBase(origin, 'flaky', { id: 'no-retry', fail: 1 }), {
        retry: false,
      }).chatbots.list(),
    );
    assert.equal((await attempts('no-retry')).attempts, 1);
  });

  it('an abort during the backoff wait ends the call with AbortError', async () => {
    const controller = new AbortController();
    // Retry-After fixes the wait at 5 s: a jittered backoff can be shorter than any fixed
    // abort delay, and then the retry succeeds before the abort.
    const base = fixtureBase(origin, 'flaky', {
      id: 'abort-backoff',
      fail: 1,
      status: 503,
      retryAfter: 5,
    });
    let answered: () => void = () => {};
    const firstAnswer = new Promise<void>((resolve) => {
      answered = resolve;
    });
    const pending = client(base, {
      fetch: async (input, init) => {
        const response = await fetch(input, init);
        answered();
        return response;
      },
    }).chatbots.list({ signal: controller.signal });
    await firstAnswer;
    // The 503's small body is read at once; then the client sleeps.
    setTimeout(() => controller.abort(), 50);
    const stillWaiting = new Promise((resolve) => setTimeout(resolve, 2_500, 'still waiting'));
    const outcome = await Promise.race([rejection(pending), stillWaiting]);
    assert.ok(isAbortError(outcome), 'the abort ends the 5 s wait at once');
    assert.equal((await attempts('abort-backoff')).attempts, 1, 'no retry after the abort');
  });
});
