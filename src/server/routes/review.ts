/**
 * The review loop's reads (this server's additions to the interface): a chatbot's messages and
 * conversations with filters and cursor pages, their export, and the insights of a period.
 */
import { type Context, Hono } from 'hono';
import type { ExportFormat } from '../../api/types.js';
import { type AppEnv, ownedChatbot, type ServerContext } from '../context.js';
import { badInput } from '../http.js';
import { coveredNow } from '../knowledge/answer.js';
import { messageListItem } from '../records.js';
import { exportStream, firstBatch } from '../review/export.js';
import { insights, insightsPeriod } from '../review/insights.js';
import {
  encodeCursor,
  FILTER_PARAMS,
  PAGE_PARAMS,
  parseCursor,
  parseFilter,
  parseLimit,
  parseTests,
  readParams,
} from '../review/params.js';
import { parseZone, periodDays, UTC } from '../review/zone.js';

const LIST_PARAMS = [...FILTER_PARAMS, ...PAGE_PARAMS];

/** One more row than the page is read: whether it exists says whether there is a next page. */
function page<T>(rows: T[], limit: number, kind: 'm' | 'c', place: (row: T) => [string, string]) {
  const data = rows.slice(0, limit);
  const last = data.at(-1);
  let next_cursor: string | null = null;
  if (rows.length > limit && last) {
    const [at, uuid] = place(last);
    next_cursor = encodeCursor(kind, { at, uuid });
  }
  return { data, next_cursor };
}

/** A list route's filter, cursor and page size, read from its query in that order. */
function listQuery(c: Context, kind: 'm' | 'c') {
  const params = readParams(c, LIST_PARAMS);
  const filter = parseFilter(params);
  return { filter, after: parseCursor(params, kind), limit: parseLimit(params) };
}

export function reviewRoutes(ctx: ServerContext) {
  const { store } = ctx;
  return new Hono<AppEnv>()
    .get('/api/v1/chatbot/:uuid/messages', async (c) => {
      const chatbot = await ownedChatbot(ctx, c.get('auth'), c.req.param('uuid'));
      const { filter, after, limit } = listQuery(c, 'm');
      const rows = await store.findMessages(chatbot.uuid, filter, after, limit + 1);
      const { data, next_cursor } = page(rows, limit, 'm', (m) => [m.created_at, m.uuid]);
      return c.json({ data: data.map(messageListItem), next_cursor });
    })
    .get('/api/v1/chatbot/:uuid/conversations', async (c) => {
      const chatbot = await ownedChatbot(ctx, c.get('auth'), c.req.param('uuid'));
      const { filter, after, limit } = listQuery(c, 'c');
      const rows = await store.findConversations(chatbot.uuid, filter, after, limit + 1);
      return c.json(page(rows, limit, 'c', (s) => [s.last_activity, s.session_uuid]));
    })
    .get('/api/v1/chatbot/:uuid/messages/export', async (c) => {
      const chatbot = await ownedChatbot(ctx, c.get('auth'), c.req.param('uuid'));
      const params = readParams(c, [...FILTER_PARAMS, 'format']);
      const format = params.format;
      if (format !== 'csv' && format !== 'json') throw badInput('format must be "csv" or "json"');
      const filter = parseFilter(params);
      // Counted and first read together (on SQLite in one synchronous step), so that no message
      // lands between the two.
      const [total, first] = await Promise.all([
        store.countMessages(chatbot.uuid, filter),
        firstBatch(store, chatbot.uuid, filter),
      ]);
      return c.body(exportStream(store, chatbot.uuid, filter, format as ExportFormat, first), 200, {
        'Content-Type':
          format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8',
        'Content-Disposition': `attachment; filename="messages-${chatbot.uuid}.${format}"`,
        'Cache-Control': 'no-store',
        'X-Total-Count': String(total),
      });
    })
    .get('/api/v1/chatbot/:uuid/insights', async (c) => {
      const chatbot = await ownedChatbot(ctx, c.get('auth'), c.req.param('uuid'));
      const params = readParams(c, ['from', 'to', 'tz', 'test']);
      const zone = params.tz === undefined ? UTC : parseZone(params.tz);
      const { from, to } = insightsPeriod(params, zone);
      const test = parseTests(params);
      return c.json(
        await insights(store, chatbot.uuid, periodDays(zone, from, to), test, (questions) =>
          coveredNow(ctx.knowledge.answerDeps, chatbot, questions),
        ),
      );
    });
}
