import { wordForms } from '../../word-forms.js';
import { message, SESSION_TEST, testColumn } from '../rows.js';
import type { InsightsRows, Keyset, MessageFilter, Store } from '../types.js';
import type { Immediate, Row, Sql } from './db.js';

export type ReviewQueries = Immediate<
  Pick<Store, 'findMessages' | 'countMessages' | 'findConversations' | 'insights'>
>;

/**
 * An FTS5 query that finds every word (each quoted, so nothing the visitor typed is read as
 * query syntax) in any of its forms (`wordForms`: "embedding" finds "embed"), the last also as
 * the start of a longer word, for search as you type. Only from four letters on: "th" or "the"
 * as a prefix would match most of the index and cost as much.
 */
export function ftsQuery(words: string[]): string {
  const last = words.length - 1;
  return words
    .map((word, i) => {
      const forms = wordForms(word).map((form) => `"${form.replaceAll('"', '""')}"`);
      if (i === last && [...word].length >= 4) forms.push(`${forms[0]}*`);
      return forms.length === 1 ? forms[0] : `(${forms.join(' OR ')})`;
    })
    .join(' AND ');
}

/** Below this many matches a search starts from the full-text index, above it from the list's order. */
const FEW_MATCHES = 1000;

/**
 * The conditions on `messages m` of a filter, each written as the index in schema.ts that serves
 * it expects (`escalated = 1`, `failed = 1`), so SQLite can pick the index that narrows most.
 *
 * A search's matches are one list built once per query. When they are few, the rows are fetched
 * by id and sorted; when they are many, the list's own index is walked newest first and each row
 * checked against the matches (the `+` keeps SQLite from fetching by id instead), which stops as
 * soon as a page is full.
 */
function conditions(filter: MessageFilter, fewMatches: boolean) {
  const clauses: string[] = [];
  const params: unknown[] = [];
  if (filter.words && filter.words.length > 0) {
    const id = fewMatches ? 'm.id' : '+m.id';
    clauses.push(`${id} IN (SELECT rowid FROM messages_fts WHERE messages_fts MATCH ?)`);
    params.push(ftsQuery(filter.words));
  }
  if (filter.rating === 'none') clauses.push('m.rating IS NULL');
  else if (filter.rating) {
    clauses.push('m.rating = ?');
    params.push(filter.rating);
  }
  if (filter.covered !== undefined) clauses.push(`m.covered = ${filter.covered ? 1 : 0}`);
  if (filter.escalated !== undefined) clauses.push(`m.escalated = ${filter.escalated ? 1 : 0}`);
  if (filter.error !== undefined) clauses.push(`m.failed = ${filter.error ? 1 : 0}`);
  if (filter.from) {
    clauses.push('m.created_at >= ?');
    params.push(filter.from);
  }
  if (filter.to) {
    clauses.push('m.created_at < ?');
    params.push(filter.to);
  }
  if (filter.session) {
    clauses.push('m.session_uuid = ?');
    params.push(filter.session);
  }
  return { clauses, params };
}

const count = (value: unknown) => Number(value ?? 0);

/** The owner's test sessions of the chatbot given as its parameter, from their partial index. */
const TEST_SESSIONS = '(SELECT t.uuid FROM sessions t WHERE t.chatbot_uuid = ? AND t.test = 1)';

/**
 * The condition that leaves out, or keeps only, the owner's test sessions (`test` of the filter)
 * on `column`, a session uuid; its parameter is the chatbot's uuid.
 */
const inTests = (column: string, test: MessageFilter['test']) =>
  test && `${column} ${test === 'only' ? 'IN' : 'NOT IN'} ${TEST_SESSIONS}`;

/**
 * The same on `m.id`: the test sessions' messages, read once per statement through
 * messages_session. Every index holds the rowid, so each list, count and sum still reads its
 * index alone; a message's session_uuid is held by messages_activity only.
 */
const inTestMessages = (column: string, test: MessageFilter['test']) =>
  test &&
  `${column} ${test === 'only' ? 'IN' : 'NOT IN'} (SELECT x.id FROM messages x WHERE x.session_uuid IN ${TEST_SESSIONS})`;

/** The review reads: chatbot-wide message and conversation lists, counts and insights. */
export function reviewQueries(sql: Sql): ReviewQueries {
  const { all, one } = sql;

  const fewMatches = (filter: MessageFilter) =>
    !filter.words?.length ||
    count(
      one(
        'SELECT count(*) AS n FROM (SELECT 1 FROM messages_fts WHERE messages_fts MATCH ? LIMIT ?)',
        ftsQuery(filter.words),
        FEW_MATCHES + 1,
      )?.n,
    ) <= FEW_MATCHES;

  /** WHERE over `messages m` for the chatbot's messages that match. */
  const matching = (chatbotUuid: string, filter: MessageFilter) => {
    const { clauses, params } = conditions(filter, fewMatches(filter));
    const tests = inTestMessages('m.id', filter.test);
    return {
      where: ['m.chatbot_uuid = ?', ...clauses, ...(tests ? [tests] : [])].join(' AND '),
      params: [chatbotUuid, ...params, ...(tests ? [chatbotUuid] : [])],
    };
  };

  const conversationCounts = (sessionUuids: string[]) => {
    const rows = all(
      `SELECT m.session_uuid, count(*) AS exchanges, sum(m.rating = 'up') AS up,
          sum(m.rating = 'down') AS down, sum(m.covered = 0) AS not_covered,
          sum(m.escalated) AS escalated, sum(m.failed) AS errors,
          (SELECT f.query FROM messages f WHERE f.session_uuid = m.session_uuid
            ORDER BY f.created_at, f.id LIMIT 1) AS first_query,
          ${SESSION_TEST}
        FROM messages m
        WHERE m.session_uuid IN (SELECT value FROM json_each(?))
        GROUP BY m.session_uuid`,
      JSON.stringify(sessionUuids),
    );
    return new Map(rows.map((r) => [String(r.session_uuid), r]));
  };

  /**
   * Which sessions match, as conditions on `sessions s`. Sessions are walked by last activity,
   * each checked through its own few messages, and the walk stops once a page is full; a search
   * with few matches goes the other way, from its matches to their sessions.
   */
  const matchingSessions = (chatbotUuid: string, filter: MessageFilter) => {
    const clauses: string[] = [];
    const params: unknown[] = [];
    const { session, test, ...rest } = filter;
    if (session) {
      clauses.push('s.uuid = ?');
      params.push(session);
    }
    const tests = inTests('s.uuid', test);
    if (tests) {
      clauses.push(tests);
      params.push(chatbotUuid);
    }
    // A session whose last message is older than `from` has none after it.
    if (filter.from) {
      clauses.push('s.last_activity >= ?');
      params.push(filter.from);
    }
    const few = rest.words?.length ? fewMatches(rest) : false;
    const m = conditions(rest, few);
    if (m.clauses.length > 0) {
      clauses.push(
        few
          ? `s.uuid IN (SELECT m.session_uuid FROM messages m WHERE ${m.clauses.join(' AND ')})`
          : `EXISTS (SELECT 1 FROM messages m WHERE m.session_uuid = s.uuid AND ${m.clauses.join(' AND ')})`,
      );
      params.push(...m.params);
    }
    return { clauses, params };
  };

  const inPeriod = 'm.chatbot_uuid = ? AND m.created_at >= ? AND m.created_at < ?';

  /**
   * ` AND` a condition of `inTests` or `inTestMessages`, with its parameters: none when there is
   * no condition, else the chatbot's uuid.
   */
  const andTests = (clause: string | undefined | false, chatbotUuid: unknown) =>
    clause ? { and: ` AND ${clause}`, params: [chatbotUuid] } : { and: '', params: [] };
  const testsOf = (chatbotUuid: string, test: MessageFilter['test']) =>
    andTests(inTestMessages('m.id', test), chatbotUuid);

  /**
   * Questions grouped by wording in one pass (each grouping sorts the period's rows, the
   * insights' costliest step): the most asked, and the most asked of those not covered, with how
   * many of each were not covered; each with its latest wording and answer.
   */
  const questions = (period: unknown[], top: number, test: MessageFilter['test']) => {
    const tests = testsOf(String(period[0]), test);
    const rows = all(
      `WITH g AS MATERIALIZED (
          SELECT m.query_norm, count(*) AS n, max(m.created_at) AS last,
            sum(m.covered = 0) AS not_covered,
            max(CASE WHEN m.covered = 0 THEN m.created_at END) AS last_not_covered
          FROM messages m WHERE ${inPeriod} AND m.query_norm <> ''${tests.and}
          GROUP BY m.query_norm)
        SELECT * FROM (SELECT 0 AS gap, query_norm, n, last, not_covered FROM g
          ORDER BY n DESC, last DESC LIMIT ?)
        UNION ALL
        SELECT * FROM (SELECT 1 AS gap, query_norm, not_covered, last_not_covered, not_covered
          FROM g WHERE not_covered > 0 ORDER BY not_covered DESC, last_not_covered DESC LIMIT ?)`,
      ...period,
      ...tests.params,
      top,
      top,
    );
    // A row or two each, read whole: their sessions are asked, not the tests' every message.
    const sessionTests = andTests(inTests('m.session_uuid', test), period[0]);
    const latest = (r: Row) => {
      const uncovered = r.gap ? ' AND m.covered = 0' : '';
      const found = one(
        `SELECT m.query, m.covered FROM messages m
          WHERE m.chatbot_uuid = ? AND m.created_at = ? AND m.query_norm = ?${uncovered}
            ${sessionTests.and}
          ORDER BY m.uuid DESC LIMIT 1`,
        period[0],
        r.last,
        r.query_norm,
        ...sessionTests.params,
      );
      return {
        question: String(found?.query ?? r.query_norm),
        count: count(r.n),
        covered: found?.covered === 1,
        not_covered: count(r.not_covered),
        last: String(r.last),
      };
    };
    return {
      top: rows.filter((r) => !r.gap).map(latest),
      gaps: rows.filter((r) => r.gap).map(latest),
    };
  };

  /** Each source's citations in the period, most cited first. */
  const citedSources = (period: unknown[], test: MessageFilter['test']) => {
    const inPeriod = 'c.chatbot_uuid = ? AND c.created_at >= ? AND c.created_at < ?';
    const order = 'ORDER BY n DESC, source_uuid';
    // The owner's tests' few, found from their sessions.
    const byTests = `SELECT c.source_uuid, count(*) AS n FROM messages x
        JOIN message_sources c ON c.message_id = x.id
        WHERE x.session_uuid IN ${TEST_SESSIONS} AND ${inPeriod} GROUP BY c.source_uuid`;
    const every = `SELECT c.source_uuid, count(*) AS n FROM message_sources c WHERE ${inPeriod}
        GROUP BY c.source_uuid`;
    if (test === 'only') return all(`${byTests} ${order}`, period[0], ...period);
    if (test !== 'exclude') return all(`${every} ${order}`, ...period);
    // Every citation less the tests': left out row by row, the tests took longer than the count
    // itself (26 ms against 12 at 100,000 messages).
    return all(
      `SELECT source_uuid, sum(n) AS n FROM (${every} UNION ALL SELECT source_uuid, -n FROM (${byTests}))
        GROUP BY source_uuid HAVING sum(n) > 0 ${order}`,
      ...period,
      period[0],
      ...period,
    );
  };

  return {
    findMessages(chatbotUuid, filter, after, limit) {
      const { where, params } = matching(chatbotUuid, filter);
      const keyset = after ? ' AND (m.created_at, m.uuid) < (?, ?)' : '';
      return all(
        `SELECT m.*${testColumn(filter.test)} FROM messages m WHERE ${where}${keyset}
          ORDER BY m.created_at DESC, m.uuid DESC LIMIT ?`,
        ...params,
        ...keysetParams(after),
        limit,
      ).map(message);
    },

    countMessages(chatbotUuid, filter) {
      if (filter.test === 'exclude') {
        // Every match less the owner's tests': counting reads an index alone, and checking each
        // of 100,000 rows against the tests took four times as long as the count itself.
        const all = matching(chatbotUuid, { ...filter, test: undefined });
        const tests = matching(chatbotUuid, { ...filter, test: 'only' });
        return count(
          one(
            `SELECT (SELECT count(*) FROM messages m WHERE ${all.where})
              - (SELECT count(*) FROM messages m WHERE ${tests.where}) AS n`,
            ...all.params,
            ...tests.params,
          )?.n,
        );
      }
      const { where, params } = matching(chatbotUuid, filter);
      return count(one(`SELECT count(*) AS n FROM messages m WHERE ${where}`, ...params)?.n);
    },

    findConversations(chatbotUuid, filter, after, limit) {
      const keyset = after ? ' AND (s.last_activity, s.uuid) < (?, ?)' : '';
      const matched = matchingSessions(chatbotUuid, filter);
      const sessions = all(
        `SELECT s.uuid, s.last_activity FROM sessions s
          WHERE s.chatbot_uuid = ? AND s.last_activity IS NOT NULL${keyset}
            ${matched.clauses.map((c) => `AND ${c}`).join(' ')}
          ORDER BY s.last_activity DESC, s.uuid DESC LIMIT ?`,
        chatbotUuid,
        ...keysetParams(after),
        ...matched.params,
        limit,
      );
      const counts = conversationCounts(sessions.map((s) => String(s.uuid)));
      return sessions.flatMap((s) => {
        const c = counts.get(String(s.uuid));
        // Its last message was deleted between the two reads.
        if (!c) return [];
        return [
          {
            session_uuid: String(s.uuid),
            first_query: String(c.first_query ?? ''),
            exchanges: count(c.exchanges),
            last_activity: String(s.last_activity),
            up: count(c.up),
            down: count(c.down),
            not_covered: count(c.not_covered),
            escalated: count(c.escalated),
            errors: count(c.errors),
            test: c.test === 1,
          },
        ];
      });
    },

    insights(chatbotUuid, periodDays, top, test): InsightsRows {
      const period = [chatbotUuid, periodDays[0]!.from, periodDays.at(-1)!.to];
      const tests = testsOf(chatbotUuid, test);
      // Each day's own stretch of the index, as fast as grouping by the UTC date was.
      const days = all(
        `SELECT d.value ->> 'date' AS date, count(DISTINCT m.session_uuid) AS conversations,
            count(*) AS messages, sum(m.covered = 0) AS not_covered, sum(m.rating = 'up') AS up,
            sum(m.rating = 'down') AS down, sum(m.escalated) AS escalated, sum(m.failed) AS errors
          FROM json_each(?) d
          JOIN messages m ON m.chatbot_uuid = ? AND m.created_at >= d.value ->> 'from'
            AND m.created_at < d.value ->> 'to'${tests.and}
          GROUP BY d.key ORDER BY d.key`,
        JSON.stringify(periodDays),
        chatbotUuid,
        ...tests.params,
      );
      // A conversation is counted once however many days it spans: each session of the chatbot
      // active since the period began is asked for a message in it (faster than counting
      // distinct sessions over the period's messages).
      const sessionTests = andTests(inTests('s.uuid', test), chatbotUuid);
      const conversations = one(
        `SELECT count(*) AS n FROM sessions s
          WHERE s.chatbot_uuid = ? AND s.last_activity >= ?${sessionTests.and}
            AND EXISTS (SELECT 1 FROM messages m
              WHERE m.session_uuid = s.uuid AND m.created_at >= ? AND m.created_at < ?)`,
        period[0],
        period[1],
        ...sessionTests.params,
        period[1],
        period[2],
      )?.n;
      const sum = (key: string) => days.reduce((n, d) => n + count(d[key]), 0);
      const cited = citedSources(period, test).map((r) => ({
        data_source_uuid: String(r.source_uuid),
        count: count(r.n),
      }));
      const asked = questions(period, top, test);
      return {
        days: days.map((r) => ({
          date: String(r.date),
          conversations: count(r.conversations),
          messages: count(r.messages),
          not_covered: count(r.not_covered),
          up: count(r.up),
          down: count(r.down),
        })),
        totals: {
          conversations: count(conversations),
          messages: sum('messages'),
          not_covered: sum('not_covered'),
          up: sum('up'),
          down: sum('down'),
          escalated: sum('escalated'),
          errors: sum('errors'),
        },
        topQuestions: asked.top.map(({ question, count, covered, not_covered }) => ({
          question,
          count,
          covered,
          not_covered,
        })),
        gaps: asked.gaps.map(({ question, count, last }) => ({
          question,
          count,
          last_asked: last,
        })),
        cited,
      };
    },
  };
}

const keysetParams = (after: Keyset | null) => (after ? [after.at, after.uuid] : []);
