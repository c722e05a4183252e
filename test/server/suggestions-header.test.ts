/**
 * The topics an honest refusal offers reach a streaming client before the text, in
 * `X-Suggestions` (our addition), so the chat can offer them as questions to click.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Harness, startHarness } from './helpers.js';

describe('X-Suggestions', () => {
  let h: Harness;
  let bot: string;
  before(async () => {
    h = await startHarness();
    bot = (await h.api.chatbots.create({ name: 'Bistro' })).uuid;
    await h.api.sources.createQa(bot, {
      question: 'What are your opening hours?',
      answer: 'We are open from noon to 10 pm, Tuesday to Sunday.',
    });
    await h.api.sources.createQa(bot, {
      question: 'Do you deliver?',
      answer: 'We deliver within 3 km of the restaurant.',
    });
    await h.server.idle();
  });
  after(() => h.close());

  it('a refusal streams the offered topics in the header, the same as its meta_json', async () => {
    const session = (await h.api.sessions.create(bot)).uuid;
    const stream = await h.api.messages.stream(session, 'Are you open on public holidays?');
    for await (const _ of stream.text);
    const [record] = await h.api.messages.list(session);
    const meta = JSON.parse(record?.meta_json ?? '{}') as { suggestions?: string[] };
    assert.ok(meta.suggestions && meta.suggestions.length > 0, 'the refusal offers topics');
    assert.deepEqual(stream.suggestions, meta.suggestions);
  });

  it('an answer from the sources carries no suggestions', async () => {
    const session = (await h.api.sessions.create(bot)).uuid;
    const stream = await h.api.messages.stream(session, 'What are your opening hours?');
    for await (const _ of stream.text);
    assert.equal(stream.suggestions, undefined);
  });
});
