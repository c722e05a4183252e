import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiError, type ChatbotClient, createClient } from '../../src/api/index.js';
import { collect, fixtureBase } from './fixture-url.js';
import { client, type Echo, KEY, origin, rejection, useFixtureServer } from './helpers.js';

useFixtureServer();

describe('createClient', () => {
  it('refuses to start without a base URL or a key, saying which is missing', () => {
    assert.throws(() => createClient({ baseUrl: '', apiKey: 'k' }), /needs a baseUrl/);
    assert.throws(() => createClient({ baseUrl: 'http://x' }), /needs an apiKey or a getToken/);
  });

  it('refuses a base URL with another scheme than http(s), such as a host with no scheme', () => {
    for (const baseUrl of ['localhost:8787', 'ftp://example.com', 'javascript:alert(1)']) {
      assert.throws(
        () => createClient({ baseUrl, apiKey: 'k' }),
        /baseUrl must be an http\(s\) address/,
        baseUrl,
      );
    }
    // A path on the page's own origin is for browsers to resolve; Node's fetch refuses it itself.
    assert.doesNotThrow(() => createClient({ baseUrl: '/chatbot', apiKey: 'k' }));
  });

  it('accepts a base URL with a trailing slash or /api/v1 and calls the same paths', async () => {
    for (const suffix of ['/', '/api/v1', '/api/v1/']) {
      const result = (await client(
        fixtureBase(origin, 'echo') + suffix,
      ).chatbots.list()) as unknown as Echo;
      assert.equal(result.request.path, '/api/v1/chatbots');
    }
  });
});

describe('every endpoint sends its method, path, headers and body', () => {
  type Case = [string, (c: ChatbotClient) => Promise<unknown>, string, string, unknown];
  const cases: Case[] = [
    ['chatbots.list', (c) => c.chatbots.list(), 'GET', '/api/v1/chatbots', null],
    ['chatbots.get', (c) => c.chatbots.get('cb1'), 'GET', '/api/v1/chatbot/cb1', null],
    [
      'chatbots.create',
      (c) => c.chatbots.create({ name: 'Help desk', rate_limit: [5, 60], show_citations: true }),
      'POST',
      '/api/v1/chatbot/create',
      { name: 'Help desk', rate_limit: [5, 60], show_citations: true },
    ],
    [
      'chatbots.update',
      (c) => c.chatbots.update('cb1', { rate_limit_message: 'Slow down' }),
      'POST',
      '/api/v1/chatbot/cb1/update',
      { rate_limit_message: 'Slow down' },
    ],
    [
      'chatbots.delete',
      (c) => c.chatbots.delete('cb1'),
      'DELETE',
      '/api/v1/chatbot/cb1/delete',
      null,
    ],
    ['agents.list', (c) => c.agents.list('cb1'), 'GET', '/api/v1/chatbot/cb1/agents', null],
    [
      'agents.create',
      (c) => c.agents.create('cb1', { name: 'Guide', type: 'user-facing', temperature: 0.2 }),
      'POST',
      '/api/v1/chatbot/cb1/agent/create',
      { name: 'Guide', type: 'user-facing', temperature: 0.2 },
    ],
    [
      'agents.update',
      (c) => c.agents.update('a1', { enabled: true, data_source_uuids: ['s1'] }),
      'POST',
      '/api/v1/agent/a1/update',
      { enabled: true, data_source_uuids: ['s1'] },
    ],
    ['agents.delete', (c) => c.agents.delete('a1'), 'POST', '/api/v1/agent/a1/delete', null],
    ['sources.list', (c) => c.sources.list('cb1'), 'GET', '/api/v1/chatbot/cb1/data-sources', null],
    [
      'sources.createQa',
      (c) =>
        c.sources.createQa('cb1', {
          question: 'Opening hours?',
          answer: '9 to 5',
          reference_source_link: 'https://example.com/hours',
        }),
      'POST',
      '/api/v1/chatbot/cb1/data-source/qa',
      {
        question: 'Opening hours?',
        answer: '9 to 5',
        reference_source_link: 'https://example.com/hours',
      },
    ],
    [
      'sources.createUrl',
      (c) => c.sources.createUrl('cb1', { url: 'https://example.com/faq' }),
      'POST',
      '/api/v1/chatbot/cb1/data-source/url',
      { url: 'https://example.com/faq' },
    ],
    [
      'sources.update',
      (c) => c.sources.update('s1', { title: 'FAQ' }),
      'POST',
      '/api/v1/data-source/s1/update',
      { title: 'FAQ' },
    ],
    [
      'sources.rescrape',
      (c) => c.sources.rescrape(['s1', 's2']),
      'POST',
      '/api/v1/data-sources/url/re-scrape',
      { uuids: ['s1', 's2'] },
    ],
    [
      'sources.restart',
      (c) => c.sources.restart(['s1']),
      'POST',
      '/api/data-sources/restart',
      { uuids: ['s1'] },
    ],
    [
      'sources.delete',
      (c) => c.sources.delete('s1'),
      'POST',
      '/api/v1/data-source/s1/delete',
      null,
    ],
    [
      'sources.deleteMany',
      (c) => c.sources.deleteMany(['s1', 's2']),
      'POST',
      '/api/v1/data-sources/delete',
      { uuids: ['s1', 's2'] },
    ],
    ['tags.list', (c) => c.tags.list('cb1'), 'GET', '/api/v1/chatbot/cb1/source-tags', null],
    [
      'tags.create',
      (c) => c.tags.create('cb1', { name: 'Billing', color: '#FF8800', data_source_uuids: ['s1'] }),
      'POST',
      '/api/v1/chatbot/cb1/source-tag/create',
      { name: 'Billing', color: '#FF8800', data_source_uuids: ['s1'] },
    ],
    [
      'tags.update',
      (c) => c.tags.update('t1', { color: '#000000' }),
      'POST',
      '/api/v1/source-tag/t1/update',
      { color: '#000000' },
    ],
    ['tags.delete', (c) => c.tags.delete('t1'), 'POST', '/api/v1/source-tag/t1/delete', null],
    [
      'sessions.create with data',
      (c) => c.sessions.create('cb1', { page: 'pricing', visits: 3 }),
      'POST',
      '/api/v1/chatbot/cb1/session/create',
      { page: 'pricing', visits: 3 },
    ],
    ['sessions.get', (c) => c.sessions.get('se1'), 'GET', '/api/v1/session/se1', null],
    ['sessions.list', (c) => c.sessions.list('cb1'), 'GET', '/api/v1/chatbot/cb1/sessions', null],
    [
      'sessions.delete',
      (c) => c.sessions.delete('se1'),
      'POST',
      '/api/v1/session/se1/delete',
      null,
    ],
    ['messages.list', (c) => c.messages.list('se1'), 'GET', '/api/v1/session/se1/messages', null],
    [
      'messages.send',
      (c) => c.messages.send('se1', 'Hi there'),
      'POST',
      '/api/v1/session/se1/message/non-stream',
      { query: 'Hi there' },
    ],
    ['messages.delete', (c) => c.messages.delete('m1'), 'POST', '/api/v1/message/m1/delete', null],
    [
      'messages.deleteMany',
      (c) => c.messages.deleteMany(['m1']),
      'POST',
      '/api/v1/messages/delete',
      { uuids: ['m1'] },
    ],
    [
      'messages.feedback',
      (c) => c.messages.feedback('m1', { rating: 'down', reason: 'wrong', comment: 'Old hours' }),
      'POST',
      '/api/v1/message/m1/feedback',
      { rating: 'down', reason: 'wrong', comment: 'Old hours' },
    ],
    [
      'review.messages',
      (c) => c.review.messages('cb1'),
      'GET',
      '/api/v1/chatbot/cb1/messages',
      null,
    ],
    [
      'review.conversations',
      (c) => c.review.conversations('cb1'),
      'GET',
      '/api/v1/chatbot/cb1/conversations',
      null,
    ],
    [
      'review.insights',
      (c) => c.review.insights('cb1'),
      'GET',
      '/api/v1/chatbot/cb1/insights',
      null,
    ],
  ];

  for (const [name, call, method, path, body] of cases) {
    it(`${name} sends ${method} ${path}${body ? ' with a JSON body' : ''} and returns the parsed answer`, async () => {
      const result = (await call(client(fixtureBase(origin, 'echo')))) as Echo;
      const { request } = result;
      assert.equal(request.method, method);
      assert.equal(request.path, path);
      assert.equal(request.headers.authorization, `Bearer ${KEY}`);
      assert.equal(request.headers.accept, 'application/json');
      if (body === null) {
        assert.equal(request.body, null);
        assert.equal(request.headers['content-type'], undefined);
      } else {
        assert.equal(request.headers['content-type'], 'application/json');
        assert.deepEqual(JSON.parse(request.body ?? ''), body);
      }
    });
  }

  it('sessions.uploadDocument posts multipart with the file and its filename, and reports completion', async () => {
    const progress: number[] = [];
    const result = (await client(fixtureBase(origin, 'echo')).sessions.uploadDocument(
      new Blob(['Order 4711: two loaves.'], { type: 'text/plain' }),
      { filename: 'order.txt', onProgress: ({ loaded }) => progress.push(loaded) },
    )) as unknown as Echo;
    const { request } = result;
    assert.equal(request.method, 'POST');
    assert.equal(request.path, '/api/v1/session-document/upload');
    assert.match(request.headers['content-type'] ?? '', /^multipart\/form-data; boundary=/);
    assert.match(
      request.body ?? '',
      /name="file"; filename="order.txt"[\s\S]*Order 4711: two loaves\./,
    );
    assert.match(request.body ?? '', /name="filename"\r\n\r\norder\.txt\r\n/);
    assert.deepEqual(progress, [23]);
  });

  it('a message with documents sends their uuids as session_document_uuids, on both endpoints', async () => {
    const c = client(fixtureBase(origin, 'echo'));
    const sent = (await c.messages.send('se1', 'What did I order?', {
      sessionDocumentUuids: ['d1', 'd2'],
    })) as unknown as Echo;
    assert.deepEqual(JSON.parse(sent.request.body ?? ''), {
      query: 'What did I order?',
      session_document_uuids: ['d1', 'd2'],
    });
    const stream = await c.messages.stream('se1', 'And when?', { sessionDocumentUuids: ['d1'] });
    let text = '';
    for await (const piece of stream.text) text += piece;
    assert.deepEqual(JSON.parse((JSON.parse(text) as Echo).request.body ?? ''), {
      query: 'And when?',
      session_document_uuids: ['d1'],
    });
    const plain = (await c.messages.send('se1', 'Hi', {
      sessionDocumentUuids: [],
    })) as unknown as Echo;
    assert.deepEqual(JSON.parse(plain.request.body ?? ''), { query: 'Hi' });
  });

  it('review calls send their filters as query parameters, leaving out what is unset', async () => {
    const c = client(fixtureBase(origin, 'echo'));
    const { request } = (await c.review.messages('cb1', {
      q: 'opening hours',
      rating: 'down',
      covered: false,
      from: '2026-11-01',
      to: undefined,
      cursor: 'abc',
      limit: 20,
    })) as unknown as Echo & { request: { query: Record<string, string> } };
    assert.deepEqual(request.query, {
      q: 'opening hours',
      rating: 'down',
      covered: 'false',
      from: '2026-11-01',
      cursor: 'abc',
      limit: '20',
    });
  });

  it('review.export resolves with the streamed response, its filters and the format in the query', async () => {
    const response = await client(fixtureBase(origin, 'echo')).review.export('cb1', {
      format: 'csv',
      rating: 'up',
    });
    const { request } = (await response.json()) as Echo & {
      request: { query: Record<string, string> };
    };
    assert.equal(request.path, '/api/v1/chatbot/cb1/messages/export');
    assert.deepEqual(request.query, { format: 'csv', rating: 'up' });
    assert.equal(request.headers.accept, 'text/csv');
  });

  it('sessions.create without data sends a bare POST with no body and no Content-Type', async () => {
    const { request } = (await client(fixtureBase(origin, 'echo')).sessions.create(
      'cb1',
    )) as unknown as Echo;
    assert.equal(request.method, 'POST');
    assert.equal(request.path, '/api/v1/chatbot/cb1/session/create');
    assert.equal(request.body, null);
    assert.equal(request.headers['content-type'], undefined);
  });

  it('escapes uuids in paths so a crafted id cannot reach another endpoint', async () => {
    const { request } = (await client(fixtureBase(origin, 'echo')).chatbots.get(
      '../../x?y',
    )) as unknown as Echo;
    assert.equal(request.path, '/api/v1/chatbot/..%2F..%2Fx%3Fy');
  });

  it('messages.stream posts the query as JSON and accepts plain text or SSE', async () => {
    const stream = await client(fixtureBase(origin, 'echo')).messages.stream('se1', 'Héllo');
    const { request } = JSON.parse((await collect(stream.text)).join('')) as Echo;
    assert.equal(request.method, 'POST');
    assert.equal(request.path, '/api/v1/session/se1/message/stream');
    assert.equal(request.headers.authorization, `Bearer ${KEY}`);
    assert.equal(request.headers['content-type'], 'application/json');
    assert.equal(request.headers.accept, 'text/plain, text/event-stream');
    assert.deepEqual(JSON.parse(request.body ?? ''), { query: 'Héllo' });
  });

  it('sources.upload sends multipart with the file and reference_source_link, and reports completion', async () => {
    const progress: Array<{ loaded: number; total: number }> = [];
    const file = new File(['# Returns\nWithin 30 days.'], 'returns.md', { type: 'text/markdown' });
    const record = (await client(fixtureBase(origin, 'upload')).sources.upload('cb1', file, {
      referenceSourceLink: 'https://example.com/returns',
      onProgress: (p) => progress.push(p),
    })) as unknown as { file_name: string; meta_json: string; received: Record<string, string> };
    assert.equal(record.received.method, 'POST');
    assert.equal(record.received.path, '/api/v1/chatbot/cb1/data-source/upload');
    assert.equal(record.received.authorization, `Bearer ${KEY}`);
    assert.match(record.received.contentType, /^multipart\/form-data; boundary=/);
    assert.equal(record.file_name, 'returns.md');
    assert.equal(JSON.parse(record.meta_json).reference_source_link, 'https://example.com/returns');
    assert.deepEqual(progress, [{ loaded: file.size, total: file.size }]);
  });
});

describe('responses', () => {
  it('returns records exactly as the server sent them, field names and 0/1 integers included', async () => {
    const agent = {
      uuid: 'a1',
      name: 'Guide',
      type: 'user-facing',
      description: '',
      prompt: '',
      enabled: 0,
      meta: { model: 'gpt-4o-mini', temperature: 0.3, use_all_sources: true },
      variables: [],
      created_at: '2026-11-22T10:00:00Z',
      modified_at: '2026-11-22T10:00:00Z',
    };
    const base = fixtureBase(origin, 'status', { status: 200, body: JSON.stringify(agent) });
    assert.deepEqual(
      await client(base).agents.create('cb1', { name: 'Guide', type: 'user-facing' }),
      agent,
    );
  });

  it('a success answer that is not JSON is an ApiError saying so', async () => {
    const base = fixtureBase(origin, 'status', { status: 200, body: '<html>portal</html>' });
    const error = await rejection(client(base).chatbots.list());
    assert.ok(error instanceof ApiError);
    assert.equal(error.code, 'invalid_response');
    assert.match(
      error.message,
      /GET \/api\/v1\/chatbots failed with 200: the response is not JSON/,
    );
  });
});
