/**
 * The query parameters of the review routes, read into a store filter: each bad one is a 400
 * that names it.
 */
import type { Context } from 'hono';
import type { TestSessions } from '../../api/types.js';
import { badInput, excerptOf, timestamp } from '../http.js';
import type { Keyset, MessageFilter } from '../store/types.js';

export const FILTER_PARAMS = [
  'q',
  'rating',
  'covered',
  'escalated',
  'error',
  'from',
  'to',
  'session',
  'test',
] as const;
export const PAGE_PARAMS = ['cursor', 'limit'] as const;

export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 200;
const MAX_Q = 500;

/**
 * The request's parameters, each given at most once and each one of `allowed`: a misspelt
 * filter would otherwise be ignored and the list look filtered when it is not. Empty values
 * count as absent, as an HTML form sends its empty fields.
 */
export function readParams(c: Context, allowed: readonly string[]): Record<string, string> {
  const params: Record<string, string> = {};
  for (const [name, values] of Object.entries(c.req.queries())) {
    if (!allowed.includes(name)) {
      throw badInput(
        `${name} is not a parameter of this endpoint (it takes ${allowed.join(', ')})`,
      );
    }
    if (values.length > 1) throw badInput(`${name} must be given once`);
    if (values[0] !== '') params[name] = values[0]!;
  }
  return params;
}

const flag = (params: Record<string, string>, name: string): boolean | undefined => {
  const value = params[name];
  if (value === undefined) return undefined;
  if (value !== 'true' && value !== 'false') throw badInput(`${name} must be "true" or "false"`);
  return value === 'true';
};

/** The words of a search, as the full-text index splits them: letters and digits. */
export function searchWords(q: string): string[] {
  return q.match(/[\p{L}\p{N}]+/gu) ?? [];
}

/**
 * Which sessions a review read counts (ours): by default not the owner's tests, which would pass
 * for visitors' questions, gaps and ratings.
 */
export function parseTests(params: Record<string, string>): TestSessions {
  const value = params.test ?? 'exclude';
  if (value !== 'exclude' && value !== 'include' && value !== 'only') {
    throw badInput('test must be "exclude", "include" or "only"');
  }
  return value;
}

/** The store's word for `test`: it reads the owner's tests with the rest unless told otherwise. */
export const storeTests = (test: TestSessions): MessageFilter['test'] =>
  test === 'include' ? undefined : test;

export function parseFilter(params: Record<string, string>): MessageFilter {
  const filter: MessageFilter = {};
  if (params.q !== undefined) {
    if (params.q.length > MAX_Q) throw badInput(`q must be at most ${MAX_Q} characters`);
    filter.words = searchWords(params.q);
    if (filter.words.length === 0) throw badInput('q must hold at least one letter or digit');
  }
  const rating = params.rating;
  if (rating !== undefined) {
    if (rating !== 'up' && rating !== 'down' && rating !== 'none') {
      throw badInput('rating must be "up", "down" or "none"');
    }
    filter.rating = rating;
  }
  filter.covered = flag(params, 'covered');
  filter.escalated = flag(params, 'escalated');
  filter.error = flag(params, 'error');
  if (params.from !== undefined) filter.from = parseTime('from', params.from, 'start');
  if (params.to !== undefined) filter.to = parseTime('to', params.to, 'end');
  if (filter.from && filter.to && filter.from >= filter.to) {
    throw badInput('from must be before to');
  }
  if (params.session !== undefined) filter.session = params.session;
  filter.test = storeTests(parseTests(params));
  for (const key of Object.keys(filter) as Array<keyof MessageFilter>) {
    if (filter[key] === undefined) delete filter[key];
  }
  return filter;
}

export function parseLimit(params: Record<string, string>): number {
  const value = params.limit;
  if (value === undefined) return DEFAULT_LIMIT;
  const limit = /^\d{1,4}$/.test(value) ? Number(value) : Number.NaN;
  if (!(limit >= 1 && limit <= MAX_LIMIT)) {
    throw badInput(`limit must be a whole number from 1 to ${MAX_LIMIT}`);
  }
  return limit;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+\- ]\d{2}:?\d{2})?$/i;

/**
 * An ISO date or date-time as a stored timestamp. A bare date means the whole day: its start
 * for `from`, the next day's start for `to` (which is exclusive, so the day is included). A
 * date-time without an offset is UTC. Times round up to the second: stored times have no
 * fraction, so `created_at >= from` and `created_at < to` keep their meaning.
 */
export function parseTime(name: string, value: string, edge: 'start' | 'end'): string {
  const ms = timeMs(value, edge);
  if (ms === undefined) {
    throw badInput(
      `${name} must be an ISO date (YYYY-MM-DD) or date-time (YYYY-MM-DDTHH:MM:SSZ), not "${excerptOf(value)}"`,
    );
  }
  // Past the year 9999 a timestamp is written "+010000-…", which sorts before every stored one.
  return timestamp(Math.min(Math.ceil(ms / 1000) * 1000, LAST_TIME));
}

/** The last second a four-digit year can write, 9999-12-31T23:59:59Z. */
export const LAST_TIME = Date.UTC(9999, 11, 31, 23, 59, 59);

/**
 * `Date.UTC` for any year from 1: `Date.UTC` itself reads the years 0 to 99 as 1900 to 1999.
 * Months from 0, and days, hours and the rest may run over, as `Date.UTC`'s do.
 */
function utc(y: number, m: number, d: number, hh = 0, mm = 0, ss = 0): number {
  const t = new Date(0);
  t.setUTCFullYear(y, m, d);
  t.setUTCHours(hh, mm, ss, 0);
  return t.getTime();
}

function timeMs(value: string, edge: 'start' | 'end'): number | undefined {
  const date = DATE.exec(value);
  if (date) {
    const [y, m, d] = date.slice(1).map(Number) as [number, number, number];
    if (!validDate(y, m, d)) return undefined;
    return utc(y, m - 1, d + (edge === 'end' ? 1 : 0));
  }
  const parts = DATE_TIME.exec(value);
  if (!parts) return undefined;
  const [y, m, d, hh, mm, ss = 0] = parts.slice(1, 7).map((p) => Number(p ?? 0)) as number[];
  if (!validDate(y!, m!, d!) || hh! > 23 || mm! > 59 || ss > 59) return undefined;
  const fraction = parts[7] ? Number(parts[7]) * 1000 : 0;
  let offsetMinutes = 0;
  const zone = parts[8];
  if (zone && zone.toUpperCase() !== 'Z') {
    // A "+" sent unencoded in a query string arrives as a space.
    const sign = zone[0] === '-' ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    const oh = Number(digits.slice(0, 2));
    const om = Number(digits.slice(2));
    if (oh > 23 || om > 59) return undefined;
    offsetMinutes = sign * (oh * 60 + om);
  }
  return utc(y!, m! - 1, d!, hh, mm, ss) + fraction - offsetMinutes * 60_000;
}

function validDate(y: number, m: number, d: number): boolean {
  const t = new Date(utc(y, m - 1, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === m - 1 && t.getUTCDate() === d;
}

/**
 * Cursors are opaque to callers: base64url of the list's kind and the last row's place, so a
 * cursor of one list is refused by another.
 */
export function encodeCursor(kind: 'm' | 'c', at: Keyset): string {
  return Buffer.from(JSON.stringify([kind, at.at, at.uuid])).toString('base64url');
}

const CURSOR_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
const CURSOR_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The place a cursor holds, or a 400 for any cursor this server would not have issued for this
 * list: an edited one that still decodes would page from a place the list never had and answer
 * as though that were a page. A place written otherwise than encodeCursor writes it is refused
 * too, so that a place has one cursor.
 */
export function parseCursor(params: Record<string, string>, kind: 'm' | 'c'): Keyset | null {
  const value = params.cursor;
  if (value === undefined) return null;
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
  } catch {
    decoded = undefined;
  }
  if (
    !Array.isArray(decoded) ||
    decoded.length !== 3 ||
    decoded[0] !== kind ||
    typeof decoded[1] !== 'string' ||
    typeof decoded[2] !== 'string' ||
    !CURSOR_TIME.test(decoded[1]) ||
    !CURSOR_UUID.test(decoded[2]) ||
    encodeCursor(kind, { at: decoded[1], uuid: decoded[2] }) !== value
  ) {
    throw badInput('cursor must be the next_cursor of a previous page of this list');
  }
  return { at: decoded[1], uuid: decoded[2] };
}
