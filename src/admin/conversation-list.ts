import { html, nothing, type ReactiveController, type ReactiveControllerHost } from 'lit';
import type { ConversationSummary, SessionSummary } from '../api/types.js';
import { fill } from '../ui/i18n.js';
import type { AdminStrings } from '../ui/strings/admin.js';
import { formatDate } from './format.js';
import { icons } from './icons.js';
import { VirtualRowsController } from './virtual-rows-controller.js';

/**
 * One row: a conversation as the review route summarizes it, or, from a server without that
 * route, a session as the session list gives it (no first question, count or flags).
 */
export type ConversationItem =
  | { readonly uuid: string; readonly summary: ConversationSummary; readonly session?: never }
  | { readonly uuid: string; readonly session: SessionSummary; readonly summary?: never };

export const fromSummary = (summary: ConversationSummary): ConversationItem => ({
  uuid: summary.session_uuid,
  summary,
});

export const fromSession = (session: SessionSummary): ConversationItem => ({
  uuid: session.uuid,
  session,
});

/** What the list shows: the panel's state as of this render. */
export interface ConversationListState {
  readonly strings: AdminStrings;
  readonly lang: string;
  readonly items: readonly ConversationItem[];
  readonly openUuid: string | null;
  /** The server has pages after the loaded ones. */
  readonly more: boolean;
  /** The list is filtered (an empty one then says "no match" rather than "none yet"). */
  readonly filtered: boolean;
}

/** What the list's controls ask of the panel. */
export interface ConversationListActions {
  readonly open: (item: ConversationItem) => void;
  readonly delete: (item: ConversationItem) => void;
  /** The rows on screen reach the end of those loaded: the next page is wanted. */
  readonly more: () => void;
}

/** `aria-rowindex` of the first conversation's row: row 1 is the header. */
const FIRST_ROW = 2;
/** Rows short of the end at which the next page is asked for. */
const NEAR_END = 10;

type ListHost = ReactiveControllerHost & { readonly renderRoot: ParentNode };

const FLAGS = [
  { count: 'up', label: 'markUp', icon: icons.up, tone: 'ok' },
  { count: 'down', label: 'markDown', icon: icons.down, tone: 'bad' },
  { count: 'not_covered', label: 'markNotCovered', icon: icons.notCovered, tone: 'bad' },
  { count: 'escalated', label: 'markEscalated', icon: icons.escalated, tone: '' },
  { count: 'errors', label: 'markErrors', icon: icons.error, tone: 'bad' },
] as const;

/**
 * The conversations as a virtual table (only the rows on screen are in the DOM, so 100,000
 * stay fast) that asks for the next page as its rows on screen near the end of those loaded.
 * Each row: the first question, the number of exchanges, the last activity, the flags (the
 * owner's test; ratings, answers not covered, escalations, errors: an icon with its meaning as
 * text), Open and Delete.
 */
export class ConversationList implements ReactiveController {
  private readonly rows: VirtualRowsController<ConversationItem>;
  private readonly dateTexts = new WeakMap<
    ConversationItem,
    { lang: string; last: string; started: string }
  >();
  /** How many items the last render drew from, and whether the server has more. */
  private loaded = 0;
  private wantsMore = false;

  constructor(
    private readonly host: ListHost,
    private readonly actions: ConversationListActions,
  ) {
    this.rows = new VirtualRowsController<ConversationItem>(host, {
      body: () => this.body(),
      key: (item) => item.uuid,
      firstRowIndex: FIRST_ROW,
      fallback: () => host.renderRoot.querySelector<HTMLElement>('#sessions-heading'),
    });
    host.addController(this);
  }

  hostUpdated(): void {
    if (!this.wantsMore) return;
    const last = this.body()?.querySelector('.window > :last-child');
    const shown = Number(last?.getAttribute('aria-rowindex') ?? FIRST_ROW - 1) - FIRST_ROW + 1;
    // After the update, not inside it: the next page's request updates the host again.
    if (shown >= this.loaded - NEAR_END) queueMicrotask(() => this.actions.more());
  }

  private body(): HTMLElement | null {
    return this.host.renderRoot.querySelector<HTMLElement>('.conversations .tbody');
  }

  render(state: ConversationListState) {
    const s = state.strings;
    const { items } = state;
    this.loaded = items.length;
    this.wantsMore = state.more;
    return html`<div
      class="table conversations"
      role="table"
      part="table"
      aria-labelledby="sessions-heading"
      aria-rowcount=${state.more ? -1 : items.length + 1}
    >
      <div class="thead" role="rowgroup">
        <div class="tr" role="row" part="row" aria-rowindex="1">
          <span role="columnheader" part="header-cell">${s.firstQuestion}</span>
          <span role="columnheader" part="header-cell">${s.exchanges}</span>
          <span role="columnheader" part="header-cell">${s.lastActivity}</span>
          <span role="columnheader" part="header-cell">${s.marks}</span>
          <span role="columnheader" part="header-cell">${s.actions}</span>
        </div>
      </div>
      ${
        items.length === 0
          ? html`<p class="empty padded">${state.filtered ? s.noConversationMatches : s.noSessions}</p>`
          : html`<div class="tbody" role="rowgroup" tabindex="-1">
              ${this.rows.render(items, (item, index) => this.renderRow(state, item, index))}
            </div>`
      }
    </div>`;
  }

  /**
   * A row; its buttons are described by its last activity, which tells apart two conversations
   * that began with the same question.
   */
  private renderRow(state: ConversationListState, item: ConversationItem, index: number) {
    const s = state.strings;
    const { summary } = item;
    const { last, started } = this.dates(item, state.lang);
    const title = summary ? summary.first_query : fill(s.sessionStarted, { date: started });
    const open = summary
      ? fill(s.openConversation, { question: title })
      : fill(s.openSession, { date: started });
    const remove = summary
      ? fill(s.deleteConversation, { question: title })
      : fill(s.deleteSessionOf, { date: started });
    return html`<div
      class="tr"
      role="row"
      part="row"
      aria-rowindex=${index + FIRST_ROW}
      aria-current=${item.uuid === state.openUuid ? 'true' : 'false'}
    >
      <span role="cell" part="cell" class="title" title=${title} dir="auto">${title}</span>
      <span role="cell" part="cell" class="num">${summary ? summary.exchanges : '—'}</span>
      <span role="cell" part="cell" class="date" id=${`last-${item.uuid}`}>${last}</span>
      <span role="cell" part="cell" class="flags">${summary ? this.renderFlags(s, summary) : nothing}</span>
      <span role="cell" part="cell" class="row-actions">
        <button
          type="button"
          part="button"
          aria-label=${open}
          aria-describedby=${`last-${item.uuid}`}
          @click=${() => this.actions.open(item)}
        >
          ${s.open}
        </button>
        <button
          type="button"
          class="danger"
          part="button danger"
          aria-label=${remove}
          aria-describedby=${`last-${item.uuid}`}
          @click=${() => this.actions.delete(item)}
        >
          ${s.delete}
        </button>
      </span>
    </div>`;
  }

  private renderFlags(s: AdminStrings, summary: ConversationSummary) {
    const flags = FLAGS.filter((flag) => summary[flag.count] > 0).map((flag) => {
      const text = fill(s[flag.label], { count: summary[flag.count] });
      return html`<span class="flag ${flag.tone}" title=${text}
        ><span aria-hidden="true">${flag.icon} ${summary[flag.count]}</span
        ><span class="visually-hidden">${text}</span></span
      >`;
    });
    // First: whatever else it holds, none of it was a visitor's.
    return summary.test
      ? [
          html`<span class="flag test" title=${s.markTestLong}
            ><span aria-hidden="true">${s.markTest}</span
            ><span class="visually-hidden">${s.markTestLong}</span></span
          >`,
          ...flags,
        ]
      : flags;
  }

  /**
   * The row's dates as text, made once per record: formatting a date is a row's costliest part,
   * and scrolling draws every row on screen again, often with another record.
   */
  private dates(item: ConversationItem, lang: string) {
    let cached = this.dateTexts.get(item);
    if (!cached || cached.lang !== lang) {
      const { summary, session } = item;
      cached = summary
        ? { lang, last: formatDate(summary.last_activity, lang), started: '' }
        : {
            lang,
            last: formatDate(session.modified_at, lang),
            started: formatDate(session.created_at, lang),
          };
      this.dateTexts.set(item, cached);
    }
    return cached;
  }
}
