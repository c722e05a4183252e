import { html, nothing, type ReactiveController } from 'lit';
import { isAbortError } from '../api/errors.js';
import type { ExportFormat, MessageFilters } from '../api/types.js';
import { emit } from '../ui/events.js';
import { fill } from '../ui/i18n.js';
import { errorText } from './format.js';
import { ariaDisabled } from './panel.js';
import type { QaFormHost as ExportHost } from './qa-from-exchange.js';

/** Where the export's bytes go as they arrive. */
interface ExportSink {
  write(chunk: Uint8Array): Promise<void>;
  close(): Promise<void>;
  abort(): Promise<void>;
}

/** The File System Access API's save picker (Chromium), which TypeScript's DOM types lack. */
type SaveFilePicker = (options: {
  suggestedName: string;
  types: { description: string; accept: Record<string, string[]> }[];
}) => Promise<{ createWritable(): Promise<ExportSink> }>;

const TYPES: Record<ExportFormat, string> = { csv: 'text/csv', json: 'application/json' };

/** Chunks held in memory before they are folded into the Blob, which the browser may page out. */
const BLOB_FOLD_BYTES = 4 * 1024 * 1024;

/**
 * Where no save picker exists (Firefox, Safari) or it may not be used: the chunks go into a Blob,
 * folded in every few MB so the page holds little more than that (Chromium keeps large blobs
 * on disk), downloaded through an object URL at the end.
 */
function blobSink(type: string, name: string): ExportSink {
  let blob = new Blob([], { type });
  let parts: Uint8Array[] = [];
  let held = 0;
  const fold = () => {
    blob = new Blob([blob, ...(parts as BlobPart[])], { type });
    parts = [];
    held = 0;
  };
  return {
    async write(chunk) {
      parts.push(chunk);
      held += chunk.byteLength;
      if (held >= BLOB_FOLD_BYTES) fold();
    },
    async close() {
      fold();
      const url = URL.createObjectURL(blob);
      const link = document.createElement('a');
      link.href = url;
      link.download = name;
      link.click();
      // The download has read the URL by the next task; it can go.
      setTimeout(() => URL.revokeObjectURL(url), 0);
    },
    async abort() {
      parts = [];
      blob = new Blob([]);
    },
  };
}

/**
 * Counts the rows an export's bytes complete, chunk by chunk, without decoding them (no byte of a
 * multi-byte UTF-8 character is ASCII). CSV: line ends outside quotes, less the header line.
 * JSON: objects closing at the array's own depth, strings and escapes skipped.
 */
export function rowCounter(format: ExportFormat): (chunk: Uint8Array) => number {
  if (format === 'csv') {
    let quoted = false;
    let header = true;
    return (chunk) => {
      let rows = 0;
      for (const byte of chunk) {
        if (byte === 0x22) quoted = !quoted;
        else if (byte === 0x0a && !quoted) {
          if (header) header = false;
          else rows++;
        }
      }
      return rows;
    };
  }
  let depth = 0;
  let inString = false;
  let escaped = false;
  return (chunk) => {
    let rows = 0;
    for (const byte of chunk) {
      if (inString) {
        if (escaped) escaped = false;
        else if (byte === 0x5c) escaped = true;
        else if (byte === 0x22) inString = false;
      } else if (byte === 0x22) inString = true;
      else if (byte === 0x7b || byte === 0x5b) depth++;
      else if (byte === 0x7d || byte === 0x5d) {
        depth--;
        if (byte === 0x7d && depth === 1) rows++;
      }
    }
    return rows;
  };
}

/** The reader's days an export spans: `YYYY-MM-DD`, or '' where the filter sets no bound. */
export interface ExportDays {
  readonly from: string;
  readonly to: string;
}

/**
 * A chatbot's name in a file name: at most this many characters, 4 bytes of UTF-8 each at most,
 * so the whole name stays within the 255 bytes file systems take.
 */
const NAME_MAX = 50;

/**
 * The export's file name says what it holds: `conversations-demo-bot-2026-11-01-to-2026-11-27.csv`;
 * one day alone, `…-2026-11-27`; no first day, `…-until-2026-11-27` ("demo-bot-to-…" read as part of
 * the name); no last day, up to `today`.
 * Of the chatbot's name only letters and digits stay, in any script, lower-cased; every run of
 * anything else (slashes, quotes, dots, spaces, control characters) becomes one hyphen, so the
 * name is a file name on every system; a long one is cut (NAME_MAX). A name with nothing left
 * names no chatbot.
 */
export function exportFileName(
  chatbot: string,
  { from, to }: ExportDays,
  format: ExportFormat,
  today = new Date(),
): string {
  const name = Array.from(
    chatbot
      .normalize('NFC')
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}]+/gu, '-'),
  )
    .slice(0, NAME_MAX)
    .join('')
    .replace(/^-+|-+$/g, '');
  const last = to || localDate(today);
  const days = !from ? `until-${last}` : from === last ? from : `${from}-to-${last}`;
  return `${['conversations', name, days].filter(Boolean).join('-')}.${format}`;
}

/** `date`'s day on the reader's clock, as a date input writes it. */
function localDate(date: Date): string {
  const two = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())}`;
}

/** The browser would not show the save picker here, which is no choice of the user's. */
const isPickerRefused = (error: unknown) =>
  error instanceof DOMException &&
  (error.name === 'SecurityError' || error.name === 'NotAllowedError');

type ExportState =
  | { readonly status: 'idle' }
  | { readonly status: 'running'; readonly read: number; readonly total: number | null }
  | { readonly status: 'done'; readonly count: number }
  | { readonly status: 'cancelled' };

/**
 * Exports the filtered conversations (one row per exchange) as CSV or JSON, streamed from the
 * server into a file without holding it: through the save picker and a writable file stream
 * where the browser has one (Chromium), else through a Blob (see `blobSink`). Shows the rows
 * read against the server's `X-Total-Count` in a progress bar, and can be cancelled.
 */
export class ExportController implements ReactiveController {
  private state: ExportState = { status: 'idle' };
  private error = '';
  private controller?: AbortController;

  constructor(
    private readonly host: ExportHost,
    /** The filters to export by, read as an export starts; none: the export does not start. */
    private readonly filters: () => MessageFilters | undefined,
    /** The days of `filters`, which name the file. */
    private readonly days: () => ExportDays,
  ) {
    host.addController(this);
  }

  /** Whether an export is under way. */
  get running(): boolean {
    return this.state.status === 'running';
  }

  hostDisconnected(): void {
    this.controller?.abort();
  }

  cancel(): void {
    this.controller?.abort();
  }

  /** The filters changed: the last export's outcome no longer describes what is shown. */
  forget(): void {
    if (this.running || this.state.status === 'idle') return;
    this.error = '';
    this.set({ status: 'idle' });
  }

  /** Runs one export; resolves when it has finished, failed or been cancelled. */
  async start(format: ExportFormat): Promise<void> {
    const { client, chatbot } = this.host;
    if (!client || !chatbot || this.running) return;
    const filters = this.filters();
    if (!filters) return;
    const name = exportFileName(chatbot.name, this.days(), format);
    const controller = new AbortController();
    this.controller = controller;
    this.error = '';
    this.set({ status: 'running', read: 0, total: null });
    let sink: ExportSink | undefined;
    try {
      // First, while the click's user activation lasts: the picker needs it, a request spends it.
      sink = await this.openSink(format, name);
      const response = await client.review.export(
        chatbot.uuid,
        { ...filters, format },
        { signal: controller.signal },
      );
      // Absent when a proxy or CORS hides it: the bar then shows activity, not a share.
      const header = Number(response.headers.get('x-total-count') ?? Number.NaN);
      const total = Number.isFinite(header) ? header : null;
      let read = 0;
      this.set({ status: 'running', read, total });
      const count = rowCounter(format);
      const reader = response.body!.getReader();
      controller.signal.addEventListener('abort', () => void reader.cancel().catch(() => {}));
      for (let next = await reader.read(); !next.done; next = await reader.read()) {
        await sink.write(next.value);
        read += count(next.value);
        this.set({ status: 'running', read, total });
      }
      if (controller.signal.aborted) throw new DOMException('cancelled', 'AbortError');
      await sink.close();
      this.set({ status: 'done', count: read });
    } catch (error) {
      await sink?.abort().catch(() => {});
      if (isAbortError(error) || controller.signal.aborted) {
        this.set({ status: 'cancelled' });
        return;
      }
      this.error = errorText(error, this.host.strings);
      this.set({ status: 'idle' });
      emit(this.host, 'chatbot-admin-error', {
        operation: 'review.export',
        error,
        message: this.error,
      });
    } finally {
      if (this.controller === controller) this.controller = undefined;
    }
  }

  /**
   * The picker's file where there is one and the page may use it; dismissing the picker cancels
   * the export. A picker the browser refuses to show (SecurityError in a cross-origin frame,
   * NotAllowedError without the click's activation) leaves the Blob download.
   */
  private async openSink(format: ExportFormat, name: string): Promise<ExportSink> {
    const picker = (window as unknown as { showSaveFilePicker?: SaveFilePicker })
      .showSaveFilePicker;
    if (typeof picker !== 'function') return blobSink(TYPES[format], name);
    try {
      const handle = await picker.call(window, {
        suggestedName: name,
        types: [{ description: format.toUpperCase(), accept: { [TYPES[format]]: [`.${format}`] } }],
      });
      return await handle.createWritable();
    } catch (error) {
      if (isPickerRefused(error)) return blobSink(TYPES[format], name);
      throw error;
    }
  }

  private set(state: ExportState): void {
    this.state = state;
    this.host.requestUpdate();
  }

  /** The export buttons, and the progress or the outcome of the last export. */
  render(disabled: boolean) {
    const s = this.host.strings;
    const state = this.state;
    const running = state.status === 'running';
    return html`<div class="toolbar export" part="toolbar">
      <button
        type="button"
        part="button"
        aria-disabled=${ariaDisabled(disabled || running)}
        @click=${() => this.start('csv')}
      >
        ${s.exportCsv}
      </button>
      <button
        type="button"
        part="button"
        aria-disabled=${ariaDisabled(disabled || running)}
        @click=${() => this.start('json')}
      >
        ${s.exportJson}
      </button>
      ${
        running
          ? html`<progress
                part="progress"
                aria-label=${s.exportProgress}
                max=${state.total || 1}
                value=${state.total === null ? nothing : Math.min(state.read, state.total)}
              ></progress>
              <span class="muted"
                >${
                  state.total === null
                    ? fill(s.exportRowsRead, { read: state.read })
                    : fill(s.exportRows, { read: state.read, total: state.total })
                }</span
              >
              <button type="button" part="button" @click=${() => this.cancel()}>
                ${s.cancelExport}
              </button>`
          : nothing
      }
      <span role="status"
        >${
          state.status === 'done'
            ? fill(s.exportDone, { count: state.count })
            : state.status === 'cancelled'
              ? s.exportCancelled
              : ''
        }</span
      >
      ${this.error ? html`<p class="error" part="error" role="alert">${this.error}</p>` : nothing}
    </div>`;
  }
}
