// Scripted HTTP endpoints for the API module's tests. One handler serves both suites: Node tests
// mount it on a node:http server on 127.0.0.1, browser tests reach it through web-test-runner's
// dev server. Everything is under /fixture/.
//
//   /fixture/echo/<path>        answers 200 {request: {method, path, query, headers, body}}
//   /fixture/status/<code>      answers <code> with ?body= (raw) and ?retryAfter=
//   /fixture/flaky/<id>/<path>  fails ?fail=N times with ?status= (or drops the connection when
//                               status=drop), honouring ?retryAfter=, then echoes; /fixture/count/<id>
//   /fixture/slow?ms=           answers after ms
//   /fixture/drop               destroys the connection without an answer
//   /fixture/stream?plan=       streams a plan: base64url JSON {status, headers, contentType,
//                               chunks: [string | number[]], delayMs, endEarly}
//   /fixture/upload/<path>      reads a multipart upload and answers a Data source record

const attempts = new Map();

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
  try {
    if (kind === 'echo') return await echo(req, res, url, `/${parts.slice(2).join('/')}`);

    if (kind === 'status') {
      await readBody(req);
      const headers = {};
      const retryAfter = url.searchParams.get('retryAfter');
      if (retryAfter !== null) headers['retry-after'] = retryAfter;
      const body = url.searchParams.get('body') ?? '';
      res.writeHead(Number(parts[2]), {
        'content-type': body.startsWith('{') ? 'application/json' : 'text/plain',
        ...headers,
      });
      return res.end(body);
    }

    if (kind === 'flaky') {
      const id = parts[2];
      const count = (attempts.get(id) ?? 0) + 1;
      attempts.set(id, count);
      const fail = Number(url.searchParams.get('fail') ?? 1);
      if (count <= fail) {
        const status = url.searchParams.get('status') ?? '503';
        if (status === 'drop') return req.socket.destroy();
        await readBody(req);
        const headers = {};
        const retryAfter = url.searchParams.get('retryAfter');
        if (retryAfter !== null) headers['retry-after'] = retryAfter;
        return json(
          res,
          Number(status),
          { error: { code: 'flaky', message: `attempt ${count} fails` } },
          headers,
        );
      }
      return await echo(req, res, url, `/${parts.slice(3).join('/')}`);
    }

    if (kind === 'count') return json(res, 200, { attempts: attempts.get(parts[2]) ?? 0 });

    if (kind === 'slow') {
      await sleep(Number(url.searchParams.get('ms') ?? 1000));
      return json(res, 200, { slow: true });
    }

    if (kind === 'drop') return req.socket.destroy();

    if (kind === 'stream') {
      await readBody(req);
      const plan = JSON.parse(
        Buffer.from(url.searchParams.get('plan') ?? '', 'base64url').toString('utf8'),
      );
      const headers = {
        'content-type': plan.contentType ?? 'text/plain; charset=utf-8',
        ...plan.headers,
      };
      if (plan.endEarly) headers['content-length'] = '100000';
      res.writeHead(plan.status ?? 200, headers);
      res.flushHeaders();
      for (const chunk of plan.chunks ?? []) {
        if (plan.delayMs) await sleep(plan.delayMs);
        if (res.destroyed) return;
        res.write(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : Buffer.from(chunk));
      }
      if (plan.delayMs) await sleep(plan.delayMs);
      if (plan.endEarly) return req.socket.destroy();
      if (plan.hold) return; // never ends: for idle and abort tests
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
          path: `/${parts.slice(2).join('/')}`,
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
