/** A span of the reader's whole days, `YYYY-MM-DD` both ends included. */
export interface Period {
  readonly from: string;
  readonly to: string;
}

/** The lengths offered in days; anything else is a range the owner picks. */
export const PRESET_DAYS = [7, 30, 90] as const;
export type PeriodChoice = (typeof PRESET_DAYS)[number] | 'custom';

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The reader's date of `time`, `days` later: the day their clock shows. */
export function localDay(time: number, days = 0): string {
  const t = new Date(time);
  t.setDate(t.getDate() + days);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${String(t.getFullYear()).padStart(4, '0')}-${two(t.getMonth() + 1)}-${two(t.getDate())}`;
}

/** The last `days` of the reader's days, today included. */
export function lastDays(days: number, now = Date.now()): Period {
  return { from: localDay(now, 1 - days), to: localDay(now) };
}

/** The reader's time zone, which the insights route counts its days in (`tz`). */
export const readerZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone;

/**
 * The range two date fields hold, or why it cannot be asked for: `incomplete` while either is
 * empty or half typed, `order` when it ends before it starts.
 */
export function customPeriod(from: string, to: string): Period | 'incomplete' | 'order' | 'long' {
  if (!DATE.test(from) || !DATE.test(to)) return 'incomplete';
  if (from > to) return 'order';
  // Both days whole: at most MAX_PERIOD_DAYS of them, as the server takes.
  const days = (Date.parse(to) - Date.parse(from)) / 86_400_000 + 1;
  return days > MAX_PERIOD_DAYS ? 'long' : { from, to };
}

/** The longest period the insights route takes, in days (review/insights.ts). */
export const MAX_PERIOD_DAYS = 366;

// Building an Intl formatter costs far more than using one; a chart formats every day it shows.
const dayFormats = new Map<string, Intl.DateTimeFormat>();
const numberFormats = new Map<string, Intl.NumberFormat>();

function numberFormat(lang: string, style: 'decimal' | 'percent'): Intl.NumberFormat {
  const key = `${lang}|${style}`;
  let format = numberFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(lang, { style, maximumFractionDigits: 0 });
    numberFormats.set(key, format);
  }
  return format;
}

/**
 * A day as the owner reads it, short ("Mar 4"), or with its year ("Mar 4, 2025"). The day is a
 * date, not a time: written as the UTC midnight it names, so that no zone moves it.
 */
export function formatDay(day: string, lang: string, withYear = false): string {
  const key = `${lang}|${withYear}`;
  let format = dayFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(lang, {
      month: 'short',
      day: 'numeric',
      year: withYear ? 'numeric' : undefined,
      timeZone: 'UTC',
    });
    dayFormats.set(key, format);
  }
  const date = new Date(`${day}T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? day : format.format(date);
}

/** A count in the owner's language (`12,345`, `12.345`). */
export const formatCount = (count: number, lang: string): string =>
  numberFormat(lang, 'decimal').format(count);

/** `part / whole` as a percentage in the owner's language; a dash when there is no whole. */
export const formatShare = (part: number, whole: number, lang: string): string =>
  whole ? numberFormat(lang, 'percent').format(part / whole) : '—';
