/**
 * What an answer tells beyond its text: the honest refusal with the topics it offers, and the
 * meta_json every message record carries (covered, sources, suggestions, escalated).
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { NOT_COVERED } from '../../src/server/knowledge/answer.js';
import { ask, type Harness, startHarness } from './helpers.js';

/** The meta_json of a session's last message. */
/** A manual of three short sections (Tyres, Brakes, Lights) under `title`. */
const bikeManual = (title: string) =>
  new Blob([
    `# ${title}\n\n## Tyres\n\nPump the tyres to 4 bar before every ride.\n\n` +
      '## Brakes\n\nReplace the brake pads when the groove is gone.\n\n' +
      '## Lights\n\nThe lights switch on by themselves at dusk.\n',
  ]);

async function lastMeta(h: Harness, sessionUuid: string): Promise<Record<string, unknown>> {
  const messages = await h.api.messages.list(sessionUuid);
  return JSON.parse(messages.at(-1)!.meta_json) as Record<string, unknown>;
}

describe('honest answers and what meta_json says of them', () => {
  let h: Harness;
  let bot: string;
  let hours: string;
  let menu: string;
  before(async () => {
    h = await startHarness();
    bot = (await h.api.chatbots.create({ name: 'Bistro' })).uuid;
    hours = (
      await h.api.sources.createQa(bot, {
        question: 'What are your opening hours?',
        answer: 'We are open from noon to 10 pm, Tuesday to Sunday.',
      })
    ).uuid;
    await h.api.sources.createQa(bot, {
      question: 'Do you deliver?',
      answer: 'We deliver within 3 km of the restaurant.',
    });
    menu = (
      await h.api.sources.upload(
        bot,
        new Blob([
          '# Menu\n\nOur pizza dough rests for 48 hours before baking.\n\nThe tiramisu is made every morning.\n',
        ]),
        { fileName: 'menu.md' },
      )
    ).uuid;
    await h.api.sources.upload(
      bot,
      new Blob(['# Allergens\n\nEvery dish lists its allergens on the menu board.\n']),
      { fileName: 'allergens.md' },
    );
    await h.server.idle();
  });
  after(() => h.close());

  const session = async (uuid = bot) => (await h.api.sessions.create(uuid)).uuid;

  it('a question no source answers says so, then offers the closest topics as a list, one per line', async () => {
    const s = await session();
    const { text } = await ask(h.api, s, 'Are you open on public holidays?');
    const [said, lead, list] = text.split('\n\n');
    assert.equal(said, NOT_COVERED);
    assert.equal(lead, 'These topics come closest to your question:');
    assert.equal(list, '- What are your opening hours?');
    assert.deepEqual(await lastMeta(h, s), {
      rule: 'not-covered',
      covered: false,
      sources: [],
      suggestions: ['What are your opening hours?'],
    });
  });

  it('when nothing is close, offers what the chatbot can help with: Q&A questions first, then documents', async () => {
    const s = await session();
    const { text } = await ask(h.api, s, 'What is the capital of Peru?');
    assert.equal(
      text,
      `${NOT_COVERED}\n\nHere is what I can help with:\n\n` +
        '- What are your opening hours?\n- Do you deliver?\n- Menu',
    );
    const meta = await lastMeta(h, s);
    assert.deepEqual(meta.suggestions, ['What are your opening hours?', 'Do you deliver?', 'Menu']);
  });

  it('offers what the chatbot can help with, not the sections that use the one word asked in passing', async () => {
    const house = (await h.api.chatbots.create({ name: 'Guest house' })).uuid;
    await h.api.sources.upload(
      house,
      new Blob([
        '# Guest house\n\n## Kitchen\n\nThe new oven cost us a fortune, and it bakes a fine loaf.\n\n' +
          '## Garden\n\nThe garden seats twenty; its lanterns cost little to run.\n',
      ]),
      { fileName: 'house.md' },
    );
    await h.server.idle();
    const s = await session(house);
    const { text } = await ask(h.api, s, 'What does it cost?');
    // Neither section is about prices: the oven's and the lanterns' costs are said in passing.
    assert.equal(text, `${NOT_COVERED}\n\nHere is what I can help with:\n\n- Guest house`);
  });

  it('a chatbot with no sources says so and offers nothing', async () => {
    const empty = (await h.api.chatbots.create({ name: 'Empty' })).uuid;
    const s = await session(empty);
    assert.equal((await ask(h.api, s, 'Do you deliver?')).text, NOT_COVERED);
    assert.deepEqual(await lastMeta(h, s), { rule: 'not-covered', covered: false, sources: [] });
  });

  it('offers the sections of a document that came close, not its title, and each as text', async () => {
    const manual = (await h.api.chatbots.create({ name: 'Bike shop' })).uuid;
    await h.api.sources.upload(manual, bikeManual('Northwind bike manual'), {
      fileName: 'manual.md',
    });
    await h.api.sources.createQa(manual, {
      question: 'Are the <b>lights</b> & *dynamo* [hub] included?',
      answer: 'Yes, both come with every bike.',
    });
    await h.server.idle();
    const tyres = await session(manual);
    const [, lead, list] = (await ask(h.api, tyres, 'Which tyres suit snowy trails?')).text.split(
      '\n\n',
    );
    assert.equal(lead, 'These topics come closest to your question:');
    assert.equal(list, '- Tyres');
    assert.deepEqual((await lastMeta(h, tyres)).suggestions, ['Tyres']);

    // A topic's own characters are text in the list (escaped), and as written in the chips.
    const lights = await session(manual);
    const [, , marked] = (
      await ask(h.api, lights, 'Do the lights last through rainy winters?')
    ).text.split('\n\n');
    const asked = 'Are the <b>lights</b> & *dynamo* [hub] included?';
    assert.ok(
      marked!
        .split('\n')
        .includes('- Are the \\<b\\>lights\\</b\\> \\& \\*dynamo\\* \\[hub\\] included?'),
      marked,
    );
    assert.ok(((await lastMeta(h, lights)).suggestions as string[]).includes(asked));

    // Beside another document, a section is named with its document's title.
    await h.api.sources.upload(manual, new Blob(['# Opening times\n\nWe open at 9 every day.\n']), {
      fileName: 'hours.md',
    });
    await h.server.idle();
    const both = await session(manual);
    await ask(h.api, both, 'Which tyres suit snowy trails?');
    assert.deepEqual((await lastMeta(h, both)).suggestions, ['Northwind bike manual › Tyres']);
  });

  it('fills the offer with nearer topics once one is close, and offers none of them when none is', async () => {
    const shop = (await h.api.chatbots.create({ name: 'Cycle shop' })).uuid;
    await h.api.sources.upload(shop, bikeManual('Cycle shop manual'), { fileName: 'manual.md' });
    await h.server.idle();
    // Brakes holds two of the question's seven words, Tyres one: both are offered.
    const both = await session(shop);
    await ask(h.api, both, 'Which tyres and brake pads suit snowy trails in winter?');
    assert.deepEqual((await lastMeta(h, both)).suggestions, ['Brakes', 'Tyres']);
    // One word of seven, and nothing closer: what the chatbot can help with, as before.
    const far = await session(shop);
    const { text } = await ask(
      h.api,
      far,
      'Which tyres suit snowy mountain trails in deep winter?',
    );
    assert.match(text, /Here is what I can help with:\n\n- Cycle shop manual$/);
  });

  it('answers a section asked for by its heading, as a refusal offers it, from its beginning', async () => {
    const guide = (await h.api.chatbots.create({ name: 'Guides' })).uuid;
    // Fifteen sections say the heading's words, in their headings too, more often than the
    // section itself does: the search ranks them first.
    const notes = Array.from(
      { length: 15 },
      (_, i) =>
        `## Shop repairs, part ${i + 1}\n\nRepairs at the shop take a day. Repairs at the shop are cheap.\n`,
    ).join('\n');
    const alpha = await h.api.sources.upload(
      guide,
      new Blob([
        `# Alpha guide\n\n${notes}\n## Repairs and the shop\n\nBring your bike before noon.\n\nWe call when it is ready.\n\n## Usage\n\nAlpha is used with a spanner.\n`,
      ]),
      { fileName: 'alpha.md' },
    );
    const beta = await h.api.sources.upload(
      guide,
      new Blob(['# Beta guide\n\n## Usage\n\nBeta is used with a pump.\n']),
      { fileName: 'beta.md' },
    );
    await h.server.idle();
    const asked = await session(guide);
    const { text } = await ask(h.api, asked, 'Repairs and the shop');
    assert.match(
      text,
      /^From \*Alpha guide › Repairs and the shop\*:\n\nBring your bike before noon\./,
    );
    assert.deepEqual((await lastMeta(h, asked)).sources, [alpha.uuid]);

    // "Title › Section", as topics are named beside other documents: that document's section.
    const usage = await session(guide);
    assert.match((await ask(h.api, usage, 'Beta guide › Usage')).text, /used with a pump/);
    assert.deepEqual((await lastMeta(h, usage)).sources, [beta.uuid]);

    // A deleted document's sections are no longer answered from.
    await h.api.sources.delete(beta.uuid);
    await h.server.idle();
    const gone = await session(guide);
    await ask(h.api, gone, 'Beta guide › Usage');
    assert.notDeepEqual((await lastMeta(h, gone)).sources, [beta.uuid]);
  });

  it('answers a topic picked from a refusal from the part of it closest to the refused question', async () => {
    const parser = (await h.api.chatbots.create({ name: 'Parser' })).uuid;
    // One long section, cut into several chunks: its beginning is about brackets, its end about
    // how deep they go.
    const middle = Array.from(
      { length: 6 },
      (_, i) =>
        `Keys are decoded as UTF-8 by default, and rule ${i + 1} of the charset sentinel applies ` +
        'when the form was sent by an older browser that encodes its characters differently.',
    ).join('\n\n');
    await h.api.sources.upload(
      parser,
      new Blob([
        '# Query parser\n\n## Parsing objects\n\nSurround the name of a key with square brackets ' +
          `to make an object inside an object.\n\n${middle}\n\nObjects are built up to five levels ` +
          'deep; keys past that stay as one literal key.\n\n## Stringifying\n\nArrays get indices.\n',
      ]),
      { fileName: 'parser.md' },
    );
    await h.server.idle();
    const s = await session(parser);
    await ask(h.api, s, 'Why do my sub-objects vanish after a handful of levels?');
    const offered = (await lastMeta(h, s)).suggestions as string[];
    assert.ok(offered.includes('Parsing objects'), String(offered));
    // Picked from the offer: the part that holds what was asked, not the section's first lines.
    const picked = await ask(h.api, s, 'Parsing objects');
    assert.match(picked.text, /five levels deep/);
    assert.deepEqual((await lastMeta(h, s)).covered, true);
    // Asked for on its own, the section is answered from its beginning, as before.
    const fresh = await session(parser);
    const { text } = await ask(h.api, fresh, 'Parsing objects');
    assert.match(text, /square brackets/);
    assert.doesNotMatch(text, /five levels deep/);
  });

  it('an answer from passages is covered, and names the sources it drew on', async () => {
    const s = await session();
    const { text } = await ask(h.api, s, 'How long does the pizza dough rest?');
    assert.match(text, /48 hours/);
    const meta = await lastMeta(h, s);
    assert.equal(meta.rule, 'passages');
    assert.equal(meta.covered, true);
    assert.deepEqual(meta.sources, [menu]);
    assert.equal(meta.suggestions, undefined);
    assert.equal(typeof meta.agent_uuid, 'string');
  });

  it('an answer from a Q&A pair is covered by it', async () => {
    const s = await session();
    await ask(h.api, s, 'What are the opening hours?');
    const meta = await lastMeta(h, s);
    assert.equal(meta.rule, 'qa');
    assert.equal(meta.covered, true);
    assert.deepEqual(meta.sources, [hours]);
    assert.equal(meta.data_source_uuid, hours);
  });

  it('names the sources even when the chatbot shows no citations', async () => {
    const quiet = await h.api.chatbots.create({ name: 'Quiet', show_citations: false });
    const notes = await h.api.sources.upload(quiet.uuid, new Blob(['The lift is out of order.']), {
      fileName: 'notice.txt',
    });
    await h.server.idle();
    const s = await session(quiet.uuid);
    const answer = await ask(h.api, s, 'Is the lift working?');
    assert.equal(answer.citations, undefined);
    assert.deepEqual((await lastMeta(h, s)).sources, [notes.uuid]);
  });

  it('the human-escalation agent’s answer is marked escalated, and not covered', async () => {
    const agent = await h.api.agents.create(bot, { name: 'Humans', type: 'human-escalation' });
    await h.api.agents.update(agent.uuid, {
      enabled: true,
      human_escalation_settings: { human_requested_message: 'A person will answer soon.' },
    });
    try {
      const s = await session();
      assert.equal(
        (await ask(h.api, s, 'Can I talk to a human?')).text,
        'A person will answer soon.',
      );
      const meta = await lastMeta(h, s);
      assert.equal(meta.rule, 'human-escalation');
      assert.equal(meta.escalated, true);
      assert.equal(meta.covered, false);
      assert.equal(meta.sources_asked, false);
      assert.deepEqual(meta.sources, []);
      // Not a gap in the sources: review's "not covered" leaves it out.
      const gaps = await h.api.review.messages(bot, { session: s, covered: false });
      assert.deepEqual(gaps.data, []);
      const escalated = await h.api.review.messages(bot, { session: s, escalated: true });
      assert.equal(escalated.data.length, 1);
    } finally {
      await h.api.agents.delete(agent.uuid);
    }
  });

  it('a pre-canned reply to its trigger is no gap in the sources', async () => {
    const parking = await h.api.agents.create(bot, {
      name: 'Parking',
      type: 'pre-canned',
      prompt: 'parking',
      default_message: 'Park in the square behind us.',
    });
    await h.api.agents.update(parking.uuid, { enabled: true });
    try {
      const s = await session();
      const answer = await ask(h.api, s, 'Is there parking?');
      assert.equal(answer.text, 'Park in the square behind us.');
      const meta = await lastMeta(h, s);
      assert.equal(meta.rule, 'pre-canned');
      assert.equal(meta.sources_asked, false);
      const gaps = await h.api.review.messages(bot, { session: s, covered: false });
      assert.deepEqual(gaps.data, []);
    } finally {
      await h.api.agents.delete(parking.uuid);
    }
  });

  it('a pre-canned fallback answers in its own words, with no list under them', async () => {
    const fallback = await h.api.agents.create(bot, {
      name: 'Fallback',
      type: 'pre-canned',
      default_message: 'Please call us on 555 0100.',
    });
    await h.api.agents.update(fallback.uuid, { enabled: true });
    try {
      const s = await session();
      assert.equal(
        (await ask(h.api, s, 'Are you open on public holidays?')).text,
        'Please call us on 555 0100.',
      );
      const meta = await lastMeta(h, s);
      assert.equal(meta.rule, 'pre-canned');
      assert.equal(meta.covered, false);
      assert.equal(meta.suggestions, undefined);
      // It stands in for "not covered": a gap in the sources, as review lists them.
      assert.equal(meta.sources_asked, undefined);
      const gaps = await h.api.review.messages(bot, { session: s, covered: false });
      assert.deepEqual(
        gaps.data.map((m) => m.query),
        ['Are you open on public holidays?'],
      );
    } finally {
      await h.api.agents.delete(fallback.uuid);
    }
  });
});

describe('meta_json of answers an LLM writes', () => {
  let llm: { url: string; close(): Promise<void> };
  let h: Harness;
  let bot: string;
  let source: string;
  before(async () => {
    llm = await cannedLlm('I have no information about that.');
    h = await startHarness({ llm: { baseUrl: llm.url, apiKey: 'sk-test', model: 'test-model' } });
    bot = (await h.api.chatbots.create({ name: 'LLM' })).uuid;
    source = (
      await h.api.sources.upload(bot, new Blob(['The garage closes at midnight.']), {
        fileName: 'garage.txt',
      })
    ).uuid;
    await h.server.idle();
  });
  after(async () => {
    await h.close();
    await llm.close();
  });

  it('is covered by the passages the model was given', async () => {
    const s = (await h.api.sessions.create(bot)).uuid;
    await ask(h.api, s, 'When does the garage close?');
    const meta = await lastMeta(h, s);
    assert.equal(meta.rule, 'llm');
    assert.equal(meta.covered, true);
    assert.deepEqual(meta.sources, [source]);
  });

  it('without passages, is not covered, and the topics follow what the model said', async () => {
    const s = (await h.api.sessions.create(bot)).uuid;
    const { text } = await ask(h.api, s, 'What is the capital of Peru?');
    assert.equal(
      text,
      'I have no information about that.\n\nHere is what I can help with:\n\n- The garage closes at midnight.',
    );
    const meta = await lastMeta(h, s);
    assert.equal(meta.covered, false);
    assert.deepEqual(meta.sources, []);
    assert.deepEqual(meta.suggestions, ['The garage closes at midnight.']);
  });
});

/** An OpenAI-compatible chat-completions server on 127.0.0.1 that always streams `reply`. */
async function cannedLlm(reply: string): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer(async (req, res) => {
    for await (const _ of req) {
      // The request body is not needed: the reply is always the same.
    }
    res.writeHead(200, { 'Content-Type': 'text/event-stream' });
    res.write(`data: ${JSON.stringify({ choices: [{ delta: { content: reply } }] })}\n\n`);
    res.end('data: [DONE]\n\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
