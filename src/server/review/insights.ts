import type { Insights } from '../../api/types.js';
import { badInput, timestamp } from '../http.js';
import type { Store } from '../store/types.js';
import { parseTime } from './params.js';

const DAY_MS = 86_400_000;
export const DEFAULT_DAYS = 30;
const MAX_DAYS = 366;
/** How long top_questions, gaps and sources_cited are at most. */
export const TOP = 10;

/**
 * The period of `from` and `to` (each an ISO date or date-time, a bare `to` date included whole),
 * by default the last 30 days with today. Answered as stored timestamps, `to` exclusive.
 */
export function insightsPeriod(
  params: Record<string, string>,
  nowMs = Date.now(),
): { from: string; to: string } {
  const to =
    params.to !== undefined
      ? parseTime('to', params.to, 'end')
      : timestamp(Math.floor(nowMs / DAY_MS) * DAY_MS + DAY_MS);
  const from =
    params.from !== undefined
      ? parseTime('from', params.from, 'start')
      : timestamp(Date.parse(to) - DEFAULT_DAYS * DAY_MS);
  if (from >= to) throw badInput('from must be before to');
  if (Date.parse(to) - Date.parse(from) > MAX_DAYS * DAY_MS) {
    throw badInput(`to must be at most ${MAX_DAYS} days after from`);
  }
  return { from, to };
}

/** Every UTC date from `from`'s to the one holding the last second before `to`. */
export function datesOf(from: string, to: string): string[] {
  const dates: string[] = [];
  const last = Date.parse(to) - 1000;
  for (let t = Date.parse(from.slice(0, 10)); t <= last; t += DAY_MS) {
    dates.push(new Date(t).toISOString().slice(0, 10));
  }
  return dates;
}

/** The insights answer: the store's aggregates, with empty days and the sources' titles. */
export async function insights(
  store: Store,
  chatbotUuid: string,
  from: string,
  to: string,
): Promise<Insights> {
  const rows = await store.insights(chatbotUuid, from, to, TOP);
  const byDate = new Map(rows.days.map((d) => [d.date, d]));
  const sources = await store.listSources(chatbotUuid);
  const titles = new Map(sources.map((s) => [s.uuid, s.title]));
  const cited = new Set(rows.cited.map((c) => c.data_source_uuid));
  return {
    from,
    to,
    days: datesOf(from, to).map(
      (date) =>
        byDate.get(date) ?? { date, conversations: 0, messages: 0, not_covered: 0, up: 0, down: 0 },
    ),
    totals: rows.totals,
    top_questions: rows.topQuestions,
    gaps: rows.gaps,
    // A source deleted since it was cited can no longer be looked at or fixed: it is left out.
    sources_cited: rows.cited
      .filter((c) => titles.has(c.data_source_uuid))
      .slice(0, TOP)
      .map((c) => ({
        data_source_uuid: c.data_source_uuid,
        title: titles.get(c.data_source_uuid)!,
        count: c.count,
      })),
    sources_never_cited: sources
      .filter((s) => !cited.has(s.uuid))
      .map((s) => ({ data_source_uuid: s.uuid, title: s.title })),
  };
}
