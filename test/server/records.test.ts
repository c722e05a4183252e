import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Agent } from '../../src/api/types.js';
import {
  ask,
  type Harness,
  keys,
  MESSAGE_KEYS,
  settled,
  startHarness,
  TIMESTAMP,
  UUID,
} from './helpers.js';

const CHATBOT_KEYS = ['created_at', 'meta', 'modified_at', 'name', 'uuid'];
const SOURCE_KEYS = [
  'created_at',
  'file_name',
  'file_size',
  'meta_json',
  'modified_at',
  'status',
  'title',
  'tokens',
  'type',
  'uuid',
];
describe('record shapes', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(() => h.close());

  describe('chatbots', () => {
    it('create answers the chatbot record with the default rate limit [20, 240]', async () => {
      const bot = await h.api.chatbots.create({ name: 'Shop' });
      assert.deepEqual(keys(bot), CHATBOT_KEYS);
      assert.match(bot.uuid, UUID);
      assert.match(bot.created_at, TIMESTAMP);
      assert.match(bot.modified_at, TIMESTAMP);
      assert.equal(bot.name, 'Shop');
      assert.deepEqual(keys(bot.meta), [
        'rate_limit',
        'rate_limit_message',
        'show_citations',
        'visibility',
      ]);
      assert.deepEqual(bot.meta.rate_limit, [20, 240]);
      assert.equal(typeof bot.meta.rate_limit_message, 'string');
      assert.equal(bot.meta.show_citations, true);
      assert.equal(bot.meta.visibility, 'private');
    });

    it('create stores the given settings', async () => {
      const bot = await h.api.chatbots.create({
        name: 'Custom',
        rate_limit: [5, 60],
        rate_limit_message: 'Slow down',
        show_citations: false,
        visibility: 'private',
      });
      assert.deepEqual(bot.meta, {
        rate_limit: [5, 60],
        rate_limit_message: 'Slow down',
        show_citations: false,
        visibility: 'private',
      });
    });

    it('get, list and update answer chatbot records; update changes only what it is given', async () => {
      const bot = await h.api.chatbots.create({ name: 'Before' });
      assert.deepEqual(await h.api.chatbots.get(bot.uuid), bot);
      const listed = await h.api.chatbots.list();
      assert.ok(listed.some((b) => b.uuid === bot.uuid));
      for (const b of listed) assert.deepEqual(keys(b), CHATBOT_KEYS);
      const updated = await h.api.chatbots.update(bot.uuid, { name: 'After', rate_limit: [3, 30] });
      assert.equal(updated.name, 'After');
      assert.deepEqual(updated.meta.rate_limit, [3, 30]);
      assert.equal(updated.meta.rate_limit_message, bot.meta.rate_limit_message);
      assert.equal(updated.created_at, bot.created_at);
      assert.deepEqual(await h.api.chatbots.get(bot.uuid), updated);
    });

    it('of several deletes of one chatbot, agent, tag, source or session at once, one succeeds and the others answer 404', async () => {
      const bot = await h.api.chatbots.create({ name: 'Deleted twice' });
      const agent = await h.api.agents.create(bot.uuid, { name: 'a', type: 'user-facing' });
      const tag = await h.api.tags.create(bot.uuid, { name: 't', color: '#112233' });
      const session = await h.api.sessions.create(bot.uuid);
      const source = await h.api.sources.createQa(bot.uuid, { question: 'q?', answer: 'a.' });
      for (const path of [
        `/api/v1/data-source/${source.uuid}/delete`,
        `/api/v1/agent/${agent.uuid}/delete`,
        `/api/v1/source-tag/${tag.uuid}/delete`,
        `/api/v1/session/${session.uuid}/delete`,
        `/api/v1/chatbot/${bot.uuid}/delete`,
      ]) {
        const statuses = await Promise.all(
          Array.from({ length: 5 }, () => h.raw(path, { method: 'DELETE' }).then((r) => r.status)),
        );
        assert.deepEqual(statuses.sort(), [200, 404, 404, 404, 404], path);
      }
    });

    it('delete answers {"success": true} by DELETE and by POST, then the chatbot is 404', async () => {
      const one = await h.api.chatbots.create({ name: 'Gone' });
      assert.deepEqual(await h.api.chatbots.delete(one.uuid), { success: true });
      const two = await h.api.chatbots.create({ name: 'Gone too' });
      const byPost = await h.raw(`/api/v1/chatbot/${two.uuid}/delete`, { method: 'POST' });
      assert.equal(byPost.status, 200);
      assert.deepEqual(await byPost.json(), { success: true });
      for (const uuid of [one.uuid, two.uuid]) {
        const response = await h.raw(`/api/v1/chatbot/${uuid}`);
        assert.equal(response.status, 404);
        assert.deepEqual(keys(((await response.json()) as { error: object }).error), [
          'code',
          'message',
        ]);
      }
    });
  });

  describe('agents', () => {
    it('a new chatbot has one enabled user-facing agent', async () => {
      const bot = await h.api.chatbots.create({ name: 'Agents' });
      const agents = await h.api.agents.list(bot.uuid);
      assert.equal(agents.length, 1);
      assert.equal(agents[0]!.type, 'user-facing');
      assert.equal(agents[0]!.enabled, 1);
    });

    it('create answers enabled 0 and variables; list items carry tool_functions and no variables', async () => {
      const bot = await h.api.chatbots.create({ name: 'Agents 2' });
      const agent = await h.api.agents.create(bot.uuid, {
        name: 'Helper',
        type: 'user-facing',
        description: 'Helps',
        prompt: 'Be kind',
        model: 'gpt-x',
        temperature: 0.5,
      });
      assert.equal(agent.enabled, 0);
      assert.deepEqual(keys(agent), [
        'created_at',
        'data_source_uuids',
        'description',
        'enabled',
        'meta',
        'modified_at',
        'name',
        'prompt',
        'type',
        'uuid',
        'variables',
      ]);
      assert.deepEqual(agent.variables, []);
      assert.equal(agent.meta.model, 'gpt-x');
      assert.equal(agent.meta.temperature, 0.5);
      assert.match(agent.created_at, TIMESTAMP);

      const listed = (await h.api.agents.list(bot.uuid)).find((a) => a.uuid === agent.uuid)!;
      assert.equal(listed.enabled, 0);
      assert.deepEqual(listed.tool_functions, []);
      assert.equal('variables' in listed, false);
      assert.equal('human_escalation_settings' in listed, false);
    });

    it('create takes type-specific settings inside meta as well as top-level, and ignores those of other types', async () => {
      const bot = await h.api.chatbots.create({ name: 'Agents 3' });
      const inMeta = await h.api.agents.create(bot.uuid, {
        name: 'Tagger',
        type: 'background',
        meta: { model: 'm1', tags: [{ name: 'Sales', color: '#112233', criteria: 'buying' }] },
      });
      assert.deepEqual(inMeta.meta.tags, [{ name: 'Sales', color: '#112233', criteria: 'buying' }]);
      assert.equal(inMeta.meta.model, 'm1');
      const canned = await h.api.agents.create(bot.uuid, {
        name: 'Canned',
        type: 'pre-canned',
        default_message: 'We are closed on Sundays.',
        bias: -0.5,
        temperature: 0.9,
      });
      assert.equal(canned.meta.default_message, 'We are closed on Sundays.');
      const source = await h.api.sources.createQa(bot.uuid, { question: 'Q?', answer: 'A.' });
      const scoped = await h.api.agents.create(bot.uuid, {
        name: 'Scoped',
        type: 'user-facing',
        use_all_sources: false,
        data_source_uuids: [source.uuid],
      } as Parameters<typeof h.api.agents.create>[1]);
      assert.deepEqual(scoped.data_source_uuids, [source.uuid]);
      assert.equal(scoped.meta.use_all_sources, false);
      await h.server.idle();
      assert.equal(canned.meta.bias, -0.5);
      assert.equal('temperature' in canned.meta, false);
    });

    it('human-escalation agents carry human_escalation_settings and may have an empty prompt', async () => {
      const bot = await h.api.chatbots.create({ name: 'Agents 4' });
      const agent = await h.api.agents.create(bot.uuid, {
        name: 'Humans',
        type: 'human-escalation',
      });
      assert.equal(agent.prompt, '');
      assert.deepEqual(keys(agent.human_escalation_settings!), [
        'human_requested_message',
        'live_chat_end_announcement',
        'live_chat_start_announcement',
        'monitored_messages',
        'notifications_enabled',
        'sound_enabled',
      ]);
      const updated = await h.api.agents.update(agent.uuid, {
        human_escalation_settings: { human_requested_message: 'Hold on', sound_enabled: 1 },
      });
      assert.equal(updated.human_escalation_settings!.human_requested_message, 'Hold on');
      assert.equal(updated.human_escalation_settings!.sound_enabled, 1);
      assert.equal(updated.human_escalation_settings!.notifications_enabled, 0);
    });

    it('update answers enabled as a boolean, with tool_functions and variables', async () => {
      const bot = await h.api.chatbots.create({ name: 'Agents 5' });
      const source = await h.api.sources.createQa(bot.uuid, { question: 'Q?', answer: 'A.' });
      const agent = await h.api.agents.create(bot.uuid, { name: 'A', type: 'user-facing' });
      const variable = {
        name: 'customer',
        description: 'Name',
        example: '',
        type: 'string',
        default_value: { content: '', static: 0 },
      };
      const updated: Agent = await h.api.agents.update(agent.uuid, {
        enabled: true,
        name: 'B',
        variables: [variable],
        data_source_uuids: [source.uuid],
        temperature: 0.7,
        use_all_sources: false,
      });
      assert.equal(updated.enabled, true);
      assert.equal(updated.name, 'B');
      assert.deepEqual(updated.variables, [variable]);
      assert.deepEqual(updated.tool_functions, []);
      assert.deepEqual(updated.data_source_uuids, [source.uuid]);
      assert.equal(updated.meta.temperature, 0.7);
      assert.equal(updated.meta.use_all_sources, false);
      const listed = (await h.api.agents.list(bot.uuid)).find((a) => a.uuid === agent.uuid)!;
      assert.equal(listed.enabled, 1);
    });

    it('delete answers {"success": true}, then the agent is 404', async () => {
      const bot = await h.api.chatbots.create({ name: 'Agents 6' });
      const agent = await h.api.agents.create(bot.uuid, { name: 'A', type: 'spam-defense' });
      assert.deepEqual(await h.api.agents.delete(agent.uuid), { success: true });
      const again = await h.raw(`/api/v1/agent/${agent.uuid}/delete`, { method: 'DELETE' });
      assert.equal(again.status, 404);
    });
  });

  describe('data sources', () => {
    it('a Q&A source keeps question, answer and reference_source_link in meta_json', async () => {
      const bot = await h.api.chatbots.create({ name: 'Sources' });
      const source = await h.api.sources.createQa(bot.uuid, {
        question: 'Do you ship abroad?',
        answer: 'Yes, to the whole EU.',
        reference_source_link: 'https://example.com/shipping',
      });
      assert.deepEqual(keys(source), SOURCE_KEYS);
      assert.equal(source.type, 'qa');
      assert.equal(source.title, 'Do you ship abroad?');
      assert.deepEqual(JSON.parse(source.meta_json), {
        question: 'Do you ship abroad?',
        answer: 'Yes, to the whole EU.',
        reference_source_link: 'https://example.com/shipping',
      });
      assert.ok(source.tokens > 0);
      assert.ok(source.file_size > 0);
      const done = await settled(h, bot.uuid, source.uuid);
      assert.equal(done.status, 'success');
    });

    it('a new source starts in await and ends in success', async () => {
      const bot = await h.api.chatbots.create({ name: 'Sources 2' });
      const source = await h.api.sources.upload(bot.uuid, new Blob(['Plain text facts.']), {
        fileName: 'facts.txt',
      });
      assert.equal(source.status, 'await');
      assert.equal(source.type, 'file');
      assert.equal(source.file_name, 'facts.txt');
      assert.equal(source.file_size, 17);
      assert.equal((await settled(h, bot.uuid, source.uuid)).status, 'success');
    });

    it('update renames a source; list answers source records', async () => {
      const bot = await h.api.chatbots.create({ name: 'Sources 3' });
      const source = await h.api.sources.createQa(bot.uuid, { question: 'Q?', answer: 'A.' });
      await settled(h, bot.uuid, source.uuid);
      const renamed = await h.api.sources.update(source.uuid, { title: 'Renamed' });
      assert.equal(renamed.title, 'Renamed');
      assert.deepEqual(keys(renamed), SOURCE_KEYS);
      const listed = await h.api.sources.list(bot.uuid);
      assert.deepEqual(
        listed.map((s) => s.title),
        ['Renamed'],
      );
    });

    it('re-scrape answers one item per uuid, in order, "invalid data source" for non-URL and unknown ones', async () => {
      const bot = await h.api.chatbots.create({ name: 'Sources 4' });
      const qa = await h.api.sources.createQa(bot.uuid, { question: 'Q?', answer: 'A.' });
      const results = await h.api.sources.rescrape([qa.uuid, 'no-such-uuid']);
      assert.deepEqual(results, [
        { uuid: qa.uuid, error: 'invalid data source' },
        { uuid: 'no-such-uuid', error: 'invalid data source' },
      ]);
    });

    it('restart (POST /api/data-sources/restart) processes sources again', async () => {
      const bot = await h.api.chatbots.create({ name: 'Sources 5' });
      const qa = await h.api.sources.createQa(bot.uuid, { question: 'Q?', answer: 'A.' });
      await settled(h, bot.uuid, qa.uuid);
      const results = await h.api.sources.restart([qa.uuid, 'nope']);
      assert.deepEqual(results, [
        { uuid: qa.uuid, status: 'restarted processing' },
        { uuid: 'nope', error: 'invalid data source' },
      ]);
      assert.equal((await settled(h, bot.uuid, qa.uuid)).status, 'success');
    });

    it('delete and bulk delete answer {"success": true}, then the sources are gone', async () => {
      const bot = await h.api.chatbots.create({ name: 'Sources 6' });
      const a = await h.api.sources.createQa(bot.uuid, { question: 'A?', answer: 'A.' });
      const b = await h.api.sources.createQa(bot.uuid, { question: 'B?', answer: 'B.' });
      const c = await h.api.sources.createQa(bot.uuid, { question: 'C?', answer: 'C.' });
      await h.server.idle();
      assert.deepEqual(await h.api.sources.delete(a.uuid), { success: true });
      assert.deepEqual(await h.api.sources.deleteMany([b.uuid, c.uuid]), { success: true });
      assert.deepEqual(await h.api.sources.list(bot.uuid), []);
      const again = await h.raw(`/api/v1/data-source/${a.uuid}/delete`, { method: 'DELETE' });
      assert.equal(again.status, 404);
    });

    it('deleting a source drops it from agents and tags', async () => {
      const bot = await h.api.chatbots.create({ name: 'Sources 7' });
      const a = await h.api.sources.createQa(bot.uuid, { question: 'A?', answer: 'A.' });
      const [agent] = await h.api.agents.list(bot.uuid);
      await h.api.agents.update(agent!.uuid, { data_source_uuids: [a.uuid] });
      const tag = await h.api.tags.create(bot.uuid, {
        name: 'T',
        color: '#000000',
        data_source_uuids: [a.uuid],
      });
      await h.server.idle();
      await h.api.sources.delete(a.uuid);
      assert.deepEqual((await h.api.agents.list(bot.uuid))[0]!.data_source_uuids, []);
      assert.deepEqual(
        (await h.api.tags.list(bot.uuid)).find((t) => t.uuid === tag.uuid)!.data_source_uuids,
        [],
      );
    });
  });

  describe('source tags', () => {
    it('create, list, update and delete answer source tag records', async () => {
      const bot = await h.api.chatbots.create({ name: 'Tags' });
      const a = await h.api.sources.createQa(bot.uuid, { question: 'A?', answer: 'A.' });
      const b = await h.api.sources.createQa(bot.uuid, { question: 'B?', answer: 'B.' });
      const tag = await h.api.tags.create(bot.uuid, {
        name: 'Billing',
        color: '#AABBCC',
        data_source_uuids: [a.uuid],
      });
      assert.deepEqual(keys(tag), [
        'color',
        'created_at',
        'data_source_uuids',
        'modified_at',
        'name',
        'uuid',
      ]);
      assert.deepEqual(tag.data_source_uuids, [a.uuid]);
      assert.deepEqual(await h.api.tags.list(bot.uuid), [tag]);
      const updated = await h.api.tags.update(tag.uuid, {
        color: '#000000',
        data_source_uuids: [b.uuid, a.uuid],
      });
      assert.equal(updated.name, 'Billing');
      assert.equal(updated.color, '#000000');
      assert.deepEqual(updated.data_source_uuids, [b.uuid, a.uuid]);
      assert.deepEqual(await h.api.tags.delete(tag.uuid), { success: true });
      assert.deepEqual(await h.api.tags.list(bot.uuid), []);
      await h.server.idle();
    });
  });

  describe('sessions and messages', () => {
    it('a session created without a body answers uuid, created_at and modified_at only', async () => {
      const bot = await h.api.chatbots.create({ name: 'Sessions' });
      const response = await h.raw(`/api/v1/chatbot/${bot.uuid}/session/create`, {
        method: 'POST',
      });
      assert.equal(response.status, 200);
      const session = (await response.json()) as Record<string, string>;
      assert.deepEqual(keys(session), ['created_at', 'modified_at', 'uuid']);
      assert.match(session.created_at!, TIMESTAMP);
      const fetched = await h.api.sessions.get(session.uuid!);
      assert.deepEqual(fetched.meta, {});
    });

    it('a session created with a flat object stores it and returns it as meta', async () => {
      const bot = await h.api.chatbots.create({ name: 'Sessions 2' });
      const data = { customer: 'Ann', plan: 'pro', visits: 3, vip: true };
      const session = await h.api.sessions.create(bot.uuid, data);
      assert.deepEqual(keys(session), ['created_at', 'meta', 'modified_at', 'uuid']);
      assert.deepEqual(session.meta, data);
      const fetched = await h.api.sessions.get(session.uuid);
      assert.deepEqual(keys(fetched), ['created_at', 'meta', 'modified_at', 'uuid']);
      assert.deepEqual(fetched.meta, data);
      const listed = await h.api.sessions.list(bot.uuid);
      assert.deepEqual(listed, [
        { uuid: session.uuid, created_at: session.created_at, modified_at: listed[0]!.modified_at },
      ]);
    });

    it('a streamed exchange is stored as one message record with exactly the documented members', async () => {
      const bot = await h.api.chatbots.create({ name: 'Messages' });
      const session = await h.api.sessions.create(bot.uuid);
      const answer = await ask(h.api, session.uuid, 'Hello there, what can you do?');
      const [message, ...rest] = await h.api.messages.list(session.uuid);
      assert.equal(rest.length, 0);
      assert.deepEqual(keys(message!), MESSAGE_KEYS);
      assert.equal(message!.uuid, answer.messageUuid);
      assert.equal(message!.query, 'Hello there, what can you do?');
      assert.equal(message!.response, answer.text);
      assert.equal(message!.finish_reason, 'stop');
      assert.equal(typeof JSON.parse(message!.cite_data_json), 'object');
      assert.equal(typeof JSON.parse(message!.meta_json), 'object');
      assert.equal(message!.error_message, '');
      assert.match(message!.created_at, TIMESTAMP);
    });

    it('messages are listed oldest first; non-stream answers {response}', async () => {
      const bot = await h.api.chatbots.create({ name: 'Messages 2' });
      const session = await h.api.sessions.create(bot.uuid);
      await ask(h.api, session.uuid, 'first');
      const second = await h.api.messages.send(session.uuid, 'second');
      assert.deepEqual(keys(second), ['response']);
      const listed = await h.api.messages.list(session.uuid);
      assert.deepEqual(
        listed.map((m) => m.query),
        ['first', 'second'],
      );
      assert.equal(listed[1]!.response, second.response);
    });

    it('message delete (single and bulk) answers {"success": true}, then the message is 404', async () => {
      const bot = await h.api.chatbots.create({ name: 'Messages 3' });
      const session = await h.api.sessions.create(bot.uuid);
      const a = await ask(h.api, session.uuid, 'one');
      const b = await ask(h.api, session.uuid, 'two');
      const c = await ask(h.api, session.uuid, 'three');
      assert.deepEqual(await h.api.messages.delete(a.messageUuid!), { success: true });
      assert.deepEqual(await h.api.messages.deleteMany([b.messageUuid!, c.messageUuid!]), {
        success: true,
      });
      assert.deepEqual(await h.api.messages.list(session.uuid), []);
      const again = await h.raw(`/api/v1/message/${a.messageUuid}/delete`, { method: 'POST' });
      assert.equal(again.status, 404);
    });

    it('session delete answers {"success": true}, then the session is 404', async () => {
      const bot = await h.api.chatbots.create({ name: 'Sessions 3' });
      const session = await h.api.sessions.create(bot.uuid);
      assert.deepEqual(await h.api.sessions.delete(session.uuid), { success: true });
      assert.equal((await h.raw(`/api/v1/session/${session.uuid}`)).status, 404);
      assert.equal((await h.raw(`/api/v1/session/${session.uuid}/messages`)).status, 404);
    });
  });
});
