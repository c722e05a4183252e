/**
 * A reader's days in an IANA time zone, for the insights of `?tz=`: where each local day of a
 * period begins, DST included, so that a store counts a message in the day its reader saw it in.
 * Intl knows the zones; it is asked once a day of the period, and to the second where the offset
 * changes, and everything else is worked out from those offsets.
 */
import { badInput, excerptOf, timestamp } from '../http.js';
import type { PeriodDay } from '../store/types.js';

export const UTC = 'UTC';

const DAY_MS = 86_400_000;
const OFFSET = /^GMT(?:([+-])(\d{2}):(\d{2})(?::(\d{2}))?)?$/;

// Building an Intl formatter costs far more than using one.
const formats = new Map<string, Intl.DateTimeFormat>();

/** The zone `name` names, as Intl spells it ("europe/berlin" is "Europe/Berlin"), or a 400 naming `tz`. */
export function parseZone(name: string): string {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    throw badInput(
      `tz must be an IANA time zone name such as "Europe/Berlin", not "${excerptOf(name)}"`,
    );
  }
}

/** The offset of `zone` from UTC at `ms`, in ms (east positive; old local mean times have seconds). */
export function offsetAt(zone: string, ms: number): number {
  if (zone === UTC) return 0;
  let format = formats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' });
    formats.set(zone, format);
  }
  const name = format.formatToParts(ms).find((p) => p.type === 'timeZoneName')?.value ?? '';
  const [, sign, hh = '0', mm = '0', ss = '0'] = OFFSET.exec(name) ?? [];
  return (sign === '-' ? -1 : 1) * (Number(hh) * 3600 + Number(mm) * 60 + Number(ss)) * 1000;
}

/** `YYYY-MM-DD` of a UTC time in ms (`+010000-01-01` past the year 9999). */
const isoDate = (ms: number) => new Date(ms).toISOString().slice(0, -14);

const midnightOf = (date: string) => Date.parse(`${date}T00:00:00Z`);

/** The last date a period's day may have: stored times end in the year 9999. */
const LAST_MIDNIGHT = Date.UTC(9999, 11, 31);

/** The local date in `zone` of the instant `ms`. */
export const localDate = (zone: string, ms: number): string => isoDate(ms + offsetAt(zone, ms));

/** The date `days` after `date` (both `YYYY-MM-DD`). */
export const addDays = (date: string, days: number): string =>
  isoDate(midnightOf(date) + days * DAY_MS);

/** A stretch of time with one offset: from `at` (ms) to the next stretch's `at`. */
interface Span {
  at: number;
  offset: number;
}

/** The first second after `lo` (whose offset is `offset`) with another offset, up to `hi`. */
function transition(zone: string, lo: number, hi: number, offset: number): number {
  let a = lo / 1000;
  let b = hi / 1000;
  while (b - a > 1) {
    const mid = Math.floor((a + b) / 2);
    if (offsetAt(zone, mid * 1000) === offset) a = mid;
    else b = mid;
  }
  return b * 1000;
}

/**
 * The stretches of `[from, to)` (ms, whole seconds) that keep one offset each, in order. The
 * offset is read once a day and a change searched for to the second between two readings: no
 * zone changes its offset twice within a day.
 */
function offsetSpans(zone: string, from: number, to: number): Span[] {
  const spans: Span[] = [{ at: from, offset: offsetAt(zone, from) }];
  let at = from;
  let offset = spans[0]!.offset;
  while (zone !== UTC && at < to - 1000) {
    const next = Math.min(at + DAY_MS, to - 1000);
    if (offsetAt(zone, next) === offset) {
      at = next;
      continue;
    }
    at = transition(zone, at, next, offset);
    offset = offsetAt(zone, at);
    spans.push({ at, offset });
  }
  return spans;
}

/**
 * The local days of `zone` that the period `[from, to)` touches (stored timestamps), each with
 * where it begins and ends within the period: the first begins at `from`, the last ends at `to`,
 * and each ends where the next begins, so that every second of the period lies in one day. A day
 * begins at its midnight, or, when the clock skips midnight, where the day's first second is.
 */
export function periodDays(zone: string, from: string, to: string): PeriodDay[] {
  const start = Date.parse(from);
  const end = Date.parse(to);
  const spans = offsetSpans(zone, start, end);
  const spanOf = (ms: number) => spans.findLast((s) => s.at <= ms) ?? spans[0]!;
  const dateAt = (ms: number) => isoDate(ms + spanOf(ms).offset);
  /** The first second of the period on `date` or later. */
  const begins = (date: string) => {
    const midnight = midnightOf(date);
    let first = end;
    spans.forEach(({ at, offset }, i) => {
      const until = spans[i + 1]?.at ?? end;
      const local = midnight - offset;
      if (local >= at && local < until) first = Math.min(first, local);
      // The stretch begins on the date or after it: the day's midnight lies before the stretch.
      else if (local < at && isoDate(at + offset) >= date) first = Math.min(first, at);
    });
    return first;
  };
  const days: PeriodDay[] = [];
  // By midnights, not date strings: the day after 9999-12-31 is written "+010000-01-01", which
  // sorts before it (a loop that never ended). A zone ahead of UTC reaches past that date at the
  // end of time: its last seconds are 9999-12-31's.
  const last = Math.min(midnightOf(dateAt(end - 1000)), LAST_MIDNIGHT);
  for (let midnight = Math.min(midnightOf(dateAt(start)), last); midnight <= last; ) {
    const date = isoDate(midnight);
    midnight += DAY_MS;
    const day = { date, from: timestamp(start), to: timestamp(end) };
    const previous = days.at(-1);
    if (previous) {
      // A day whose clock went back past its own midnight begins no earlier than the one before.
      const at = Math.max(begins(date), Date.parse(previous.from));
      previous.to = timestamp(at);
      day.from = previous.to;
    }
    days.push(day);
  }
  return days;
}

/** Where the local day `date` of `zone` begins: see `periodDays`. */
export function dayStart(zone: string, date: string): number {
  // A date past 9999-12-31 begins after the end of stored time, wherever the zone is.
  if (zone === UTC || midnightOf(date) > LAST_MIDNIGHT) return midnightOf(date);
  // Local time is never 26 hours from UTC: the day begins within this stretch of its UTC date,
  // whose first local date is an earlier one.
  const around = midnightOf(date);
  const day = periodDays(
    zone,
    timestamp(around - 26 * 3_600_000),
    timestamp(around + 26 * 3_600_000),
  ).find((d) => d.date >= date);
  return Date.parse(day!.from);
}
