/**
 * A NUL character (U+0000) a user sent, carried into a record's JSON: PostgreSQL's jsonb cannot
 * hold one (a trigger reads the message's meta_json as jsonb), so JSON the stores write holds
 * U+FFFD in its place on both stores, as PostgreSQL's text columns do, and no record is lost.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Harness, startHarness } from './helpers.js';

describe('a NUL character in what the stores write as JSON', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(() => h.close());

  /** A chatbot whose one source is a Q&A pair asking `question`. */
  async function bistro(question: string): Promise<string> {
    const bot = (await h.api.chatbots.create({ name: 'Bistro' })).uuid;
    await h.api.sources.createQa(bot, {
      question,
      answer: 'We deliver within 3 km of the restaurant.',
    });
    await h.server.idle();
    return bot;
  }

  it('a refusal offering a Q&A question that holds one is stored, the NUL as U+FFFD', async () => {
    const bot = await bistro('Do you\u0000 deliver?');
    const session = (await h.api.sessions.create(bot)).uuid;
    await h.api.messages.send(session, 'Are you open on public holidays?');
    const records = await h.api.messages.list(session);
    assert.equal(records.length, 1, 'the refusal is stored');
    const meta = JSON.parse(records[0]!.meta_json) as { covered?: boolean; suggestions?: string[] };
    assert.equal(meta.covered, false);
    assert.deepEqual(meta.suggestions, ['Do you\uFFFD deliver?']);
  });

  it('a rating comment and session data holding one are kept, the NUL as U+FFFD', async () => {
    const bot = await bistro('Do you deliver?');
    const session = (await h.api.sessions.create(bot, { 'plan\u0000': 'pro\u0000' })).uuid;
    await h.api.messages.send(session, 'Do you deliver?');
    const [answered] = await h.api.messages.list(session);
    await h.api.messages.feedback(answered!.uuid, {
      rating: 'down',
      reason: 'other',
      comment: 'too\u0000 far',
    });
    const [record] = await h.api.messages.list(session);
    assert.equal(
      (JSON.parse(record!.feedback_json ?? '{}') as { comment?: string }).comment,
      'too\uFFFD far',
    );
    const stored = await h.api.sessions.get(session);
    assert.deepEqual(stored.meta, { 'plan\uFFFD': 'pro\uFFFD' });
  });
});
