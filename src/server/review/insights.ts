import type { Insights, TestSessions } from '../../api/types.js';
import { badInput, timestamp } from '../http.js';
import type { PeriodDay, Store } from '../store/types.js';
import { LAST_TIME, parseTime, storeTests } from './params.js';
import { addDays, dayStart, localDate, offsetAt, UTC } from './zone.js';

const DAY_MS = 86_400_000;

export const DEFAULT_DAYS = 30;
const MAX_DAYS = 366;
/** How long top_questions, gaps and sources_cited are at most. */
export const TOP = 10;

/**
 * The period of `from` and `to` (each an ISO date or date-time, a bare `to` date included whole),
 * by default the last 30 days with today, days being those of `zone`: a bare date is its day
 * there. Answered as stored timestamps, `to` exclusive.
 */
export function insightsPeriod(
  params: Record<string, string>,
  zone = UTC,
  nowMs = Date.now(),
): { from: string; to: string } {
  const bound = (name: 'from' | 'to', edge: 'start' | 'end') => {
    const value = params[name]!;
    // Read as UTC first, which also checks it; a date is then the zone's day of that date.
    const utc = parseTime(name, value, edge);
    if (zone === UTC || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return utc;
    const local = dayStart(zone, edge === 'end' ? addDays(value, 1) : value);
    return timestamp(Math.min(local, LAST_TIME));
  };
  const today = localDate(zone, nowMs);
  const to =
    params.to !== undefined ? bound('to', 'end') : timestamp(dayStart(zone, addDays(today, 1)));
  // By default 30 days of the zone's clock before `to` (its midnight 30 days before, when `to` is
  // a midnight), whatever changes of offset lie between.
  const back = Date.parse(to) - DEFAULT_DAYS * DAY_MS;
  const from =
    params.from !== undefined
      ? bound('from', 'start')
      : timestamp(back + offsetAt(zone, Date.parse(to)) - offsetAt(zone, back));
  if (from >= to) throw badInput('from must be before to');
  // Counted in local time, so that a year of the zone's days is one whatever its clock changes.
  const wall = (t: string) => Date.parse(t) + offsetAt(zone, Date.parse(t));
  if (wall(to) - wall(from) > MAX_DAYS * DAY_MS) {
    throw badInput(`to must be at most ${MAX_DAYS} days after from`);
  }
  return { from, to };
}

/**
 * The insights answer: the store's aggregates, with empty days and the sources' titles, and
 * whether each gap would now be answered (`coveredNow`, the answer path's own judgement).
 */
export async function insights(
  store: Store,
  chatbotUuid: string,
  days: PeriodDay[],
  test: TestSessions,
  coveredNow: (questions: string[]) => Promise<boolean[]>,
): Promise<Insights> {
  const rows = await store.insights(chatbotUuid, days, TOP, storeTests(test));
  const byDate = new Map(rows.days.map((d) => [d.date, d]));
  const sources = await store.listSources(chatbotUuid);
  const titles = new Map(sources.map((s) => [s.uuid, s.title]));
  const cited = new Set(rows.cited.map((c) => c.data_source_uuid));
  const answered = await coveredNow(rows.gaps.map((g) => g.question));
  return {
    from: days[0]!.from,
    to: days.at(-1)!.to,
    // Said, so that a reader can tell these figures from those of a server that counts them all.
    test,
    days: days.map(
      ({ date }) =>
        byDate.get(date) ?? { date, conversations: 0, messages: 0, not_covered: 0, up: 0, down: 0 },
    ),
    totals: rows.totals,
    top_questions: rows.topQuestions,
    gaps: rows.gaps.map((gap, i) => ({ ...gap, answered_now: answered[i]! })),
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
