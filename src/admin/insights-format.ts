/** A span of whole days, `YYYY-MM-DD` both ends included, as the insights route takes it. */
export interface Period {
  readonly from: string;
  readonly to: string;
}

/** The lengths offered in days; anything else is a range the owner picks. */
export const PRESET_DAYS = [7, 30, 90] as const;
export type PeriodChoice = (typeof PRESET_DAYS)[number] | 'custom';

const DAY_MS = 86_400_000;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The day of `time`, in UTC: the server counts its days in UTC. */
export const utcDay = (time: number): string => new Date(time).toISOString().slice(0, 10);

/** The last `days` days, today included. */
export function lastDays(days: number, now = Date.now()): Period {
  return { from: utcDay(now - (days - 1) * DAY_MS), to: utcDay(now) };
}

/**
 * The range two date fields hold, or why it cannot be asked for: `incomplete` while either is
 * empty or half typed, `order` when it ends before it starts.
 */
export function customPeriod(from: string, to: string): Period | 'incomplete' | 'order' {
  if (!DATE.test(from) || !DATE.test(to)) return 'incomplete';
  return from > to ? 'order' : { from, to };
}

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

/** A day as the owner reads it, short ("Mar 4"), or with its year ("Mar 4, 2025"). */
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
