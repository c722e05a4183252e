import { ref } from 'lit/directives/ref.js';
import { isApiError, isNetworkError, isTimeoutError } from '../api/errors.js';
import { fill } from '../ui/i18n.js';
import type { AdminStrings } from '../ui/strings/admin.js';

/** The message a user reads for a failed request: the server's own words when it gave any. */
export function errorText(error: unknown, strings: AdminStrings): string {
  if (isApiError(error)) {
    return fill(strings.errorStatus, { message: error.serverMessage, status: error.status });
  }
  if (isNetworkError(error) || isTimeoutError(error)) return error.message;
  return error instanceof Error ? error.message : String(error);
}

// Building an Intl formatter costs far more than using one; table rows format on every scroll.
const dateFormats = new Map<string, Intl.DateTimeFormat>();
const numberFormats = new Map<string, Intl.NumberFormat>();

export function formatDate(value: string | undefined, lang: string): string {
  if (!value) return '';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  let format = dateFormats.get(lang);
  if (!format) {
    format = new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'short' });
    dateFormats.set(lang, format);
  }
  return format.format(date);
}

/** A number in the reader's language (`100,000`, `100.000`), to one decimal. */
export function formatNumber(value: number, lang: string): string {
  let format = numberFormats.get(lang);
  if (!format) {
    format = new Intl.NumberFormat(lang, { maximumFractionDigits: 1 });
    numberFormats.set(lang, format);
  }
  return format.format(value);
}

/** Parses a JSON-encoded record field; a malformed one is treated as absent, not as a crash. */
export function parseJson<T>(text: string | undefined | null): T | undefined {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as T;
  } catch {
    return undefined;
  }
}

/** A chatbot's visibility in the reader's language; a value the admin does not know, as it is. */
export function visibilityLabel(value: string, strings: AdminStrings): string {
  if (value === 'private') return strings.visibilityPrivate;
  if (value === 'public') return strings.visibilityPublic;
  return value;
}

export const isEnabled = (value: 0 | 1 | boolean | undefined): boolean =>
  value === true || value === 1;

export const HEX_COLOR = /^#[0-9a-fA-F]{6}$/;

/**
 * A swatch's colour set through CSSOM, which a strict Content-Security-Policy allows where a
 * `style` attribute is blocked (styleMap writes the attribute on first render); anything but
 * #RRGGBB shows no colour. Use as `<span ${swatch(color)}>`.
 */
export const swatch = (color: string) =>
  ref((node?: Element) => {
    if (node)
      (node as HTMLElement).style.background = HEX_COLOR.test(color) ? color : 'transparent';
  });

/** A number field that must hold 0..1; empty means "not given", null means invalid. */
export function unitNumber(raw: string): number | undefined | null {
  if (raw.trim() === '') return undefined;
  // "0,5" is how German (and most European) keyboards write a half.
  const value = Number(/^\s*-?\d*,\d+\s*$/.test(raw) ? raw.replace(',', '.') : raw);
  return Number.isFinite(value) && value >= 0 && value <= 1 ? value : null;
}
