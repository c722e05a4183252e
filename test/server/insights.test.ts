import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { DataSource, Insights } from '../../src/api/types.js';
import { datesOf } from '../../src/server/review/insights.js';
import { DAY, type ErrorBody, iso, type ReviewServer, reviewServer } from './review-helpers.js';

const zero = (date: string) => ({
  date,
  conversations: 0,
  messages: 0,
  not_covered: 0,
  up: 0,
  down: 0,
});

describe('GET /api/v1/chatbot/{uuid}/insights', () => {
  let s: ReviewServer;
  let bot: string;
  const src: Record<string, DataSource> = {};

  before(async () => {
    s = await reviewServer();
    bot = await s.chatbot('Measured');
    for (const [name, question] of [
      ['a', 'How long is shipping?'],
      ['b', 'How do returns work?'],
      ['c', 'Is there a warranty?'],
      ['d', 'An old document'],
    ] as const) {
      src[name] = (
        await s.get<DataSource>(`/api/v1/chatbot/${bot}/data-source/qa`, {
          json: { question, answer: `About ${name}.` },
        })
      ).body;
    }
    const cite = (...names: string[]) =>
      names.map((n) => [src[n]!.uuid, src[n]!.title] as [string, string]);
    const sA = await s.session(bot, 0);
    const sB = await s.session(bot, 0);
    const sC = await s.session(bot, 2 * DAY);
    const sX = await s.session(bot, -DAY);
    // 2026-03-10
    await s.put(sA, { at: 100, query: 'How long is shipping?', cites: cite('a'), rating: 'up' });
    await s.put(sA, { at: 200, query: 'What does it cost?', rating: 'down', reason: 'wrong' });
    await s.put(sB, { at: 300, query: 'what does it cost', response: 'Not known.' });
    await s.put(sB, { at: 400, query: 'Talk to a human', escalated: true });
    // 2026-03-11: nothing. 2026-03-12:
    await s.put(sC, { at: 2 * DAY + 100, query: 'What does it COST??' });
    await s.put(sC, {
      at: 2 * DAY + 200,
      query: 'Returns?',
      cites: cite('b', 'a'),
      rating: 'down',
      reason: 'incomplete',
    });
    await s.put(sC, { at: 2 * DAY + 300, query: 'error q', error: 'the answer failed: boom' });
    await s.put(sA, { at: 2 * DAY + 400, query: 'How long is shipping', cites: cite('a') });
    await s.put(sC, { at: 2 * DAY + 500, query: 'Old doc?', cites: cite('d') });
    // Outside the period, on both sides.
    await s.put(sX, { at: -100, query: 'What does it cost?' });
    await s.put(sX, { at: 3 * DAY + 10, query: 'What does it cost?', cites: cite('c') });
    await s.call(`/api/v1/data-source/${src.d!.uuid}/delete`, { method: 'POST' });
  });
  after(() => s.close());

  it('should count a known period exactly: days with zeros, totals, questions, gaps and sources', async () => {
    const { status, body } = await s.get<Insights>(
      `/api/v1/chatbot/${bot}/insights?from=2026-03-10&to=2026-03-12`,
    );
    assert.equal(status, 200);
    assert.deepEqual(body, {
      from: '2026-03-10T00:00:00Z',
      to: '2026-03-13T00:00:00Z',
      days: [
        // The escalation is no gap in the sources: not counted as not covered.
        { date: '2026-03-10', conversations: 2, messages: 4, not_covered: 2, up: 1, down: 1 },
        zero('2026-03-11'),
        { date: '2026-03-12', conversations: 2, messages: 5, not_covered: 2, up: 0, down: 1 },
      ],
      totals: {
        conversations: 3,
        messages: 9,
        not_covered: 4,
        up: 1,
        down: 2,
        escalated: 1,
        errors: 1,
      },
      top_questions: [
        { question: 'What does it COST??', count: 3, covered: false },
        { question: 'How long is shipping', count: 2, covered: true },
        { question: 'Old doc?', count: 1, covered: true },
        { question: 'error q', count: 1, covered: false },
        { question: 'Returns?', count: 1, covered: true },
        { question: 'Talk to a human', count: 1, covered: true },
      ],
      gaps: [
        { question: 'What does it COST??', count: 3, last_asked: iso(2 * DAY + 100) },
        { question: 'error q', count: 1, last_asked: iso(2 * DAY + 300) },
      ],
      sources_cited: [
        { data_source_uuid: src.a!.uuid, title: src.a!.title, count: 3 },
        { data_source_uuid: src.b!.uuid, title: src.b!.title, count: 1 },
      ],
      sources_never_cited: [{ data_source_uuid: src.c!.uuid, title: src.c!.title }],
    });
  });

  it('should take date-times, from inclusive and to exclusive', async () => {
    const { body } = await s.get<Insights>(
      `/api/v1/chatbot/${bot}/insights?from=${iso(200)}&to=${iso(2 * DAY + 200)}`,
    );
    assert.equal(body.from, iso(200));
    assert.equal(body.to, iso(2 * DAY + 200));
    assert.deepEqual(
      body.days.map((d) => [d.date, d.messages]),
      [
        ['2026-03-10', 3],
        ['2026-03-11', 0],
        ['2026-03-12', 1],
      ],
    );
  });

  it('should default to the last 30 days, today included', async () => {
    const session = await s.session(bot, 0);
    const today = new Date().toISOString().slice(0, 10);
    await s.store.createMessage({
      uuid: crypto.randomUUID(),
      sessionUuid: session,
      query: 'asked today',
      response: '',
      finish_reason: 'stop',
      cite_data: {},
      meta: {},
      error_message: '',
      feedback: null,
      created_at: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
      modified_at: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
    });
    const { status, body } = await s.get<Insights>(`/api/v1/chatbot/${bot}/insights`);
    assert.equal(status, 200);
    assert.equal(body.days.length, 30);
    assert.equal(body.days.at(-1)!.date, today);
    assert.equal(body.days.at(-1)!.messages, 1);
    assert.equal(body.from, `${body.days[0]!.date}T00:00:00Z`);
    assert.equal(Date.parse(body.to) - Date.parse(`${today}T00:00:00Z`), DAY * 1000);
    assert.deepEqual(body.gaps, [
      { question: 'asked today', count: 1, last_asked: body.gaps[0]!.last_asked },
    ]);
  });

  it('should answer an empty period with zeros and every source never cited', async () => {
    const empty = await s.chatbot('Quiet');
    const { body } = await s.get<Insights>(
      `/api/v1/chatbot/${empty}/insights?from=2026-01-01&to=2026-01-02`,
    );
    assert.deepEqual(body, {
      from: '2026-01-01T00:00:00Z',
      to: '2026-01-03T00:00:00Z',
      days: [zero('2026-01-01'), zero('2026-01-02')],
      totals: {
        conversations: 0,
        messages: 0,
        not_covered: 0,
        up: 0,
        down: 0,
        escalated: 0,
        errors: 0,
      },
      top_questions: [],
      gaps: [],
      sources_cited: [],
      sources_never_cited: [],
    });
  });

  it('should answer 400 naming the parameter for bad dates and periods', async () => {
    const cases: Array<[string, string]> = [
      [
        '?from=last-week',
        'from must be an ISO date (YYYY-MM-DD) or date-time (YYYY-MM-DDTHH:MM:SSZ), not "last-week"',
      ],
      [
        '?to=2026-13-01',
        'to must be an ISO date (YYYY-MM-DD) or date-time (YYYY-MM-DDTHH:MM:SSZ), not "2026-13-01"',
      ],
      ['?from=2026-03-12&to=2026-03-10', 'from must be before to'],
      ['?from=2024-01-01&to=2026-01-01', 'to must be at most 366 days after from'],
      ['?q=cost', 'q is not a parameter of this endpoint (it takes from, to)'],
    ];
    for (const [query, message] of cases) {
      assert.deepEqual(await s.get<ErrorBody>(`/api/v1/chatbot/${bot}/insights${query}`), {
        status: 400,
        body: { error: { code: 'invalid_input', message } },
      });
    }
  });
});

describe('datesOf', () => {
  it('should list every UTC date the period touches', () => {
    assert.deepEqual(datesOf('2026-02-27T10:00:00Z', '2026-03-02T00:00:00Z'), [
      '2026-02-27',
      '2026-02-28',
      '2026-03-01',
    ]);
    assert.deepEqual(datesOf('2026-03-01T00:00:00Z', '2026-03-01T00:00:01Z'), ['2026-03-01']);
  });
});
