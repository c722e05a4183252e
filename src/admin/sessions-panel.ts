import { Task } from '@lit/task';
import { html, nothing, type PropertyValues } from 'lit';
import { property, state } from 'lit/decorators.js';
import { isMissingRoute, refusesParameter } from '../api/errors.js';
import type { Chatbot, ChatSession, Message, MessageFilters, Page } from '../api/types.js';
import { emit } from '../ui/events.js';
import { fill } from '../ui/i18n.js';
import { shorten } from './conversation-exchange.js';
import {
  datesInOrder,
  type FilterDraft,
  isFiltered,
  messageFilters,
  NO_FILTERS,
  renderFilters,
  sameFilters,
  searchProblem,
} from './conversation-filters.js';
import {
  type ConversationItem,
  ConversationList,
  fromSession,
  fromSummary,
} from './conversation-list.js';
import { CursorPagesController } from './conversation-pages.js';
import { styles } from './conversation-panel.styles.js';
import { renderTranscript } from './conversation-transcript.js';
import { ExportController } from './export-controller.js';
import { CONVERSATIONS_PAGE_SIZE, takeEarly } from './first-page.js';
import { formatDate } from './format.js';
import { AdminPanel, ariaDisabled, takeEscape } from './panel.js';
import { QaFormController } from './qa-from-exchange.js';
import { TranscriptAnswers } from './transcript-answers.js';

/** The pause in typing after which a search is sent. */
const SEARCH_DELAY_MS = 300;

/**
 * The band of the window through which `node` can be seen: the viewport, less what its
 * scrolling ancestors (a dashboard's scrolling pane) cut off.
 */
function visibleBand(node: Element): { top: number; bottom: number } {
  let top = 0;
  let bottom = innerHeight;
  for (let n = node.parentNode; n; n = n instanceof ShadowRoot ? n.host : n.parentNode) {
    // The root's and the body's scrolling is the viewport's.
    if (!(n instanceof Element) || n === document.documentElement || n === document.body) continue;
    if (!/auto|scroll/.test(getComputedStyle(n).overflowY)) continue;
    const box = n.getBoundingClientRect();
    top = Math.max(top, box.top + n.clientTop);
    bottom = Math.min(bottom, box.top + n.clientTop + n.clientHeight);
  }
  return { top, bottom };
}

/**
 * The Conversations tab (its id stays `sessions`): the chatbot's conversations, searched and
 * filtered by the server and read page by page into a virtual list as it scrolls; a
 * conversation's stored data and transcript, each exchange with its citations, rating and
 * coverage, Add as Q&A and Delete; the export of the filtered exchanges as CSV or JSON.
 *
 * Against a server without the review routes (the hosted service), the first 404 or 405 turns
 * it into the session list it was, for the panel's life: every session by date, no search,
 * filters or export; and the Insights tab goes, as it would when opened. Against one whose list
 * does not tell the owner's tests (Try it) apart, "Asked by" goes.
 *
 * @fires admin-conversation-filter - (internal) The list is asked for under other filters;
 *   `detail` is the controls as set.
 */
export class AdminSessionsPanel extends AdminPanel {
  static override styles = styles;

  /** How many conversations one request asks for (1–200). */
  pageSize = CONVERSATIONS_PAGE_SIZE;

  /** Filters to show the list under (from the hash: a reload, Back, a link). */
  @property({ attribute: false }) filters: FilterDraft = NO_FILTERS;

  /** The filter controls as set. */
  @state() private draft: FilterDraft = NO_FILTERS;
  /** On a narrow panel, all filters but the search are behind the Filters button. */
  @state() private filtersFolded = true;
  /** Whether the server has the review routes; unknown until its first answer. */
  @state() private review?: boolean;
  /** Whether its list tells the owner's tests apart; unknown until it lists a conversation. */
  @state() private tests?: boolean;
  @state() private openUuid: string | null = null;
  /** Whether the open conversation is the owner's test, as its row said. */
  @state() private openTest = false;
  @state() private messages: Message[] = [];
  /** The open session as last loaded: kept on screen while it loads again. */
  @state() private session?: ChatSession;

  /** The filters of the list on screen: the draft's, once its search has paused. */
  private applied: MessageFilters = {};
  /** Their days as the reader picked them (`applied` holds the instants they start at). */
  private appliedDays = { from: '', to: '' };
  /** The draft last reported with `admin-conversation-filter`, which comes back as `filters`. */
  private reported?: FilterDraft;
  private searchTimer?: ReturnType<typeof setTimeout>;

  private readonly pages = new CursorPagesController<ConversationItem>(this, {
    // Settled: a page answered before a delete of ours has landed would bring its row back.
    load: (cursor, signal) => this.settled(() => this.loadPage(cursor, signal)),
    key: (item) => item.uuid,
  });

  private readonly list = new ConversationList(this, {
    open: (item) => this.handleOpen(item),
    delete: (item) => void this.handleDeleteSession(item),
    more: () => void this.pages.more(),
  });

  private readonly qa = new QaFormController(this);
  private readonly answers = new TranscriptAnswers(this);
  private readonly exporter = new ExportController(
    this,
    () => this.exportFilters(),
    () => this.appliedDays,
  );

  private readonly detailTask = new Task(this, {
    task: async ([client, uuid], { signal }) => {
      if (!client || !uuid) return undefined;
      const [session, messages] = await this.settled(() =>
        Promise.all([
          client.sessions.get(uuid, { signal }),
          client.messages.list(uuid, { signal }),
        ]),
      );
      return { session, messages };
    },
    args: () => [this.client, this.openUuid] as const,
    onComplete: (detail) => {
      this.session = detail?.session;
      this.messages = detail?.messages ?? [];
    },
  });

  protected override willUpdate(changed: PropertyValues): void {
    super.willUpdate(changed);
    const chatbotChanged =
      changed.has('chatbot') &&
      (changed.get('chatbot') as Chatbot | undefined)?.uuid !== this.chatbot?.uuid;
    if (chatbotChanged) this.openUuid = null;
    if (changed.has('client')) this.review = this.tests = undefined;
    // Before the list is asked for: its first request is already filtered.
    const filtered = changed.has('filters') && this.takeFilters();
    if (filtered || chatbotChanged || changed.has('client')) void this.pages.reset();
  }

  /**
   * Puts the controls as `filters` says, and the list under them; whether the list's filters
   * changed. The hash's values were checked as it was read (filtersFromHash), so no control has
   * a problem to show.
   */
  private takeFilters(): boolean {
    // Its own report coming back: the controls may have moved on since.
    if (this.filters === this.reported || sameFilters(this.filters, this.draft)) return false;
    clearTimeout(this.searchTimer);
    this.draft = this.filters;
    this.clearError('search');
    this.clearError('dates');
    return this.apply(this.draft);
  }

  /** Asks for the list under `draft` from now on; whether that changes what is asked. */
  private apply(draft: FilterDraft): boolean {
    const next = messageFilters(draft);
    if (JSON.stringify(next) === JSON.stringify(this.applied)) return false;
    this.applied = next;
    this.appliedDays = { from: draft.from, to: draft.to };
    this.exporter.forget();
    return true;
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    clearTimeout(this.searchTimer);
  }

  /** Reloads the list from its first page, and the open transcript. */
  override refresh(): void {
    void this.pages.reset();
    if (this.openUuid) void this.detailTask.run();
  }

  /**
   * One page of the list: the review route's, or, once the server has answered it 404/405,
   * every session in one page (the session list has no pages), latest first.
   */
  private async loadPage(
    cursor: string | undefined,
    signal: AbortSignal,
  ): Promise<Page<ConversationItem>> {
    const { client, chatbot } = this;
    if (!client || !chatbot) return { data: [], next_cursor: null };
    if (this.review !== false) {
      try {
        const query = { ...this.applied, cursor, limit: this.pageSize };
        const page = await ((cursor === undefined && takeEarly(client, chatbot.uuid, query)) ||
          client.review.conversations(chatbot.uuid, query, { signal }));
        this.review = true;
        if (page.data.length > 0) this.tests = page.data.some((c) => c.test !== undefined);
        return { data: page.data.map(fromSummary), next_cursor: page.next_cursor };
      } catch (error) {
        if (refusesParameter(error, 'test') && this.applied.test) {
          // Asked for the owner's tests by a hash: this server lists the visitors' alone.
          this.forgetTests();
          return this.loadPage(cursor, signal);
        }
        if (!isMissingRoute(error)) throw error;
        this.review = false;
        // Insights is one of the same routes: a server without this one has none of them.
        emit(this, 'admin-tab-unavailable', 'insights', { composed: false });
      }
    }
    const sessions = await client.sessions.list(chatbot.uuid, { signal });
    const latest = [...sessions].sort((a, b) => b.modified_at.localeCompare(a.modified_at));
    return { data: latest.map(fromSession), next_cursor: null };
  }

  /** "Asked by" goes, and the list is the visitors', as the hash then says too. */
  private forgetTests(): void {
    this.tests = false;
    this.draft = { ...this.draft, test: 'exclude' };
    this.apply(this.draft);
    this.reported = this.draft;
    emit(this, 'admin-conversation-filter', this.draft, { composed: false });
  }

  /** A search waits for a pause in typing; every other control applies at once. */
  private handleFilterChange(patch: Partial<FilterDraft>): void {
    this.draft = { ...this.draft, ...patch };
    clearTimeout(this.searchTimer);
    if ('q' in patch) this.searchTimer = setTimeout(() => this.applyFilters(), SEARCH_DELAY_MS);
    else this.applyFilters();
  }

  /**
   * Asks for the list the draft describes, unless its dates are out of order or its search is
   * one the server would refuse: each said beside its control, with nothing asked.
   */
  private applyFilters(): void {
    clearTimeout(this.searchTimer);
    const search = searchProblem(this.draft, this.strings, this.lang);
    if (search) this.invalid('search', search);
    else this.clearError('search');
    if (!datesInOrder(this.draft)) this.invalid('dates', this.strings.dateRangeInvalid);
    else this.clearError('dates');
    if (search || this.errors.dates) return;
    if (!this.apply(this.draft)) return;
    this.reported = this.draft;
    emit(this, 'admin-conversation-filter', this.draft, { composed: false });
    void this.pages.reset();
  }

  /**
   * What an export takes: what the controls say, a search still waiting for a pause in typing
   * applied first (the list follows), or nothing while one of them has a problem to correct.
   */
  private exportFilters(): MessageFilters | undefined {
    this.applyFilters();
    return this.errors.search || this.errors.dates ? undefined : this.applied;
  }

  /** Clear filters: the whole list, and focus on the search box, where a new search starts. */
  private handleClearFilters(): void {
    this.draft = NO_FILTERS;
    this.applyFilters();
    void this.updateComplete.then(() =>
      this.renderRoot.querySelector<HTMLElement>('input[type=search]')?.focus(),
    );
  }

  private handleOpen(item: ConversationItem): void {
    this.openUuid = item.uuid;
    this.openTest = item.summary?.test === true;
    // Below the list: the transcript's heading takes focus, so it is read next, and the
    // transcript comes into view. Once loaded it is taller than "Loading…", and may run below
    // the view a page too short to scroll further left it in: it is brought up again, unless
    // the page moved meanwhile (the reader scrolled).
    void this.updateComplete.then(async () => {
      this.renderRoot.querySelector<HTMLElement>('#detail-heading')?.focus({ preventScroll: true });
      const top = this.revealDetail();
      await this.detailTask.taskComplete.catch(() => undefined);
      await this.updateComplete;
      if (this.openUuid === item.uuid && this.detailTop() === top) this.revealDetail();
    });
  }

  /** Where the transcript's top is on screen, if it is open. */
  private detailTop(): number | undefined {
    return this.renderRoot.querySelector('section.detail')?.getBoundingClientRect().top;
  }

  /**
   * Scrolls the transcript's top to the top of the view, unless the view already shows it well
   * (whole, or from its upper half down), which would only jump; where its top is then.
   */
  private revealDetail(): number | undefined {
    const detail = this.renderRoot.querySelector('section.detail');
    if (!detail) return undefined;
    const view = visibleBand(detail);
    const { top, bottom } = detail.getBoundingClientRect();
    const seen = top >= view.top && (bottom <= view.bottom || top <= (view.top + view.bottom) / 2);
    if (!seen) detail.scrollIntoView({ block: 'start' });
    return detail.getBoundingClientRect().top;
  }

  private async handleDeleteSession(item: ConversationItem): Promise<void> {
    const client = this.client;
    if (!client) return;
    const s = this.strings;
    const message = item.summary
      ? fill(s.confirmDeleteConversation, { question: shorten(item.summary.first_query) })
      : fill(s.confirmDeleteSession, { date: formatDate(item.session.created_at, this.lang) });
    if (!(await this.confirm.ask(message))) return;
    const index = this.pages.items.findIndex((i) => i.uuid === item.uuid);
    // Deleted from its transcript, whose Delete button goes with it: focus goes to the list.
    const fromDetail = this.renderRoot
      .querySelector('.detail')
      ?.contains(this.shadowRoot!.activeElement);
    this.pages.drop(item.uuid);
    const wasOpen = this.openUuid === item.uuid;
    if (wasOpen) this.openUuid = null;
    if (fromDetail) {
      void this.updateComplete.then(() =>
        this.renderRoot.querySelector<HTMLElement>('#sessions-heading')?.focus(),
      );
    }
    const result = await this.run('sessions', 'sessions.delete', () =>
      client.sessions.delete(item.uuid),
    );
    if (!result.ok) {
      if (index >= 0) this.pages.restore(item, index);
      if (wasOpen) this.openUuid = item.uuid;
      return;
    }
    this.changed({ kind: 'session', action: 'delete', uuids: [item.uuid] });
  }

  private async handleDeleteMessage(message: Message): Promise<void> {
    const client = this.client;
    const openUuid = this.openUuid;
    if (!client || !openUuid) return;
    const name = shorten(message.query || message.response);
    if (!(await this.confirm.ask(fill(this.strings.confirmDeleteMessage, { name })))) return;
    const before = this.messages;
    void this.removeRow('article.exchange', '#detail-heading', () => {
      this.messages = this.messages.filter((m) => m.uuid !== message.uuid);
      if (this.qa.openKey === message.uuid) this.qa.close();
    });
    const result = await this.run('transcript', 'messages.delete', () =>
      client.messages.delete(message.uuid),
    );
    if (!result.ok) {
      this.messages = before;
      return;
    }
    this.changed({ kind: 'message', action: 'delete', uuids: [message.uuid] });
    await this.reloadRow(openUuid);
  }

  /**
   * Reads one conversation's row again as the server lists it now, under the filters applied:
   * its first question, count and flags follow a deleted exchange, and a conversation no longer
   * listed (its last exchange gone, or none left that matches) leaves the list.
   */
  private async reloadRow(uuid: string): Promise<void> {
    const { client, chatbot } = this;
    if (!client || !chatbot || !this.review) return;
    try {
      const page = await client.review.conversations(chatbot.uuid, {
        ...this.applied,
        session: uuid,
        limit: 1,
      });
      const summary = page.data[0];
      if (summary) this.pages.update(uuid, () => fromSummary(summary));
      else this.pages.drop(uuid);
    } catch {
      // The delete itself succeeded: the row stays as it was until the list is next loaded.
    }
  }

  override render() {
    const s = this.strings;
    const { pages } = this;
    return html`<section part="card" aria-labelledby="sessions-heading">
        <h2 id="sessions-heading" tabindex="-1">${s.conversations}</h2>
        ${
          this.review
            ? html`${renderFilters(s, this.draft, {
                problems: this.errors,
                change: (patch) => this.handleFilterChange(patch),
                clear: () => this.handleClearFilters(),
                tests: this.tests !== false,
                folded: this.filtersFolded,
                toggleFolded: () => {
                  this.filtersFolded = !this.filtersFolded;
                },
              })}
              ${this.exporter.render(
                Boolean(this.errors.dates || this.errors.search) || this.nothingToExport(),
              )}`
            : nothing
        }
        ${this.renderListStatus()} ${this.renderError('sessions')}
        ${
          pages.loaded
            ? this.list.render({
                strings: s,
                lang: this.lang,
                items: pages.items,
                openUuid: this.openUuid,
                more: pages.hasMore,
                filtered: Boolean(this.review) && isFiltered(this.draft),
              })
            : nothing
        }
        ${
          pages.hasMore && !pages.error
            ? html`<div class="more">
                <button
                  type="button"
                  part="button"
                  aria-disabled=${ariaDisabled(pages.loading !== false)}
                  @click=${() => pages.more()}
                >
                  ${s.loadMore}
                </button>
              </div>`
            : nothing
        }
      </section>
      ${this.openUuid ? this.renderDetail() : nothing} ${this.confirm.render()}`;
  }

  /** Loading, failed with Retry, refreshing, or how many rows are shown. */
  private renderListStatus() {
    const s = this.strings;
    const { pages } = this;
    if (pages.error)
      return this.renderLoadError(pages.error, () => pages.retry(), 'conversations.list');
    if (!pages.loaded) return pages.loading ? this.renderPending() : nothing;
    const count = pages.items.length;
    return html`<p class="muted" role="status">
      ${
        pages.loading
          ? s.refreshing
          : // "0 shown" too: a search that finds nothing is announced (the list says why).
            fill(pages.hasMore ? s.conversationsMore : s.conversationsShown, { count })
      }
    </p>`;
  }

  /** The list has loaded whole, and empty: an export would be an empty file. */
  private nothingToExport(): boolean {
    const { pages } = this;
    return pages.loaded && !pages.loading && !pages.hasMore && pages.items.length === 0;
  }

  /** Closes the transcript, focus going back to its row's Open (or the list, scrolled away). */
  private closeDetail(): void {
    const uuid = this.openUuid;
    this.openUuid = null;
    void this.updateComplete.then(() => {
      const open = this.renderRoot.querySelector<HTMLElement>(
        `.tbody button[aria-describedby="last-${uuid}"]`,
      );
      (open ?? this.renderRoot.querySelector<HTMLElement>('#sessions-heading'))?.focus();
    });
  }

  /** Escape closes the transcript, unless something inside it took the key (the Q&A form). */
  private handleDetailKeydown(event: KeyboardEvent): void {
    if (takeEscape(event)) this.closeDetail();
  }

  private renderDetail() {
    const s = this.strings;
    return html`<section
      class="card detail"
      part="card"
      aria-labelledby="detail-heading"
      @keydown=${(event: KeyboardEvent) => this.handleDetailKeydown(event)}
    >
      <div class="detail-head">
        <h2 id="detail-heading" tabindex="-1">${s.transcript}</h2>
        <button type="button" part="button" @click=${() => this.closeDetail()}>${s.close}</button>
      </div>
      ${this.detailTask.render({
        pending: () => (this.shownSession() ? nothing : this.renderPending()),
        error: (error) => this.renderLoadError(error, () => this.detailTask.run(), 'messages.list'),
      })}
      ${this.renderTranscript()}
    </section>`;
  }

  /** The loaded session, if it is the open one. */
  private shownSession(): ChatSession | undefined {
    return this.session?.uuid === this.openUuid ? this.session : undefined;
  }

  private renderTranscript() {
    const session = this.shownSession();
    if (!session) return nothing;
    return renderTranscript({
      strings: this.strings,
      lang: this.lang,
      qa: this.qa,
      answer: (message) => this.answers.render(message),
      passage: (message, n, text) => this.answers.passage(message, n, text),
      delete: (message) => void this.handleDeleteMessage(message),
      session,
      messages: this.messages,
      test: this.openTest,
      error: this.renderError('transcript'),
      deleteSession: () => {
        const item = this.pages.items.find((x) => x.uuid === session.uuid);
        void this.handleDeleteSession(item ?? fromSession(session));
      },
    });
  }
}
