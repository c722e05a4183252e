import { wordForms } from '../../word-forms.js';
import { MESSAGE_COLUMNS, message, SESSION_TEST, testColumn } from '../rows.js';
import type { InsightsRows, Keyset, MessageFilter, Store } from '../types.js';
import { num, type Row, type Sql } from './db.js';

export type ReviewQueries = Pick<
  Store,
  'findMessages' | 'countMessages' | 'findConversations' | 'insights'
>;

/**
 * The text search configuration of `messages.search` (schema.ts): the SQLite store's FTS5 index
 * tokenizes with 'porter unicode61 remove_diacritics 2', so a search for "REFUNDS" finds "refund"
 * and "café" finds "cafe". 'simple' would miss those word forms, and pg_trgm matches inside words
 * (a search for "fund" would find "refund"), so the column is built with unaccent and the English
 * Snowball stemmer and no stop words, and read through its GIN index.
 */
const SEARCH = 'chatbot_search';

/**
 * A tsquery that holds every word in any of its forms (`wordForms`: the Snowball stemmer too
 * makes "embed" "emb" and "embedding" "embed"), the last also as the start of a longer word
 * (search as you type), as sqlite/review.ts's ftsQuery does, and only from four letters on for
 * the same reason: a short prefix matches most of the index. The words are letters and digits
 * only (review/params.ts searchWords), so nothing in them is read as tsquery syntax.
 */
export function tsQuery(words: string[]): string {
  const last = words.length - 1;
  return words
    .map((word, i) => {
      const forms = wordForms(word);
      if (i === last && [...word].length >= 4) forms.push(`${forms[0]}:*`);
      return forms.length === 1 ? forms[0] : `(${forms.join(' | ')})`;
    })
    .join(' & ');
}

/** Collects a statement's parameters: `add(value)` answers its `$n`. */
function parameters(first: unknown[] = []) {
  const values = [...first];
  return { values, add: (value: unknown) => `$${values.push(value)}` };
}

type Params = ReturnType<typeof parameters>;

/** The conditions on `messages m` of a filter; the planner picks the index that narrows most. */
function conditions(filter: MessageFilter, p: Params): string[] {
  const clauses: string[] = [];
  if (filter.words && filter.words.length > 0) {
    clauses.push(`m.search @@ to_tsquery('${SEARCH}', ${p.add(tsQuery(filter.words))})`);
  }
  if (filter.rating === 'none') clauses.push('m.rating IS NULL');
  else if (filter.rating) clauses.push(`m.rating = ${p.add(filter.rating)}`);
  if (filter.covered !== undefined) clauses.push(filter.covered ? 'm.covered' : 'NOT m.covered');
  if (filter.escalated !== undefined) {
    clauses.push(filter.escalated ? 'm.escalated' : 'NOT m.escalated');
  }
  if (filter.error !== undefined) clauses.push(filter.error ? 'm.failed' : 'NOT m.failed');
  if (filter.from) clauses.push(`m.created_at >= ${p.add(filter.from)}`);
  if (filter.to) clauses.push(`m.created_at < ${p.add(filter.to)}`);
  if (filter.session) clauses.push(`m.session_uuid = ${p.add(filter.session)}`);
  return clauses;
}

/**
 * The condition that leaves out, or keeps only, the owner's test sessions (`test` of the filter)
 * on `column`, a session uuid. By uuid, read once per statement from their partial index: the
 * index-only scans of messages hold a message's session, not the session's flag.
 */
function inTests(column: string, test: MessageFilter['test'], chatbot: string): string[] {
  if (!test) return [];
  const tests = `(SELECT t.uuid FROM sessions t WHERE t.chatbot_uuid = ${chatbot} AND t.test)`;
  return [`${column} ${test === 'only' ? 'IN' : 'NOT IN'} ${tests}`];
}

/** Conditions appended to a WHERE that has some already. */
const and = (clauses: string[]) => clauses.map((c) => ` AND ${c}`).join('');

/** `(time, uuid) < keyset`: the page goes on after `after`, newest first. */
const keyset = (columns: string, after: Keyset | null, p: Params) =>
  after ? ` AND (${columns}) < (${p.add(after.at)}, ${p.add(after.uuid)})` : '';

/** The review reads: chatbot-wide message and conversation lists, counts and insights. */
export function reviewQueries(sql: Sql): ReviewQueries {
  /** WHERE over `messages m` for the chatbot's messages that match. */
  const matching = (chatbotUuid: string, filter: MessageFilter, p = parameters()) => {
    const chatbot = p.add(chatbotUuid);
    const where = [
      `m.chatbot_uuid = ${chatbot}`,
      ...conditions(filter, p),
      ...inTests('m.session_uuid', filter.test, chatbot),
    ];
    return { where: where.join(' AND '), p };
  };

  const conversationCounts = async (sessionUuids: string[]) => {
    const rows = await sql.all(
      `SELECT m.session_uuid, count(*) AS exchanges,
          count(*) FILTER (WHERE m.rating = 'up') AS up,
          count(*) FILTER (WHERE m.rating = 'down') AS down,
          count(*) FILTER (WHERE NOT m.covered) AS not_covered,
          count(*) FILTER (WHERE m.escalated) AS escalated,
          count(*) FILTER (WHERE m.failed) AS errors,
          (SELECT f.query FROM messages f WHERE f.session_uuid = m.session_uuid
            ORDER BY f.created_at, f.id LIMIT 1) AS first_query,
          ${SESSION_TEST}
        FROM messages m
        WHERE m.session_uuid = ANY($1::text[])
        GROUP BY m.session_uuid`,
      sessionUuids,
    );
    return new Map(rows.map((r) => [String(r.session_uuid), r]));
  };

  const inPeriod = 'm.chatbot_uuid = $1 AND m.created_at >= $2 AND m.created_at < $3';

  /**
   * Questions grouped by wording, most asked first, each with its latest wording and answer (the
   * latest message's; of two at the same second, the greater uuid's). Ties in count and time go
   * by wording, so that the order is the same on every run.
   */
  const questions = async (
    period: string[],
    top: number,
    notCovered: boolean,
    test: MessageFilter['test'],
  ) => {
    const narrowed = and([
      ...(notCovered ? ['NOT m.covered'] : []),
      ...inTests('m.session_uuid', test, '$1'),
    ]);
    const rows = await sql.all(
      `SELECT g.query_norm, g.n, g.last, g.not_covered, l.query, l.covered FROM (
          SELECT m.query_norm, count(*) AS n, max(m.created_at) AS last,
              count(*) FILTER (WHERE NOT m.covered) AS not_covered
            FROM messages m WHERE ${inPeriod}${narrowed} AND m.query_norm <> ''
            GROUP BY m.query_norm ORDER BY n DESC, last DESC, m.query_norm LIMIT $4
        ) g
        LEFT JOIN LATERAL (
          SELECT m.query, m.covered FROM messages m
            WHERE m.chatbot_uuid = $1 AND m.created_at = g.last
              AND m.query_norm = g.query_norm${narrowed}
            ORDER BY m.uuid DESC LIMIT 1
        ) l ON true
        ORDER BY g.n DESC, g.last DESC, g.query_norm`,
      ...period,
      top,
    );
    return rows.map((r) => ({
      question: String(r.query ?? r.query_norm),
      count: num(r.n),
      covered: r.covered === true,
      not_covered: num(r.not_covered),
      last: String(r.last),
    }));
  };

  return {
    async findMessages(chatbotUuid, filter, after, limit) {
      const { where, p } = matching(chatbotUuid, filter);
      const page = keyset('m.created_at, m.uuid', after, p);
      const rows = await sql.all(
        `SELECT ${prefixed('m', MESSAGE_COLUMNS)}${testColumn(filter.test)} FROM messages m WHERE ${where}${page}
          ORDER BY m.created_at DESC, m.uuid DESC LIMIT ${p.add(limit)}`,
        ...p.values,
      );
      return rows.map(message);
    },

    async countMessages(chatbotUuid, filter) {
      if (filter.test === 'exclude') {
        // Every match less the owner's tests', in one statement (one snapshot): the filters'
        // indexes hold no session, so leaving the tests out row by row would read each match from
        // the table; the tests' few are found from their sessions instead.
        const all = matching(chatbotUuid, { ...filter, test: undefined });
        const tests = matching(chatbotUuid, { ...filter, test: 'only' }, all.p);
        const row = await sql.one(
          `SELECT (SELECT count(*) FROM messages m WHERE ${all.where})
            - (SELECT count(*) FROM messages m WHERE ${tests.where}) AS n`,
          ...all.p.values,
        );
        return num(row?.n);
      }
      const { where, p } = matching(chatbotUuid, filter);
      const row = await sql.one(`SELECT count(*) AS n FROM messages m WHERE ${where}`, ...p.values);
      return num(row?.n);
    },

    async findConversations(chatbotUuid, filter, after, limit) {
      const p = parameters([chatbotUuid]);
      const page = keyset('s.last_activity, s.uuid', after, p);
      const clauses: string[] = [];
      const { session, test, ...rest } = filter;
      if (session) clauses.push(`s.uuid = ${p.add(session)}`);
      // The session's own flag: by uuid (NOT IN), the planner expects half the sessions to go
      // and reads them in parallel workers, 30 times slower than one after another.
      if (test) clauses.push(test === 'only' ? 's.test' : 'NOT s.test');
      // A session whose last message is older than `from` has none after it.
      if (filter.from) clauses.push(`s.last_activity >= ${p.add(filter.from)}`);
      const m = conditions(rest, p);
      if (m.length > 0) {
        clauses.push(
          `EXISTS (SELECT 1 FROM messages m WHERE m.session_uuid = s.uuid AND ${m.join(' AND ')})`,
        );
      }
      const sessions = await sql.all(
        `SELECT s.uuid, s.last_activity FROM sessions s
          WHERE s.chatbot_uuid = $1 AND s.last_activity IS NOT NULL${page}
            ${clauses.map((c) => `AND ${c}`).join(' ')}
          ORDER BY s.last_activity DESC, s.uuid DESC LIMIT ${p.add(limit)}`,
        ...p.values,
      );
      const counts = await conversationCounts(sessions.map((s) => String(s.uuid)));
      return sessions.flatMap((s) => {
        const c = counts.get(String(s.uuid));
        // Its last message was deleted between the two reads.
        if (!c) return [];
        return [
          {
            session_uuid: String(s.uuid),
            first_query: String(c.first_query ?? ''),
            exchanges: num(c.exchanges),
            last_activity: String(s.last_activity),
            up: num(c.up),
            down: num(c.down),
            not_covered: num(c.not_covered),
            escalated: num(c.escalated),
            errors: num(c.errors),
            test: c.test === true,
          },
        ];
      });
    },

    async insights(chatbotUuid, periodDays, top, test): Promise<InsightsRows> {
      const period = [chatbotUuid, periodDays[0]!.from, periodDays.at(-1)!.to];
      const tests = and(inTests('m.session_uuid', test, '$1'));
      // A citation names its message, not its session: the test sessions' messages, few.
      const citedTests = test
        ? ` AND c.message_id ${test === 'only' ? 'IN' : 'NOT IN'} (SELECT m.id FROM messages m
            WHERE ${inTests('m.session_uuid', 'only', '$1')[0]})`
        : '';
      const [dayRows, t, cited, topQuestions, gaps] = await Promise.all([
        // Each day's own stretch of the index, read one day after another (an index-only range
        // scan each). Joined to the list of days instead, the planner read every message of the
        // chatbot once per day (a nested loop: 6 million comparisons for 100,000 messages over 60
        // days, 0.2 to 1 s); its bounds compare as created_at does, byte by byte.
        sql.all(
          `SELECT d.date, x.* FROM unnest($2::text[], $3::text[], $4::text[]) AS d(date, since, until)
            CROSS JOIN LATERAL (
              SELECT count(DISTINCT m.session_uuid) AS conversations, count(*) AS messages,
                  count(*) FILTER (WHERE NOT m.covered) AS not_covered,
                  count(*) FILTER (WHERE m.rating = 'up') AS up,
                  count(*) FILTER (WHERE m.rating = 'down') AS down,
                  count(*) FILTER (WHERE m.escalated) AS escalated,
                  count(*) FILTER (WHERE m.failed) AS errors
                FROM messages m WHERE m.chatbot_uuid = $1 AND m.created_at >= d.since COLLATE "C"
                  AND m.created_at < d.until COLLATE "C"${tests}
            ) x
            ORDER BY d.date`,
          chatbotUuid,
          periodDays.map((d) => d.date),
          periodDays.map((d) => d.from),
          periodDays.map((d) => d.to),
        ),
        // A conversation is counted once however many days it spans. Grouped, not
        // count(DISTINCT …), which sorts: hashing 100,000 sessions' uuids took half as long.
        sql.one(
          `SELECT count(*) AS conversations FROM
            (SELECT m.session_uuid FROM messages m WHERE ${inPeriod}${tests} GROUP BY 1) s`,
          ...period,
        ) as Promise<Row>,
        sql.all(
          `SELECT c.source_uuid, count(*) AS n FROM message_sources c
            WHERE c.chatbot_uuid = $1 AND c.created_at >= $2 AND c.created_at < $3${citedTests}
            GROUP BY c.source_uuid ORDER BY n DESC, c.source_uuid`,
          ...period,
        ),
        questions(period, top, false, test),
        questions(period, top, true, test),
      ]);
      // Totals are the days' sums, as on SQLite; conversations are counted once over the period.
      const sum = (key: string) => dayRows.reduce((n, r) => n + num(r[key]), 0);
      return {
        days: dayRows.map((r) => ({
          date: String(r.date),
          conversations: num(r.conversations),
          messages: num(r.messages),
          not_covered: num(r.not_covered),
          up: num(r.up),
          down: num(r.down),
        })),
        totals: {
          conversations: num(t.conversations),
          messages: sum('messages'),
          not_covered: sum('not_covered'),
          up: sum('up'),
          down: sum('down'),
          escalated: sum('escalated'),
          errors: sum('errors'),
        },
        topQuestions: topQuestions.map(({ question, count, covered, not_covered }) => ({
          question,
          count,
          covered,
          not_covered,
        })),
        gaps: gaps.map(({ question, count, last }) => ({ question, count, last_asked: last })),
        cited: cited.map((r) => ({ data_source_uuid: String(r.source_uuid), count: num(r.n) })),
      };
    },
  };
}

/** `uuid, query, …` as `m.uuid, m.query, …`, so no column is ambiguous beside a join. */
const prefixed = (alias: string, columns: string) =>
  columns
    .split(',')
    .map((c) => `${alias}.${c.trim()}`)
    .join(', ');
