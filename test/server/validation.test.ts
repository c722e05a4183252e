import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Harness, startHarness } from './helpers.js';

interface BadCase {
  path: string;
  body: string;
  /** A word the error message must contain: the bad member's name. */
  names: string;
  status?: number;
}

describe('bad input', () => {
  let h: Harness;
  let ids: Record<string, string>;

  before(async () => {
    h = await startHarness();
    const bot = await h.api.chatbots.create({ name: 'Valid' });
    const agent = await h.api.agents.create(bot.uuid, { name: 'A', type: 'user-facing' });
    const escalation = await h.api.agents.create(bot.uuid, { name: 'H', type: 'human-escalation' });
    const source = await h.api.sources.createQa(bot.uuid, { question: 'Q?', answer: 'A.' });
    const tag = await h.api.tags.create(bot.uuid, { name: 'T', color: '#123456' });
    const session = await h.api.sessions.create(bot.uuid);
    await h.server.idle();
    ids = {
      bot: bot.uuid,
      agent: agent.uuid,
      escalation: escalation.uuid,
      source: source.uuid,
      tag: tag.uuid,
      session: session.uuid,
    };
  });
  after(() => h.close());

  /** Everything the user owns, to show a refused request changed nothing. */
  async function snapshot() {
    const bots = await h.api.chatbots.list();
    return Promise.all(
      bots.map(async (bot) => ({
        bot,
        agents: await h.api.agents.list(bot.uuid),
        sources: await h.api.sources.list(bot.uuid),
        tags: await h.api.tags.list(bot.uuid),
        sessions: await Promise.all(
          (await h.api.sessions.list(bot.uuid)).map(async (s) => ({
            s: await h.api.sessions.get(s.uuid),
            messages: await h.api.messages.list(s.uuid),
          })),
        ),
      })),
    );
  }

  const cases = (): BadCase[] => {
    const bot = `/api/v1/chatbot/${ids.bot}`;
    const j = JSON.stringify;
    return [
      { path: '/api/v1/chatbot/create', body: '{"name": ', names: 'JSON' },
      { path: '/api/v1/chatbot/create', body: '[]', names: 'object' },
      { path: '/api/v1/chatbot/create', body: j({}), names: 'name' },
      { path: '/api/v1/chatbot/create', body: j({ name: '  ' }), names: 'name' },
      { path: '/api/v1/chatbot/create', body: j({ name: 7 }), names: 'name' },
      {
        path: '/api/v1/chatbot/create',
        body: j({ name: 'x', rate_limit: [1] }),
        names: 'rate_limit',
      },
      {
        path: '/api/v1/chatbot/create',
        body: j({ name: 'x', rate_limit: ['a', 2] }),
        names: 'rate_limit',
      },
      {
        path: '/api/v1/chatbot/create',
        body: j({ name: 'x', show_citations: 'yes' }),
        names: 'show_citations',
      },
      {
        path: '/api/v1/chatbot/create',
        body: j({ name: 'x', rate_limit_message: 1 }),
        names: 'rate_limit_message',
      },
      {
        path: '/api/v1/chatbot/create',
        body: j({ name: 'x', visibility: false }),
        names: 'visibility',
      },
      { path: `${bot}/update`, body: j({ name: '' }), names: 'name' },
      { path: `${bot}/update`, body: j({ rate_limit: [0, 10] }), names: 'rate_limit' },
      { path: `${bot}/update`, body: j({ show_citations: 1 }), names: 'show_citations' },
      { path: `${bot}/agent/create`, body: j({ type: 'user-facing' }), names: 'name' },
      { path: `${bot}/agent/create`, body: j({ name: 'a' }), names: 'type' },
      { path: `${bot}/agent/create`, body: j({ name: 'a', type: 'robot' }), names: 'type' },
      {
        path: `${bot}/agent/create`,
        body: j({ name: 'a', type: 'user-facing', temperature: 2 }),
        names: 'temperature',
      },
      {
        path: `${bot}/agent/create`,
        body: j({ name: 'a', type: 'user-facing', meta: { temperature: -1 } }),
        names: 'meta.temperature',
      },
      {
        path: `${bot}/agent/create`,
        body: j({ name: 'a', type: 'user-facing', meta: 5 }),
        names: 'meta',
      },
      {
        path: `${bot}/agent/create`,
        body: j({ name: 'a', type: 'background', tags: [{ name: 't', color: 'red' }] }),
        names: 'tags[0].color',
      },
      {
        path: `${bot}/agent/create`,
        body: j({ name: 'a', type: 'background', meta: { tags: [{ name: 't', color: 'red' }] } }),
        names: 'meta.tags[0].color',
      },
      {
        path: `${bot}/agent/create`,
        body: j({ name: 'a', type: 'pre-canned', default_message: 3 }),
        names: 'default_message',
      },
      {
        path: `${bot}/agent/create`,
        body: j({ name: 'a', type: 'user-facing', data_source_uuids: ['x'] }),
        names: 'data_source_uuids[0]',
      },
      { path: `/api/v1/agent/${ids.agent}/update`, body: j({ enabled: 'yes' }), names: 'enabled' },
      { path: `/api/v1/agent/${ids.agent}/update`, body: j({ name: '' }), names: 'name' },
      {
        path: `/api/v1/agent/${ids.agent}/update`,
        body: j({ temperature: 1.5 }),
        names: 'temperature',
      },
      {
        path: `/api/v1/agent/${ids.agent}/update`,
        body: j({ use_all_sources: 'no' }),
        names: 'use_all_sources',
      },
      {
        path: `/api/v1/agent/${ids.agent}/update`,
        body: j({ data_source_uuids: 'x' }),
        names: 'data_source_uuids',
      },
      {
        path: `/api/v1/agent/${ids.agent}/update`,
        body: j({ data_source_uuids: ['not-a-source'] }),
        names: 'data_source_uuids[0]',
      },
      {
        path: `/api/v1/agent/${ids.agent}/update`,
        body: j({ variables: [{ description: 'no name' }] }),
        names: 'variables[0].name',
      },
      {
        path: `/api/v1/agent/${ids.agent}/update`,
        body: j({ name: 'ok', variables: 'x' }),
        names: 'variables',
      },
      {
        path: `/api/v1/agent/${ids.escalation}/update`,
        body: j({ human_escalation_settings: { sound_enabled: 'loud' } }),
        names: 'human_escalation_settings.sound_enabled',
      },
      { path: `${bot}/data-source/qa`, body: j({ answer: 'a' }), names: 'question' },
      { path: `${bot}/data-source/qa`, body: j({ question: 'q' }), names: 'answer' },
      {
        path: `${bot}/data-source/qa`,
        body: j({ question: 'q', answer: 'a', reference_source_link: 5 }),
        names: 'reference_source_link',
      },
      { path: `${bot}/data-source/url`, body: j({}), names: 'url' },
      { path: `${bot}/data-source/url`, body: j({ url: 'not a url' }), names: 'url' },
      { path: `${bot}/data-source/url`, body: j({ url: 'ftp://example.com/file' }), names: 'url' },
      { path: `/api/v1/data-source/${ids.source}/update`, body: j({}), names: 'title' },
      { path: `/api/v1/data-source/${ids.source}/update`, body: j({ title: 3 }), names: 'title' },
      { path: '/api/v1/data-sources/url/re-scrape', body: j({}), names: 'uuids' },
      { path: '/api/v1/data-sources/url/re-scrape', body: j({ uuids: [1] }), names: 'uuids[0]' },
      { path: '/api/data-sources/restart', body: j({ uuids: 'x' }), names: 'uuids' },
      { path: '/api/v1/data-sources/delete', body: j({}), names: 'uuids' },
      {
        path: '/api/v1/data-sources/delete',
        body: j({ uuids: [ids.source, 'missing'] }),
        names: 'data source',
        status: 404,
      },
      { path: `${bot}/source-tag/create`, body: j({ color: '#000000' }), names: 'name' },
      { path: `${bot}/source-tag/create`, body: j({ name: 'n' }), names: 'color' },
      { path: `${bot}/source-tag/create`, body: j({ name: 'n', color: 'blue' }), names: 'color' },
      {
        path: `${bot}/source-tag/create`,
        body: j({ name: 'n', color: '#000000', data_source_uuids: ['x'] }),
        names: 'data_source_uuids[0]',
      },
      { path: `/api/v1/source-tag/${ids.tag}/update`, body: j({ color: '#12' }), names: 'color' },
      {
        path: `/api/v1/source-tag/${ids.tag}/update`,
        body: j({ data_source_uuids: [null] }),
        names: 'data_source_uuids[0]',
      },
      { path: `${bot}/session/create`, body: j({ nested: { a: 1 } }), names: 'nested' },
      { path: `${bot}/session/create`, body: j({ list: [1] }), names: 'list' },
      { path: `${bot}/session/create`, body: j('text'), names: 'object' },
      { path: `/api/v1/session/${ids.session}/message/stream`, body: j({}), names: 'query' },
      {
        path: `/api/v1/session/${ids.session}/message/stream`,
        body: j({ query: '' }),
        names: 'query',
      },
      {
        path: `/api/v1/session/${ids.session}/message/stream`,
        body: j({ query: 42 }),
        names: 'query',
      },
      {
        path: `/api/v1/session/${ids.session}/message/non-stream`,
        body: j({ query: ['a'] }),
        names: 'query',
      },
      { path: '/api/v1/messages/delete', body: j({ uuids: 'x' }), names: 'uuids' },
    ];
  };

  it('every body-taking endpoint answers a 4xx JSON error naming the bad member, and changes nothing', async () => {
    const before = await snapshot();
    for (const bad of cases()) {
      const response = await h.raw(bad.path, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: bad.body,
      });
      const label = `${bad.path} ${bad.body}`;
      assert.equal(response.status, bad.status ?? 400, label);
      const body = (await response.json()) as { error: { code: string; message: string } };
      assert.equal(typeof body.error.code, 'string', label);
      assert.ok(
        body.error.message.includes(bad.names),
        `${label}: "${body.error.message}" should name ${bad.names}`,
      );
    }
    assert.deepEqual(await snapshot(), before);
  });

  it('a JSON body over 1 MiB answers 413', async () => {
    const response = await h.raw('/api/v1/chatbot/create', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'big', rate_limit_message: 'x'.repeat(1024 * 1024) }),
    });
    assert.equal(response.status, 413);
    assert.equal(((await response.json()) as { error: { code: string } }).error.code, 'too_large');
  });

  it('an upload without a file part, or not multipart, answers 400 naming file', async () => {
    const form = new FormData();
    form.append('reference_source_link', 'https://example.com');
    const noFile = await h.raw(`/api/v1/chatbot/${ids.bot}/data-source/upload`, {
      method: 'POST',
      body: form,
    });
    assert.equal(noFile.status, 400);
    assert.match(((await noFile.json()) as { error: { message: string } }).error.message, /file/);
    const json = await h.raw(`/api/v1/chatbot/${ids.bot}/data-source/upload`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    });
    assert.equal(json.status, 400);
  });

  it('an upload whose text field or file name is not UTF-8 answers 400 naming it, and stores nothing', async () => {
    const before = await h.api.sources.list(ids.bot!);
    const upload = (field: Uint8Array, fileName: Uint8Array) => {
      const b = 'x-boundary-7';
      const text = (t: string) => new TextEncoder().encode(t);
      const body = Buffer.concat([
        text(`--${b}\r\nContent-Disposition: form-data; name="reference_source_link"\r\n\r\n`),
        field,
        text(`\r\n--${b}\r\nContent-Disposition: form-data; name="file"; filename="`),
        fileName,
        text('"\r\nContent-Type: text/plain\r\n\r\nOpening hours are nine to five.\r\n'),
        text(`--${b}--\r\n`),
      ]);
      return h.raw(`/api/v1/chatbot/${ids.bot}/data-source/upload`, {
        method: 'POST',
        headers: { 'Content-Type': `multipart/form-data; boundary=${b}` },
        body,
      });
    };
    const utf8 = (t: string) => new TextEncoder().encode(t);
    // "café" in Latin-1: 0xE9 alone is no UTF-8.
    const latin1 = new Uint8Array([0x63, 0x61, 0x66, 0xe9]);
    for (const [response, message] of [
      [await upload(latin1, utf8('hours.txt')), 'reference_source_link is not valid UTF-8'],
      [await upload(utf8('https://example.com'), latin1), 'the file name is not valid UTF-8'],
    ] as const) {
      assert.equal(response.status, 400);
      assert.equal(
        ((await response.json()) as { error: { message: string } }).error.message,
        message,
      );
    }
    assert.deepEqual(await h.api.sources.list(ids.bot!), before);
    // U+FFFD sent as UTF-8 is text like any other.
    const kept = await upload(utf8('https://example.com/\uFFFD'), utf8('h\uFFFDurs.txt'));
    assert.equal(kept.status, 200);
    const source = (await kept.json()) as { file_name: string; uuid: string };
    assert.equal(source.file_name, 'h\uFFFDurs.txt');
    await h.api.sources.delete(source.uuid);
  });

  it('an upload of a type the server does not take answers 415 "file type not allowed"', async () => {
    const before = await h.api.sources.list(ids.bot!);
    const response = await h.raw(`/api/v1/chatbot/${ids.bot}/data-source/upload`, {
      method: 'POST',
      body: (() => {
        const form = new FormData();
        form.append('file', new Blob([new Uint8Array([0x4d, 0x5a])]), 'setup.exe');
        return form;
      })(),
    });
    assert.equal(response.status, 415);
    const body = (await response.json()) as { error: { code: string; message: string } };
    assert.match(body.error.message, /file type not allowed/);
    assert.deepEqual(await h.api.sources.list(ids.bot!), before);
  });

  it('the 415 lists every extension an upload is taken with, and only those', async () => {
    const upload = (name: string) => {
      const form = new FormData();
      form.append('file', new Blob(['Opening hours are nine to five.']), name);
      return h.raw(`/api/v1/chatbot/${ids.bot}/data-source/upload`, { method: 'POST', body: form });
    };
    const refused = await upload('setup.exe');
    const { message } = ((await refused.json()) as { error: { message: string } }).error;
    const listed = /\(allowed: (.*)\)$/.exec(message)![1]!.split(', ');
    assert.ok(listed.includes('.text'), message);
    for (const extension of listed) {
      const response = await upload(`notes${extension}`);
      assert.notEqual(response.status, 415, `notes${extension} is listed but refused`);
      await response.body?.cancel();
    }
  });
});

describe('the upload limit', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ uploadLimitBytes: 1000 });
  });
  after(() => h.close());

  it('an upload over the limit answers 413 and creates nothing', async () => {
    const bot = await h.api.chatbots.create({ name: 'Small' });
    const form = new FormData();
    form.append('file', new Blob(['x'.repeat(5000)]), 'big.txt');
    const response = await h.raw(`/api/v1/chatbot/${bot.uuid}/data-source/upload`, {
      method: 'POST',
      body: form,
    });
    assert.equal(response.status, 413);
    assert.deepEqual(await h.api.sources.list(bot.uuid), []);
  });
});
