import { Task, TaskStatus } from '@lit/task';
import { html, LitElement, nothing } from 'lit';
import { property, state } from 'lit/decorators.js';
import { keyed } from 'lit/directives/keyed.js';
import { repeat } from 'lit/directives/repeat.js';
import { type ChatbotClient, createClient } from '../api/client.js';
import type { Chatbot } from '../api/types.js';
import { ClientController } from '../ui/client-controller.js';
import { emit } from '../ui/events.js';
import { fill } from '../ui/i18n.js';
import { type AdminStrings, adminLanguages, adminStrings } from '../ui/strings/admin.js';
import { StringsController } from '../ui/strings-controller.js';
import { touchKeyboard } from '../ui/touch-keyboard.js';
import { styles } from './chatbot-admin.styles.js';
import { renderChatbotList } from './chatbot-list.js';
import { messageFilters, NO_FILTERS } from './conversation-filters.js';
import { CreateChatbotController } from './create-chatbot.js';
import {
  ADMIN_TABS,
  type AdminAskAgainEvent,
  type AdminChangeEvent,
  type AdminConversationFilterEvent,
  type AdminNavigateDetail,
  type AdminShowTagEvent,
  type AdminTab,
  type AdminTabUnavailableEvent,
  type AdminTagFilterEvent,
} from './events.js';
import { askEarly, CONVERSATIONS_PAGE_SIZE } from './first-page.js';
import { HashRouteController } from './hash-route-controller.js';
import { loadChat } from './lazy-tab.js';
import { ignoreAriaDisabled, loadError, loading } from './panel.js';
import { renderTabPanel, showInBox, TABS } from './tab-panels.js';
import { renderTabRow } from './tab-row.js';

/**
 * An admin panel for the chatbot service that drops into an existing page: chatbots and their
 * settings, agents, data sources, tags, sessions, and a "Try it" chat.
 *
 * @summary Manage chatbots, agents, data sources, tags and sessions from inside your own page.
 * @tagname chatbot-admin
 *
 * @fires chatbot-admin-change - Something was created, updated or deleted on the server.
 *   `detail: { kind, action, uuids }`.
 * @fires chatbot-admin-error - A request failed (a save, or a list that could not load: once per failure); the message is also shown in place.
 *   `detail: { operation, error, message }`.
 * @fires chatbot-admin-navigate - The selected chatbot or tab changed: chosen in the admin, brought by the hash (a link, Back), or the only chatbot opened as the list arrives.
 *   `detail: { chatbotUuid, tab }`.
 *
 * @csspart sidebar - The chatbot list column.
 * @csspart main - The column of the selected chatbot.
 * @csspart header - The heading row of a column.
 * @csspart tablist - The row of tabs.
 * @csspart tab - One tab.
 * @csspart panel - The shown tab's content.
 * @csspart form - A form (settings, create, edit).
 * @csspart input - A text field, number field, select or textarea.
 * @csspart button - Any button; primary ones also carry `primary`, destructive ones `danger`.
 * @csspart error - A failure message (role alert).
 * @csspart dialog - A confirmation or creation dialog.
 * @csspart table - The data-source table; `row`, `cell` and `header-cell` its pieces.
 * @csspart card - An agent, tag or session card.
 * @csspart swatch - A tag's colour swatch.
 * @csspart transcript - A session's transcript (`role="log"`).
 * @csspart exchange - One question with its answer in a transcript.
 * @csspart message - Every message bubble (with `user-message` or `assistant-message`), as in
 *   <chatbot-chat>.
 * @csspart user-message - The visitor's message in a transcript.
 * @csspart assistant-message - The chatbot's answer in a transcript.
 * @csspart sources - The cited sources under an answer in a transcript.
 * @csspart progress - An upload's progress bar.
 * @csspart dropzone - The area that takes dropped files.
 * @csspart chat - The <chatbot-chat> of the "Try it" tab, 32em high (style its `height`
 *   through this part); it inherits every other `--chatbot-*` property set on this element or
 *   above it.
 *
 * @cssproperty --chatbot-accent - Accent colour of primary buttons, the selection and focus.
 * @cssproperty --chatbot-accent-text - Text on the accent colour.
 * @cssproperty --chatbot-surface - Background.
 * @cssproperty --chatbot-surface-2 - Background of secondary buttons and the sidebar.
 * @cssproperty --chatbot-text - Text colour.
 * @cssproperty --chatbot-muted - Secondary text.
 * @cssproperty --chatbot-border - Borders.
 * @cssproperty --chatbot-danger - Errors and destructive buttons.
 * @cssproperty --chatbot-danger-surface - Background of error messages.
 * @cssproperty --chatbot-success - Success messages.
 * @cssproperty --chatbot-focus - Focus ring.
 * @cssproperty --chatbot-font - Font family.
 * @cssproperty --chatbot-font-size - Base font size.
 * @cssproperty --chatbot-mono - Font of the prompt editor.
 * @cssproperty --chatbot-radius - Corner radius of cards and dialogs.
 * @cssproperty --chatbot-shadow - Shadow of dialogs.
 * @cssproperty --chatbot-admin-sidebar-width - Width of the chatbot list. Default 16em.
 * @cssproperty --chatbot-admin-table-height - Largest height of the data-source and conversation tables, which scroll past it (a short list takes only its rows' height). Default 28em.
 */
export class ChatbotAdmin extends LitElement {
  static override styles = styles;

  private readonly clients = new ClientController(this, createClient);
  /** Its own `lang` or the page's, which a language switcher may change at any time. */
  private readonly localize = new StringsController(this, adminStrings, adminLanguages);
  private readonly route = new HashRouteController(this, ({ chatbotUuid, tab }) =>
    emit(this, 'chatbot-admin-navigate', { chatbotUuid, tab }),
  );
  private readonly create = new CreateChatbotController(this, {
    api: () => this.api,
    strings: () => ({ t: this.t, language: this.language }),
    created: (chatbot) => {
      this.chatbots = [...this.chatbots, chatbot];
      this.createdMeanwhile.push(chatbot);
      emit(this, 'chatbot-admin-change', {
        kind: 'chatbot',
        action: 'create',
        uuids: [chatbot.uuid],
      });
      this.navigate(chatbot.uuid, 'settings');
      // The dialog gave focus back to New chatbot, in the list: the owner goes on in the new
      // chatbot's tabs, which a screen reader names after it.
      void this.updateComplete.then(() =>
        this.renderRoot.querySelector<HTMLElement>('#tab-settings')?.focus(),
      );
    },
  });

  constructor() {
    super();
    ignoreAriaDisabled(this);
  }

  /** Base address of the service, e.g. `http://127.0.0.1:8787`. */
  @property({ attribute: 'base-url' }) baseUrl = '';

  /** API key sent as a bearer token. Use a full key here, never a chat-only one. */
  @property({ attribute: 'api-key' }) apiKey = '';

  /** A ready API client (from `createClient`); takes precedence over base-url and api-key. */
  @property({ attribute: false }) client?: ChatbotClient;

  /** `light` or `dark` forces a colour scheme; otherwise the system's preference applies. */
  @property({ reflect: true }) theme?: 'light' | 'dark';

  /** When set, the selection, tab and list filters are not kept in `location.hash`. */
  @property({ type: Boolean, attribute: 'no-hash' }) noHash = false;

  /**
   * Replaces any of the built-in strings (see src/ui/strings/admin.ts). A string with a count
   * comes in the language's plural forms, `…One` and `…Other` (`memberCountOne: '{count} source'`);
   * since 2026-11-27 that holds for `memberCount`, `shownCount` (its `{total}` is now `{count}`),
   * `confirmDeleteSources`, `allowedOriginsInvalid`, `insightsLastDays` and
   * `insightsNotCoveredShare`, so an override of the old key should be given as both forms.
   */
  @property({ attribute: false }) strings?: Partial<AdminStrings>;

  @state() private chatbots: Chatbot[] = [];

  /** Tabs whose routes the server lacks (see AdminTabUnavailableEvent), or whose code failed. */
  @state() private unavailable: ReadonlySet<AdminTab> = new Set();

  /** Tabs opened for the current chatbot: kept alive (hidden) so uploads and drafts survive. */
  private visited = new Set<AdminTab>();
  private visitedFor?: string | null;
  /** The chatbot and tab last scrolled into the list and the row of tabs (see showInBox). */
  private shownInBoxes = '';

  /** The client whose first route `askAhead` has looked at. */
  private askedAheadFor?: ChatbotClient;

  /** Chatbots created here since the list in flight was asked for: its answer predates them. */
  private createdMeanwhile: Chatbot[] = [];

  private readonly chatbotsTask = new Task(this, {
    task: async ([api], { signal }) => {
      this.createdMeanwhile = [];
      return api ? api.chatbots.list({ signal }) : ([] as Chatbot[]);
    },
    args: () => [this.api] as const,
    onComplete: (list) => {
      const listed = new Set(list.map((c) => c.uuid));
      const kept = this.createdMeanwhile.filter(
        (c) => !listed.has(c.uuid) && this.chatbots.some((shown) => shown.uuid === c.uuid),
      );
      this.chatbots = [...list, ...kept];
      // The only chatbot is the one the owner came to manage: "Select a chatbot" beside a list
      // of one asked for a click that chose nothing.
      const [only, ...others] = this.chatbots;
      if (only && others.length === 0 && !this.route.value.chatbotUuid) this.navigate(only.uuid);
    },
  });

  /** The client in use: the `client` property, or one built from base-url and api-key. */
  get api(): ChatbotClient | undefined {
    return this.clients.value;
  }

  /** The chatbot (uuid, or null for none) and tab on screen. */
  get shown(): AdminNavigateDetail {
    const { chatbotUuid, tab } = this.route.value;
    return { chatbotUuid, tab };
  }

  /**
   * Shows `tab` of the chatbot `chatbotUuid` (null: none): for a host with a router of its own
   * (with `no-hash`), which learns of the reader's moves from `chatbot-admin-navigate`. Fires no
   * event itself.
   */
  show(chatbotUuid: string | null, tab: AdminTab = 'agents'): void {
    this.route.go({
      chatbotUuid,
      tab: ADMIN_TABS.includes(tab) ? tab : 'agents',
      tagFilter: '',
      conversationFilters: this.filtersFor(chatbotUuid),
    });
  }

  /**
   * The Conversations filters in effect for `chatbotUuid`: kept while its panel is (across its
   * tabs); another chatbot's list starts unfiltered.
   */
  private filtersFor(chatbotUuid: string | null) {
    const { chatbotUuid: shown, conversationFilters } = this.route.value;
    return chatbotUuid === shown ? conversationFilters : NO_FILTERS;
  }

  /** One strings object per language and overrides: panels re-render only when it changes. */
  private get t(): AdminStrings {
    return this.localize.value;
  }

  private get language(): string {
    return this.localize.language;
  }

  private get selected(): Chatbot | undefined {
    return this.chatbots.find((c) => c.uuid === this.route.value.chatbotUuid);
  }

  protected override scheduleUpdate(): Promise<unknown> | undefined {
    return this.localize.schedule(() => super.scheduleUpdate());
  }

  protected override willUpdate(): void {
    this.askAhead();
    const { chatbotUuid, tab } = this.route.value;
    if (chatbotUuid !== this.visitedFor) {
      this.visitedFor = chatbotUuid;
      this.visited = new Set([tab]);
    } else this.visited.add(tab);
  }

  protected override updated(): void {
    const { chatbotUuid, tab } = this.route.value;
    const shown = `${chatbotUuid} ${tab}`;
    if (shown === this.shownInBoxes) return;
    const button = this.renderRoot.querySelector<HTMLElement>(`#tab-${tab}`);
    const card = this.renderRoot.querySelector<HTMLElement>('.chatbot-list [aria-current=true]');
    if (!button || !card) return;
    this.shownInBoxes = shown;
    // At the frame's start, where its layout is read, not forced early: on a link to a tab the
    // panel's rows are drawn after this, and the first page of the admin would lay out twice.
    requestAnimationFrame(() => {
      showInBox(button, button.parentElement!);
      showInBox(card, card.closest('ul')!);
    });
  }

  /**
   * On a client's first route (a link or a reload straight to a chatbot's tab), what the tab will
   * need goes out beside the chatbot list it waits for, not after it: its code, and the first
   * page of Conversations.
   */
  private askAhead(): void {
    const api = this.api;
    if (!api || api === this.askedAheadFor) return;
    this.askedAheadFor = api;
    const { chatbotUuid, tab, conversationFilters } = this.route.value;
    if (!chatbotUuid) return;
    // A chunk that does not arrive is reported, and its tab hidden, when the tab is drawn.
    TABS[tab].load?.().catch(() => {});
    if (tab === 'sessions') {
      const query = { ...messageFilters(conversationFilters), limit: CONVERSATIONS_PAGE_SIZE };
      askEarly(api, chatbotUuid, query);
    }
  }

  private get tabs(): AdminTab[] {
    return ADMIN_TABS.filter((tab) => !this.unavailable.has(tab));
  }

  /** Hides `tab` for the element's life, showing its left neighbour if it was shown. */
  private hideTab(tab: AdminTab): void {
    this.unavailable = new Set(this.unavailable).add(tab);
    const { chatbotUuid, tab: shown } = this.route.value;
    if (shown === tab) this.navigate(chatbotUuid, ADMIN_TABS[ADMIN_TABS.indexOf(tab) - 1]);
  }

  private navigate(
    chatbotUuid: string | null,
    tab: AdminTab = this.route.value.tab,
    tagFilter = '',
  ): void {
    const shown = this.route.value;
    // Choosing what is already shown changes nothing, and is no navigation to report.
    if (shown.chatbotUuid === chatbotUuid && shown.tab === tab && shown.tagFilter === tagFilter) {
      return;
    }
    this.route.go({
      chatbotUuid,
      tab,
      tagFilter,
      conversationFilters: this.filtersFor(chatbotUuid),
    });
    emit(this, 'chatbot-admin-navigate', { chatbotUuid, tab });
  }

  /**
   * A chatbot chosen from the list. Where the list stands above the tabs (a phone), they begin
   * below all of it: they are brought into view, or the tap seemed to do nothing. Beside the
   * list they are in view already, and the page stays still.
   */
  private async choose(chatbotUuid: string, tab: AdminTab): Promise<void> {
    this.navigate(chatbotUuid, tab);
    await this.updateComplete;
    const header = this.renderRoot.querySelector<HTMLElement>('.main > .header');
    const box = header?.getBoundingClientRect();
    if (box && (box.top < 0 || box.bottom > innerHeight)) header!.scrollIntoView();
  }

  private handleChange(event: AdminChangeEvent): void {
    const { kind, action, uuids } = event.detail;
    if (kind !== 'chatbot') return;
    if (action === 'delete') {
      this.chatbots = this.chatbots.filter((c) => !uuids.includes(c.uuid));
      const selected = this.route.value.chatbotUuid;
      if (selected && uuids.includes(selected)) {
        // Its Settings, where Delete held focus, go with it: focus goes to the chatbot list.
        const focused = this.shadowRoot?.activeElement;
        this.navigate(null, 'agents');
        void this.updateComplete.then(() => {
          if (focused && !this.shadowRoot?.activeElement) {
            this.renderRoot.querySelector<HTMLElement>('#chatbots-heading')?.focus();
          }
        });
      }
    }
    void this.chatbotsTask.run();
  }

  /** The source table's own filter: kept in the hash, but no navigation. */
  private handleTagFilter(event: AdminTagFilterEvent): void {
    this.route.go({ ...this.route.value, tagFilter: event.detail });
  }

  /** The Conversations tab's search and filters, once applied: kept in the hash, no navigation. */
  private handleConversationFilter(event: AdminConversationFilterEvent): void {
    this.route.go({ ...this.route.value, conversationFilters: event.detail });
  }

  private handleShowTag(event: AdminShowTagEvent): void {
    this.navigate(this.route.value.chatbotUuid, 'sources', event.detail);
  }

  /** "Ask again in Try it": the question goes out from the Try it tab's chat, as a visitor's. */
  private async handleAskAgain(event: AdminAskAgainEvent): Promise<void> {
    event.stopPropagation();
    this.navigate(this.route.value.chatbotUuid, 'try');
    try {
      // The first time, the chat's module is still on its way: the element is not one yet.
      await loadChat();
    } catch {
      return; // the tab is gone, and its chat with it
    }
    await this.updateComplete;
    type Chat = HTMLElementTagNameMap['chatbot-chat'];
    const chat = this.renderRoot.querySelector<Chat>('#panel-try chatbot-chat');
    await chat?.updateComplete;
    // The form that held focus is on a hidden tab now: the owner goes on in the chat, in its
    // conversation on a touch screen (the chat's own rule), whose keyboard would cover the answer.
    chat?.shadowRoot
      ?.querySelector<HTMLElement>(touchKeyboard() ? '[part~=log]' : '[part~=input]')
      ?.focus();
    await chat?.send(event.detail);
  }

  /** A tab chosen in the row; by a key, focus moves to it, as the arrow keys of a tab list do. */
  private goToTab(tab: AdminTab, byKey: boolean): void {
    this.navigate(this.route.value.chatbotUuid, tab);
    if (byKey) {
      void this.updateComplete.then(() =>
        this.renderRoot.querySelector<HTMLElement>(`#tab-${tab}`)?.focus(),
      );
    }
  }

  override render() {
    const t = this.t;
    if (!this.api) {
      return html`<p class="muted padded">${t.notConfigured}</p>`;
    }
    return html`<div
      class="layout"
      role="region"
      aria-label=${t.adminLabel}
      @chatbot-admin-change=${this.handleChange}
      @admin-tag-filter=${this.handleTagFilter}
      @admin-conversation-filter=${this.handleConversationFilter}
      @admin-show-tag=${this.handleShowTag}
      @admin-ask-again=${this.handleAskAgain}
      @admin-tab-unavailable=${(event: AdminTabUnavailableEvent) => this.hideTab(event.detail)}
    >
      ${this.renderSidebar()}
      <div class="main" part="main">${this.renderMain()}</div>
      ${this.create.render()}
    </div>`;
  }

  private renderSidebar() {
    const t = this.t;
    const list = this.chatbots;
    const { chatbotUuid, tab } = this.route.value;
    return renderChatbotList({
      strings: t,
      language: this.language,
      chatbots: list,
      current: chatbotUuid,
      status: this.chatbotsTask.render({
        pending: () =>
          list.length ? html`<p class="muted" role="status">${t.refreshing}</p>` : loading(t),
        error: (error) =>
          loadError(error, t, () => this.chatbotsTask.run(), {
            host: this,
            operation: 'chatbots.list',
          }),
        complete: () => (list.length ? nothing : html`<p class="empty">${t.noChatbots}</p>`),
      }),
      create: this.create.open,
      choose: (uuid) => this.choose(uuid, chatbotUuid ? tab : 'agents'),
    });
  }

  private renderMain() {
    const t = this.t;
    const chatbot = this.selected;
    const shown = this.route.value.tab;
    if (!chatbot) {
      const loading =
        this.route.value.chatbotUuid && this.chatbotsTask.status !== TaskStatus.COMPLETE;
      return html`<p class=${loading ? 'pending' : 'empty'}>${loading ? t.loading : t.selectChatbot}</p>`;
    }
    return html`
      <div class="header" part="header"><h2 class="user-text" dir="auto">${chatbot.name}</h2></div>
      ${renderTabRow({
        tabs: this.tabs,
        shown,
        label: fill(t.chatbotTabs, { name: chatbot.name }),
        strings: t,
        go: (tab, byKey) => this.goToTab(tab, byKey),
      })}
      ${keyed(
        chatbot.uuid,
        // Keyed by tab: opening a tab left of an open one must not rebuild the open one's panel.
        repeat(
          this.tabs.filter((tab) => this.visited.has(tab)),
          (tab) => tab,
          (tab) => html`<div
            role="tabpanel"
            part="panel"
            id="panel-${tab}"
            aria-labelledby="tab-${tab}"
            ?hidden=${tab !== shown}
          >
            ${this.renderPanel(tab, chatbot)}
          </div>`,
        ),
      )}
    `;
  }

  private renderPanel(tab: AdminTab, chatbot: Chatbot) {
    const { tab: shown, tagFilter, conversationFilters } = this.route.value;
    return renderTabPanel(tab, {
      client: this.api,
      chatbot,
      strings: this.t,
      language: this.language,
      theme: this.theme,
      shown,
      tagFilter,
      conversationFilters,
      unavailable: (unavailable) => this.hideTab(unavailable),
    });
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'chatbot-admin': ChatbotAdmin;
  }
}
