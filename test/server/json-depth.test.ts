import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { jsonTooDeep } from '../../src/server/json-depth.js';
import { type Harness, startHarness } from './helpers.js';

interface ErrorBody {
  error: { code: string; message: string };
}

/** `[[[…]]]` nested `depth` levels deep, as a JSON text. */
const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

describe('deeply nested JSON bodies', () => {
  let h: Harness;
  let bot: string;
  let escalation: string;

  before(async () => {
    h = await startHarness();
    bot = (await h.api.chatbots.create({ name: 'Nested' })).uuid;
    escalation = (await h.api.agents.create(bot, { name: 'Human', type: 'human-escalation' })).uuid;
  });
  after(() => h.close());

  const post = (path: string, body: string) =>
    h.raw(path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });

  async function refusal(response: Response) {
    const body = (await response.json()) as ErrorBody;
    return { status: response.status, code: body.error.code, message: body.error.message };
  }

  // 3,000 levels was accepted and then broke the agents list for good; 5,000 and more answered 500.
  for (const depth of [40, 3000, 5000, 100_000]) {
    it(`should refuse monitored_messages nested ${depth} deep on agent create and update with a 400 naming it, and still list the agents`, async () => {
      const before = await h.api.agents.list(bot);
      const settings = `{"monitored_messages":${nested(depth)}}`;
      const created = await post(
        `/api/v1/chatbot/${bot}/agent/create`,
        `{"name":"Deep","type":"human-escalation","human_escalation_settings":${settings}}`,
      );
      const updated = await post(
        `/api/v1/agent/${escalation}/update`,
        `{"human_escalation_settings":${settings}}`,
      );
      for (const response of [created, updated]) {
        const { status, code, message } = await refusal(response);
        assert.equal(status, 400);
        assert.equal(code, 'invalid_input');
        assert.match(message, /human_escalation_settings\.monitored_messages/);
        assert.match(message, /nested more than 32 levels/);
      }
      const listed = await h.raw(`/api/v1/chatbot/${bot}/agents`);
      assert.equal(listed.status, 200);
      assert.deepEqual(await listed.json(), before);
    });
  }

  it('should name the body when the body itself is nested too deep', async () => {
    const response = await post('/api/v1/chatbot/create', nested(10_000));
    assert.deepEqual(await refusal(response), {
      status: 400,
      code: 'invalid_input',
      message: 'body[0][0][0]… is nested more than 32 levels deep',
    });
  });

  it('should refuse deep nesting on every JSON route, session data included', async () => {
    const deep = `{"a":${nested(50)}}`;
    for (const path of [
      '/api/v1/chatbot/create',
      `/api/v1/chatbot/${bot}/update`,
      `/api/v1/chatbot/${bot}/session/create`,
      `/api/v1/chatbot/${bot}/data-source/qa`,
      `/api/v1/chatbot/${bot}/source-tag/create`,
    ]) {
      const { status, message } = await refusal(await post(path, deep));
      assert.equal(status, 400, path);
      assert.match(message, /^a\[0\]\[0\]… is nested more than 32 levels deep$/, path);
    }
  });

  it('should store monitored messages that stay within their own shape, and read them back', async () => {
    const messages = ['call a human', { text: 'refund', channel: ['chat', 'mail'] }, 3, true];
    const response = await post(
      `/api/v1/agent/${escalation}/update`,
      JSON.stringify({ human_escalation_settings: { monitored_messages: messages } }),
    );
    assert.equal(response.status, 200);
    const listed = await h.api.agents.list(bot);
    const agent = listed.find((a) => a.uuid === escalation);
    assert.deepEqual(agent?.human_escalation_settings?.monitored_messages, messages);
  });

  it('should refuse a monitored message nested deeper than its own limit, naming the item', async () => {
    const response = await post(
      `/api/v1/agent/${escalation}/update`,
      JSON.stringify({
        human_escalation_settings: { monitored_messages: ['ok', [[[[[['x']]]]]]] },
      }),
    );
    const { status, message } = await refusal(response);
    assert.equal(status, 400);
    assert.match(message, /^human_escalation_settings\.monitored_messages\[1\] /);
  });
});

describe('jsonTooDeep', () => {
  it('should pass texts within the limit and invalid JSON alike', () => {
    assert.equal(jsonTooDeep('{"a":[1,{"b":[]}]}', 4), null);
    assert.equal(jsonTooDeep('{"a":[1,{"b":[]}]}', 3), 'a[1].b');
    assert.equal(jsonTooDeep('[[[', 3), null);
    assert.equal(jsonTooDeep('"[[[[[[[["', 2), null);
  });

  it('should name the path, reading keys with escapes and skipping brackets inside strings', () => {
    assert.equal(jsonTooDeep('{"a":{"b":{"c":1}}}', 2), 'a.b');
    assert.equal(jsonTooDeep('{"x\\"[":"[[[","list":[0,1,[[]]]}', 3), 'list[2][0]');
    assert.equal(jsonTooDeep('[{},[[]]]', 2), 'body[1][0]');
    assert.equal(jsonTooDeep('{"k":[[[[[[[1]]]]]]]}', 4), 'k[0][0]…');
  });
});
