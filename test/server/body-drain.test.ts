import assert from 'node:assert/strict';
import { once } from 'node:events';
import { request } from 'node:http';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { bodyReading } from '../../src/server/body.js';
import { ADMIN_KEY, type Harness, startHarness } from './helpers.js';

const MiB = 1024 * 1024;
/** Well past anything the sockets buffer, so the server must read it for the client to finish. */
const SIZE = 24 * MiB;
const ROUNDS = 3;

interface Exchange {
  /** Every byte of the body went out without a write error. */
  sent: boolean;
  status: number;
  body: { error?: { code: string; message: string } };
}

const chunkOf = (size: number) => Buffer.alloc(size, 'x');

/** The body in 1 MiB pieces, each written as one chunk of a chunked body. */
function* slices(body: Buffer) {
  for (let at = 0; at < body.length; at += MiB) yield body.subarray(at, at + MiB);
}

/** An upload's headers: the key (the full one by default) and the multipart type. */
const form = (key = ADMIN_KEY) => ({
  Authorization: `Bearer ${key}`,
  'Content-Type': 'multipart/form-data; boundary=xyz',
});

/** A multipart body with one file part of `size` bytes. */
function multipart(fileName: string, size: number): Buffer {
  return Buffer.concat([
    Buffer.from(
      `--xyz\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\n\r\n`,
    ),
    chunkOf(size),
    Buffer.from('\r\n--xyz--\r\n'),
  ]);
}

/**
 * A client that writes its whole body before it reads anything (as Python's requests and curl
 * without Expect do), on a raw socket: it only gets the answer if the server reads the body.
 */
function socketExchange(
  url: string,
  path: string,
  headers: Record<string, string>,
  body: Buffer,
  chunked: boolean,
): Promise<Exchange> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    let received = '';
    let sent = false;
    socket.on('data', (d) => {
      received += d;
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      const [head = '', text = ''] = received.split('\r\n\r\n');
      const status = Number(/^HTTP\/1\.1 (\d+)/.exec(head)?.[1] ?? 0);
      // The error bodies are small and sent with a Content-Length: the text is the body.
      let body = {};
      try {
        body = JSON.parse(text);
      } catch {}
      resolve({ sent, status, body });
    });
    const lines = Object.entries({
      ...headers,
      Host: hostname,
      [chunked ? 'Transfer-Encoding' : 'Content-Length']: chunked ? 'chunked' : String(body.length),
    }).map(([k, v]) => `${k}: ${v}`);
    socket.write(`POST ${path} HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n`);
    void (async () => {
      for (const piece of slices(body)) {
        const data = chunked
          ? Buffer.concat([
              Buffer.from(`${piece.length.toString(16)}\r\n`),
              piece,
              Buffer.from('\r\n'),
            ])
          : piece;
        const ok = await new Promise<boolean>((r) => socket.write(data, (e) => r(!e)));
        if (!ok) return;
      }
      if (chunked) socket.write('0\r\n\r\n');
      // Half-close: the server may still answer after the client has sent everything.
      socket.end();
      sent = true;
    })();
  });
}

/** Node's http.request, chunked (`write` in pieces) or with a declared length. */
function httpExchange(
  url: string,
  path: string,
  headers: Record<string, string>,
  body: Buffer,
  chunked: boolean,
): Promise<Exchange> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    let failed = false;
    let finished = false;
    let answer: { status: number; text: string } | undefined;
    const done = () => {
      if (!answer || !(finished || failed)) return;
      let body = {};
      try {
        body = JSON.parse(answer.text);
      } catch {}
      resolve({ sent: finished && !failed, status: answer.status, body });
    };
    const req = request(
      {
        host: hostname,
        port,
        path,
        method: 'POST',
        headers: chunked ? headers : { ...headers, 'Content-Length': body.length },
      },
      (res) => {
        let text = '';
        res.on('data', (d) => {
          text += d;
        });
        res.on('end', () => {
          answer = { status: res.statusCode ?? 0, text };
          done();
        });
        res.on('error', () => {
          answer = { status: res.statusCode ?? 0, text };
          failed = true;
          done();
        });
      },
    );
    req.on('error', () => {
      failed = true;
      answer ??= { status: 0, text: '' };
      done();
    });
    req.on('finish', () => {
      finished = true;
      done();
    });
    for (const piece of slices(body)) req.write(piece);
    req.end();
  });
}

describe('refusals before the body is read still reach the client', () => {
  let h: Harness;
  let bot: string;

  // Larger than the JSON limit, the upload limit and anything the sockets buffer on the way.
  before(async () => {
    h = await startHarness({ uploadLimitBytes: 4 * MiB });
    bot = (await h.api.chatbots.create({ name: 'Drained' })).uuid;
  });
  after(() => h.close());

  const json = { Authorization: `Bearer ${ADMIN_KEY}`, 'Content-Type': 'application/json' };
  const upload = (uuid: string) => `/api/v1/chatbot/${uuid}/data-source/upload`;
  const MISSING = '00000000-0000-4000-8000-000000000000';
  const cases = () => [
    {
      label: 'a JSON body over 1 MiB',
      path: '/api/v1/chatbot/create',
      headers: json,
      body: chunkOf(SIZE),
      status: 413,
      message: 'the body is larger than 1048576 bytes',
    },
    {
      label: 'an upload over the upload limit',
      path: upload(bot),
      headers: form(),
      body: multipart('big.txt', SIZE),
      status: 413,
      message: 'the upload is larger than 4194304 bytes',
    },
    // Within the upload limit, so refused for what they are, before or after the body is read.
    {
      label: 'an upload with an unknown key',
      path: upload(bot),
      headers: form('not-a-key'),
      body: multipart('notes.txt', 3 * MiB),
      status: 401,
      message: 'unknown API key',
    },
    {
      label: 'an upload to a chatbot that does not exist',
      path: upload(MISSING),
      headers: form(),
      body: multipart('notes.txt', 3 * MiB),
      status: 404,
      message: 'chatbot not found',
    },
    {
      label: 'an upload of a type the server does not take',
      path: upload(bot),
      headers: form(),
      body: multipart('setup.exe', 3 * MiB),
      status: 415,
      message: 'file type not allowed: setup.exe (allowed: ',
    },
  ];

  for (const [client, exchange] of [
    ['a raw socket that writes everything before it reads', socketExchange],
    ['http.request', httpExchange],
  ] as const) {
    for (const chunked of [false, true]) {
      it(`should send the JSON refusal to ${client}, ${chunked ? 'chunked' : 'with a declared length'}, every time`, async () => {
        for (let round = 0; round < ROUNDS; round++) {
          for (const c of cases()) {
            const got = await exchange(h.url, c.path, c.headers, c.body, chunked);
            assert.deepEqual(
              got,
              { sent: true, status: c.status, body: { error: got.body.error } },
              `${c.label}, round ${round}`,
            );
            // The whole message, or (the 415's list of types) how it starts.
            assert.ok(got.body.error?.message.startsWith(c.message), `${c.label}, round ${round}`);
          }
        }
        assert.deepEqual(await h.api.sources.list(bot), []);
      });
    }
  }

  it("should send the 413 to Node's fetch with a declared length and with a streamed body", async () => {
    const big = chunkOf(SIZE);
    for (let round = 0; round < ROUNDS; round++) {
      const declared = await fetch(`${h.url}/api/v1/chatbot/create`, {
        method: 'POST',
        headers: json,
        body: big,
      });
      assert.equal(declared.status, 413);
      assert.equal(declared.headers.get('connection'), 'close');
      assert.deepEqual(await declared.json(), {
        error: { code: 'too_large', message: 'the body is larger than 1048576 bytes' },
      });
      const data = new FormData();
      data.append('file', new Blob([big]), 'big.txt');
      const body = new Response(data);
      const streamed = await fetch(`${h.url}${upload(bot)}`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${ADMIN_KEY}`,
          'Content-Type': body.headers.get('content-type')!,
        },
        body: body.body,
        duplex: 'half',
      } as RequestInit);
      assert.equal(streamed.status, 413);
      assert.deepEqual(await streamed.json(), {
        error: { code: 'too_large', message: 'the upload is larger than 4194304 bytes' },
      });
    }
    assert.deepEqual(await h.api.sources.list(bot), []);
  });

  it('should keep the connection of a refusal whose body was read open for the next request', async () => {
    const { hostname, port } = new URL(h.url);
    const statuses = await new Promise<number[]>((resolve) => {
      const socket = connect(Number(port), hostname);
      let received = '';
      socket.on('data', (d) => {
        received += d;
        const seen = [...received.matchAll(/HTTP\/1\.1 (\d+)/g)].map((m) => Number(m[1]));
        if (seen.length === 2) {
          socket.destroy();
          resolve(seen);
        }
      });
      // A 401 (no key) for a body under the limit, read to its end, then a request on the same socket.
      const body = chunkOf(MiB / 2);
      socket.write(
        `POST /api/v1/chatbot/create HTTP/1.1\r\nHost: x\r\nContent-Length: ${body.length}\r\n\r\n`,
      );
      socket.write(body);
      socket.write(
        `GET /api/v1/chatbots HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${ADMIN_KEY}\r\n\r\n`,
      );
    });
    assert.deepEqual(statuses, [401, 200]);
  });
});

describe('a body over the limit is not held', () => {
  it('should stop reading a chunked JSON body once it passes 1 MiB, whatever its length', async () => {
    const { createServerApp } = await import('../../src/server/main.js');
    const server = await createServerApp({
      db: ':memory:',
      apiKeys: `alice:${ADMIN_KEY}`,
      log: false,
    });
    try {
      let pulled = 0;
      const piece = new Uint8Array(64 * 1024).fill(0x20);
      // 64 MiB if read to its end; the server may take only what passes the limit.
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (pulled >= 64 * MiB) return controller.close();
          pulled += piece.length;
          controller.enqueue(piece);
        },
      });
      const response = await server.app.request('/api/v1/chatbot/create', {
        method: 'POST',
        headers: { Authorization: `Bearer ${ADMIN_KEY}`, 'Transfer-Encoding': 'chunked' },
        body,
        duplex: 'half',
      } as RequestInit);
      assert.equal(response.status, 413);
      assert.ok(pulled <= MiB + 4 * piece.length, `${pulled} bytes read`);
    } finally {
      await server.close();
    }
  });
});

/**
 * A client that says `Expect: 100-continue` (curl with an upload) and sends its body only once
 * told to, on a raw socket: whether it was told, and the final answer.
 */
function expectingExchange(
  url: string,
  path: string,
  headers: Record<string, string>,
  body: Buffer,
): Promise<{ continued: boolean; sent: boolean; status: number; text: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    let received = '';
    let continued = false;
    let sent = false;
    socket.on('data', (d) => {
      received += d;
      if (!continued && !sent && received.startsWith('HTTP/1.1 100 Continue\r\n\r\n')) {
        continued = true;
        received = received.slice('HTTP/1.1 100 Continue\r\n\r\n'.length);
        socket.write(body, () => {
          sent = true;
        });
      }
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      const [head = '', text = ''] = received.split('\r\n\r\n');
      resolve({ continued, sent, status: Number(/^HTTP\/1\.1 (\d+)/.exec(head)?.[1] ?? 0), text });
    });
    const lines = Object.entries({
      ...headers,
      Host: hostname,
      'Content-Length': String(body.length),
      Expect: '100-continue',
      Connection: 'close',
    }).map(([k, v]) => `${k}: ${v}`);
    socket.write(`POST ${path} HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n`);
  });
}

describe('a client that waits for 100 Continue', () => {
  let h: Harness;
  let bot: string;
  before(async () => {
    h = await startHarness({ uploadLimitBytes: 4 * MiB });
    bot = (await h.api.chatbots.create({ name: 'Expecting' })).uuid;
  });
  after(() => h.close());

  const upload = () => `/api/v1/chatbot/${bot}/data-source/upload`;

  it('is refused from the headers before it sends the body: too large, or an unknown key', async () => {
    const path = upload();
    const big = await expectingExchange(h.url, path, form(), multipart('big.txt', 24 * MiB));
    assert.deepEqual(
      { continued: big.continued, status: big.status },
      { continued: false, status: 413 },
    );
    assert.match(big.text, /the upload is larger than 4194304 bytes/);
    const stranger = await expectingExchange(
      h.url,
      path,
      form('not-a-key'),
      multipart('a.txt', 10),
    );
    assert.deepEqual(
      { continued: stranger.continued, status: stranger.status },
      { continued: false, status: 401 },
    );
    assert.deepEqual(await h.api.sources.list(bot), []);
  });

  it('is told to go on when its body is read, and answered', async () => {
    const path = upload();
    const small = await expectingExchange(h.url, path, form(), multipart('notes.txt', 2048));
    assert.deepEqual(
      { continued: small.continued, sent: small.sent, status: small.status },
      { continued: true, sent: true, status: 200 },
    );
    const created = await expectingExchange(
      h.url,
      '/api/v1/chatbot/create',
      { Authorization: `Bearer ${ADMIN_KEY}`, 'Content-Type': 'application/json' },
      Buffer.from(JSON.stringify({ name: 'Told to go on' })),
    );
    assert.equal(created.continued, true);
    assert.match(created.text, /Told to go on/);
  });
});

describe('a body that stops arriving', () => {
  let h: Harness;
  const idleMs = bodyReading.idleMs;
  before(async () => {
    h = await startHarness();
    // A short pause stands for the half minute a stalled client is given.
    bodyReading.idleMs = 300;
  });
  after(async () => {
    bodyReading.idleMs = idleMs;
    await h.close();
  });

  // Without the pause it would be held for Node's five minutes: the timeout makes that a failure.
  it(
    'should be refused with 408 in the JSON error shape, not held until Node gives up',
    { timeout: 120_000 },
    async () => {
      const { hostname, port } = new URL(h.url);
      const answer = await new Promise<string>((resolve) => {
        const socket = connect(Number(port), hostname);
        let received = '';
        socket.on('data', (d) => {
          received += d;
        });
        socket.on('close', () => resolve(received));
        // A key, a declared length of 100 bytes, and nine of them.
        socket.write(
          `POST /api/v1/chatbot/create HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${ADMIN_KEY}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"name":`,
        );
      });
      assert.match(answer, /^HTTP\/1\.1 408 /);
      const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as unknown;
      assert.deepEqual(body, { error: { code: 'timeout', message: 'the body stopped arriving' } });
      assert.deepEqual(await h.api.chatbots.list(), []);
    },
  );
});

describe('a kept-alive connection a load balancer holds idle', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(() => h.close());

  // A balancer keeps its connections to the server for 60 s (nginx, AWS's load balancers): one
  // the server has just closed, reused, is an error the visitor sees (a 502). Node's own idle
  // limit is 5 s.
  it("should stay open past Node's 5 s idle limit, and say how long it stays", async () => {
    const { hostname, port } = new URL(h.url);
    const socket = connect(Number(port), hostname);
    let received = '';
    let closed = false;
    socket.on('data', (d) => {
      received += d;
    });
    socket.on('close', () => {
      closed = true;
    });
    const responses = () => [...received.matchAll(/HTTP\/1\.1 (\d+)/g)].map((m) => Number(m[1]));
    const ask = async (count: number) => {
      socket.write(
        `GET /api/v1/chatbots HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${ADMIN_KEY}\r\n\r\n`,
      );
      while (responses().length < count && !closed) await once(socket, 'data').catch(() => {});
    };
    try {
      await ask(1);
      assert.match(received, /\r\nkeep-alive: timeout=65\r\n/i);
      await new Promise((resolve) => setTimeout(resolve, 6000));
      assert.equal(closed, false, 'the server closed the idle connection');
      await ask(2);
      assert.deepEqual(responses(), [200, 200]);
    } finally {
      socket.destroy();
    }
  });
});
