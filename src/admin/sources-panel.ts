import { html, nothing, type PropertyValues } from 'lit';
import { property, query, state } from 'lit/decorators.js';
import {
  type Chatbot,
  type DataSource,
  IN_PROGRESS_STATUSES,
  type RescrapeResult,
  type SourceTag,
} from '../api/types.js';
import { emit } from '../ui/events.js';
import { fill, plural } from '../ui/i18n.js';
import type { AdminSourcesAddedEvent } from './events.js';
import { problemOf, tooLong } from './field-problems.js';
import { AdminPanel, ariaDisabled } from './panel.js';
import { PollController } from './poll-controller.js';
import { filterAndSort, type SortKey, type StatusGroup } from './source-filter.js';
import { SourceTable, TYPE_LABEL } from './source-table.js';
import { styles } from './sources-panel.styles.js';
import { textField } from './text-field.js';

const inProgress = (source: DataSource) => IN_PROGRESS_STATUSES.includes(source.status);

/** The longest title the server takes (routes/sources.ts). */
const TITLE_MAX = 500;

/**
 * The data sources of the selected chatbot: a virtualized table (fast at 10,000 rows) with sort,
 * filters and search; adding through <chatbot-admin-source-add>; rename, re-scrape and delete.
 * While any source is being processed, the list refreshes itself with a growing delay.
 *
 * @fires admin-tag-filter - (internal) The user chose another tag filter; `detail` is its uuid.
 */
export class AdminSourcesPanel extends AdminPanel {
  static override styles = styles;

  private readonly table = new SourceTable(this, {
    selectAll: (on) => this.handleSelectAll(on),
    select: (uuid, on) => this.toggleRow(uuid, on),
    sortBy: (key) => this.handleSortClick(key),
    rename: (source) => this.openRename(source),
    delete: (sources) => void this.handleDelete(sources),
  });

  private readonly poll = new PollController(this, {
    pending: () => this.sources.some(inProgress),
    poll: () => void this.sourcesTask.run(),
  });

  @query('dialog.rename') private renameDialog?: HTMLDialogElement;

  /** Uuid of the tag the table is filtered by, or '' for all. */
  @property({ attribute: false }) tagFilter = '';

  @state() private sources: DataSource[] = [];
  @state() private tags: SourceTag[] = [];
  @state() private search = '';
  @state() private typeFilter = '';
  @state() private statusFilter: StatusGroup = '';
  @state() private sortKey: SortKey = 'created_at';
  @state() private sortDir: 1 | -1 = -1;
  @state() private selected = new Set<string>();
  @state() private renaming: DataSource | null = null;
  @state() private renameDraft = '';
  @state() private rescrapeResults: RescrapeResult[] = [];

  /** The filtered and sorted rows, recomputed only when their inputs change. */
  private view: DataSource[] = [];

  private readonly sourcesTask = this.sourceList(
    (sources) => {
      this.sources = sources;
      this.poll.schedule();
    },
    () => this.poll.schedule(),
  );

  private readonly tagsTask = this.tagList((tags) => {
    this.tags = tags;
  });

  /** Reloads the sources and the tags they are filtered by. */
  override refresh(): void {
    void this.sourcesTask.run();
    void this.tagsTask.run();
  }

  /** True while the list is being refreshed by itself (exposed for tests and the host page). */
  get polling(): boolean {
    return this.poll.active;
  }

  protected override willUpdate(changed: PropertyValues): void {
    super.willUpdate(changed);
    if (
      changed.has('chatbot') &&
      (changed.get('chatbot') as Chatbot | undefined)?.uuid !== this.chatbot?.uuid
    ) {
      this.selected = new Set();
      this.rescrapeResults = [];
    }
    if (
      changed.has('sources') ||
      changed.has('tags') ||
      changed.has('search') ||
      changed.has('typeFilter') ||
      changed.has('statusFilter') ||
      changed.has('tagFilter') ||
      changed.has('sortKey') ||
      changed.has('sortDir')
    ) {
      this.view = filterAndSort(this.sources, {
        search: this.search,
        type: this.typeFilter,
        status: this.statusFilter,
        tag: this.tagFilter,
        tags: this.tags,
        sortKey: this.sortKey,
        sortDir: this.sortDir,
        lang: this.lang,
      });
    }
  }

  private handleSortClick(key: SortKey): void {
    if (this.sortKey === key) this.sortDir = this.sortDir === 1 ? -1 : 1;
    else {
      this.sortKey = key;
      this.sortDir = key === 'created_at' ? -1 : 1;
    }
  }

  private toggleRow(uuid: string, on: boolean): void {
    const next = new Set(this.selected);
    if (on) next.add(uuid);
    else next.delete(uuid);
    this.selected = next;
  }

  private handleSelectAll(on: boolean): void {
    this.selected = on ? new Set(this.view.map((s) => s.uuid)) : new Set();
  }

  private handleTagFilterChange(uuid: string): void {
    this.tagFilter = uuid;
    emit(this, 'admin-tag-filter', uuid, { composed: false });
  }

  private handleAdded(event: AdminSourcesAddedEvent): void {
    const known = new Set(this.sources.map((s) => s.uuid));
    this.changedLocally();
    this.sources = [...this.sources, ...event.detail.filter((s) => !known.has(s.uuid))];
    this.changed({ kind: 'source', action: 'create', uuids: event.detail.map((s) => s.uuid) });
    this.poll.schedule(true);
  }

  private openRename(source: DataSource): void {
    this.renaming = source;
    this.renameDraft = source.title;
    this.clearError('rename');
    this.clearError('rename-title');
    void this.updateComplete.then(() => this.renameDialog?.showModal());
  }

  private async handleRenameSubmit(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const source = this.renaming;
    const client = this.client;
    const title = this.renameDraft.trim();
    if (!source || !client) return;
    // Checked as the server checks it, so that what it would refuse is said beside the field.
    const problem = title
      ? tooLong(title, TITLE_MAX, this.strings, this.lang)
      : this.strings.nameRequired;
    if (problem) return this.invalid('rename-title', problem);
    this.clearError('rename-title');
    // Optimistic: the row shows the new title while the request runs.
    this.patchSource(source.uuid, { title });
    const result = await this.run('rename', 'sources.update', () =>
      client.sources.update(source.uuid, { title }),
    );
    if (!result.ok) {
      this.patchSource(source.uuid, { title: source.title });
      return;
    }
    this.patchSource(source.uuid, result.value);
    this.renameDialog?.close();
    this.renaming = null;
    this.changed({ kind: 'source', action: 'update', uuids: [source.uuid] });
  }

  private patchSource(uuid: string, patch: Partial<DataSource>): void {
    this.sources = this.sources.map((s) => (s.uuid === uuid ? { ...s, ...patch } : s));
  }

  private async handleDelete(targets: DataSource[]): Promise<void> {
    const client = this.client;
    if (!client || targets.length === 0) return;
    const s = this.strings;
    const names = targets.map((t) => `“${t.title || t.file_name}”`);
    const message =
      targets.length === 1
        ? fill(s.confirmDeleteSource, { name: targets[0]!.title || targets[0]!.file_name })
        : plural(s, 'confirmDeleteSources', targets.length, this.lang, {
            names: names.slice(0, 5).join(', ') + (names.length > 5 ? ', …' : ''),
          });
    if (!(await this.confirm.ask(message))) return;
    const uuids = targets.map((t) => t.uuid);
    const gone = new Set(uuids);
    const before = this.sources;
    this.sources = this.sources.filter((src) => !gone.has(src.uuid));
    const result = await this.run('table', 'sources.delete', () =>
      uuids.length === 1 ? client.sources.delete(uuids[0]!) : client.sources.deleteMany(uuids),
    );
    if (!result.ok) {
      // Roll back, keeping whatever a refresh brought in meanwhile.
      const now = new Set(this.sources.map((src) => src.uuid));
      this.sources = [
        ...this.sources,
        ...before.filter((src) => gone.has(src.uuid) && !now.has(src.uuid)),
      ];
      return;
    }
    const selected = new Set(this.selected);
    for (const uuid of uuids) selected.delete(uuid);
    this.selected = selected;
    this.changed({ kind: 'source', action: 'delete', uuids });
  }

  private async handleRescrapeClick(): Promise<void> {
    const client = this.client;
    if (!client) return;
    const uuids = this.selectedSources()
      .filter((s) => s.type === 'link')
      .map((s) => s.uuid);
    if (uuids.length === 0) return;
    this.rescrapeResults = [];
    const result = await this.run('rescrape', 'sources.rescrape', () =>
      client.sources.rescrape(uuids),
    );
    if (!result.ok) return;
    this.rescrapeResults = result.value;
    this.changed({ kind: 'source', action: 'update', uuids });
    await this.sourcesTask.run();
    this.poll.schedule(true);
  }

  private selectedSources(): DataSource[] {
    return this.sources.filter((s) => this.selected.has(s.uuid));
  }

  override render() {
    const s = this.strings;
    const status = this.sourcesTask.render({
      pending: () =>
        this.sources.length || this.sourcesTask.value
          ? html`<span class="muted" role="status">${s.refreshing}</span>`
          : this.renderPending(),
      error: (error) => this.renderLoadError(error, () => this.sourcesTask.run(), 'sources.list'),
      complete: () => nothing,
    });
    return html`
      <h2 class="visually-hidden">${s.sources}</h2>
      <section part="card" aria-labelledby="table-heading">
        <h3 id="table-heading" tabindex="-1">${s.sources}</h3>
        ${this.renderToolbar()} ${status} ${this.renderError('table')} ${this.renderError('rescrape')}
        ${this.renderRescrapeResults()}
        ${this.table.render({
          strings: s,
          lang: this.lang,
          view: this.view,
          total: this.sources.length,
          selected: this.selected,
          sortKey: this.sortKey,
          sortDir: this.sortDir,
        })}
      </section>
      <chatbot-admin-source-add
        exportparts="form, input, button, primary, error, progress, dropzone, card"
        .client=${this.client}
        .chatbot=${this.chatbot}
        .strings=${s}
        lang=${this.lang}
        @admin-sources-added=${this.handleAdded}
      ></chatbot-admin-source-add>
      ${this.renderRenameDialog()} ${this.confirm.render()}
    `;
  }

  private renderToolbar() {
    const s = this.strings;
    const chosen = this.selectedSources();
    const links = chosen.filter((src) => src.type === 'link').length;
    return html`<div class="toolbar" part="toolbar">
        <label class="search"
          >${s.search}<input
            type="search"
            part="input"
            dir="auto"
            placeholder=${s.searchPlaceholder}
            .value=${this.search}
            @input=${(e: Event) => {
              this.search = (e.target as HTMLInputElement).value;
            }}
        /></label>
        <label
          >${s.filterType}<select
            part="input"
            .value=${this.typeFilter}
            @change=${(e: Event) => {
              this.typeFilter = (e.target as HTMLSelectElement).value;
            }}
          >
            <option value="">${s.allTypes}</option>
            ${Object.entries(TYPE_LABEL).map(
              ([v, label]) =>
                html`<option value=${v} ?selected=${v === this.typeFilter}>${s[label]}</option>`,
            )}
          </select></label
        >
        <label
          >${s.filterStatus}<select
            part="input"
            .value=${this.statusFilter}
            @change=${(e: Event) => {
              this.statusFilter = (e.target as HTMLSelectElement).value as StatusGroup;
            }}
          >
            <option value="">${s.allStatuses}</option>
            <option value="progress" ?selected=${this.statusFilter === 'progress'}>${s.statusInProgress}</option>
            <option value="success" ?selected=${this.statusFilter === 'success'}>${s.statusSuccess}</option>
            <option value="failed" ?selected=${this.statusFilter === 'failed'}>${s.statusFailed}</option>
          </select></label
        >
        <label
          >${s.filterTag}<select
            part="input"
            .value=${this.tagFilter}
            @change=${(e: Event) => this.handleTagFilterChange((e.target as HTMLSelectElement).value)}
          >
            <option value="">${s.allTags}</option>
            ${this.tags.map(
              (t) =>
                html`<option value=${t.uuid} ?selected=${t.uuid === this.tagFilter}>${t.name}</option>`,
            )}
          </select></label
        >
      </div>
      <div class="toolbar" part="toolbar">
        <span role="status" aria-live="polite"
          >${plural(s, 'shownCount', this.sources.length, this.lang, { shown: this.view.length })}${
            chosen.length ? html` · ${fill(s.selectedCount, { count: chosen.length })}` : nothing
          }</span
        >
        <span class="spacer"></span>
        <span class="controls">
          <button
            type="button"
            part="button"
            aria-disabled=${ariaDisabled(links === 0 || this.busy.has('rescrape'))}
            @click=${this.handleRescrapeClick}
          >
            ${s.rescrape}
          </button>
          <button
            type="button"
            class="danger"
            part="button danger"
            aria-disabled=${ariaDisabled(chosen.length === 0 || this.busy.has('table'))}
            @click=${() => this.handleDelete(chosen)}
          >
            ${s.deleteSelected}
          </button>
        </span>
      </div>`;
  }

  private renderRescrapeResults() {
    if (!this.rescrapeResults.length) return nothing;
    const s = this.strings;
    const byUuid = new Map(this.sources.map((src) => [src.uuid, src]));
    return html`<div role="status">
      <h4>${s.rescrapeResults}</h4>
      <ul class="results">
        ${this.rescrapeResults.map((r) => {
          const source = byUuid.get(r.uuid);
          return html`<li class=${r.error ? 'status-failed' : 'status-success'}>
            <span class="user-text" dir="auto">${source?.title || r.uuid}</span>: ${r.error ?? r.status}
          </li>`;
        })}
      </ul>
    </div>`;
  }

  private renderRenameDialog() {
    const s = this.strings;
    const source = this.renaming;
    return html`<dialog
      class="rename"
      part="dialog"
      aria-labelledby="rename-title"
      @close=${() => {
        this.renaming = null;
      }}
    >
      ${
        source
          ? html`<form part="form" @submit=${this.handleRenameSubmit} novalidate>
              <h2 id="rename-title">${fill(s.renameSource, { name: source.title || source.file_name })}</h2>
              ${textField({
                label: s.title,
                name: 'title',
                dir: 'auto',
                autocomplete: 'off',
                value: this.renameDraft,
                problem: problemOf('rename', 'title', { title: this.errors['rename-title'] }, true),
                onInput: (title) => {
                  this.renameDraft = title;
                },
              })}
              ${this.renderError('rename')}
              <div class="actions">
                <button type="submit" class="primary" part="button primary" aria-disabled=${ariaDisabled(this.busy.has('rename'))}>
                  ${s.save}
                </button>
                <button type="button" part="button" @click=${() => this.renameDialog?.close()}>${s.cancel}</button>
              </div>
            </form>`
          : nothing
      }
    </dialog>`;
  }
}
