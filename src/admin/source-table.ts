import { html, nothing, type ReactiveControllerHost } from 'lit';
import type { DataSource } from '../api/types.js';
import { formatSize } from '../ui/format-size.js';
import { fill } from '../ui/i18n.js';
import type { AdminStrings } from '../ui/strings/admin.js';
import { formatDate, parseJson } from './format.js';
import { type SortKey, type StatusGroup, statusGroup } from './source-filter.js';
import { VirtualRowsController } from './virtual-rows-controller.js';

const COLUMNS: { key: SortKey; label: keyof AdminStrings }[] = [
  { key: 'title', label: 'title' },
  { key: 'type', label: 'type' },
  { key: 'status', label: 'status' },
  { key: 'file_size', label: 'size' },
  { key: 'tokens', label: 'tokens' },
  { key: 'created_at', label: 'date' },
];

/** The source types a reader sees by name (others show as they come). */
export const TYPE_LABEL: Record<string, keyof AdminStrings> = {
  qa: 'typeQa',
  link: 'typeLink',
  file: 'typeFile',
};

/** The word a reader sees for each group of the server's statuses (as in the status filter). */
const STATUS_LABEL: Record<Exclude<StatusGroup, ''>, keyof AdminStrings> = {
  progress: 'statusInProgress',
  success: 'statusSuccess',
  failed: 'statusFailed',
};

/** The step a source in progress is at, by the server's status; an unknown one shows as it is. */
const STEP_LABEL: Record<string, keyof AdminStrings> = {
  await: 'stepWaiting',
  queued: 'stepWaiting',
  assigned: 'stepWaiting',
  downloading: 'stepDownloading',
  extracting: 'stepExtracting',
  chunking: 'stepChunking',
  embedding: 'stepIndexing',
  running: 'stepRunning',
};

/** Why processing failed, as the server stored it (`meta_json.error`), if it did. */
function failureReason(src: DataSource): string | undefined {
  const reason = parseJson<{ error?: unknown }>(src.meta_json)?.error;
  return typeof reason === 'string' && reason ? reason : undefined;
}

/** Text of a row's cells that costs something to make: see `SourceTable.formatted`. */
interface RowText {
  readonly lang: string;
  readonly size: string;
  readonly date: string;
  readonly reason?: string;
}

/** What the table shows: the panel's state as of this render. */
export interface SourceTableState {
  readonly strings: AdminStrings;
  readonly lang: string;
  /** The filtered and sorted sources. */
  readonly view: readonly DataSource[];
  /** How many sources there are before filtering, which decides the empty table's message. */
  readonly total: number;
  readonly selected: ReadonlySet<string>;
  readonly sortKey: SortKey;
  readonly sortDir: 1 | -1;
}

/** What the table's controls ask of the panel. */
export interface SourceTableActions {
  readonly selectAll: (on: boolean) => void;
  readonly select: (uuid: string, on: boolean) => void;
  readonly sortBy: (key: SortKey) => void;
  readonly rename: (source: DataSource) => void;
  readonly delete: (sources: DataSource[]) => void;
}

/** `aria-rowindex` of the first source's row: row 1 is the header. */
const FIRST_ROW = 2;

/** An element whose shadow root the table is drawn in. */
type TableHost = ReactiveControllerHost & { readonly renderRoot: ParentNode };

/**
 * How the source table is drawn: a header row of sort buttons over virtual rows (only those on
 * screen are in the DOM), each with its checkbox, cells and actions. The panel owns the state and
 * what the controls do; this owns the markup, the rows' placement and each record's cell text.
 */
export class SourceTable {
  private readonly rows: VirtualRowsController<DataSource>;
  private readonly cells = new WeakMap<DataSource, RowText>();

  constructor(
    host: TableHost,
    private readonly actions: SourceTableActions,
  ) {
    this.rows = new VirtualRowsController<DataSource>(host, {
      body: () => host.renderRoot.querySelector<HTMLElement>('.tbody'),
      key: (source) => source.uuid,
      firstRowIndex: FIRST_ROW,
      fallback: () => host.renderRoot.querySelector<HTMLElement>('#table-heading'),
    });
  }

  render(state: SourceTableState) {
    const s = state.strings;
    const { view } = state;
    return html`<div
      class="table"
      role="table"
      part="table"
      aria-labelledby="table-heading"
      aria-rowcount=${view.length + 1}
    >
      <div class="thead" role="rowgroup">${this.renderHeader(state)}</div>
      ${
        view.length === 0
          ? html`<p class="empty padded">${state.total ? s.noMatches : s.noSources}</p>`
          : html`<div class="tbody" role="rowgroup" tabindex="-1">
              ${this.rows.render(view, (source, index) => this.renderRow(state, source, index))}
            </div>`
      }
    </div>`;
  }

  private renderHeader({ strings: s, view, selected, sortKey, sortDir }: SourceTableState) {
    const allChosen = view.length > 0 && view.every((src) => selected.has(src.uuid));
    return html`<div class="tr" role="row" part="row" aria-rowindex="1">
      <span role="columnheader" part="header-cell"
        ><input
          type="checkbox"
          aria-label=${s.selectAll}
          .checked=${allChosen}
          ?disabled=${view.length === 0}
          @change=${(e: Event) => this.actions.selectAll((e.target as HTMLInputElement).checked)}
      /></span>
      ${COLUMNS.map(
        (col) => html`<span
          role="columnheader"
          part="header-cell"
          aria-sort=${sortKey === col.key ? (sortDir === 1 ? 'ascending' : 'descending') : 'none'}
          ><button type="button" title=${fill(s.sortBy, { column: s[col.label] })} @click=${() => this.actions.sortBy(col.key)}>
            ${s[col.label]}${sortKey === col.key ? (sortDir === 1 ? ' ▲' : ' ▼') : ''}
          </button></span
        >`,
      )}
      <span role="columnheader" part="header-cell">${s.actions}${this.renderActionsSizer(s)}</span>
    </div>`;
  }

  /**
   * A row's buttons once more, unseen, under the header's "Actions": each row is a grid of its
   * own, and this makes the header's Actions column as wide as the rows' (however long the
   * words of the language), so the header's other columns stay above their cells.
   */
  private renderActionsSizer(s: AdminStrings) {
    return html`<span class="row-actions actions-sizer" aria-hidden="true" inert
      ><button type="button" part="button" tabindex="-1">${s.rename}</button
      ><button type="button" class="danger" part="button danger" tabindex="-1">${s.delete}</button></span
    >`;
  }

  private renderRow(state: SourceTableState, src: DataSource, index: number) {
    const s = state.strings;
    const cells = this.formatted(src, state.lang);
    const name = src.title || src.file_name;
    const chosen = state.selected.has(src.uuid);
    const type = TYPE_LABEL[src.type];
    return html`<div
      class="tr"
      role="row"
      part="row"
      aria-rowindex=${index + FIRST_ROW}
      aria-selected=${chosen ? 'true' : 'false'}
    >
      <span role="cell" part="cell"
        ><input
          type="checkbox"
          aria-label=${fill(s.selectRow, { name })}
          .checked=${chosen}
          @change=${(e: Event) => this.actions.select(src.uuid, (e.target as HTMLInputElement).checked)}
      /></span>
      <span role="cell" part="cell" class="title" title=${name} dir="auto">${name}</span>
      <span role="cell" part="cell">${type ? s[type] : src.type}</span>
      ${this.renderStatus(s, src, cells.reason)}
      <span role="cell" part="cell" class="num">${cells.size}</span>
      <span role="cell" part="cell" class="num">${src.tokens ?? ''}</span>
      <span role="cell" part="cell" class="date">${cells.date}</span>
      <span role="cell" part="cell" class="row-actions">
        <button type="button" part="button" aria-label=${fill(s.renameSource, { name })} @click=${() => this.actions.rename(src)}>
          ${s.rename}
        </button>
        <button
          type="button"
          class="danger"
          part="button danger"
          aria-label=${fill(s.deleteSource, { name })}
          @click=${() => this.actions.delete([src])}
        >
          ${s.delete}
        </button>
      </span>
    </div>`;
  }

  /**
   * The status in the reader's language; a failure also says why, and work in progress which
   * step it is at (a large file reads for a while), on a line of its own that is cut short on
   * screen (the whole of it is its tooltip, and screen readers read all of it).
   */
  private renderStatus(s: AdminStrings, src: DataSource, reason: string | undefined) {
    const group = statusGroup(src.status);
    const step = STEP_LABEL[src.status];
    const detail =
      group === 'failed' ? reason : group === 'progress' ? (step ? s[step] : src.status) : '';
    return html`<span role="cell" part="cell" class="status status-${group}"
      ><span class="status-label">${s[STATUS_LABEL[group]]}</span>${
        detail ? html`<span class="reason" title=${detail}>${detail}</span>` : nothing
      }</span
    >`;
  }

  /**
   * Scrolling re-renders every row on screen, often with another record; formatting a date (and
   * parsing the record's meta) is the costliest part of a row, so each record's text is made once (records are replaced, not
   * mutated, so a changed record gets fresh text).
   */
  private formatted(src: DataSource, lang: string): RowText {
    let cells = this.cells.get(src);
    if (!cells || cells.lang !== lang) {
      cells = {
        lang,
        size: src.file_size ? formatSize(src.file_size, lang) : '—',
        date: formatDate(src.created_at, lang),
        reason: failureReason(src),
      };
      this.cells.set(src, cells);
    }
    return cells;
  }
}
