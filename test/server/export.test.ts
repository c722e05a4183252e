import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import Papa from 'papaparse';
import { csvCell } from '../../src/server/review/export.js';
import { type Harness, settled, startHarness } from './helpers.js';
import { type ErrorBody, iso, type ReviewServer, reviewServer } from './review-helpers.js';

const HEADER =
  'session_uuid,created_at,query,response,rating,reason,comment,covered,cited_sources,test';
const JSON_KEYS = HEADER.split(',');

interface JsonRow {
  session_uuid: string;
  created_at: string;
  query: string;
  response: string;
  rating: string | null;
  reason: string;
  comment: string;
  covered: boolean;
  cited_sources: string[];
  test: boolean;
}

/** Text that spreadsheets and CSV readers trip on, one kind per exchange. */
const AWKWARD = [
  { query: 'He said "hi", then left', response: 'Quotes "inside", and a comma' },
  { query: 'Line one\nline two', response: 'Windows\r\nline ends\r\nhere' },
  { query: '=SUM(A1:A9)', response: '+1 555 0100' },
  { query: '-2 apples', response: '@mention someone' },
  { query: '\tstarts with a tab', response: '\rstarts with a carriage return' },
  { query: 'naïve café — 日本語 🙂', response: ' leading and trailing spaces ' },
  { query: '"=quoted formula"', response: '=HYPERLINK("http://example.com/x","click")' },
];

describe('GET /api/v1/chatbot/{uuid}/messages/export', () => {
  let s: ReviewServer;
  let bot: string;
  let session: string;

  const download = async (query: string) => {
    const response = await s.call(`/api/v1/chatbot/${bot}/messages/export${query}`);
    const bytes = new Uint8Array(await response.arrayBuffer());
    return { response, bytes, text: new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes) };
  };

  before(async () => {
    s = await reviewServer();
    bot = await s.chatbot('Exported');
    session = await s.session(bot, 0);
    for (const [i, m] of AWKWARD.entries()) {
      await s.put(session, {
        at: 10 + i,
        ...m,
        cites:
          i === 0
            ? [
                ['src-1', 'Guide, "v2"'],
                ['src-2', 'FAQ'],
              ]
            : [],
        ...(i === 2
          ? { rating: 'down' as const, reason: 'wrong' as const, comment: '=cmd|" /C calc"!A0' }
          : {}),
        ...(i === 0 ? { rating: 'up' as const } : {}),
      });
    }
  });
  after(() => s.close());

  it('should stream CSV with a BOM, CRLF rows, RFC 4180 quoting and formulas made text', async () => {
    const { response, bytes, text } = await download('?format=csv');
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'text/csv; charset=utf-8');
    assert.equal(
      response.headers.get('content-disposition'),
      `attachment; filename="messages-${bot}.csv"`,
    );
    assert.equal(response.headers.get('x-total-count'), String(AWKWARD.length));
    assert.deepEqual([...bytes.slice(0, 3)], [0xef, 0xbb, 0xbf]);
    assert.ok(text.startsWith(`\uFEFF${HEADER}\r\n`));
    // Newest first: the last awkward exchange is the first row.
    const rows = text.slice(1).split('\r\n');
    assert.equal(
      rows[1],
      `${session},${iso(16)},"""=quoted formula""","'=HYPERLINK(""http://example.com/x"",""click"")",,,,false,,false`,
    );
    assert.ok(
      text.includes(
        `${session},${iso(12)},'=SUM(A1:A9),'+1 555 0100,down,wrong,"'=cmd|"" /C calc""!A0",false,,false\r\n`,
      ),
    );
    assert.ok(
      text.includes(
        `${session},${iso(10)},"He said ""hi"", then left","Quotes ""inside"", and a comma",up,,,true,"Guide, ""v2""; FAQ",false\r\n`,
      ),
    );
    assert.ok(text.includes(`${session},${iso(13)},'-2 apples,'@mention someone,`));
    assert.ok(text.includes(`'\tstarts with a tab,"'\rstarts with a carriage return"`));
    assert.ok(text.endsWith('\r\n'));
  });

  it('should read back, with a CSV parser, as the stored text with the formula guard in front', async () => {
    const { text } = await download('?format=csv');
    const parsed = Papa.parse<Record<string, string>>(text.slice(1), {
      header: true,
      skipEmptyLines: true,
      newline: '\r\n',
    });
    assert.deepEqual(parsed.errors, []);
    assert.deepEqual(parsed.meta.fields, JSON_KEYS);
    const guard = (v: string) => (/^[=+\-@\t\r]/.test(v) ? `'${v}` : v);
    assert.deepEqual(
      parsed.data.map((r) => [r.query, r.response]),
      [...AWKWARD].reverse().map((m) => [guard(m.query), guard(m.response)]),
    );
    const first = parsed.data.at(-1)!;
    assert.equal(first.cited_sources, 'Guide, "v2"; FAQ');
    assert.equal(first.covered, 'true');
    assert.equal(first.rating, 'up');
  });

  it('should stream JSON as an array of rows with the same keys and the text unchanged', async () => {
    const { response, text } = await download('?format=json');
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'application/json; charset=utf-8');
    assert.equal(
      response.headers.get('content-disposition'),
      `attachment; filename="messages-${bot}.json"`,
    );
    assert.equal(response.headers.get('x-total-count'), String(AWKWARD.length));
    const rows = JSON.parse(text) as JsonRow[];
    for (const row of rows) assert.deepEqual(Object.keys(row), JSON_KEYS);
    assert.deepEqual(
      rows.map((r) => [r.query, r.response]),
      [...AWKWARD].reverse().map((m) => [m.query, m.response]),
    );
    assert.deepEqual(rows.at(-1), {
      session_uuid: session,
      created_at: iso(10),
      query: AWKWARD[0]!.query,
      response: AWKWARD[0]!.response,
      rating: 'up',
      reason: '',
      comment: '',
      covered: true,
      cited_sources: ['Guide, "v2"', 'FAQ'],
      test: false,
    });
    assert.equal(rows[0]!.rating, null);
    assert.equal(rows.find((r) => r.rating === 'down')!.comment, '=cmd|" /C calc"!A0');
  });

  it('should export only what the filters match', async () => {
    const csv = await download('?format=csv&rating=down');
    assert.equal(csv.response.headers.get('x-total-count'), '1');
    assert.equal(csv.text.trimEnd().split('\r\n').length, 2);
    const json = await download('?format=json&q=apples');
    assert.deepEqual(
      (JSON.parse(json.text) as JsonRow[]).map((r) => r.query),
      ['-2 apples'],
    );
    const empty = await download('?format=json&q=nothingmatches');
    assert.equal(empty.response.headers.get('x-total-count'), '0');
    assert.deepEqual(JSON.parse(empty.text), []);
    const emptyCsv = await download('?format=csv&q=nothingmatches');
    assert.equal(emptyCsv.text, `\uFEFF${HEADER}\r\n`);
  });

  it('should mark the owner’s tests when they are exported with visitors’ conversations, or alone', async () => {
    const mixed = await s.chatbot('Mixed');
    const visitor = await s.session(mixed, 0);
    const owner = await s.session(mixed, 1, { test: true });
    await s.put(visitor, { at: 10, query: 'asked by a visitor' });
    await s.put(owner, { at: 11, query: 'asked in Try it' });
    const rows = async (query: string) => {
      const response = await s.call(`/api/v1/chatbot/${mixed}/messages/export${query}`);
      return (JSON.parse(await response.text()) as JsonRow[]).map((r) => [r.query, r.test]);
    };
    assert.deepEqual(await rows('?format=json'), [['asked by a visitor', false]]);
    assert.deepEqual(await rows('?format=json&test=include'), [
      ['asked in Try it', true],
      ['asked by a visitor', false],
    ]);
    assert.deepEqual(await rows('?format=json&test=only'), [['asked in Try it', true]]);
    const csv = await s.call(`/api/v1/chatbot/${mixed}/messages/export?format=csv&test=include`);
    const lines = (await csv.text()).trimEnd().split('\r\n');
    assert.deepEqual(
      lines.slice(1).map((line) => line.split(',').at(-1)),
      ['true', 'false'],
    );
  });

  it('should export every row exactly once across many batches', async () => {
    const big = await s.chatbot('Big');
    const sessions = await Promise.all(Array.from({ length: 40 }, (_, i) => s.session(big, i)));
    const n = 1234;
    for (let i = 0; i < n; i++) {
      await s.put(sessions[i % 40]!, { at: 100 + Math.floor(i / 4), query: `question ${i}` });
    }
    const response = await s.call(`/api/v1/chatbot/${big}/messages/export?format=json`);
    assert.equal(response.headers.get('x-total-count'), String(n));
    const rows = JSON.parse(await response.text()) as JsonRow[];
    assert.equal(rows.length, n);
    assert.equal(new Set(rows.map((r) => r.query)).size, n);
    const times = rows.map((r) => r.created_at);
    assert.deepEqual(times, [...times].sort().reverse());
    const csv = await s.call(`/api/v1/chatbot/${big}/messages/export?format=csv`);
    assert.equal((await csv.text()).trimEnd().split('\r\n').length, n + 1);
  });

  it('should answer 400 naming format, and refuse the list’s page parameters', async () => {
    const cases: Array<[string, string]> = [
      ['', 'format must be "csv" or "json"'],
      ['?format=xlsx', 'format must be "csv" or "json"'],
      ['?format=csv&covered=maybe', 'covered must be "true" or "false"'],
      [
        '?format=csv&cursor=x',
        'cursor is not a parameter of this endpoint (it takes q, rating, covered, escalated, error, from, to, session, test, format)',
      ],
    ];
    for (const [query, message] of cases) {
      assert.deepEqual(await s.get<ErrorBody>(`/api/v1/chatbot/${bot}/messages/export${query}`), {
        status: 400,
        body: { error: { code: 'invalid_input', message } },
      });
    }
  });
});

describe('csvCell', () => {
  it('should quote only what needs quoting and guard every formula lead', () => {
    assert.equal(csvCell('plain'), 'plain');
    assert.equal(csvCell(''), '');
    assert.equal(csvCell('a,b'), '"a,b"');
    assert.equal(csvCell('say "x"'), '"say ""x"""');
    assert.equal(csvCell('a\nb'), '"a\nb"');
    for (const lead of ['=', '+', '-', '@', '\t']) assert.equal(csvCell(`${lead}1`), `'${lead}1`);
    assert.equal(csvCell('\r1'), `"'\r1"`);
    assert.equal(csvCell('a=1'), 'a=1');
  });
});

describe('the export through the API module, over HTTP', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(() => h.close());

  it('should hand over the streamed response with X-Total-Count readable across origins', async () => {
    const bot = (await h.api.chatbots.create({ name: 'Over HTTP' })).uuid;
    const source = await h.api.sources.createQa(bot, {
      question: 'Hours?',
      answer: 'Nine to five.',
    });
    await settled(h, bot, source.uuid);
    const session = (await h.api.sessions.create(bot)).uuid;
    await h.api.messages.send(session, 'Hours?');
    const response = await h.api.review.export(bot, { format: 'csv', covered: true });
    assert.equal(response.headers.get('x-total-count'), '1');
    assert.match(response.headers.get('access-control-expose-headers') ?? '', /X-Total-Count/i);
    const text = await response.text();
    assert.match(text, /,Hours\?,Nine to five\.,,,,true,Hours\?,false\r\n$/);
  });
});
