import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { DataSource, Insights } from '../../src/api/types.js';
import { periodDays } from '../../src/server/review/zone.js';
import {
  BASE,
  DAY,
  type ErrorBody,
  iso,
  type ReviewServer,
  reviewServer,
} from './review-helpers.js';

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
      test: 'exclude',
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
        { question: 'What does it COST??', count: 3, covered: false, not_covered: 3 },
        { question: 'How long is shipping', count: 2, covered: true, not_covered: 0 },
        { question: 'Old doc?', count: 1, covered: true, not_covered: 0 },
        { question: 'error q', count: 1, covered: false, not_covered: 1 },
        { question: 'Returns?', count: 1, covered: true, not_covered: 0 },
        { question: 'Talk to a human', count: 1, covered: true, not_covered: 0 },
      ],
      gaps: [
        {
          question: 'What does it COST??',
          count: 3,
          last_asked: iso(2 * DAY + 100),
          answered_now: false,
        },
        { question: 'error q', count: 1, last_asked: iso(2 * DAY + 300), answered_now: false },
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
      {
        question: 'asked today',
        count: 1,
        last_asked: body.gaps[0]!.last_asked,
        answered_now: false,
      },
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
      test: 'exclude',
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
      ['?q=cost', 'q is not a parameter of this endpoint (it takes from, to, tz, test)'],
      ['?test=none', 'test must be "exclude", "include" or "only"'],
      [
        '?tz=Mars/Olympus',
        'tz must be an IANA time zone name such as "Europe/Berlin", not "Mars/Olympus"',
      ],
    ];
    for (const [query, message] of cases) {
      assert.deepEqual(await s.get<ErrorBody>(`/api/v1/chatbot/${bot}/insights${query}`), {
        status: 400,
        body: { error: { code: 'invalid_input', message } },
      });
    }
  });
});

describe("insights without the owner's tests (Try it)", () => {
  let s: ReviewServer;
  let bot: string;
  const src: Record<string, DataSource> = {};

  before(async () => {
    s = await reviewServer();
    bot = await s.chatbot('Tried before launch');
    for (const name of ['a', 'b']) {
      src[name] = (
        await s.get<DataSource>(`/api/v1/chatbot/${bot}/data-source/qa`, {
          json: { question: `Question ${name}?`, answer: `About ${name}.` },
        })
      ).body;
    }
    const cite = (name: string): Array<[string, string]> => [[src[name]!.uuid, src[name]!.title]];
    const visitor = await s.session(bot, 0);
    const owner = await s.session(bot, 0, { test: true });
    await s.put(visitor, { at: 100, query: 'What does it cost?', rating: 'down' });
    await s.put(visitor, { at: 150, query: 'Question a?', cites: cite('a') });
    // The owner asks what a visitor asked, later, and tries questions no visitor asked.
    await s.put(owner, {
      at: 200,
      query: 'WHAT DOES IT COST',
      cites: [...cite('b'), ...cite('a')],
      rating: 'up',
    });
    await s.put(owner, { at: DAY + 100, query: 'Do you ship to the moon?' });
    await s.put(owner, { at: DAY + 200, query: 'Is it vegan?', escalated: true });
  });
  after(() => s.close());

  const insights = async (query = '') => {
    const { status, body } = await s.get<Insights>(
      `/api/v1/chatbot/${bot}/insights?from=2026-03-10&to=2026-03-11${query}`,
    );
    assert.equal(status, 200, JSON.stringify(body));
    return body;
  };

  it('should count only the visitors by default: days, totals, questions, gaps and sources', async () => {
    const body = await insights();
    assert.equal(body.test, 'exclude');
    assert.deepEqual(body.days, [
      { date: '2026-03-10', conversations: 1, messages: 2, not_covered: 1, up: 0, down: 1 },
      zero('2026-03-11'),
    ]);
    assert.deepEqual(body.totals, {
      conversations: 1,
      messages: 2,
      not_covered: 1,
      up: 0,
      down: 1,
      escalated: 0,
      errors: 0,
    });
    // The visitor's own wording and answer, not the owner's later one.
    assert.deepEqual(body.top_questions, [
      { question: 'Question a?', count: 1, covered: true, not_covered: 0 },
      { question: 'What does it cost?', count: 1, covered: false, not_covered: 1 },
    ]);
    assert.deepEqual(
      body.gaps.map((g) => [g.question, g.count, g.last_asked]),
      [['What does it cost?', 1, iso(100)]],
    );
    assert.deepEqual(
      body.sources_cited.map((c) => [c.title, c.count]),
      [[src.a!.title, 1]],
    );
    assert.deepEqual(
      body.sources_never_cited.map((c) => c.title),
      [src.b!.title],
    );
  });

  it('should count everyone with test=include and the owner alone with test=only', async () => {
    const all = await insights('&test=include');
    assert.equal(all.test, 'include');
    assert.deepEqual(all.totals, {
      conversations: 2,
      messages: 5,
      not_covered: 2,
      up: 1,
      down: 1,
      escalated: 1,
      errors: 0,
    });
    assert.deepEqual(all.top_questions[0], {
      question: 'WHAT DOES IT COST',
      count: 2,
      covered: true,
      not_covered: 1,
    });
    assert.deepEqual(
      all.sources_cited.map((c) => [c.title, c.count]),
      [
        [src.a!.title, 2],
        [src.b!.title, 1],
      ],
    );
    assert.deepEqual(all.sources_never_cited, []);

    const tests = await insights('&test=only');
    assert.equal(tests.test, 'only');
    assert.deepEqual(
      tests.days.map((d) => [d.date, d.conversations, d.messages]),
      [
        ['2026-03-10', 1, 1],
        ['2026-03-11', 1, 2],
      ],
    );
    assert.equal(tests.totals.conversations, 1);
    assert.equal(tests.totals.messages, 3);
    assert.deepEqual(
      tests.gaps.map((g) => g.question),
      ['Do you ship to the moon?'],
    );
    // Cited as often: in the order of their uuids.
    assert.deepEqual(tests.sources_cited.map((c) => [c.title, c.count]).sort(), [
      [src.a!.title, 1],
      [src.b!.title, 1],
    ]);
  });
});

describe('periodDays', () => {
  const days = (zone: string, from: string, to: string) =>
    periodDays(zone, from, to).map((d) => `${d.date} ${d.from} ${d.to}`);

  it('should list every UTC date the period touches, each from its start to the next one', () => {
    assert.deepEqual(days('UTC', '2026-02-27T10:00:00Z', '2026-03-02T00:00:00Z'), [
      '2026-02-27 2026-02-27T10:00:00Z 2026-02-28T00:00:00Z',
      '2026-02-28 2026-02-28T00:00:00Z 2026-03-01T00:00:00Z',
      '2026-03-01 2026-03-01T00:00:00Z 2026-03-02T00:00:00Z',
    ]);
    assert.deepEqual(days('UTC', '2026-03-01T00:00:00Z', '2026-03-01T00:00:01Z'), [
      '2026-03-01 2026-03-01T00:00:00Z 2026-03-01T00:00:01Z',
    ]);
  });

  it("should list a zone's own days, with the hour its clock skips or repeats", () => {
    // Auckland is 13 hours ahead in summer: its 28 November begins at 11:00 UTC the day before.
    assert.deepEqual(days('Pacific/Auckland', '2026-11-26T11:00:00Z', '2026-11-28T11:00:00Z'), [
      '2026-11-27 2026-11-26T11:00:00Z 2026-11-27T11:00:00Z',
      '2026-11-28 2026-11-27T11:00:00Z 2026-11-28T11:00:00Z',
    ]);
    // Berlin's clocks go back at 03:00 on 25 October 2026 (a day of 25 hours), forward at 02:00
    // on 29 March 2026 (23 hours).
    assert.deepEqual(days('Europe/Berlin', '2026-10-23T22:00:00Z', '2026-10-26T23:00:00Z'), [
      '2026-10-24 2026-10-23T22:00:00Z 2026-10-24T22:00:00Z',
      '2026-10-25 2026-10-24T22:00:00Z 2026-10-25T23:00:00Z',
      '2026-10-26 2026-10-25T23:00:00Z 2026-10-26T23:00:00Z',
    ]);
    assert.deepEqual(days('Europe/Berlin', '2026-03-28T12:00:00Z', '2026-03-30T12:00:00Z'), [
      '2026-03-28 2026-03-28T12:00:00Z 2026-03-28T23:00:00Z',
      '2026-03-29 2026-03-28T23:00:00Z 2026-03-29T22:00:00Z',
      '2026-03-30 2026-03-29T22:00:00Z 2026-03-30T12:00:00Z',
    ]);
    // Havana skips midnight on 8 March 2026 (00:00 is 01:00): the day begins at 01:00.
    assert.deepEqual(days('America/Havana', '2026-03-07T05:00:00Z', '2026-03-09T04:00:00Z'), [
      '2026-03-07 2026-03-07T05:00:00Z 2026-03-08T05:00:00Z',
      '2026-03-08 2026-03-08T05:00:00Z 2026-03-09T04:00:00Z',
    ]);
  });
});

describe('periodDays at the end of time', () => {
  // A string comparison of dates looped forever here: the day after 9999-12-31 is written
  // "+010000-01-01", which sorts before it. Timed out rather than hanging the run.
  it(
    'should end at 9999-12-31 in every zone, the last seconds of a zone ahead folded into it',
    { timeout: 10_000 },
    () => {
      for (const zone of ['UTC', 'America/New_York', 'Pacific/Kiritimati', 'Etc/GMT+12']) {
        const last = periodDays(zone, '9999-12-30T00:00:00Z', '9999-12-31T23:59:59Z');
        assert.ok(last.length >= 1 && last.length <= 3, `${zone}: ${last.length} days`);
        assert.equal(last.at(-1)!.date <= '9999-12-31', true, zone);
        assert.equal(last.at(-1)!.to, '9999-12-31T23:59:59Z', zone);
        // A period wholly past 9999-12-31 in the zone's own dates is that last day.
        const ahead = periodDays(zone, '9999-12-31T12:00:00Z', '9999-12-31T23:59:59Z');
        assert.equal(ahead.length, 1, zone);
        assert.equal(ahead[0]!.from, '9999-12-31T12:00:00Z', zone);
      }
    },
  );
});

describe('GET /api/v1/chatbot/{uuid}/insights?tz=', () => {
  let s: ReviewServer;
  let bot: string;
  const at = (time: string) => (Date.parse(time) - BASE) / 1000;

  before(async () => {
    s = await reviewServer();
    bot = await s.chatbot('Zoned');
    const session = await s.session(bot, at('2026-10-20T00:00:00Z'));
    for (const time of [
      // Auckland (UTC+13): late on 27 November, then early on the 28th.
      '2026-11-27T10:30:00Z',
      '2026-11-27T11:30:00Z',
      // Berlin: the last second of 24 October (CEST), the first of the 25th, its last (CET),
      // and the first of the 26th.
      '2026-10-24T21:59:59Z',
      '2026-10-24T22:00:00Z',
      '2026-10-25T22:59:59Z',
      '2026-10-25T23:00:00Z',
    ]) {
      await s.put(session, { at: at(time), query: `asked at ${time}` });
    }
  });
  after(() => s.close());

  const perDay = (body: Insights) => body.days.map((d) => `${d.date}: ${d.messages}`);

  it("should count each day of the reader's zone, a bare date being that zone's day", async () => {
    const { status, body } = await s.get<Insights>(
      `/api/v1/chatbot/${bot}/insights?from=2026-11-27&to=2026-11-28&tz=Pacific/Auckland`,
    );
    assert.equal(status, 200);
    assert.equal(body.from, '2026-11-26T11:00:00Z');
    assert.equal(body.to, '2026-11-28T11:00:00Z');
    assert.deepEqual(perDay(body), ['2026-11-27: 1', '2026-11-28: 1']);
    assert.equal(body.totals.messages, 2);
    // Without a zone the days stay UTC's, as before: both on the 27th.
    const utc = await s.get<Insights>(
      `/api/v1/chatbot/${bot}/insights?from=2026-11-27&to=2026-11-28`,
    );
    assert.deepEqual(perDay(utc.body), ['2026-11-27: 2', '2026-11-28: 0']);
  });

  it('should take the local bounds the admin sends as instants, and date the days by the zone', async () => {
    const { body } = await s.get<Insights>(
      `/api/v1/chatbot/${bot}/insights?from=2026-11-27T11:00:00Z&to=2026-11-28T11:00:00Z&tz=Pacific/Auckland`,
    );
    assert.equal(body.from, '2026-11-27T11:00:00Z');
    assert.deepEqual(perDay(body), ['2026-11-28: 1']);
  });

  it('should count a day of 25 hours whole when the clocks go back', async () => {
    const { body } = await s.get<Insights>(
      `/api/v1/chatbot/${bot}/insights?from=2026-10-24&to=2026-10-26&tz=Europe/Berlin`,
    );
    assert.equal(body.from, '2026-10-23T22:00:00Z');
    assert.equal(body.to, '2026-10-26T23:00:00Z');
    assert.deepEqual(perDay(body), ['2026-10-24: 1', '2026-10-25: 2', '2026-10-26: 1']);
    assert.equal(body.totals.messages, 4);
  });

  it('should begin by default 30 days of the clock before the end asked for, UTC as before', async () => {
    const period = async (query: string) => {
      const { body } = await s.get<Insights>(`/api/v1/chatbot/${bot}/insights?${query}`);
      return [body.from, body.to, body.days.length];
    };
    assert.deepEqual(await period('to=2026-03-12T12:00:00Z'), [
      '2026-02-10T12:00:00Z',
      '2026-03-12T12:00:00Z',
      31,
    ]);
    // Berlin's clocks go forward on 29 March: 30 of its days, from its midnight of 7 March.
    assert.deepEqual(await period('to=2026-04-05&tz=Europe/Berlin'), [
      '2026-03-06T23:00:00Z',
      '2026-04-05T22:00:00Z',
      30,
    ]);
  });

  it("should default to the zone's last 30 days, its today included", async () => {
    const zone = 'Pacific/Auckland';
    const { body } = await s.get<Insights>(`/api/v1/chatbot/${bot}/insights?tz=${zone}`);
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: zone }).format(new Date());
    assert.equal(body.days.length, 30);
    assert.equal(body.days.at(-1)!.date, today);
  });

  it('should answer the last days of time in any zone, ending on 9999-12-31', async () => {
    for (const query of [
      'from=9999-12-31&to=9999-12-31',
      'tz=Pacific/Kiritimati&from=9999-12-01&to=9999-12-31',
      'tz=Europe/Berlin&from=9999-12-30&to=9999-12-31',
      'tz=America/New_York&from=9999-12-30T00:00:00Z&to=9999-12-31T23:59:59Z',
      'tz=Pacific/Kiritimati&from=9999-12-31&to=9999-12-31',
    ]) {
      const { status, body } = await s.get<Insights>(`/api/v1/chatbot/${bot}/insights?${query}`);
      assert.equal(status, 200, query);
      assert.equal(body.days.at(-1)?.date, '9999-12-31', query);
    }
    // Only a period in the future with no end is refused: it would end today.
    const future = await s.get(
      `/api/v1/chatbot/${bot}/insights?tz=Pacific/Kiritimati&from=9999-12-31`,
    );
    assert.equal(future.status, 400);
  });

  it('should take a year of local days whose clocks changed, and a zone spelt in any case', async () => {
    const { status, body } = await s.get<Insights>(
      `/api/v1/chatbot/${bot}/insights?from=2025-10-26&to=2026-10-26&tz=europe/berlin`,
    );
    assert.equal(status, 200);
    assert.equal(body.days.length, 366);
  });
});

describe('insights against the sources as they stand now', () => {
  let s: ReviewServer;
  let bot: string;
  const question = 'Is there a WordPress plugin?';

  before(async () => {
    s = await reviewServer();
    bot = await s.chatbot('Mended');
    const session = await s.session(bot, 0);
    await s.put(session, { at: 100, query: question, response: 'I cannot say.' });
    await s.put(session, { at: 200, query: 'is there a wordpress plugin', response: 'No idea.' });
    await s.put(session, { at: 300, query: 'What does it cost?', response: 'Not known.' });
  });
  after(() => s.close());

  const gaps = async () =>
    (await s.get<Insights>(`/api/v1/chatbot/${bot}/insights?from=2026-03-10&to=2026-03-10`)).body
      .gaps;

  it('should mark a gap answered now once a Q&A answers it, and keep it in its period', async () => {
    assert.deepEqual(
      (await gaps()).map((g) => [g.question, g.count, g.answered_now]),
      [
        ['is there a wordpress plugin', 2, false],
        ['What does it cost?', 1, false],
      ],
    );
    const qa = await s.get<DataSource>(`/api/v1/chatbot/${bot}/data-source/qa`, {
      json: { question, answer: 'There is none: paste the script tag into your theme.' },
    });
    assert.equal(qa.status, 200);
    await s.server.ctx.knowledge.idle();
    assert.deepEqual(
      (await gaps()).map((g) => [g.question, g.count, g.answered_now]),
      [
        ['is there a wordpress plugin', 2, true],
        ['What does it cost?', 1, false],
      ],
    );
  });

  it('should say how often a question asked most went uncovered, whatever its latest answer', async () => {
    const session = await s.session(bot, 0);
    await s.put(session, {
      at: 400,
      query: 'What does it cost?',
      cites: [['some-source', 'Prices']],
    });
    await s.put(session, { at: 500, query: 'What does it cost', response: 'Not known.' });
    await s.put(session, {
      at: 600,
      query: 'what does it cost?',
      cites: [['some-source', 'Prices']],
    });
    const { body } = await s.get<Insights>(
      `/api/v1/chatbot/${bot}/insights?from=2026-03-10&to=2026-03-10`,
    );
    assert.deepEqual(body.top_questions[0], {
      question: 'what does it cost?',
      count: 4,
      covered: true,
      not_covered: 2,
    });
    assert.deepEqual(
      body.gaps.map((g) => [g.question, g.count]),
      [
        ['What does it cost', 2],
        ['is there a wordpress plugin', 2],
      ],
    );
  });
});
