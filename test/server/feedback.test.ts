import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { isApiError } from '../../src/api/errors.js';
import type { FeedbackInput, Message, MessageRow, Page } from '../../src/api/types.js';
import { type Harness, keys, settled, startHarness, TIMESTAMP } from './helpers.js';

const MISSING = '00000000-0000-4000-8000-000000000000';

describe('POST /api/v1/message/{uuid}/feedback', () => {
  let h: Harness;
  let bot: string;
  let session: string;
  let qaSource: string;

  /** Asks through the non-stream route (the record is stored before it answers); the new record. */
  const answer = async (query: string, sessionUuid = session): Promise<Message> => {
    await h.api.messages.send(sessionUuid, query);
    return (await h.api.messages.list(sessionUuid)).at(-1)!;
  };
  const rate = (uuid: string, body: unknown, key?: string) =>
    h.raw(`/api/v1/message/${uuid}/feedback`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
      ...(key ? { key } : {}),
    });
  const error = async (response: Response) => ({
    status: response.status,
    body: (await response.json()) as { error: { code: string; message: string } },
  });

  before(async () => {
    h = await startHarness();
    bot = (await h.api.chatbots.create({ name: 'Rated' })).uuid;
    qaSource = (
      await h.api.sources.createQa(bot, {
        question: 'How long does shipping take?',
        answer: 'Shipping takes three working days.',
      })
    ).uuid;
    await settled(h, bot, qaSource);
    session = (await h.api.sessions.create(bot)).uuid;
  });
  after(() => h.close());

  it('should store "down" with its reason and comment and answer the updated record', async () => {
    const message = await answer('How long does shipping take?');
    assert.equal(message.feedback_json, '');
    const rated = await h.api.messages.feedback(message.uuid, {
      rating: 'down',
      reason: 'incomplete',
      comment: '  It does not say which days.  ',
    });
    assert.deepEqual(keys(rated), keys(message));
    assert.equal(rated.uuid, message.uuid);
    assert.equal(rated.response, message.response);
    const feedback = JSON.parse(rated.feedback_json!);
    assert.deepEqual(Object.keys(feedback), ['rating', 'reason', 'comment', 'at']);
    assert.deepEqual(
      { ...feedback, at: undefined },
      {
        rating: 'down',
        reason: 'incomplete',
        comment: 'It does not say which days.',
        at: undefined,
      },
    );
    assert.match(feedback.at, TIMESTAMP);
    // The session's own list (what a transcript reloads) carries it too.
    const listed = (await h.api.messages.list(session)).find((m) => m.uuid === message.uuid)!;
    assert.equal(listed.feedback_json, rated.feedback_json);
    const down = await h.api.review.messages(bot, { rating: 'down' });
    assert.deepEqual(
      down.data.map((m: MessageRow) => m.uuid),
      [message.uuid],
    );
  });

  it('should drop the reason and comment of an "up", and withdraw a rating with null', async () => {
    const message = await answer('How long does shipping take?');
    const up = await h.api.messages.feedback(message.uuid, {
      rating: 'up',
      reason: 'wrong',
      comment: 'great',
    });
    assert.deepEqual(Object.keys(JSON.parse(up.feedback_json!)), ['rating', 'at']);
    assert.equal(JSON.parse(up.feedback_json!).rating, 'up');
    const withdrawn = await h.api.messages.feedback(message.uuid, { rating: null });
    assert.equal(withdrawn.feedback_json, '');
    const none = await h.api.review.messages(bot, { rating: 'none' });
    assert.ok(none.data.some((m) => m.uuid === message.uuid));
  });

  it('should let a chat-only key rate its own chatbot’s answers, and no other chatbot’s', async () => {
    const message = await answer('Do you ship abroad?');
    const visitor = h.clientFor(await h.server.createKey('alice', { chatOnly: bot }));
    const rated = await visitor.messages.feedback(message.uuid, { rating: 'up' });
    assert.equal(JSON.parse(rated.feedback_json!).rating, 'up');

    const elsewhere = (await h.api.chatbots.create({ name: 'Elsewhere' })).uuid;
    const stranger = await h.server.createKey('alice', { chatOnly: elsewhere });
    assert.deepEqual(await error(await rate(message.uuid, { rating: 'down' }, stranger)), {
      status: 404,
      body: { error: { code: 'not_found', message: 'message not found' } },
    });
  });

  it('should answer 404 for another user’s message and for one that does not exist', async () => {
    const message = await answer('Where are you based?');
    await assert.rejects(h.other.messages.feedback(message.uuid, { rating: 'up' }), (e) => {
      return isApiError(e) && (e as { status?: number }).status === 404;
    });
    assert.deepEqual(await error(await rate(MISSING, { rating: 'up' })), {
      status: 404,
      body: { error: { code: 'not_found', message: 'message not found' } },
    });
    assert.equal((await h.api.messages.list(session)).at(-1)!.feedback_json, '');
  });

  const bad: Array<[string, unknown, string]> = [
    ['no rating', {}, 'rating is required: "up", "down" or null'],
    ['an unknown rating', { rating: 'meh' }, 'rating must be "up", "down" or null'],
    ['a boolean rating', { rating: true }, 'rating must be "up", "down" or null'],
    [
      'an unknown reason',
      { rating: 'down', reason: 'rude' },
      'reason must be one of "wrong", "incomplete", "not-asked", "other"',
    ],
    ['a reason that is not a string', { rating: 'down', reason: 3 }, 'reason must be a string'],
    [
      'a comment over 1000 characters',
      { rating: 'down', comment: 'x'.repeat(1001) },
      'comment must be at most 1000 characters',
    ],
    ['a body that is not an object', ['up'], 'the body must be a JSON object'],
  ];
  for (const [what, body, message] of bad) {
    it(`should answer 400 naming the member for ${what}`, async () => {
      const target = (await h.api.messages.list(session))[0]!;
      assert.deepEqual(await error(await rate(target.uuid, body)), {
        status: 400,
        body: { error: { code: 'invalid_input', message } },
      });
    });
  }

  it('should take a comment of exactly 1000 characters', async () => {
    const target = (await h.api.messages.list(session))[0]!;
    const body: FeedbackInput = { rating: 'down', reason: 'other', comment: 'y'.repeat(1000) };
    assert.equal((await rate(target.uuid, body)).status, 200);
  });
});

describe('meta_json of every answer', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(() => h.close());

  it('should say whether the sources covered the answer, and which sources it cited', async () => {
    const bot = (await h.api.chatbots.create({ name: 'Covered' })).uuid;
    const source = await h.api.sources.createQa(bot, {
      question: 'What are your opening hours?',
      answer: 'We are open from nine to five.',
    });
    await settled(h, bot, source.uuid);
    const session = (await h.api.sessions.create(bot)).uuid;
    await h.api.messages.send(session, 'What are your opening hours?');
    await h.api.messages.send(session, 'Which planets have rings?');
    const [covered, uncovered] = await h.api.messages.list(session);
    const meta = (m: Message) => JSON.parse(m.meta_json) as Record<string, unknown>;
    assert.equal(meta(covered!).covered, true);
    assert.deepEqual(meta(covered!).sources, [source.uuid]);
    assert.equal(meta(uncovered!).covered, false);
    assert.deepEqual(meta(uncovered!).sources, []);
    assert.equal('escalated' in meta(covered!), false);
    const page: Page<MessageRow> = await h.api.review.messages(bot, { covered: false });
    assert.deepEqual(
      page.data.map((m) => m.uuid),
      [uncovered!.uuid],
    );
  });

  it('should mark an answer of a human-escalation agent escalated', async () => {
    const bot = (await h.api.chatbots.create({ name: 'Escalated' })).uuid;
    const agent = await h.api.agents.create(bot, { name: 'Humans', type: 'human-escalation' });
    await h.api.agents.update(agent.uuid, { enabled: true });
    const session = (await h.api.sessions.create(bot)).uuid;
    await h.api.messages.send(session, 'Can I talk to a human?');
    const [message] = await h.api.messages.list(session);
    const meta = JSON.parse(message!.meta_json);
    assert.equal(meta.escalated, true);
    assert.equal(meta.covered, false);
    const conversations = await h.api.review.conversations(bot, { escalated: true });
    assert.deepEqual(
      conversations.data.map((c) => [c.session_uuid, c.escalated]),
      [[session, 1]],
    );
  });
});
