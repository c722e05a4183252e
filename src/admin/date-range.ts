import { html, nothing } from 'lit';
import type { AdminStrings } from '../ui/strings/admin.js';

/** Either end of a date range, as `YYYY-MM-DD` or '' when not set. */
export type RangeEnd = 'from' | 'to';

/**
 * The "From" and "To" date inputs of a range (the conversation filters, a custom insights
 * period). While the range is wrong, both are marked invalid and described by the message with
 * id `errorId`, which the caller places where its layout wants it. A date input reports a new
 * value only once it is a whole date, with `change` as with `input`.
 */
export function dateRange(
  strings: AdminStrings,
  range: Readonly<Record<RangeEnd, string>>,
  errorId: string | undefined,
  set: (end: RangeEnd, value: string) => void,
) {
  const input = (end: RangeEnd, label: string) =>
    html`<label
      >${label}<input
        type="date"
        part="input"
        name=${end}
        .value=${range[end]}
        aria-invalid=${errorId ? 'true' : 'false'}
        aria-describedby=${errorId ?? nothing}
        @change=${(e: Event) => set(end, (e.target as HTMLInputElement).value)}
    /></label>`;
  return html`${input('from', strings.filterFrom)}${input('to', strings.filterTo)}`;
}

/**
 * The instant the reader's day `date` (`YYYY-MM-DD`) begins, or the day `days` after it: what the
 * review routes are asked with, since they read a bare date as a UTC day and the admin shows
 * local times. Where the clock skips midnight, the day begins at its first hour.
 */
export function localDayStart(date: string, days = 0): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const start = new Date(0);
  // Not `new Date(y, …)`, which reads the years 0 to 99 as 1900 to 1999.
  start.setFullYear(y, m - 1, d + days);
  start.setHours(0, 0, 0, 0);
  return start.toISOString().replace(/\.000Z$/, 'Z');
}
