// Scripted HTTP endpoints for the API module's tests. One handler serves both suites: Node tests
// mount it on a node:http server on 127.0.0.1, browser tests reach it through web-test-runner's
// dev server. Everything is under /fixture/.
//
// The client appends fixed API paths to its base URL, so a scripted endpoint takes its options
// from a path segment: /fixture/<kind>/<base64url JSON options>/<the API path>.
//
//   echo/<path>                  200 {request: {method, path, query, headers, body}}
//   status/<opts>/<path>         answers opts.status with opts.body (raw) and opts.retryAfter
//   flaky/<opts>/<path>          fails opts.fail times with opts.status ('drop' drops the
//                                connection) and opts.retryAfter, then echoes; count of attempts
//                                per opts.id at count/<id> (with `closed`: whether a stream
//                                with that id was closed)
//   slow/<opts>/<path>           answers after opts.ms
//   drop/<opts>/<path>           destroys the connection without an answer
//   stream/<opts>/<path>         streams {status, headers, contentType, chunks: [string | bytes[]],
//                                delayMs, endEarly (cut mid-body), hold (never ends)}
//   upload/<path>                reads a multipart upload and answers a Data source record

const attempts = new Map();
/** Ids of streams whose connection the client closed. */
const closed = new Set();

function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function json(res, status, value, headers = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(value));
}

const retryAfterHeader = (opts) =>
  opts.retryAfter === undefined ? {} : { 'retry-after': String(opts.retryAfter) };

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function echo(req, res, url, path) {
  const body = await readBody(req);
  json(res, 200, {
    request: {
      method: req.method,
      path,
      query: Object.fromEntries(url.searchParams),
      headers: req.headers,
      body: body.length ? body.toString('utf8') : null,
    },
  });
}

export async function handleFixture(req, res) {
  const url = new URL(req.url, 'http://fixture.test');
  const parts = url.pathname.split('/').filter(Boolean); // ['fixture', kind, ...]
  const kind = parts[1];
  const withOptions = ['status', 'flaky', 'slow', 'drop', 'stream'].includes(kind);
  const opts = withOptions
    ? JSON.parse(Buffer.from(parts[2] ?? '', 'base64url').toString('utf8') || '{}')
    : {};
  const apiPath = `/${parts.slice(withOptions ? 3 : 2).join('/')}`;
  try {
    if (kind === 'echo') return await echo(req, res, url, apiPath);

    if (kind === 'status') {
      await readBody(req);
      const body = opts.body ?? '';
      res.writeHead(opts.status, {
        'content-type': body.startsWith('{') ? 'application/json' : 'text/plain',
        ...retryAfterHeader(opts),
      });
      return res.end(body);
    }

    if (kind === 'flaky') {
      const count = (attempts.get(opts.id) ?? 0) + 1;
      attempts.set(opts.id, count);
      if (count <= (opts.fail ?? 1)) {
        const status = opts.status ?? 503;
        if (status === 'drop') return req.socket.destroy();
        await readBody(req);
        const error = { error: { code: 'flaky', message: `attempt ${count} fails` } };
        return json(res, status, error, retryAfterHeader(opts));
      }
      if (opts.thenStatus) {
        await readBody(req);
        return json(res, opts.thenStatus, { error: { code: 'then', message: 'after failing' } });
      }
      return await echo(req, res, url, apiPath);
    }

    if (kind === 'count') {
      return json(res, 200, {
        attempts: attempts.get(parts[2]) ?? 0,
        closed: closed.has(parts[2]),
      });
    }

    if (kind === 'slow') {
      await sleep(opts.ms ?? 1000);
      return await echo(req, res, url, apiPath);
    }

    if (kind === 'drop') return req.socket.destroy();

    if (kind === 'stream') {
      await readBody(req);
      const headers = {
        'content-type': opts.contentType ?? 'text/plain; charset=utf-8',
        ...opts.headers,
      };
      if (opts.endEarly) headers['content-length'] = '100000';
      if (opts.id) res.on('close', () => closed.add(opts.id));
      res.writeHead(opts.status ?? 200, headers);
      res.flushHeaders();
      for (const chunk of opts.chunks ?? []) {
        if (opts.delayMs) await sleep(opts.delayMs);
        if (res.destroyed) return;
        res.write(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : Buffer.from(chunk));
      }
      if (opts.delayMs) await sleep(opts.delayMs);
      if (opts.endEarly) return req.socket.destroy();
      if (opts.hold) return; // never ends: for idle and abort tests
      return res.end();
    }

    if (kind === 'upload') {
      const body = await readBody(req);
      const text = body.toString('latin1');
      const fileName = /filename="([^"]*)"/.exec(text)?.[1] ?? '';
      const link = /name="reference_source_link"\r\n\r\n([^\r]*)/.exec(text)?.[1];
      return json(res, 200, {
        uuid: 'uploaded-1',
        title: fileName,
        type: 'file',
        status: 'await',
        file_name: fileName,
        file_size: body.length,
        tokens: 0,
        meta_json: JSON.stringify({ reference_source_link: link ?? null }),
        created_at: '2026-11-22T00:00:00Z',
        modified_at: '2026-11-22T00:00:00Z',
        received: {
          method: req.method,
          path: apiPath,
          authorization: req.headers.authorization,
          contentType: req.headers['content-type'],
        },
      });
    }

    json(res, 404, { error: { code: 'not_found', message: `no fixture ${url.pathname}` } });
  } catch (error) {
    if (!res.headersSent) json(res, 500, { error: { code: 'fixture', message: String(error) } });
    else res.destroy();
  }
}
