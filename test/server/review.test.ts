import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  type ChatSession,
  type ConversationSummary,
  type MessageRow,
  OWNER_TEST_MEMBER,
  type Page,
} from '../../src/api/types.js';
import { notCoveredText } from '../../src/server/knowledge/suggestions.js';
import { encodeCursor } from '../../src/server/review/params.js';
import { ADMIN_KEY, keys, MESSAGE_KEYS, OTHER_KEY } from './helpers.js';
import {
  allPages,
  DAY,
  type ErrorBody,
  iso,
  type ReviewServer,
  reviewServer,
} from './review-helpers.js';

const MESSAGE_ROW_KEYS = [...MESSAGE_KEYS, 'session_uuid'].sort();
const MISSING = '00000000-0000-4000-8000-000000000000';

describe('GET /api/v1/chatbot/{uuid}/messages and /conversations', () => {
  let s: ReviewServer;
  let bot: string;
  let other: string;
  const m: Record<string, string> = {};
  const sessions: Record<string, string> = {};

  /** The uuids a message list answers, for comparing with the named messages. */
  const listed = async (query: string) => {
    const { status, body } = await s.get<Page<MessageRow>>(
      `/api/v1/chatbot/${bot}/messages${query}`,
    );
    assert.equal(status, 200, JSON.stringify(body));
    return body.data.map((row) => row.uuid);
  };
  const names = (...ids: string[]) => ids.map((id) => m[id]);
  const conversations = async (query: string) => {
    const { status, body } = await s.get<Page<ConversationSummary>>(
      `/api/v1/chatbot/${bot}/conversations${query}`,
    );
    assert.equal(status, 200, JSON.stringify(body));
    return body.data;
  };
  const failure = async (path: string, init?: Parameters<ReviewServer['call']>[1]) =>
    s.get<ErrorBody>(path, init);

  before(async () => {
    s = await reviewServer();
    bot = await s.chatbot('Shop');
    other = await s.chatbot('Other bot of the same user');
    sessions.s1 = await s.session(bot, 0);
    sessions.s2 = await s.session(bot, DAY);
    sessions.s3 = await s.session(bot, 2 * DAY);
    sessions.empty = await s.session(bot, 2 * DAY);
    m.m1 = await s.put(sessions.s1, {
      at: 100,
      query: 'How do refunds work?',
      response: 'Refunds take five days.',
      cites: [['src-1', 'Refund policy']],
      rating: 'up',
    });
    m.m2 = await s.put(sessions.s1, {
      at: 200,
      query: 'Where is my parcel?',
      response: 'Sorry, I do not know.',
      rating: 'down',
      reason: 'wrong',
    });
    m.m3 = await s.put(sessions.s2, {
      at: DAY + 100,
      query: 'I want to talk to a human',
      response: 'Someone will join.',
      escalated: true,
    });
    m.m4 = await s.put(sessions.s2, {
      at: DAY + 200,
      query: 'Can I pay by invoice?',
      response: '',
      error: 'the answer failed: timeout',
    });
    m.m5 = await s.put(sessions.s3, {
      at: 2 * DAY + 50,
      query: 'refund policy?',
      response: 'See the refund page.',
      cites: [['src-1', 'Refund policy']],
    });
    // Another chatbot's message that matches the same words must not show up.
    await s.put(await s.session(other, 0), {
      at: 300,
      query: 'refund please',
      cites: [['x', 'X']],
    });
  });
  after(() => s.close());

  describe('messages', () => {
    it('should list every session’s messages newest first, each a message record with its session_uuid', async () => {
      const { status, body } = await s.get<Page<MessageRow>>(`/api/v1/chatbot/${bot}/messages`);
      assert.equal(status, 200);
      assert.deepEqual(
        body.data.map((r) => r.uuid),
        names('m5', 'm4', 'm3', 'm2', 'm1'),
      );
      assert.equal(body.next_cursor, null);
      for (const row of body.data) assert.deepEqual(keys(row), MESSAGE_ROW_KEYS);
      const first = body.data.at(-1)!;
      assert.equal(first.session_uuid, sessions.s1);
      assert.equal(first.created_at, iso(100));
      assert.deepEqual(JSON.parse(first.feedback_json!), { rating: 'up', at: iso(100) });
      assert.equal(body.data[0]!.feedback_json, '');
      assert.deepEqual(JSON.parse(first.meta_json), {
        rule: 'passages',
        covered: true,
        sources: ['src-1'],
      });
    });

    it('should filter by rating: up, down and none (not rated)', async () => {
      assert.deepEqual(await listed('?rating=up'), names('m1'));
      assert.deepEqual(await listed('?rating=down'), names('m2'));
      assert.deepEqual(await listed('?rating=none'), names('m5', 'm4', 'm3'));
    });

    it('should filter by covered, escalated and error', async () => {
      // m3 was escalated: an agent answered before the sources were asked, so it is no gap.
      assert.deepEqual(await listed('?covered=true'), names('m5', 'm3', 'm1'));
      assert.deepEqual(await listed('?covered=false'), names('m4', 'm2'));
      assert.deepEqual(await listed('?escalated=true'), names('m3'));
      assert.deepEqual(await listed('?escalated=false'), names('m5', 'm4', 'm2', 'm1'));
      assert.deepEqual(await listed('?error=true'), names('m4'));
      assert.deepEqual(await listed('?error=false'), names('m5', 'm3', 'm2', 'm1'));
    });

    it('should take from as inclusive and to as exclusive, a bare date meaning its whole day', async () => {
      assert.deepEqual(await listed('?from=2026-03-11'), names('m5', 'm4', 'm3'));
      assert.deepEqual(await listed('?to=2026-03-11'), names('m4', 'm3', 'm2', 'm1'));
      assert.deepEqual(await listed('?from=2026-03-11&to=2026-03-11'), names('m4', 'm3'));
      assert.deepEqual(
        await listed(`?from=${iso(200)}&to=${encodeURIComponent(iso(DAY + 200))}`),
        names('m3', 'm2'),
      );
      // An offset is honoured: 01:00:00+01:00 is midnight UTC.
      assert.deepEqual(await listed(`?to=${encodeURIComponent('2026-03-10T01:01:40+01:00')}`), []);
      assert.deepEqual(
        await listed(`?to=${encodeURIComponent('2026-03-10T01:01:41+01:00')}`),
        names('m1'),
      );
    });

    it('should take the first and last days four digits can write', async () => {
      const all = names('m5', 'm4', 'm3', 'm2', 'm1');
      assert.deepEqual(await listed('?to=9999-12-31'), all);
      assert.deepEqual(await listed('?from=0001-01-01'), all);
      assert.deepEqual(await listed('?from=0099-01-01&to=9999-12-31T23:59:59Z'), all);
      assert.deepEqual(await listed('?from=9999-12-31'), []);
    });

    it('should filter by session', async () => {
      assert.deepEqual(await listed(`?session=${sessions.s2}`), names('m4', 'm3'));
      assert.deepEqual(await listed(`?session=${MISSING}`), []);
    });

    it('should search questions and answers in full text, word forms and prefixes included', async () => {
      assert.deepEqual(await listed('?q=refund'), names('m5', 'm1'));
      assert.deepEqual(await listed('?q=REFUNDS'), names('m5', 'm1'));
      assert.deepEqual(await listed('?q=refu'), names('m5', 'm1'));
      assert.deepEqual(await listed('?q=parcel'), names('m2'));
      assert.deepEqual(await listed('?q=days%20five'), names('m1'));
      assert.deepEqual(await listed('?q=page'), names('m5'));
      assert.deepEqual(await listed('?q=invoice'), names('m4'));
      assert.deepEqual(await listed('?q=refund%20parcel'), []);
    });

    it('should not find a refusal by the topics it offered, only by what was asked and said', async () => {
      const shop = await s.chatbot('Offered topics');
      const session = await s.session(shop, 0);
      const topics = ['Parking garage hours', 'Gift cards'];
      const refusal = await s.put(session, {
        at: 1,
        query: 'Do you sell bicycles?',
        response: notCoveredText({ close: false, topics }),
        offered: topics,
      });
      const asked = await s.put(session, { at: 2, query: 'Where is the parking garage?' });
      const found = async (q: string) => {
        const { body } = await s.get<Page<MessageRow>>(
          `/api/v1/chatbot/${shop}/messages?q=${encodeURIComponent(q)}`,
        );
        return body.data.map((row) => row.uuid);
      };
      assert.deepEqual(await found('parking'), [asked]);
      assert.deepEqual(await found('gift cards'), []);
      assert.deepEqual(await found('bicycles'), [refusal]);
      assert.deepEqual(await found('reliably'), [refusal]);
    });

    it('should find a word in the forms the stemmer does not bring together', async () => {
      const shop = await s.chatbot('Word forms');
      const session = await s.session(shop, 0);
      const embed = await s.put(session, { at: 1, query: 'How do I embed the widget?' });
      const tried = await s.put(session, { at: 2, query: 'I tried twice' });
      const found = async (q: string) => {
        const { body } = await s.get<Page<MessageRow>>(
          `/api/v1/chatbot/${shop}/messages?q=${encodeURIComponent(q)}`,
        );
        return body.data.map((row) => row.uuid);
      };
      // SQLite's Porter stemmer indexes "embed" as "emb" but reads "embedding" as "embed".
      for (const q of ['embed', 'embedding', 'EMBEDDED', 'embeds', 'embedding widget']) {
        assert.deepEqual(await found(q), [embed], q);
      }
      for (const q of ['try', 'tries', 'tried twice']) assert.deepEqual(await found(q), [tried], q);
    });

    it('should read a search’s punctuation as text, never as query syntax', async () => {
      assert.deepEqual(await listed(`?q=${encodeURIComponent('refund" OR "parcel')}`), []);
      assert.deepEqual(await listed(`?q=${encodeURIComponent('(refund* ^days:')}`), names('m1'));
      assert.deepEqual(await listed(`?q=${encodeURIComponent('"parcel"')}`), names('m2'));
    });

    it('should combine filters', async () => {
      assert.deepEqual(await listed('?q=refund&covered=true&from=2026-03-12'), names('m5'));
      assert.deepEqual(await listed('?rating=none&covered=false&error=false'), []);
      assert.deepEqual(await listed('?rating=none&covered=false'), names('m4'));
      assert.deepEqual(await listed('?q=refund&rating=down'), []);
    });
  });

  describe('conversations', () => {
    it('should list sessions with messages by last activity, with the whole session’s counts', async () => {
      const { status, body } = await s.get<Page<ConversationSummary>>(
        `/api/v1/chatbot/${bot}/conversations`,
      );
      assert.equal(status, 200);
      assert.equal(body.next_cursor, null);
      assert.deepEqual(body.data, [
        {
          session_uuid: sessions.s3,
          first_query: 'refund policy?',
          exchanges: 1,
          last_activity: iso(2 * DAY + 50),
          up: 0,
          down: 0,
          not_covered: 0,
          escalated: 0,
          errors: 0,
          test: false,
        },
        {
          session_uuid: sessions.s2,
          first_query: 'I want to talk to a human',
          exchanges: 2,
          last_activity: iso(DAY + 200),
          up: 0,
          down: 0,
          not_covered: 1, // the escalation is no gap
          escalated: 1,
          errors: 1,
          test: false,
        },
        {
          session_uuid: sessions.s1,
          first_query: 'How do refunds work?',
          exchanges: 2,
          last_activity: iso(200),
          up: 1,
          down: 1,
          not_covered: 1,
          escalated: 0,
          errors: 0,
          test: false,
        },
      ]);
    });

    it('should list a conversation when any of its messages matches', async () => {
      const ids = async (query: string) => (await conversations(query)).map((c) => c.session_uuid);
      assert.deepEqual(await ids('?rating=down'), [sessions.s1]);
      assert.deepEqual(await ids('?q=refund'), [sessions.s3, sessions.s1]);
      assert.deepEqual(await ids('?escalated=true'), [sessions.s2]);
      assert.deepEqual(await ids('?error=true&q=invoice'), [sessions.s2]);
      assert.deepEqual(await ids('?covered=false'), [sessions.s2, sessions.s1]);
      assert.deepEqual(await ids('?from=2026-03-11&to=2026-03-11'), [sessions.s2]);
      assert.deepEqual(await ids(`?session=${sessions.s1}`), [sessions.s1]);
      // The counts stay the whole session's, not the matching messages'.
      const [s1] = await conversations('?rating=up');
      assert.equal(s1!.exchanges, 2);
      assert.equal(s1!.down, 1);
    });
  });

  describe('pages', () => {
    it('should page by cursor with no next_cursor after a full last page', async () => {
      const first = await s.get<Page<MessageRow>>(`/api/v1/chatbot/${bot}/messages?limit=3`);
      assert.deepEqual(
        first.body.data.map((r) => r.uuid),
        names('m5', 'm4', 'm3'),
      );
      assert.equal(typeof first.body.next_cursor, 'string');
      const second = await s.get<Page<MessageRow>>(
        `/api/v1/chatbot/${bot}/messages?limit=2&cursor=${first.body.next_cursor}`,
      );
      assert.deepEqual(
        second.body.data.map((r) => r.uuid),
        names('m2', 'm1'),
      );
      assert.equal(second.body.next_cursor, null);
      const convs = await s.get<Page<ConversationSummary>>(
        `/api/v1/chatbot/${bot}/conversations?limit=2`,
      );
      assert.equal(convs.body.data.length, 2);
      const rest = await s.get<Page<ConversationSummary>>(
        `/api/v1/chatbot/${bot}/conversations?limit=2&cursor=${convs.body.next_cursor}`,
      );
      assert.deepEqual(
        rest.body.data.map((c) => c.session_uuid),
        [sessions.s1],
      );
      assert.equal(rest.body.next_cursor, null);
    });
  });

  describe('isolation and access', () => {
    const routes = (id: string) => [
      `/api/v1/chatbot/${id}/messages`,
      `/api/v1/chatbot/${id}/conversations`,
      `/api/v1/chatbot/${id}/messages/export?format=csv`,
      `/api/v1/chatbot/${id}/insights`,
    ];

    it('should answer 404 for another user’s chatbot and for one that does not exist', async () => {
      for (const path of [...routes(MISSING)]) {
        assert.deepEqual(await failure(path), {
          status: 404,
          body: { error: { code: 'not_found', message: 'chatbot not found' } },
        });
      }
      for (const path of routes(bot)) {
        assert.deepEqual(await failure(path, { key: OTHER_KEY }), {
          status: 404,
          body: { error: { code: 'not_found', message: 'chatbot not found' } },
        });
      }
    });

    it('should refuse a chat-only key, even its own chatbot’s, with 403', async () => {
      const key = await s.chatKey(bot);
      for (const path of routes(bot)) {
        assert.deepEqual(await failure(path, { key }), {
          status: 403,
          body: {
            error: {
              code: 'forbidden',
              message: 'this key is chat-only: it cannot reach this endpoint',
            },
          },
        });
      }
    });

    it('should answer 401 without a key', async () => {
      for (const path of routes(bot))
        assert.equal((await failure(path, { key: null })).status, 401);
    });
  });

  describe('bad parameters', () => {
    const bad: Array<[string, string]> = [
      ['?rating=bad', 'rating must be "up", "down" or "none"'],
      ['?covered=yes', 'covered must be "true" or "false"'],
      ['?escalated=1', 'escalated must be "true" or "false"'],
      ['?error=TRUE', 'error must be "true" or "false"'],
      ['?limit=0', 'limit must be a whole number from 1 to 200'],
      ['?limit=201', 'limit must be a whole number from 1 to 200'],
      ['?limit=2.5', 'limit must be a whole number from 1 to 200'],
      ['?limit=ten', 'limit must be a whole number from 1 to 200'],
      [
        '?from=yesterday',
        'from must be an ISO date (YYYY-MM-DD) or date-time (YYYY-MM-DDTHH:MM:SSZ), not "yesterday"',
      ],
      [
        '?to=2026-02-30',
        'to must be an ISO date (YYYY-MM-DD) or date-time (YYYY-MM-DDTHH:MM:SSZ), not "2026-02-30"',
      ],
      [
        '?to=2026-03-10T24:00:00Z',
        'to must be an ISO date (YYYY-MM-DD) or date-time (YYYY-MM-DDTHH:MM:SSZ), not "2026-03-10T24:00:00Z"',
      ],
      ['?from=2026-03-12&to=2026-03-11', 'from must be before to'],
      ['?q=%3F%3F%21', 'q must hold at least one letter or digit'],
      [`?q=${'a'.repeat(501)}`, 'q must be at most 500 characters'],
      ['?cursor=nonsense', 'cursor must be the next_cursor of a previous page of this list'],
      ['?rating=up&rating=down', 'rating must be given once'],
      ['?test=yes', 'test must be "exclude", "include" or "only"'],
      ['?test=EXCLUDE', 'test must be "exclude", "include" or "only"'],
      [
        '?ratng=up',
        'ratng is not a parameter of this endpoint (it takes q, rating, covered, escalated, error, from, to, session, test, cursor, limit)',
      ],
    ];

    for (const [query, message] of bad) {
      it(`should answer 400 naming the parameter for ${query.slice(0, 60)}`, async () => {
        for (const list of ['messages', 'conversations']) {
          assert.deepEqual(await failure(`/api/v1/chatbot/${bot}/${list}${query}`), {
            status: 400,
            body: { error: { code: 'invalid_input', message } },
          });
        }
      });
    }

    it('should refuse one list’s cursor in the other', async () => {
      const cursor = encodeCursor('c', { at: iso(0), uuid: sessions.s1! });
      const { status, body } = await failure(`/api/v1/chatbot/${bot}/messages?cursor=${cursor}`);
      assert.equal(status, 400);
      assert.match(body.error.message, /^cursor /);
    });

    it('should refuse a cursor that decodes but that this server did not issue', async () => {
      const tampered = (place: unknown[]) =>
        Buffer.from(JSON.stringify(place)).toString('base64url');
      const issued = encodeCursor('m', { at: iso(0), uuid: m.m1! });
      for (const cursor of [
        tampered(['m', "' OR 1=1 --", 'x']),
        tampered(['m', 'zzzz', 'zzzz']),
        tampered(['m', '', '']),
        tampered(['m', iso(0), 'not-a-uuid']),
        tampered(['m', '9999-12-31', m.m1]),
        tampered(['m', iso(0), m.m1, 'extra']),
        // The same place, written otherwise: base64 with its padding, spaces in the JSON.
        Buffer.from(JSON.stringify(['m', iso(0), m.m1])).toString('base64'),
        Buffer.from(`[ "m", "${iso(0)}", "${m.m1}" ]`).toString('base64url'),
        `${issued}A`,
      ]) {
        assert.deepEqual(
          await failure(`/api/v1/chatbot/${bot}/messages?cursor=${encodeURIComponent(cursor)}`),
          {
            status: 400,
            body: {
              error: {
                code: 'invalid_input',
                message: 'cursor must be the next_cursor of a previous page of this list',
              },
            },
          },
          cursor,
        );
      }
      assert.equal((await s.get(`/api/v1/chatbot/${bot}/messages?cursor=${issued}`)).status, 200);
    });

    it('should take empty parameters as absent, as a form sends them', async () => {
      assert.deepEqual(await listed('?q=&rating=&limit='), names('m5', 'm4', 'm3', 'm2', 'm1'));
    });
  });

  describe('kept in step with changes', () => {
    it('should drop a deleted message from search and its conversation’s last activity', async () => {
      const session = await s.session(bot, 3 * DAY);
      const kept = await s.put(session, { at: 3 * DAY + 10, query: 'zebra crossing' });
      const gone = await s.put(session, { at: 3 * DAY + 20, query: 'zebra stripes' });
      assert.deepEqual(await listed('?q=zebra'), [gone, kept]);
      assert.equal(
        (await s.call(`/api/v1/message/${gone}/delete`, { method: 'POST' })).status,
        200,
      );
      assert.deepEqual(await listed('?q=zebra'), [kept]);
      assert.deepEqual(await listed('?q=stripes'), []);
      const [latest] = await conversations('?limit=1');
      assert.deepEqual(
        { session: latest!.session_uuid, at: latest!.last_activity, n: latest!.exchanges },
        { session, at: iso(3 * DAY + 10), n: 1 },
      );
      await s.call(`/api/v1/session/${session}/delete`, { method: 'POST' });
      assert.deepEqual(await listed('?q=zebra'), []);
      assert.equal(
        (await conversations('')).some((c) => c.session_uuid === session),
        false,
      );
    });
  });
});

describe("the owner's tests (Try it) in the review", () => {
  let s: ReviewServer;
  let bot: string;
  /** Sessions by who made them: a visitor, the owner's Try it, a page's chat-only key. */
  const sessions: Record<'visitor' | 'owner' | 'chatOnly', string> = {
    visitor: '',
    owner: '',
    chatOnly: '',
  };
  const m: Record<string, string> = {};
  const marked = { [OWNER_TEST_MEMBER]: true, page: 'pricing' };

  const created = async (key: string) => {
    const { status, body } = await s.get<ChatSession>(`/api/v1/chatbot/${bot}/session/create`, {
      key,
      json: marked,
    });
    assert.equal(status, 200, JSON.stringify(body));
    return body.uuid;
  };
  const listed = async (list: 'messages' | 'conversations', query = '') => {
    const { status, body } = await s.get<Page<MessageRow | ConversationSummary>>(
      `/api/v1/chatbot/${bot}/${list}${query}`,
    );
    assert.equal(status, 200, JSON.stringify(body));
    return body.data.map((row) => ('uuid' in row ? row.uuid : row.session_uuid));
  };

  before(async () => {
    s = await reviewServer();
    bot = await s.chatbot('Tried before launch');
    sessions.visitor = await s.session(bot, 0);
    sessions.owner = await created(ADMIN_KEY);
    sessions.chatOnly = await created(await s.chatKey(bot));
    m.visitor = await s.put(sessions.visitor, { at: 100, query: 'Where is my refund?' });
    m.owner = await s.put(sessions.owner, {
      at: 200,
      query: 'Do you ship to the moon? refund',
      rating: 'down',
    });
    m.chatOnly = await s.put(sessions.chatOnly, { at: 300, query: 'Opening hours?' });
  });
  after(() => s.close());

  it('should mark a session the owner’s test only when a full-access key creates it, its data kept as given', async () => {
    assert.equal((await s.store.getSession(sessions.owner))!.test, true);
    // A visitor on a public page cannot hide a conversation from the owner's review.
    assert.equal((await s.store.getSession(sessions.chatOnly))!.test, false);
    assert.equal((await s.store.getSession(sessions.visitor))!.test, false);
    for (const uuid of [sessions.owner, sessions.chatOnly]) {
      const { body } = await s.get<ChatSession>(`/api/v1/session/${uuid}`);
      assert.deepEqual(body.meta, marked);
    }
    // Only `true` marks one: the member is data like any other otherwise.
    const { body } = await s.get<ChatSession>(`/api/v1/chatbot/${bot}/session/create`, {
      json: { [OWNER_TEST_MEMBER]: 'true' },
    });
    assert.equal((await s.store.getSession(body.uuid))!.test, false);
    await s.call(`/api/v1/session/${body.uuid}/delete`, { method: 'POST' });
  });

  it('should leave the interface’s own session list as it is: every session, its three members', async () => {
    const { body } = await s.get<object[]>(`/api/v1/chatbot/${bot}/sessions`);
    assert.equal(body.length, 3);
    for (const row of body) assert.deepEqual(keys(row), ['created_at', 'modified_at', 'uuid']);
  });

  it('should leave the owner’s tests out of both lists by default, list them with test=include and alone with test=only', async () => {
    for (const list of ['messages', 'conversations'] as const) {
      const id = (name: keyof typeof sessions) => (list === 'messages' ? m[name] : sessions[name]);
      assert.deepEqual(await listed(list), [id('chatOnly'), id('visitor')], list);
      assert.deepEqual(await listed(list, '?test=exclude'), [id('chatOnly'), id('visitor')]);
      assert.deepEqual(await listed(list, '?test=include'), [
        id('chatOnly'),
        id('owner'),
        id('visitor'),
      ]);
      assert.deepEqual(await listed(list, '?test=only'), [id('owner')]);
      // Under other filters and a search alike.
      assert.deepEqual(await listed(list, '?rating=down'), []);
      assert.deepEqual(await listed(list, '?rating=down&test=only'), [id('owner')]);
      assert.deepEqual(await listed(list, '?q=refund'), [id('visitor')]);
      assert.deepEqual(await listed(list, '?q=refund&test=include'), [id('owner'), id('visitor')]);
      assert.deepEqual(await listed(list, `?session=${sessions.owner}`), []);
      assert.deepEqual(await listed(list, `?session=${sessions.owner}&test=only`), [id('owner')]);
    }
  });

  it('should say which conversation is the owner’s test', async () => {
    const { body } = await s.get<Page<ConversationSummary>>(
      `/api/v1/chatbot/${bot}/conversations?test=include`,
    );
    assert.deepEqual(
      body.data.map((c) => [c.session_uuid, c.test]),
      [
        [sessions.chatOnly, false],
        [sessions.owner, true],
        [sessions.visitor, false],
      ],
    );
  });

  it('should export the visitors’ exchanges by default and the owner’s tests when asked', async () => {
    const exported = async (query: string) => {
      const response = await s.call(`/api/v1/chatbot/${bot}/messages/export?format=json${query}`);
      assert.equal(response.status, 200);
      const rows = (await response.json()) as Array<{ session_uuid: string }>;
      assert.equal(response.headers.get('x-total-count'), String(rows.length));
      return rows.map((row) => row.session_uuid);
    };
    assert.deepEqual(await exported(''), [sessions.chatOnly, sessions.visitor]);
    assert.deepEqual(await exported('&test=only'), [sessions.owner]);
    assert.equal((await exported('&test=include')).length, 3);
    assert.deepEqual(await exported('&rating=down'), []);
    assert.deepEqual(await exported('&rating=down&test=only'), [sessions.owner]);
    const { status, body } = await s.get<ErrorBody>(
      `/api/v1/chatbot/${bot}/messages/export?format=csv&test=all`,
    );
    assert.deepEqual(
      { status, body },
      {
        status: 400,
        body: {
          error: {
            code: 'invalid_input',
            message: 'test must be "exclude", "include" or "only"',
          },
        },
      },
    );
  });
});

describe('pages while messages arrive', () => {
  let s: ReviewServer;
  let bot: string;
  before(async () => {
    s = await reviewServer();
    bot = await s.chatbot('Busy');
  });
  after(() => s.close());

  it('should return every message once, with no duplicates or gaps, while new ones arrive', async () => {
    const sessions = await Promise.all(Array.from({ length: 10 }, (_, i) => s.session(bot, i)));
    const original: string[] = [];
    // Three messages share each second, so the uuid decides their order within it.
    for (let i = 0; i < 60; i++) {
      original.push(
        await s.put(sessions[i % 10]!, { at: 1000 + Math.floor(i / 3), query: `q${i}` }),
      );
    }
    let arrived = 0;
    const seen = await allPages<MessageRow>(
      s,
      `/api/v1/chatbot/${bot}/messages?limit=7`,
      async () => {
        // New answers, some in the very second the list's newest row has.
        await s.put(sessions[arrived % 10]!, { at: 1019 + arrived, query: `new ${arrived}` });
        arrived++;
      },
    );
    const ids = seen.map((r) => r.uuid);
    assert.equal(new Set(ids).size, ids.length, 'no message twice');
    assert.deepEqual(new Set(ids.filter((id) => original.includes(id))), new Set(original));
    assert.ok(arrived >= 8);
    // Newest first throughout.
    const places = seen.map((r) => `${r.created_at} ${r.uuid}`);
    assert.deepEqual(places, [...places].sort().reverse());
  });

  it('should list every conversation once while new conversations start', async () => {
    const before = (
      await allPages<ConversationSummary>(s, `/api/v1/chatbot/${bot}/conversations`)
    ).map((c) => c.session_uuid);
    assert.equal(before.length, 10);
    let started = 0;
    const seen = await allPages<ConversationSummary>(
      s,
      `/api/v1/chatbot/${bot}/conversations?limit=3`,
      async () => {
        const session = await s.session(bot, 5000 + started);
        await s.put(session, { at: 5000 + started, query: `new conversation ${started}` });
        started++;
      },
    );
    const ids = seen.map((c) => c.session_uuid);
    assert.equal(new Set(ids).size, ids.length, 'no conversation twice');
    assert.deepEqual(new Set(ids.filter((id) => before.includes(id))), new Set(before));
    assert.ok(started >= 3);
  });
});
