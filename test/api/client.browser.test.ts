import { expect } from '@open-wc/testing';
import { ApiError, createClient, isAbortError, isNetworkError } from '../../src/api/index.js';
import { chunked, collect, fixtureBase, utf8 } from './fixture-url.js';

const origin = location.origin;
const KEY = 'browser-key';
const client = (baseUrl: string) => createClient({ baseUrl, apiKey: KEY, retry: { limit: 0 } });

async function failure(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail');
}

describe('API module in Chromium', () => {
  it('should send the bearer key and return the parsed record', async () => {
    const result = (await client(fixtureBase(origin, 'echo')).chatbots.get('cb1')) as unknown as {
      request: { method: string; path: string; headers: Record<string, string> };
    };
    expect(result.request.method).to.equal('GET');
    expect(result.request.path).to.equal('/api/v1/chatbot/cb1');
    expect(result.request.headers.authorization).to.equal(`Bearer ${KEY}`);
  });

  it('should report upload progress as the bytes go out, ending at the total', async () => {
    const file = new File([new Uint8Array(4 * 1024 * 1024).fill(65)], 'manual.txt', {
      type: 'text/plain',
    });
    const progress: Array<{ loaded: number; total: number }> = [];
    const record = (await client(fixtureBase(origin, 'upload')).sources.upload('cb1', file, {
      referenceSourceLink: 'https://example.com/manual',
      onProgress: (p) => progress.push(p),
    })) as unknown as { file_name: string; meta_json: string; received: Record<string, string> };

    expect(record.file_name).to.equal('manual.txt');
    expect(JSON.parse(record.meta_json).reference_source_link).to.equal(
      'https://example.com/manual',
    );
    expect(record.received.authorization).to.equal(`Bearer ${KEY}`);
    expect(record.received.path).to.equal('/api/v1/chatbot/cb1/data-source/upload');
    expect(progress.length).to.be.greaterThan(1);
    for (let i = 1; i < progress.length; i++) {
      expect(progress[i]!.loaded).to.be.at.least(progress[i - 1]!.loaded);
    }
    const last = progress.at(-1)!;
    expect(last.loaded).to.equal(last.total);
    expect(last.total).to.be.at.least(file.size);
  });

  it('should turn a refused upload into an ApiError with the server message', async () => {
    const body = JSON.stringify({
      error: { code: 'unsupported_file', message: 'file type not allowed: .exe' },
    });
    const error = await failure(
      client(fixtureBase(origin, 'status', { status: 415, body })).sources.upload(
        'cb1',
        new File(['MZ'], 'setup.exe'),
        {
          onProgress: () => {},
        },
      ),
    );
    expect(error).to.be.instanceOf(ApiError);
    expect((error as ApiError).status).to.equal(415);
    expect((error as ApiError).message).to.equal(
      'POST /api/v1/chatbot/cb1/data-source/upload failed with 415: file type not allowed: .exe',
    );
  });

  it('should end an upload with AbortError when the caller aborts', async () => {
    const controller = new AbortController();
    const pending = client(fixtureBase(origin, 'upload')).sources.upload(
      'cb1',
      new File([new Uint8Array(8 * 1024 * 1024)], 'big.txt'),
      { signal: controller.signal, onProgress: () => controller.abort() },
    );
    expect(isAbortError(await failure(pending))).to.equal(true);
  });

  it('should decode a stream split inside multi-byte characters', async () => {
    const text = 'Grüße 👋🏽 from 東京 — ✓';
    const stream = await client(
      fixtureBase(origin, 'stream', { chunks: chunked(utf8(text), 1), delayMs: 1 }),
    ).messages.stream('se1', 'q');
    const pieces = await collect(stream.text);
    expect(pieces.join('')).to.equal(text);
    expect(pieces.some((piece) => piece.includes('\uFFFD'))).to.equal(false);
  });

  it('should read the stream progressively, before the body ends', async () => {
    const stream = await client(
      fixtureBase(origin, 'stream', { chunks: ['first', 'second'], delayMs: 150 }),
    ).messages.stream('se1', 'q');
    const iterator = stream.text[Symbol.asyncIterator]();
    const first = await iterator.next();
    expect(first.value).to.equal('first');
    await iterator.return?.();
  });

  it('should understand an SSE body', async () => {
    const sse = 'data: {"text":"Hi"}\n\ndata: {"delta":" there"}\n\ndata: [DONE]\n\n';
    const stream = await client(
      fixtureBase(origin, 'stream', {
        contentType: 'text/event-stream',
        chunks: chunked(utf8(sse), 4),
      }),
    ).messages.stream('se1', 'q');
    expect((await collect(stream.text)).join('')).to.equal('Hi there');
  });

  it('should end quietly when the caller aborts mid-stream', async () => {
    const controller = new AbortController();
    const stream = await client(
      fixtureBase(origin, 'stream', { chunks: ['partial answer'], hold: true }),
    ).messages.stream('se1', 'q', { signal: controller.signal });
    const pieces: string[] = [];
    for await (const piece of stream.text) {
      pieces.push(piece);
      controller.abort();
    }
    expect(pieces).to.deep.equal(['partial answer']);
  });

  it('should throw NetworkError when the body ends early, after what arrived', async () => {
    const stream = await client(
      fixtureBase(origin, 'stream', { chunks: ['kept text'], endEarly: true, delayMs: 20 }),
    ).messages.stream('se1', 'q');
    const pieces: string[] = [];
    const error = await failure(
      (async () => {
        for await (const piece of stream.text) pieces.push(piece);
      })(),
    );
    expect(pieces.join('')).to.equal('kept text');
    expect(isNetworkError(error)).to.equal(true);
  });
});
