/**
 * The export's rows as CSV or JSON, written batch by batch into a stream that asks for the next
 * batch only when the client has taken the last: an export of any size holds one batch at a time.
 */
import type { ExportFormat } from '../../api/types.js';
import type { Keyset, MessageFilter, MessageRow, Store } from '../store/types.js';

export const EXPORT_COLUMNS = [
  'session_uuid',
  'created_at',
  'query',
  'response',
  'rating',
  'reason',
  'comment',
  'covered',
  'cited_sources',
  'test',
] as const;

/** Rows read from the store at a time. */
const BATCH = 500;

export interface ExportRow {
  session_uuid: string;
  created_at: string;
  query: string;
  response: string;
  rating: string | null;
  reason: string;
  comment: string;
  covered: boolean;
  /** Titles of the cited sources, as the answer named them. */
  cited_sources: string[];
  /** Asked by the owner in Try it (ours), not by a visitor. */
  test: boolean;
}

/** `tests`: what the filter asked of the owner's tests (`MessageFilter['test']`). */
export function exportRow(row: MessageRow, tests?: MessageFilter['test']): ExportRow {
  const titles = new Map<string, string>();
  for (const cite of Object.values(row.cite_data)) {
    const { data_source_uuid, title } = cite as { data_source_uuid?: string; title?: string };
    const key = data_source_uuid ?? title ?? '';
    if (!titles.has(key)) titles.set(key, String(title ?? ''));
  }
  return {
    session_uuid: row.sessionUuid,
    created_at: row.created_at,
    query: row.query,
    response: row.response,
    rating: row.feedback?.rating ?? null,
    reason: row.feedback?.reason ?? '',
    comment: row.feedback?.comment ?? '',
    covered: row.meta.covered === true,
    cited_sources: [...titles.values()],
    test: row.test ?? tests === 'only',
  };
}

/**
 * One CSV cell (RFC 4180). A cell that starts with = + - @ TAB or CR is one a spreadsheet would
 * run as a formula: a leading ' makes it text.
 */
export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

function csvLine(row: ExportRow): string {
  return `${EXPORT_COLUMNS.map((column) => {
    const value = row[column];
    const text = Array.isArray(value) ? value.join('; ') : value === null ? '' : String(value);
    return csvCell(text);
  }).join(',')}\r\n`;
}

/** The byte-order mark tells spreadsheet programs the file is UTF-8. */
const CSV_HEAD = `\uFEFF${EXPORT_COLUMNS.join(',')}\r\n`;

/**
 * The export as a byte stream, newest first. `first` is the first batch, read together with the
 * row count so that the two agree; later batches continue after it, so
 * messages arriving meanwhile (which sort before it) are not mixed in.
 */
export function exportStream(
  store: Store,
  chatbotUuid: string,
  filter: MessageFilter,
  format: ExportFormat,
  first: MessageRow[],
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let batch: MessageRow[] | null = first;
  let after: Keyset | null = null;
  let started = false;
  let written = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const rows = batch ?? (await store.findMessages(chatbotUuid, filter, after, BATCH));
      batch = null;
      let text = started ? '' : format === 'csv' ? CSV_HEAD : '[';
      started = true;
      for (const row of rows) {
        const line = exportRow(row, filter.test);
        text +=
          format === 'csv' ? csvLine(line) : `${written > 0 ? ',' : ''}\n${JSON.stringify(line)}`;
        written++;
      }
      const last = rows.at(-1);
      if (rows.length < BATCH || !last) {
        if (format === 'json') text += written > 0 ? '\n]\n' : ']\n';
        controller.enqueue(encoder.encode(text));
        controller.close();
        return;
      }
      after = { at: last.created_at, uuid: last.uuid };
      controller.enqueue(encoder.encode(text));
    },
  });
}

export const firstBatch = (store: Store, chatbotUuid: string, filter: MessageFilter) =>
  store.findMessages(chatbotUuid, filter, null, BATCH);
