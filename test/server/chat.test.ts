import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { decodeCitations, encodeCitations as encodeInBrowser } from '../../src/api/stream.js';
import type { Citation } from '../../src/api/types.js';
import { encodeJsonHeader } from '../../src/server/routes/messages.js';
import { ask, type Harness, startHarness, UUID } from './helpers.js';

const LONG_TEXT = Array.from(
  { length: 12 },
  (_, i) => `Fact ${i + 1}: the lighthouse keeper polishes lamp number ${i + 1} with great care.`,
).join(' ');

async function waitFor<T>(probe: () => Promise<T | undefined>): Promise<T> {
  for (let i = 0; i < 500; i++) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('condition never became true');
}

describe('the message stream', () => {
  let h: Harness;
  let bot: string;
  before(async () => {
    h = await startHarness({ streamDelayMs: 5 });
    bot = (await h.api.chatbots.create({ name: 'Stream' })).uuid;
    await h.api.sources.upload(
      bot,
      new Blob([`Café notes\n\nThe café serves crème brûlée 🍮 on Sundays. ${LONG_TEXT}`]),
      {
        fileName: 'cafe.txt',
      },
    );
    await h.server.idle();
  });
  after(() => h.close());

  it('answers plain UTF-8 text in several chunks with X-Message-Uuid and X-Citations', async () => {
    const session = await h.api.sessions.create(bot);
    const response = await h.raw(`/api/v1/session/${session.uuid}/message/stream`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ query: 'What does the café serve on Sundays?' }),
    });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'text/plain; charset=utf-8');
    assert.equal(response.headers.get('transfer-encoding'), 'chunked');
    const messageUuid = response.headers.get('x-message-uuid');
    assert.match(messageUuid ?? '', UUID);
    const citations = decodeCitations(response.headers.get('x-citations'));
    assert.equal(citations?.length, 1);
    assert.deepEqual(Object.keys(citations![0]!).sort(), [
      'data_source_uuid',
      'n',
      'title',
      'type',
    ]);
    assert.equal(citations![0]!.title, 'Café notes');

    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    let reads = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      reads++;
      text += decoder.decode(value, { stream: true });
    }
    text += decoder.decode();
    assert.ok(reads > 1, `expected several chunks, got ${reads}`);
    assert.match(text, /crème brûlée 🍮 on Sundays/);
    const [message] = await h.api.messages.list(session.uuid);
    assert.equal(message!.uuid, messageUuid);
    assert.equal(message!.response, text);
  });

  it('a client that disconnects stops the answer, and the partial answer is stored cut short', async () => {
    const session = await h.api.sessions.create(bot);
    const controller = new AbortController();
    const stream = await h.api.messages.stream(
      session.uuid,
      'What does the lighthouse keeper polish?',
      {
        signal: controller.signal,
      },
    );
    for await (const _piece of stream.text) {
      controller.abort();
    }
    const message = await waitFor(async () => (await h.api.messages.list(session.uuid))[0]);
    assert.equal(message.uuid, stream.messageUuid);
    assert.equal(message.finish_reason, 'length');
    const full = await h.api.messages.send(session.uuid, 'What does the lighthouse keeper polish?');
    assert.ok(
      message.response.length < full.response.length,
      'the stored answer should be partial',
    );
    assert.ok(full.response.startsWith(message.response));
  });

  it('encodes X-Citations as the client decodes them, non-ASCII titles included', () => {
    const uuid = '5f0c9a3e-2b1d-4c8e-9f7a-0d1e2f3a4b5c';
    const citations: Citation[] = [
      { n: 1, data_source_uuid: uuid, title: 'Crème brûlée — 食谱 🍮', type: 'file' },
      { n: 2, data_source_uuid: uuid, title: 'a?b>c', type: 'link', url: 'https://x.test/?q=ä' },
    ];
    assert.equal(encodeJsonHeader(citations), encodeInBrowser(citations));
    assert.deepEqual(decodeCitations(encodeJsonHeader(citations)), citations);
  });

  it('answers 404 in JSON, not a stream, for an unknown session', async () => {
    const response = await h.raw('/api/v1/session/nope/message/stream', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ query: 'hi' }),
    });
    assert.equal(response.status, 404);
    assert.match(response.headers.get('content-type') ?? '', /application\/json/);
  });
});

describe('the rate limit', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(() => h.close());

  it('answers 429 with Retry-After and the chatbot rate_limit_message after N messages in S seconds, per session', async () => {
    const bot = await h.api.chatbots.create({
      name: 'Limited',
      rate_limit: [2, 3600],
      rate_limit_message: 'Easy there!',
    });
    const session = await h.api.sessions.create(bot.uuid);
    await ask(h.api, session.uuid, 'one');
    await h.api.messages.send(session.uuid, 'two');
    const response = await h.raw(`/api/v1/session/${session.uuid}/message/stream`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ query: 'three' }),
    });
    assert.equal(response.status, 429);
    const retryAfter = Number(response.headers.get('retry-after'));
    assert.ok(
      Number.isInteger(retryAfter) && retryAfter > 0 && retryAfter <= 3600,
      `Retry-After ${retryAfter}`,
    );
    assert.deepEqual(await response.json(), {
      error: { code: 'rate_limited', message: 'Easy there!' },
    });
    await assert.rejects(h.api.messages.send(session.uuid, 'four'), { status: 429 });
    assert.equal((await h.api.messages.list(session.uuid)).length, 2);

    const fresh = await h.api.sessions.create(bot.uuid);
    assert.ok((await ask(h.api, fresh.uuid, 'hello')).text.length > 0);
  });
});

interface FakeLlm {
  url: string;
  requests: Array<Record<string, unknown> & { messages: Array<{ role: string; content: string }> }>;
  headers: IncomingMessage['headers'][];
  /** Resolves when a streamed completion is abandoned by the server. */
  abandoned: Promise<void>;
  mode: 'ok' | 'fail' | 'endless' | 'break';
  close(): Promise<void>;
}

/** An OpenAI-compatible chat-completions server on 127.0.0.1. */
async function fakeLlm(): Promise<FakeLlm> {
  let markAbandoned: () => void = () => {};
  const fake: FakeLlm = {
    url: '',
    requests: [],
    headers: [],
    abandoned: new Promise((resolve) => {
      markAbandoned = resolve;
    }),
    mode: 'ok',
    close: async () => {},
  };
  const server: Server = createServer(async (req, res) => {
    let body = '';
    for await (const part of req) body += part;
    if (req.url !== '/v1/chat/completions') {
      res.writeHead(404).end();
      return;
    }
    fake.requests.push(JSON.parse(body));
    fake.headers.push(req.headers);
    if (fake.mode === 'fail') {
      res.writeHead(500, { 'Content-Type': 'application/json' }).end('{"error":"overloaded"}');
      return;
    }
    res.writeHead(200, { 'Content-Type': 'text/event-stream' });
    const send = (content: string) =>
      res.write(`data: ${JSON.stringify({ choices: [{ delta: { content } }] })}\n\n`);
    if (fake.mode === 'break') {
      send('Alice talked ');
      setTimeout(() => res.destroy(), 20);
      return;
    }
    if (fake.mode === 'endless') {
      res.on('close', () => {
        if (!res.writableFinished) markAbandoned();
      });
      send('The keeper ');
      const timer = setInterval(() => send('keeps polishing '), 20);
      res.on('close', () => clearInterval(timer));
      return;
    }
    res.write(`data: ${JSON.stringify({ choices: [{ delta: { role: 'assistant' } }] })}\n\n`);
    for (const piece of ['Alice ', 'talked about ', 'pizza [1].']) send(piece);
    res.end('data: [DONE]\n\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  fake.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fake;
}

describe('answers through an OpenAI-compatible LLM', () => {
  let llm: FakeLlm;
  let h: Harness;
  let bot: string;
  let source: string;
  before(async () => {
    llm = await fakeLlm();
    h = await startHarness({ llm: { baseUrl: llm.url, apiKey: 'sk-test', model: 'test-model' } });
    bot = (await h.api.chatbots.create({ name: 'LLM' })).uuid;
    source = (
      await h.api.sources.upload(bot, new Blob(['Alice talked about pizza at lunch.']), {
        fileName: 'lunch.txt',
      })
    ).uuid;
    await h.server.idle();
    const [agent] = await h.api.agents.list(bot);
    await h.api.agents.update(agent!.uuid, { prompt: 'You are the lunch bot.', temperature: 0.3 });
  });
  after(async () => {
    await h.close();
    await llm.close();
  });

  it("streams the model's answer, sending the agent's prompt, model, temperature and the retrieved passages", async () => {
    llm.mode = 'ok';
    const session = await h.api.sessions.create(bot);
    const answer = await ask(h.api, session.uuid, 'What did Alice talk about?');
    assert.equal(answer.text, 'Alice talked about pizza [1].');
    assert.deepEqual(
      answer.citations?.map((c) => c.data_source_uuid),
      [source],
    );
    const request = llm.requests.at(-1)!;
    assert.equal(llm.headers.at(-1)!.authorization, 'Bearer sk-test');
    assert.equal(request.model, 'test-model');
    assert.equal(request.temperature, 0.3);
    assert.equal(request.stream, true);
    const system = request.messages[0]!;
    assert.equal(system.role, 'system');
    assert.match(system.content, /You are the lunch bot\./);
    assert.match(system.content, /\[1\] lunch\.txt|\[1\] Alice talked about pizza/);
    assert.match(system.content, /Alice talked about pizza at lunch\./);
    assert.deepEqual(request.messages.at(-1), {
      role: 'user',
      content: 'What did Alice talk about?',
    });
    const [message] = await h.api.messages.list(session.uuid);
    assert.equal(message!.response, 'Alice talked about pizza [1].');
    assert.equal(message!.finish_reason, 'stop');
    assert.equal(JSON.parse(message!.meta_json).rule, 'llm');
  });

  it('sends the earlier exchanges of the session as conversation history', async () => {
    llm.mode = 'ok';
    const session = await h.api.sessions.create(bot);
    await ask(h.api, session.uuid, 'What did Alice talk about?');
    await ask(h.api, session.uuid, 'And at what meal?');
    const request = llm.requests.at(-1)!;
    assert.deepEqual(
      request.messages.slice(1).map((m) => m.role),
      ['user', 'assistant', 'user'],
    );
    assert.equal(request.messages[1]!.content, 'What did Alice talk about?');
    assert.equal(request.messages[2]!.content, 'Alice talked about pizza [1].');
  });

  it('falls back to the passages, and records why, when the model fails before answering', async () => {
    llm.mode = 'fail';
    const session = await h.api.sessions.create(bot);
    const answer = await ask(h.api, session.uuid, 'What did Alice talk about?');
    assert.match(answer.text, /Alice talked about pizza at lunch\. \[1\]/);
    const [message] = await h.api.messages.list(session.uuid);
    assert.match(message!.error_message ?? '', /answered 500/);
  });

  it('keeps what the model said when it breaks off mid-answer, stored as cut short with the reason', async () => {
    llm.mode = 'break';
    const session = await h.api.sessions.create(bot);
    const answer = await ask(h.api, session.uuid, 'What did Alice talk about?');
    assert.equal(answer.text, 'Alice talked ');
    const [message] = await h.api.messages.list(session.uuid);
    assert.equal(message!.finish_reason, 'length');
    assert.match(message!.error_message ?? '', /broke off/);
  });

  it('a client that disconnects stops the model request and stores the partial answer', async () => {
    llm.mode = 'endless';
    const session = await h.api.sessions.create(bot);
    const controller = new AbortController();
    const stream = await h.api.messages.stream(session.uuid, 'What did Alice talk about?', {
      signal: controller.signal,
    });
    let received = '';
    for await (const piece of stream.text) {
      received += piece;
      if (received.includes('polishing')) controller.abort();
    }
    await llm.abandoned;
    const message = await waitFor(async () => (await h.api.messages.list(session.uuid))[0]);
    assert.equal(message.finish_reason, 'length');
    assert.match(message.response, /^The keeper (keeps polishing )+/);
  });
});
