import { html, nothing } from 'lit';
import type { MessageFilters, Rating, TestSessions } from '../api/types.js';
import { fill } from '../ui/i18n.js';
import type { AdminStrings } from '../ui/strings/admin.js';
import { dateRange, localDayStart } from './date-range.js';
import { tooLong } from './field-problems.js';

/** The longest search the server takes (review/params.ts). */
const SEARCH_MAX = 500;

/** The filter controls as the owner set them. */
export interface FilterDraft {
  /** Full-text search over questions and answers. */
  readonly q: string;
  /** `YYYY-MM-DD` from a date input, or ''. */
  readonly from: string;
  readonly to: string;
  /** '' for any rating. */
  readonly rating: '' | Rating | 'none';
  readonly notCovered: boolean;
  readonly escalated: boolean;
  readonly error: boolean;
  /** Whose conversations: the visitors' (`exclude`: not the owner's tests in Try it), or more. */
  readonly test: TestSessions;
}

export const NO_FILTERS: FilterDraft = {
  q: '',
  from: '',
  to: '',
  rating: '',
  notCovered: false,
  escalated: false,
  error: false,
  test: 'exclude',
};

/** Whether two drafts set every control alike. */
export const sameFilters = (a: FilterDraft, b: FilterDraft): boolean =>
  (Object.keys(NO_FILTERS) as (keyof FilterDraft)[]).every((key) => a[key] === b[key]);

/** The dates are in order (or one is missing). */
export const datesInOrder = ({ from, to }: FilterDraft): boolean => !from || !to || from <= to;

/** The server searches letters and digits: "%%" has nothing to look for. */
const hasWord = (q: string) => /[\p{L}\p{N}]/u.test(q);

/**
 * What the server would refuse in the search: no word to look for, or more than it takes.
 */
export function searchProblem(draft: FilterDraft, s: AdminStrings, lang: string) {
  const q = draft.q.trim();
  if (q && !hasWord(q)) return s.searchNeedsWord;
  return tooLong(q, SEARCH_MAX, s, lang);
}

/**
 * What the review routes are asked with: unset controls are left out, so an unfiltered list
 * asks for nothing but its page. Only a ticked box filters; an unticked one means "either". The
 * dates are the reader's days, as the list shows its times: from the first one's start to the
 * start of the day after the last.
 */
export function messageFilters(draft: FilterDraft): MessageFilters {
  return {
    q: draft.q.trim() || undefined,
    from: draft.from ? localDayStart(draft.from) : undefined,
    to: draft.to ? localDayStart(draft.to, 1) : undefined,
    rating: draft.rating || undefined,
    covered: draft.notCovered ? false : undefined,
    escalated: draft.escalated || undefined,
    error: draft.error || undefined,
    // The server's default, left unsaid: a server from before `test` refuses it.
    test: draft.test === 'exclude' ? undefined : draft.test,
  };
}

/** Whether any control narrows the list (an empty list then says "no match", not "none yet"). */
export const isFiltered = (draft: FilterDraft): boolean =>
  Object.values(messageFilters(draft)).some((value) => value !== undefined);

const RATINGS: { value: FilterDraft['rating']; label: keyof AdminStrings }[] = [
  { value: '', label: 'ratingAny' },
  { value: 'up', label: 'ratingUp' },
  { value: 'down', label: 'ratingDown' },
  { value: 'none', label: 'ratingNone' },
];

const TESTS: { value: TestSessions; label: keyof AdminStrings }[] = [
  { value: 'exclude', label: 'testsExclude' },
  { value: 'include', label: 'testsInclude' },
  { value: 'only', label: 'testsOnly' },
];

type FlagKey = 'notCovered' | 'escalated' | 'error';

/** Each box, with its name in the hash. */
const FLAGS: { key: FlagKey; label: keyof AdminStrings; member: string }[] = [
  { key: 'notCovered', label: 'filterNotCovered', member: 'not-covered' },
  { key: 'escalated', label: 'filterEscalated', member: 'escalated' },
  { key: 'error', label: 'filterError', member: 'error' },
];

/** The members of the admin's hash the filters are kept in (see hash-route-controller.ts). */
export const FILTER_MEMBERS = ['search', 'from', 'to', 'rating', 'flags', 'test'];

/** The hash members of `draft`: only those set, each as the control holds it. */
export function filtersToHash(draft: FilterDraft): [string, string][] {
  const flags = FLAGS.filter((f) => draft[f.key]).map((f) => f.member);
  return (
    [
      ['search', draft.q.trim()],
      ['from', draft.from],
      ['to', draft.to],
      ['rating', draft.rating],
      ['flags', flags.join(',')],
      ['test', draft.test === 'exclude' ? '' : draft.test],
    ] as [string, string][]
  ).filter(([, value]) => value);
}

/**
 * The filters the hash's members describe. What no control could hold (a date that does not
 * exist, a rating or box the list does not have), dates out of order and a search the server
 * would refuse are left out: a link edited by hand, or written by another version, still opens
 * the list, filtered by what it does say.
 */
export function filtersFromHash(params: URLSearchParams): FilterDraft {
  let from = calendarDate(params.get('from'));
  let to = calendarDate(params.get('to'));
  if (from > to && to) from = to = '';
  const q = params.get('search')?.trim() ?? '';
  const rating = RATINGS.find((r) => r.value === params.get('rating'))?.value ?? '';
  const named = new Set(params.get('flags')?.split(','));
  const on = (key: FlagKey) => FLAGS.some((f) => f.key === key && named.has(f.member));
  return {
    q: hasWord(q) && q.length <= SEARCH_MAX ? q : '',
    from,
    to,
    rating,
    notCovered: on('notCovered'),
    escalated: on('escalated'),
    error: on('error'),
    test: TESTS.find((t) => t.value === params.get('test'))?.value ?? 'exclude',
  };
}

/** `value` if it is a day of the calendar written as a date input holds it (`YYYY-MM-DD`). */
function calendarDate(value: string | null): string {
  const [, y, m, d] = value?.match(/^(\d{4})-(\d{2})-(\d{2})$/) ?? [];
  if (!y) return '';
  const date = new Date(0);
  date.setUTCFullYear(Number(y), Number(m) - 1, Number(d));
  const exists =
    Number(y) >= 1 && date.getUTCMonth() === Number(m) - 1 && date.getUTCDate() === Number(d);
  return exists ? value! : '';
}

/** How many controls besides the search narrow the list (the dates count as one). */
function setFilterCount(draft: FilterDraft): number {
  const set = [draft.from || draft.to, draft.rating, draft.test !== 'exclude'];
  return [...set, ...FLAGS.map((f) => draft[f.key])].filter(Boolean).length;
}

export interface FilterOptions {
  /** Each shown under its control (the search box, the date inputs), which it marks invalid. */
  problems: { dates?: string; search?: string };
  /** Every change (the search text on each keystroke: the panel waits for a pause). */
  change: (patch: Partial<FilterDraft>) => void;
  /** Clear filters, shown while any control is set. */
  clear: () => void;
  /** "Asked by", only where the server tells the owner's tests apart. */
  tests: boolean;
  /** On a narrow panel, only the search and a Filters button show: the rest is folded away. */
  folded: boolean;
  toggleFolded: () => void;
}

/**
 * The search box and filter controls. A narrow panel (a phone) folds all but the search behind
 * a Filters button that counts those set: unfolded, the eight controls held the list a screen
 * down.
 */
export function renderFilters(strings: AdminStrings, draft: FilterDraft, options: FilterOptions) {
  const { problems, change, clear, tests, folded } = options;
  const set = setFilterCount(draft);
  const dateError = problems.dates;
  const s = strings;
  const value = (e: Event) => (e.target as HTMLInputElement | HTMLSelectElement).value;
  const fold = folded ? 'folded' : '';
  return html`<div class="toolbar ${fold}" part="toolbar">
      <div class="field search">
        <label
          >${s.search}<input
            type="search"
            part="input"
            dir="auto"
            placeholder=${s.searchConversations}
            aria-invalid=${problems.search ? 'true' : 'false'}
            aria-describedby=${problems.search ? 'search-error' : nothing}
            .value=${draft.q}
            @input=${(e: Event) => change({ q: value(e) })}
        /></label>
        ${problems.search ? html`<p class="error" part="error" id="search-error" role="alert">${problems.search}</p>` : nothing}
      </div>
      <button
        type="button"
        class="fold"
        part="button"
        aria-expanded=${folded ? 'false' : 'true'}
        @click=${options.toggleFolded}
      >
        ${set ? fill(s.filtersSet, { count: set }) : s.filters}
      </button>
      <div class="field">
        <div class="dates">
          ${dateRange(s, draft, dateError ? 'date-error' : undefined, (end, date) => change({ [end]: date }))}
        </div>
        ${dateError ? html`<p class="error" part="error" id="date-error" role="alert">${dateError}</p>` : nothing}
      </div>
      <label
        >${s.filterRating}<select
          part="input"
          name="rating"
          .value=${draft.rating}
          @change=${(e: Event) => change({ rating: value(e) as FilterDraft['rating'] })}
        >
          ${RATINGS.map(
            (r) =>
              html`<option value=${r.value} ?selected=${r.value === draft.rating}>${s[r.label]}</option>`,
          )}
        </select></label
      >
      ${
        tests
          ? html`<label
              >${s.filterTests}<select
                part="input"
                name="test"
                .value=${draft.test}
                @change=${(e: Event) => change({ test: value(e) as TestSessions })}
              >
                ${TESTS.map(
                  (t) =>
                    html`<option value=${t.value} ?selected=${t.value === draft.test}>${s[t.label]}</option>`,
                )}
              </select></label
            >`
          : nothing
      }
    </div>
    <div class="toolbar flags ${fold}" part="toolbar">
      ${FLAGS.map(
        (f) => html`<label class="inline"
          ><input
            type="checkbox"
            name=${f.key}
            .checked=${draft[f.key]}
            @change=${(e: Event) => change({ [f.key]: (e.target as HTMLInputElement).checked })}
          />${s[f.label]}</label
        >`,
      )}
      ${
        sameFilters(draft, NO_FILTERS)
          ? nothing
          : html`<button type="button" part="button" @click=${clear}>${s.clearFilters}</button>`
      }
    </div>`;
}
