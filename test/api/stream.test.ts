import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type ApiError, isNetworkError, isTimeoutError } from '../../src/api/index.js';
import { chunked, collect, fixtureBase, utf8 } from './fixture-url.js';
import { attempts, client, origin, rejection, useFixtureServer, waitFor } from './helpers.js';

useFixtureServer();

describe('messages.stream', () => {
  const streamBase = (plan: object) => fixtureBase(origin, 'stream', plan);
  const text = 'Hello 👋 世界 — ünïcödé 🎉 done.';

  for (const size of [1, 2, 3, 5]) {
    it(`decodes UTF-8 split every ${size} byte(s), inside emoji and CJK characters`, async () => {
      const stream = await client(
        streamBase({ chunks: chunked(utf8(text), size) }),
      ).messages.stream('se1', 'q');
      const pieces = await collect(stream.text);
      assert.equal(pieces.join(''), text);
      assert.ok(pieces.every((piece) => piece.length > 0 && !piece.includes('\uFFFD')));
    });
  }

  it('skips empty chunks without yielding empty strings', async () => {
    const stream = await client(
      streamBase({ chunks: [[], utf8('a'), [], [], utf8('b'), []] }),
    ).messages.stream('se1', 'q');
    const pieces = await collect(stream.text);
    assert.equal(pieces.join(''), 'ab');
    assert.ok(pieces.every((piece) => piece !== ''));
  });

  it('surfaces X-Message-Uuid and X-Citations (base64url UTF-8 JSON) as soon as headers arrive', async () => {
    const citations = [
      { n: 1, data_source_uuid: 's1', title: 'Prices — Überblick ✓', type: 'file' },
    ];
    const header = Buffer.from(JSON.stringify(citations)).toString('base64url');
    const stream = await client(
      streamBase({
        headers: { 'x-message-uuid': 'm-42', 'x-citations': header },
        chunks: ['See [1].'],
      }),
    ).messages.stream('se1', 'q');
    assert.equal(stream.messageUuid, 'm-42');
    assert.deepEqual(stream.citations, citations);
    assert.equal((await collect(stream.text)).join(''), 'See [1].');
  });

  it('works without the extra headers, and ignores a malformed X-Citations', async () => {
    const plain = await client(streamBase({ chunks: ['ok'] })).messages.stream('se1', 'q');
    assert.equal(plain.messageUuid, undefined);
    assert.equal(plain.citations, undefined);
    const broken = await client(
      streamBase({ headers: { 'x-citations': '%%%not-base64' }, chunks: ['ok'] }),
    ).messages.stream('se1', 'q');
    assert.equal(broken.citations, undefined);
    assert.equal((await collect(broken.text)).join(''), 'ok');
  });

  it('a body that ends early throws NetworkError after yielding what arrived', async () => {
    const stream = await client(
      streamBase({ chunks: ['The first part', ' and more'], endEarly: true, delayMs: 10 }),
    ).messages.stream('se1', 'q');
    const pieces: string[] = [];
    let failure: unknown;
    try {
      for await (const piece of stream.text) pieces.push(piece);
    } catch (error) {
      failure = error;
    }
    assert.equal(pieces.join(''), 'The first part and more');
    assert.ok(isNetworkError(failure));
    assert.match(
      (failure as Error).message,
      /POST \/api\/v1\/session\/se1\/message\/stream answer stream was interrupted/,
    );
  });

  it("the caller's abort mid-stream ends the iteration quietly and closes the connection", async () => {
    const controller = new AbortController();
    const stream = await client(
      streamBase({ id: 'abort-mid', chunks: ['partial'], hold: true }),
    ).messages.stream('se1', 'q', {
      signal: controller.signal,
    });
    const pieces: string[] = [];
    for await (const piece of stream.text) {
      pieces.push(piece);
      controller.abort();
    }
    assert.deepEqual(pieces, ['partial']);
    await waitFor(async () => (await attempts('abort-mid')).closed);
  });

  it('breaking out of the loop aborts the request', async () => {
    const stream = await client(
      streamBase({ id: 'break-out', chunks: ['one', 'two'], delayMs: 20, hold: true }),
    ).messages.stream('se1', 'q');
    for await (const piece of stream.text) {
      assert.equal(piece, 'one');
      break;
    }
    await waitFor(async () => (await attempts('break-out')).closed);
  });

  it('stream.abort() stops the answer like the signal does', async () => {
    const stream = await client(
      streamBase({ id: 'abort-method', chunks: ['x'], hold: true }),
    ).messages.stream('se1', 'q');
    const pieces: string[] = [];
    for await (const piece of stream.text) {
      pieces.push(piece);
      stream.abort();
    }
    assert.deepEqual(pieces, ['x']);
    await waitFor(async () => (await attempts('abort-method')).closed);
  });

  it('a stream that stalls longer than streamIdleTimeoutMs throws TimeoutError', async () => {
    const stream = await client(streamBase({ chunks: ['start'], hold: true }), {
      streamIdleTimeoutMs: 100,
    }).messages.stream('se1', 'q');
    const pieces: string[] = [];
    let failure: unknown;
    try {
      for await (const piece of stream.text) pieces.push(piece);
    } catch (error) {
      failure = error;
    }
    assert.deepEqual(pieces, ['start']);
    assert.ok(isTimeoutError(failure));
    assert.match((failure as Error).message, /answer stream stalled: no data within 100 ms/);
  });

  it('only waits for the server count as idle: steady pieces and a slow reader are no stall', async () => {
    // Pieces 40 ms apart for 400 ms in all, against a 100 ms idle limit.
    const chunks = Array.from({ length: 10 }, (_, i) => `p${i} `);
    const steady = await client(streamBase({ chunks, delayMs: 40 }), {
      streamIdleTimeoutMs: 100,
    }).messages.stream('se1', 'q');
    assert.equal((await collect(steady.text)).join(''), chunks.join(''));
    // A reader that takes 150 ms over each piece, longer than the limit, while the server waits.
    const slow = await client(streamBase({ chunks: ['a', 'b', 'c'] }), {
      streamIdleTimeoutMs: 100,
    }).messages.stream('se1', 'q');
    const pieces: string[] = [];
    for await (const piece of slow.text) {
      pieces.push(piece);
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
    assert.equal(pieces.join(''), 'abc');
  });

  it('a stream its reader walked away from holds no timer', async () => {
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const before = timers();
    const stream = await client(streamBase({ chunks: ['first'], hold: true }), {
      streamIdleTimeoutMs: 50,
    }).messages.stream('se1', 'q');
    const pieces = stream.text[Symbol.asyncIterator]();
    assert.deepEqual(await pieces.next(), { done: false, value: 'first' });
    // The reader keeps the piece and never asks for another: no read waits, so nothing stalls,
    // and the idle timer must not keep re-arming itself (it kept a Node process alive).
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal(timers(), before);
    stream.abort();
  });

  it('a refused stream is an ApiError with the server message and Retry-After', async () => {
    const body = '{"error":{"code":"rate_limited","message":"You are sending messages too fast."}}';
    const error = await rejection(
      client(fixtureBase(origin, 'status', { status: 429, retryAfter: 30, body })).messages.stream(
        'se1',
        'q',
      ),
    );
    assert.equal((error as ApiError).status, 429);
    assert.equal((error as ApiError).retryAfter, 30);
    assert.equal((error as ApiError).serverMessage, 'You are sending messages too fast.');
  });

  it('understands text/event-stream: data lines, JSON deltas, CRLF split across chunks, [DONE]', async () => {
    const sse =
      ': keep-alive\r\n\r\n' +
      'data: Hello\r\n\r\n' +
      'data: {"text":", wörld"}\r\n\r\n' +
      'event: delta\r\ndata: {"delta":" 🌍"}\r\n\r\n' +
      'data: {"choices":[{"delta":{"content":"!"}}]}\r\n\r\n' +
      'data: line one\r\ndata: line two\r\n\r\n' +
      'data: [DONE]\r\n\r\n' +
      'data: after done\r\n\r\n';
    const stream = await client(
      streamBase({ contentType: 'text/event-stream', chunks: chunked(utf8(sse), 3) }),
    ).messages.stream('se1', 'q');
    assert.equal((await collect(stream.text)).join(''), 'Hello, wörld 🌍!line one\nline two');
  });
});
