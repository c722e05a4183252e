import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { ADMIN_KEY, type Harness, startHarness } from './helpers.js';
import { sqliteOnly } from './stores.js';

interface ErrorBody {
  error: { code: string; message: string };
}

describe('limits and shapes of bad input', () => {
  let h: Harness;
  let bot: string;

  before(async () => {
    h = await startHarness();
    bot = (await h.api.chatbots.create({ name: 'Limits' })).uuid;
  });
  after(() => h.close());

  const post = (path: string, body: BodyInit) =>
    h.raw(path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
  const postJson = (path: string, body: unknown) => post(path, JSON.stringify(body));

  /** Asserts a 400 in the JSON error shape, and returns its message. */
  async function refused(response: Response, label: string): Promise<string> {
    assert.equal(response.status, 400, label);
    const { error } = (await response.json()) as ErrorBody;
    assert.equal(typeof error.code, 'string', label);
    return error.message;
  }

  const upload = (file: Blob, filename: string, link?: string) => {
    const form = new FormData();
    form.append('file', file, filename);
    if (link !== undefined) form.append('reference_source_link', link);
    return h.raw(`/api/v1/chatbot/${bot}/data-source/upload`, { method: 'POST', body: form });
  };

  describe('a file upload of a data source', () => {
    it('should refuse a reference_source_link over 2000 characters as the JSON routes do', async () => {
      const link = `https://example.com/${'a'.repeat(2000)}`;
      const before = await h.api.sources.list(bot);
      const message = await refused(await upload(new Blob(['text']), 'a.txt', link), 'upload');
      const qa = await postJson(`/api/v1/chatbot/${bot}/data-source/qa`, {
        question: 'q',
        answer: 'a',
        reference_source_link: link,
      });
      assert.equal(message, await refused(qa, 'qa'));
      assert.equal(message, 'reference_source_link must be at most 2000 characters');
      assert.deepEqual(await h.api.sources.list(bot), before);
    });

    it('should refuse a file name over 255 characters, naming file', async () => {
      const before = await h.api.sources.list(bot);
      const long = `${'n'.repeat(252)}.txt`;
      const message = await refused(await upload(new Blob(['text']), long), long.length.toString());
      assert.equal(message, 'file name must be at most 255 characters');
      assert.deepEqual(await h.api.sources.list(bot), before);
    });

    it('should refuse two file parts, naming file', async () => {
      const before = await h.api.sources.list(bot);
      const form = new FormData();
      form.append('file', new Blob(['one']), 'one.txt');
      form.append('file', new Blob(['two']), 'two.txt');
      const response = await h.raw(`/api/v1/chatbot/${bot}/data-source/upload`, {
        method: 'POST',
        body: form,
      });
      const message = await refused(response, 'two files');
      assert.equal(message, 'file must be given once: one file per upload');
      assert.deepEqual(await h.api.sources.list(bot), before);
    });

    it('should say a text field sent twice, or a file sent as text, for what it is', async () => {
      const send = (form: FormData) =>
        h.raw(`/api/v1/chatbot/${bot}/data-source/upload`, { method: 'POST', body: form });
      const twice = new FormData();
      twice.append('file', new Blob(['one']), 'one.txt');
      twice.append('reference_source_link', 'https://example.com/a');
      twice.append('reference_source_link', 'https://example.com/b');
      assert.equal(
        await refused(await send(twice), 'two links'),
        'reference_source_link must be given once',
      );
      const asText = new FormData();
      asText.append('file', 'just a string');
      assert.equal(
        await refused(await send(asText), 'file as text'),
        'file must be a file part (with a filename), not a text field',
      );
    });

    it('should take a link of 2000 characters and a name of 255', async () => {
      const link = `https://example.com/${'a'.repeat(1980)}`;
      const name = `${'n'.repeat(251)}.txt`;
      const response = await upload(new Blob(['text']), name, link);
      assert.equal(response.status, 200);
      const source = (await response.json()) as { file_name: string };
      assert.equal(source.file_name, name);
      await h.server.idle();
    });
  });

  describe('rate_limit', () => {
    const bad = [
      [1, 1e308],
      [1e308, 1e308],
      [0.5, 1],
      [1, 2.5],
      [0, 10],
      [1_000_001, 60],
      [1, 31_536_001],
    ];

    it('should refuse fractions and numbers past a million messages or a year, on create and update', async () => {
      for (const rateLimit of bad) {
        const label = JSON.stringify(rateLimit);
        const created = await postJson('/api/v1/chatbot/create', {
          name: 'rl',
          rate_limit: rateLimit,
        });
        assert.match(await refused(created, label), /^rate_limit must be .*whole numbers/, label);
        const updated = await postJson(`/api/v1/chatbot/${bot}/update`, { rate_limit: rateLimit });
        assert.match(await refused(updated, label), /^rate_limit /, label);
      }
      assert.ok((await h.api.chatbots.list()).every((b) => b.name !== 'rl'));
      assert.deepEqual((await h.api.chatbots.get(bot)).meta.rate_limit, [20, 240]);
    });

    it('should take whole numbers up to a million messages in a year', async () => {
      const response = await postJson(`/api/v1/chatbot/${bot}/update`, {
        rate_limit: [1_000_000, 31_536_000],
      });
      assert.equal(response.status, 200);
      await postJson(`/api/v1/chatbot/${bot}/update`, { rate_limit: [20, 240] });
    });
  });

  describe('the encoding of a JSON body', () => {
    it('should refuse a body that is not UTF-8 instead of storing replacement characters', async () => {
      const latin1 = Buffer.from('{"name":"caf\xe9"}', 'latin1');
      const message = await refused(await post('/api/v1/chatbot/create', latin1), 'latin1');
      assert.equal(message, 'the body is not valid UTF-8');
      assert.ok((await h.api.chatbots.list()).every((b) => !b.name.startsWith('caf')));
    });

    it('should read a body that starts with a byte order mark', async () => {
      const response = await post('/api/v1/chatbot/create', '\ufeff{"name":"café"}');
      assert.equal(response.status, 200);
      assert.equal(((await response.json()) as { name: string }).name, 'café');
    });

    it('should refuse a string holding an unpaired surrogate, naming the member', async () => {
      for (const [path, body, names] of [
        ['/api/v1/chatbot/create', '{"name":"x\\ud800"}', 'name'],
        [
          '/api/v1/chatbot/create',
          '{"name":"x","rate_limit_message":"\\udc00"}',
          'rate_limit_message',
        ],
        [
          `/api/v1/chatbot/${bot}/agent/create`,
          '{"name":"a","type":"background","tags":[{"name":"\\ude00\\ud83d","color":"#123456"}]}',
          'tags[0].name',
        ],
      ] as const) {
        const message = await refused(await post(path, body), body);
        assert.ok(message.startsWith(`${names} holds an unpaired surrogate`), message);
      }
      const paired = await post('/api/v1/chatbot/create', '{"name":"smile \\ud83d\\ude00"}');
      assert.equal(((await paired.json()) as { name: string }).name, 'smile 😀');
    });
  });

  describe('allowed_origins', () => {
    it('should refuse a wildcard, naming the entry and saying to list each origin', async () => {
      for (const [origins, at] of [
        [['https://*.example'], 0],
        [['https://shop.example', 'http://*:8080'], 1],
      ] as const) {
        const response = await postJson('/api/v1/chatbot/create', {
          name: 'Wild',
          allowed_origins: origins,
        });
        const message = await refused(response, origins.join(' '));
        assert.ok(
          message.startsWith(
            `allowed_origins[${at}] ${JSON.stringify(origins[at])} is not an origin`,
          ),
          message,
        );
        assert.match(message, /wildcards are not supported; list each origin/);
      }
      assert.ok((await h.api.chatbots.list()).every((b) => b.name !== 'Wild'));
    });
  });

  describe('session data', () => {
    const create = (body: string) => post(`/api/v1/chatbot/${bot}/session/create`, body);
    /** A member of parsed JSON by its own name: `meta.__proto__` would read the prototype. */
    const own = (value: object, name: string) =>
      Object.getOwnPropertyDescriptor(value, name)?.value;

    it('should keep a member named __proto__ as any other member', async () => {
      const response = await create('{"__proto__": "kept", "plan": "pro"}');
      assert.equal(response.status, 200);
      const created = (await response.json()) as { uuid: string; meta: object };
      assert.equal(own(created.meta, '__proto__'), 'kept');
      assert.equal(own(created.meta, 'plan'), 'pro');
      const read = await h.raw(`/api/v1/session/${created.uuid}`);
      const { meta } = (await read.json()) as { meta: object };
      assert.deepEqual(Object.keys(meta), ['__proto__', 'plan']);
      assert.equal(own(meta, '__proto__'), 'kept');
    });

    it('should refuse a member name over 200 characters, naming it, and take one of 200', async () => {
      const sessions = await h.api.sessions.list(bot);
      const long = `${'k'.repeat(200)}x`;
      const message = await refused(await create(JSON.stringify({ [long]: 1 })), 'long name');
      assert.equal(
        message,
        `session data member name "${'k'.repeat(40)}…" must be at most 200 characters`,
      );
      assert.equal((await h.api.sessions.list(bot)).length, sessions.length);
      const fits = await create(JSON.stringify({ ['k'.repeat(200)]: 1 }));
      assert.equal(fits.status, 200);
      // Cut on characters: half an emoji is no character (a lone surrogate in the message).
      const emoji = `${'k'.repeat(39)}😀${'k'.repeat(200)}`;
      const cut = await refused(await create(JSON.stringify({ [emoji]: 1 })), 'emoji name');
      assert.equal(
        cut,
        `session data member name "${'k'.repeat(39)}😀…" must be at most 200 characters`,
      );
    });

    it('should refuse a number JSON cannot keep (1e400 reads as Infinity), naming it', async () => {
      assert.equal(
        await refused(await create('{"score": 1e400}'), 'infinite'),
        'score must be a finite number',
      );
    });
  });

  describe('agent type and human_escalation_settings', () => {
    it('should refuse a change of type on update, naming type, and take the type unchanged', async () => {
      const agent = await h.api.agents.create(bot, { name: 'Typed', type: 'user-facing' });
      const update = `/api/v1/agent/${agent.uuid}/update`;
      const message = await refused(
        await postJson(update, { name: 'Renamed', type: 'background' }),
        'type',
      );
      assert.equal(
        message,
        'type cannot be changed (the agent is user-facing): create an agent of that type instead',
      );
      assert.equal(
        await refused(await postJson(update, { type: 3 }), 'type 3'),
        'type must be a string',
      );
      // No type of that name exists to create instead.
      for (const type of ['User-Facing', '', 'nonsense']) {
        assert.match(
          await refused(await postJson(update, { type }), `type ${type}`),
          /^type must be one of user-facing, /,
        );
      }
      const same = await postJson(update, { name: 'Renamed', type: 'user-facing' });
      assert.equal(same.status, 200);
      const updated = (await same.json()) as { name: string; type: string };
      assert.deepEqual([updated.name, updated.type], ['Renamed', 'user-facing']);
    });

    it('should refuse malformed human_escalation_settings on any agent, and keep them only on human-escalation agents', async () => {
      const agent = await h.api.agents.create(bot, { name: 'Facing', type: 'user-facing' });
      const bad = { human_escalation_settings: { sound_enabled: 'loud' } };
      const names = 'human_escalation_settings.sound_enabled must be a boolean';
      assert.equal(
        await refused(await postJson(`/api/v1/agent/${agent.uuid}/update`, bad), 'update'),
        names,
      );
      const create = `/api/v1/chatbot/${bot}/agent/create`;
      const before = await h.api.agents.list(bot);
      for (const type of ['user-facing', 'human-escalation']) {
        const message = await refused(await postJson(create, { name: 'E', type, ...bad }), type);
        assert.equal(message, names);
      }
      assert.deepEqual(await h.api.agents.list(bot), before);

      const good = {
        human_escalation_settings: { human_requested_message: 'A person is coming.' },
      };
      const kept = await postJson(`/api/v1/agent/${agent.uuid}/update`, good);
      assert.equal(kept.status, 200);
      assert.equal('human_escalation_settings' in ((await kept.json()) as object), false);
    });
  });

  describe('agent tags and variables', () => {
    const tags = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ name: `t${i}`, color: '#123456' }));
    const variables = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `v${i}` }));

    it('should refuse more than 100 of either, naming the member', async () => {
      const create = `/api/v1/chatbot/${bot}/agent/create`;
      const before = await h.api.agents.list(bot);
      for (const [body, names] of [
        [{ name: 'a', type: 'background', tags: tags(101) }, 'tags'],
        [{ name: 'a', type: 'background', meta: { tags: tags(101) } }, 'meta.tags'],
        [{ name: 'a', type: 'user-facing', variables: variables(101) }, 'variables'],
      ] as const) {
        const message = await refused(await postJson(create, body), names);
        assert.equal(message, `${names} must have at most 100 items`);
      }
      assert.deepEqual(await h.api.agents.list(bot), before);

      const agent = await h.api.agents.create(bot, { name: 'b', type: 'background' });
      const update = `/api/v1/agent/${agent.uuid}/update`;
      for (const [body, names] of [
        [{ tags: tags(101) }, 'tags'],
        [{ variables: variables(101) }, 'variables'],
      ] as const) {
        const message = await refused(await postJson(update, body), names);
        assert.equal(message, `${names} must have at most 100 items`);
      }
    });

    it('should take 100 of each', async () => {
      const response = await postJson(`/api/v1/chatbot/${bot}/agent/create`, {
        name: 'full',
        type: 'background',
        tags: tags(100),
        variables: variables(100),
      });
      assert.equal(response.status, 200);
      const agent = (await response.json()) as { meta: { tags: unknown[] }; variables: unknown[] };
      assert.equal(agent.meta.tags.length, 100);
      assert.equal(agent.variables.length, 100);
    });
  });
});

describe('a rate_limit saved before it was bounded', sqliteOnly('writes the row in SQLite'), () => {
  const dir = mkdtempSync(join(tmpdir(), 'chatbot-rate-limit-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('should say its wait in Retry-After as a year at most, never Infinity', async () => {
    const db = join(dir, 'old.sqlite');
    const first = await startHarness({ db });
    const bot = await first.api.chatbots.create({ name: 'Old', rate_limit: [1, 60] });
    await first.close();
    const sqlite = new Database(db);
    sqlite
      .prepare(
        "UPDATE chatbots SET settings_json = json_set(settings_json, '$.rate_limit', json('[1,1e308]'))",
      )
      .run();
    sqlite.close();
    const h = await startHarness({ db });
    try {
      const session = await h.api.sessions.create(bot.uuid);
      await h.api.messages.send(session.uuid, 'one');
      const response = await h.raw(`/api/v1/session/${session.uuid}/message/non-stream`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ query: 'two' }),
      });
      assert.equal(response.status, 429);
      assert.equal(response.headers.get('retry-after'), '31536000');
    } finally {
      await h.close();
    }
  });
});

describe('a request Node refuses before the app sees it', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(() => h.close());

  /** The status line and body of a raw request, read until the server closes. */
  const exchange = (request: string) =>
    new Promise<{ head: string; body: string }>((resolve, reject) => {
      const { hostname, port } = new URL(h.url);
      const socket = connect(Number(port), hostname);
      let received = '';
      socket.on('data', (d) => {
        received += d;
      });
      socket.once('error', reject);
      socket.once('close', () => {
        const [head = '', body = ''] = received.split('\r\n\r\n');
        resolve({ head, body });
      });
      socket.write(request);
    });

  it('should answer a path over 16 KB with 431 in the JSON error shape, naming the path', async () => {
    const path = `/api/v1/chatbot/${'a'.repeat(17 * 1024)}`;
    const { head, body } = await exchange(
      `GET ${path} HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${ADMIN_KEY}\r\n\r\n`,
    );
    assert.match(head, /^HTTP\/1\.1 431 /);
    assert.match(head, /\r\ncontent-type: application\/json/i);
    assert.deepEqual(JSON.parse(body), {
      error: {
        code: 'too_large',
        message: "the request's path and headers are larger than 16384 bytes together",
      },
    });
  });

  it('should answer a request that is no HTTP with 400 in the JSON error shape', async () => {
    const { head, body } = await exchange('HELLO THERE\r\n\r\n');
    assert.match(head, /^HTTP\/1\.1 400 /);
    assert.equal((JSON.parse(body) as ErrorBody).error.code, 'bad_request');
  });
});
