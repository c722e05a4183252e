import { type DataSource, IN_PROGRESS_STATUSES, type SourceTag } from '../api/types.js';

export type SortKey = 'title' | 'type' | 'status' | 'file_size' | 'tokens' | 'created_at';

/** The statuses a reader filters by: still processing, done, or anything else (a failure). */
export type StatusGroup = '' | 'progress' | 'success' | 'failed';

/** What the source table shows: every filter ('' for none) and the sort. */
export interface SourceQuery {
  /** Matched, case-insensitively, against the title and the file name. */
  readonly search: string;
  readonly type: string;
  readonly status: StatusGroup;
  /** Uuid of a tag whose members alone are shown; a tag not (yet) in `tags` matches nothing. */
  readonly tag: string;
  readonly tags: readonly SourceTag[];
  readonly sortKey: SortKey;
  /** 1 ascending, -1 descending. */
  readonly sortDir: 1 | -1;
  /** BCP 47 tag whose collation orders titles. */
  readonly lang: string;
}

export const statusGroup = (status: string): Exclude<StatusGroup, ''> =>
  IN_PROGRESS_STATUSES.includes(status) ? 'progress' : status === 'success' ? 'success' : 'failed';

/** The sources `query` selects, in its order; `sources` is left as it is. */
export function filterAndSort(sources: readonly DataSource[], query: SourceQuery): DataSource[] {
  const needle = query.search.trim().toLowerCase();
  const tag = query.tag ? query.tags.find((t) => t.uuid === query.tag) : undefined;
  const members = tag ? new Set(tag.data_source_uuids) : undefined;
  const rows = sources.filter(
    (s) =>
      (!query.type || s.type === query.type) &&
      (!query.status || statusGroup(s.status) === query.status) &&
      (!query.tag || members?.has(s.uuid)) &&
      (!needle ||
        s.title?.toLowerCase().includes(needle) ||
        s.file_name?.toLowerCase().includes(needle)),
  );
  const { sortKey: key, sortDir: dir } = query;
  if (key === 'title') {
    // Human order for titles ("Doc 2" before "Doc 10"); a collator is too slow for the rest.
    const collator = new Intl.Collator(query.lang, { numeric: true, sensitivity: 'base' });
    const keyed = rows.map((s) => [s.title || s.file_name || '', s] as const);
    keyed.sort((a, b) => collator.compare(a[0], b[0]) * dir);
    return keyed.map(([, s]) => s);
  }
  // Numbers by value; timestamps (ISO 8601, UTC), types and statuses sort as plain strings.
  rows.sort((a, b) => {
    const x = a[key] ?? '';
    const y = b[key] ?? '';
    return (x < y ? -1 : x > y ? 1 : 0) * dir;
  });
  return rows;
}
