import type { InsightsRows, Keyset, MessageFilter, Store } from '../types.js';
import type { Row, Sql } from './db.js';
import { message } from './sessions.js';

export type ReviewQueries = Pick<
  Store,
  'findMessages' | 'countMessages' | 'findConversations' | 'insights'
>;

/**
 * An FTS5 query that finds every word (each quoted, so nothing the visitor typed is read as
 * query syntax), the last also as a prefix of a longer word, for search as you type.
 */
export function ftsQuery(words: string[]): string {
  const quoted = words.map((w) => `"${w.replaceAll('"', '""')}"`);
  quoted[quoted.length - 1] += '*';
  return quoted.join(' ');
}

/**
 * The WHERE clause over `messages m` for a chatbot and a filter. Each condition is written as one
 * of the indexes in schema.ts expects it (`escalated = 1`, `error_message <> ''`), so SQLite can
 * pick the index that narrows most.
 */
function matching(chatbotUuid: string, filter: MessageFilter) {
  const clauses = ['m.chatbot_uuid = ?'];
  const params: unknown[] = [chatbotUuid];
  if (filter.words && filter.words.length > 0) {
    clauses.push('m.id IN (SELECT rowid FROM messages_fts WHERE messages_fts MATCH ?)');
    params.push(ftsQuery(filter.words));
  }
  if (filter.rating === 'none') clauses.push('m.rating IS NULL');
  else if (filter.rating) {
    clauses.push('m.rating = ?');
    params.push(filter.rating);
  }
  if (filter.covered !== undefined) clauses.push(`m.covered = ${filter.covered ? 1 : 0}`);
  if (filter.escalated !== undefined) clauses.push(`m.escalated = ${filter.escalated ? 1 : 0}`);
  if (filter.error !== undefined) clauses.push(`m.error_message ${filter.error ? '<>' : '='} ''`);
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
  return { where: clauses.join(' AND '), params };
}

const isFiltered = (filter: MessageFilter) =>
  Object.values(filter).some((v) => v !== undefined && !(Array.isArray(v) && v.length === 0));

const count = (value: unknown) => Number(value ?? 0);

/** The review reads: chatbot-wide message and conversation lists, counts and insights. */
export function reviewQueries(sql: Sql): ReviewQueries {
  const { all, one } = sql;

  const conversationCounts = (sessionUuids: string[]) => {
    const rows = all(
      `SELECT m.session_uuid, count(*) AS exchanges, sum(m.rating = 'up') AS up,
          sum(m.rating = 'down') AS down, sum(m.covered = 0) AS not_covered,
          sum(m.escalated) AS escalated, sum(m.error_message <> '') AS errors,
          (SELECT f.query FROM messages f WHERE f.session_uuid = m.session_uuid
            ORDER BY f.created_at, f.id LIMIT 1) AS first_query
        FROM messages m
        WHERE m.session_uuid IN (SELECT value FROM json_each(?))
        GROUP BY m.session_uuid`,
      JSON.stringify(sessionUuids),
    );
    return new Map(rows.map((r) => [String(r.session_uuid), r]));
  };

  const inPeriod = 'm.chatbot_uuid = ? AND m.created_at >= ? AND m.created_at < ?';

  return {
    findMessages(chatbotUuid, filter, after, limit) {
      const { where, params } = matching(chatbotUuid, filter);
      const keyset = after ? ' AND (m.created_at, m.uuid) < (?, ?)' : '';
      return all(
        `SELECT m.* FROM messages m WHERE ${where}${keyset}
          ORDER BY m.created_at DESC, m.uuid DESC LIMIT ?`,
        ...params,
        ...keysetParams(after),
        limit,
      ).map(message);
    },

    countMessages(chatbotUuid, filter) {
      const { where, params } = matching(chatbotUuid, filter);
      return count(one(`SELECT count(*) AS n FROM messages m WHERE ${where}`, ...params)?.n);
    },

    findConversations(chatbotUuid, filter, after, limit) {
      const keyset = after ? ' AND (s.last_activity, s.uuid) < (?, ?)' : '';
      let matched = '';
      let params: unknown[] = [];
      if (isFiltered(filter)) {
        // One pass over the matching messages, not one probe per session: the IN list is built once.
        const m = matching(chatbotUuid, filter);
        matched = ` AND s.uuid IN (SELECT m.session_uuid FROM messages m WHERE ${m.where})`;
        params = m.params;
      }
      const sessions = all(
        `SELECT s.uuid, s.last_activity FROM sessions s
          WHERE s.chatbot_uuid = ? AND s.last_activity IS NOT NULL${keyset}${matched}
          ORDER BY s.last_activity DESC, s.uuid DESC LIMIT ?`,
        chatbotUuid,
        ...keysetParams(after),
        ...params,
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
          },
        ];
      });
    },

    insights(chatbotUuid, from, to, top): InsightsRows {
      const period = [chatbotUuid, from, to];
      const days = all(
        `SELECT substr(m.created_at, 1, 10) AS date, count(DISTINCT m.session_uuid) AS conversations,
            count(*) AS messages, sum(m.covered = 0) AS not_covered, sum(m.rating = 'up') AS up,
            sum(m.rating = 'down') AS down
          FROM messages m WHERE ${inPeriod} GROUP BY date ORDER BY date`,
        ...period,
      ).map((r) => ({
        date: String(r.date),
        conversations: count(r.conversations),
        messages: count(r.messages),
        not_covered: count(r.not_covered),
        up: count(r.up),
        down: count(r.down),
      }));
      const t = one(
        `SELECT count(DISTINCT m.session_uuid) AS conversations, sum(m.escalated) AS escalated,
            sum(m.error_message <> '') AS errors
          FROM messages m WHERE ${inPeriod}`,
        ...period,
      ) as Row;
      const sum = (key: 'messages' | 'not_covered' | 'up' | 'down') =>
        days.reduce((n, d) => n + d[key], 0);
      // With one max() in the query, SQLite takes the bare columns (query, covered) from the row
      // holding the maximum: the latest wording, and whether its latest answer was covered.
      const topQuestions = all(
        `SELECT m.query, count(*) AS n, m.covered, max(m.created_at) AS last
          FROM messages m WHERE ${inPeriod} AND m.query_norm <> ''
          GROUP BY m.query_norm ORDER BY n DESC, last DESC LIMIT ?`,
        ...period,
        top,
      ).map((r) => ({ question: String(r.query), count: count(r.n), covered: r.covered === 1 }));
      const gaps = all(
        `SELECT m.query, count(*) AS n, max(m.created_at) AS last
          FROM messages m WHERE ${inPeriod} AND m.covered = 0 AND m.query_norm <> ''
          GROUP BY m.query_norm ORDER BY n DESC, last DESC LIMIT ?`,
        ...period,
        top,
      ).map((r) => ({ question: String(r.query), count: count(r.n), last_asked: String(r.last) }));
      const cited = all(
        `SELECT j.value AS uuid, count(*) AS n
          FROM messages m, json_each(m.meta_json, '$.sources') j
          WHERE ${inPeriod}
          GROUP BY j.value ORDER BY n DESC, j.value`,
        ...period,
      ).map((r) => ({ data_source_uuid: String(r.uuid), count: count(r.n) }));
      return {
        days,
        totals: {
          conversations: count(t.conversations),
          messages: sum('messages'),
          not_covered: sum('not_covered'),
          up: sum('up'),
          down: sum('down'),
          escalated: count(t.escalated),
          errors: count(t.errors),
        },
        topQuestions,
        gaps,
        cited,
      };
    },
  };
}

const keysetParams = (after: Keyset | null) => (after ? [after.at, after.uuid] : []);
