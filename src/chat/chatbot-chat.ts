import { html, LitElement, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { property, query, state } from 'lit/decorators.js';
import { classMap } from 'lit/directives/class-map.js';
import { repeat } from 'lit/directives/repeat.js';
import { type ChatbotClient, type ChatClient, createChatClient } from '../api/client.js';
import { isApiError } from '../api/errors.js';
import type { ChatSession, Citation, SessionData } from '../api/types.js';
import { fill, LanguageObserver, languageOf, localize } from '../ui/i18n.js';
import { type ChatStrings, chatStrings } from '../ui/strings/chat.js';
import { styles } from './chatbot-chat.styles.js';
import { renderComposer } from './composer.js';
import { ChatConfigError, checkSessionData, describeError, type ShownError } from './errors.js';
import type {
  ChatAnswerFinishedDetail,
  ChatErrorDetail,
  ChatMessageSendDetail,
  ChatSessionCreatedDetail,
} from './events.js';
import { renderLauncher } from './launcher.js';
import { safeUrl } from './links.js';
import { type AnswerView, answerViews, loadRenderer } from './renderer.js';
import { StreamController, type StreamOutcome } from './stream-controller.js';
import {
  type Exchange,
  exchangesFromMessages,
  newExchangeId,
  TranscriptStore,
} from './transcript-store.js';

/**
 * The start of an answer, for the live region: a long answer read out whole would hold the
 * screen reader for minutes; the full text is in the log.
 */
function excerpt(answer: string, max = 240): string {
  const text = answer.replace(/\s+/g, ' ').trim();
  if (text.length <= max) return text;
  const cut = text.lastIndexOf(' ', max);
  return `${text.slice(0, cut > max / 2 ? cut : max)}…`;
}

/**
 * How long one task may spend rendering a remembered conversation's markdown (the newest
 * exchanges when it loads, then older ones a task at a time): well under a long task.
 */
const REVEAL_BUDGET_MS = 8;
/**
 * Exchanges shown at once when a conversation loads, however long their markdown takes. One: a
 * long answer fills the log by itself, and short ones come several to the task's budget anyway.
 * Three made the mount task, the longest of a restore, about 10 ms longer.
 */
const FIRST_EXCHANGES = 1;

/** Runs `task` once the page is idle (within 2 s); Safari has no requestIdleCallback. */
function whenIdle(task: () => void): void {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(task, { timeout: 2_000 });
  else setTimeout(task, 1_000);
}

/** The exchange at the top edge of the log's view. */
function readingAt(log: HTMLElement | undefined): HTMLElement | undefined {
  if (!log) return undefined;
  const edge = log.getBoundingClientRect().top;
  for (const exchange of log.querySelectorAll<HTMLElement>('.exchange')) {
    if (exchange.getBoundingClientRect().bottom > edge) return exchange;
  }
  return undefined;
}

/** Reads `suggestions` as a JSON array, or as `|`-separated text. */
const listConverter = {
  fromAttribute(value: string | null): string[] {
    if (!value) return [];
    try {
      const parsed: unknown = JSON.parse(value);
      if (Array.isArray(parsed)) return parsed.map(String);
    } catch {
      // Not JSON: the simple form.
    }
    return value
      .split('|')
      .map((item) => item.trim())
      .filter(Boolean);
  },
};

/** Keeps unparsable JSON as the raw text, so the refusal can say what was wrong. */
const jsonConverter = {
  fromAttribute(value: string | null): unknown {
    if (value === null || value === '') return undefined;
    try {
      return JSON.parse(value);
    } catch {
      return value;
    }
  },
};

/**
 * An embeddable chat with a chatbot: streamed, sanitized markdown answers with citations, a
 * conversation that survives reloads, and recovery from every failure the service can produce.
 *
 * @summary Chat with a chatbot of the chatbot service, inline or behind a floating launcher.
 *
 * @attr base-url - The service's address, e.g. `https://chat.example.com` (without `/api/v1`).
 * @attr api-key - The key sent as `Authorization: Bearer …`. In a public page use a chat-only key.
 * @attr chatbot-uuid - The chatbot to talk to.
 * @attr session-uuid - Continue this session instead of the remembered one (or a new one).
 * @attr mode - `inline` (default): a panel in the page flow; `launcher`: a floating button that opens the panel.
 * @attr open - In launcher mode, whether the panel is open.
 * @attr persist - `local` (default): remember the conversation in localStorage; `none`: forget it on reload.
 * @attr theme - `light` or `dark` forces a scheme; without it the element follows `prefers-color-scheme`.
 * @attr lang - The language of the strings (`en`, `de`); inherited from the page when absent.
 * @attr greeting - A first message shown above the conversation; never sent to the service.
 * @attr suggestions - Suggested first questions: a JSON array or `|`-separated text.
 * @attr session-data - Initial data for a new session: a flat JSON object (nested values are refused).
 *
 * @fires chatbot-session-created - A session was created (lazily, on the first message). Detail: `{ sessionUuid, chatbotUuid }`.
 * @fires chatbot-message-send - A message is about to be sent. Cancelable: `preventDefault()` keeps it unsent in the textbox. Detail: `{ query, sessionUuid, retry }`.
 * @fires chatbot-answer-finished - An answer is complete or was stopped. Detail: `{ query, response, sessionUuid, messageUuid, citations, stopped }`.
 * @fires chatbot-error - A failure was shown to the reader. Detail: `{ kind, message, error }`.
 *
 * @csspart launcher - The floating button (launcher mode).
 * @csspart panel - The chat panel.
 * @csspart header - The panel's title bar.
 * @csspart heading - The panel's title.
 * @csspart close-button - Closes the panel (launcher mode).
 * @csspart new-chat-button - Starts a new conversation.
 * @csspart log - The conversation (`role="log"`).
 * @csspart latest-button - Shown when the reader has scrolled up: back to the newest message.
 * @csspart greeting - The greeting message.
 * @csspart suggestions - The list of suggested questions.
 * @csspart suggestion - One suggested question.
 * @csspart exchange - One question with its answer.
 * @csspart message - Every message bubble (with `user-message` or `assistant-message`).
 * @csspart user-message - The reader's message.
 * @csspart assistant-message - The chatbot's answer.
 * @csspart typing - The typing indicator shown until the first text arrives.
 * @csspart sources - The list of cited sources under an answer.
 * @csspart actions - The copy and delete buttons of an exchange.
 * @csspart error - The alert shown after a failure.
 * @csspart retry-button - Re-sends the failed message.
 * @csspart composer - The form with the textbox and its button.
 * @csspart input - The textbox.
 * @csspart send-button - The Send button.
 * @csspart stop-button - The same button while an answer streams.
 *
 * @cssproperty --chatbot-accent - Accent color (buttons, the reader's bubbles, links).
 * @cssproperty --chatbot-accent-text - Text on the accent color.
 * @cssproperty --chatbot-surface - Panel background.
 * @cssproperty --chatbot-surface-2 - Secondary background.
 * @cssproperty --chatbot-text - Text color.
 * @cssproperty --chatbot-muted - Secondary text color.
 * @cssproperty --chatbot-border - Border color.
 * @cssproperty --chatbot-danger - Error text color.
 * @cssproperty --chatbot-danger-surface - Error background.
 * @cssproperty --chatbot-focus - Focus ring color.
 * @cssproperty --chatbot-font - Font family.
 * @cssproperty --chatbot-font-size - Base font size.
 * @cssproperty --chatbot-mono - Monospace font family (code).
 * @cssproperty --chatbot-radius - Corner radius of the panel and bubbles.
 * @cssproperty --chatbot-shadow - Shadow of the launcher and its panel.
 * @cssproperty --chatbot-width - Panel width (inline: 100%, launcher: 380px).
 * @cssproperty --chatbot-height - Panel height (inline: 540px, launcher: 600px).
 * @cssproperty --chatbot-user-bubble - Background of the reader's messages.
 * @cssproperty --chatbot-user-text - Text color of the reader's messages.
 * @cssproperty --chatbot-answer-bubble - Background of answers.
 * @cssproperty --chatbot-gap - Space between messages.
 * @cssproperty --chatbot-launcher-size - Diameter of the launcher button.
 * @cssproperty --chatbot-offset - Distance of the launcher from the viewport's corner.
 * @cssproperty --chatbot-z-index - Stacking order of the launcher and its panel.
 */
export class ChatbotChat extends LitElement {
  static override styles = styles;

  private readonly stream = new StreamController(this);

  @query('.log') private logNode?: HTMLElement;
  @query('textarea') private input?: HTMLTextAreaElement;
  @query('.launcher') private launcherButton?: HTMLButtonElement;

  /** The service's address (without `/api/v1`). Ignored when `client` is set. */
  @property({ attribute: 'base-url' }) baseUrl = '';

  /** The bearer key. Use a chat-only key in public pages. Ignored when `client` is set. */
  @property({ attribute: 'api-key' }) apiKey = '';

  /** The chatbot to talk to. */
  @property({ attribute: 'chatbot-uuid' }) chatbotUuid = '';

  /**
   * The session in use: set it to continue a given session; after the first message it holds
   * the session the element created.
   */
  @property({ attribute: 'session-uuid' }) sessionUuid = '';

  /** `inline` or `launcher`. */
  @property({ reflect: true }) mode: 'inline' | 'launcher' = 'inline';

  /** In launcher mode, whether the panel is open. */
  @property({ type: Boolean, reflect: true }) open = false;

  /** `local` keeps the conversation in localStorage; `none` keeps nothing. */
  @property() persist: 'local' | 'none' = 'local';

  /** `light` or `dark` forces a color scheme; unset follows the system. */
  @property({ reflect: true }) theme?: 'light' | 'dark';

  /** A first message shown above the conversation. */
  @property() greeting = '';

  /** Suggested first questions, shown while the conversation is empty. */
  @property({ converter: listConverter }) suggestions: string[] = [];

  /** Initial data of a session this element creates: a flat object. */
  @property({ attribute: 'session-data', converter: jsonConverter })
  sessionData?: SessionData;

  /** Observed so that changing `lang` re-renders the strings; read through `languageOf`. */
  @property({ attribute: 'lang' }) private langAttribute?: string;

  constructor() {
    super();
    // The page's language may change under the element: `<html lang>` set by a language switcher.
    new LanguageObserver(this, () => this.requestUpdate());
  }

  /** Overrides for any visible string (see `ChatStrings`). */
  @property({ attribute: false }) strings?: Partial<ChatStrings>;

  /** A ready API client (e.g. one with `getToken` for a proxy), instead of base-url and api-key. */
  @property({ attribute: false }) client?: ChatbotClient;

  @state() private exchanges: Exchange[] = [];
  @state() private shownError?: ShownError;
  /** The exchange that Retry re-sends. */
  @state() private failedId?: string;
  @state() private creatingSession = false;
  @state() private announcement = '';
  @state() private rateLimitedUntil = 0;
  @state() private notice = '';

  private views = new Map<string, AnswerView>();
  private ownClient?: { key: string; client: ChatClient };
  private store?: TranscriptStore;
  private loadedKey = '';
  /**
   * The reader has scrolled up from the bottom of the log, so new text does not pull it down.
   * Answers that render as they come into view (content-visibility) would make the text jump by
   * their growth for a reader scrolling up; the browser's scroll anchoring holds it still, so it
   * is on while reading (the `reading` class), and off while following, as it would fight
   * `follow()`.
   */
  @state() private reading = false;
  private restoreRun = 0;
  private followFrame?: number;
  /** Where `follow()` last put the log; the reader scrolling above it stops the following. */
  private followTop = 0;
  private rateTimer?: ReturnType<typeof setTimeout>;
  /** Exchanges before this index are not rendered yet (see `prepareViews`). */
  @state() private shownFrom = 0;
  private revealTimer?: ReturnType<typeof setTimeout>;
  /** `useRenderer()` is waiting for the renderer to show what waited for it. */
  private awaitingRenderer = false;
  private noticeTimer?: ReturnType<typeof setTimeout>;

  override connectedCallback(): void {
    super.connectedCallback();
    // A launcher that is never opened never needs the renderer; an inline chat soon will.
    if (this.mode !== 'launcher') this.useRenderer();
    this.scheduleReveal();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    clearTimeout(this.revealTimer);
    clearTimeout(this.rateTimer);
    clearTimeout(this.noticeTimer);
  }

  /** Sends `text` as the reader would. Resolves when the answer has finished or failed. */
  async send(text: string): Promise<void> {
    const query = text.trim();
    if (!query) return;
    await this.sendExchange(query);
  }

  /** Stops the answer that is streaming, keeping what arrived. */
  stop(): void {
    this.stream.stop();
  }

  /** Forgets the conversation (and its session): the next message starts a new one. */
  clear(): void {
    this.stream.stop();
    this.exchanges = [];
    this.shownFrom = 0;
    this.views.clear();
    this.useSession('');
    this.shownError = undefined;
    this.failedId = undefined;
    this.store?.clear();
    this.reading = false;
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('open') && this.open) this.useRenderer();
    if (changed.has('sessionData') && this.sessionData !== undefined) {
      try {
        checkSessionData(this.sessionData);
        if (this.shownError?.kind === 'config') this.shownError = undefined;
      } catch (error) {
        this.showError(error);
      }
    }
    this.syncConfig();
  }

  /**
   * Loads the transcript of the configured service, chatbot and session when they changed. A
   * send calls it first too, so a message sent right after setting `client` (before the next
   * render) is not wiped by the reload that render would do.
   */
  private syncConfig(): void {
    if (this.configKey() !== this.loadedKey) this.loadTranscript();
  }

  protected override updated(): void {
    this.follow();
  }

  protected override render(): TemplateResult {
    const strings = this.localStrings();
    const launcher = this.mode === 'launcher';
    return html`
      ${
        launcher
          ? renderLauncher({
              label: strings.openChat,
              open: this.open,
              onClick: this.handleLauncherClick,
              onIntent: this.useRenderer,
              onKeyDown: this.handlePanelKeyDown,
            })
          : nothing
      }
      <section
        id="panel"
        class="panel"
        part="panel"
        role=${launcher ? 'dialog' : 'region'}
        aria-labelledby="heading"
        @keydown=${this.handlePanelKeyDown}
      >
        <header part="header">
          <h2 id="heading" part="heading">${strings.heading}</h2>
          ${
            this.exchanges.length
              ? html`<button
                type="button"
                class="text-button"
                part="new-chat-button"
                @click=${this.handleNewChatClick}
              >${strings.newChat}</button>`
              : nothing
          }
          ${
            launcher
              ? html`<button
                type="button"
                class="icon-button"
                part="close-button"
                aria-label=${strings.closeChat}
                @click=${this.handleCloseClick}
              >✕</button>`
              : nothing
          }
        </header>
        <div
          class=${classMap({ log: true, reading: this.reading })}
          part="log"
          role="log"
          aria-live="off"
          aria-label=${strings.conversation}
          tabindex="0"
          @scroll=${this.handleLogScroll}
          @click=${this.handleLogClick}
        >
          ${this.greeting ? html`<div class="message assistant greeting" part="message assistant-message greeting" dir="auto">${this.greeting}</div>` : nothing}
          ${repeat(
            this.exchanges.slice(this.shownFrom),
            (exchange) => exchange.id,
            (exchange) => this.renderExchange(exchange, strings),
          )}
          ${this.exchanges.length === 0 && this.suggestions.length ? this.renderSuggestions(strings) : nothing}
        </div>
        ${
          this.reading
            ? html`<div class="latest">
                <button type="button" part="latest-button" @click=${this.handleLatestClick}>
                  <span aria-hidden="true">↓</span> ${strings.latest}
                </button>
              </div>`
            : nothing
        }
        <div class="error" part="error" role="alert">${this.renderError(strings)}</div>
        ${renderComposer({
          strings,
          streaming: this.stream.active,
          sendDisabled: this.creatingSession || this.rateLimitedUntil > Date.now(),
          onSubmit: this.handleSubmit,
          onKeyDown: this.handleInputKeyDown,
          onStop: this.handleStopClick,
        })}
        <div class="visually-hidden" aria-live="polite">${this.announcement}</div>
        <div class="visually-hidden" role="status">${this.notice}</div>
      </section>
    `;
  }

  private renderExchange(exchange: Exchange, strings: ChatStrings): TemplateResult {
    const view = this.viewFor(exchange);
    const waiting =
      exchange.state === 'pending' ||
      (exchange.state === 'streaming' && !exchange.response) ||
      // The renderer is still loading: the typing dots hold the place of the text.
      (!view && exchange.state !== 'failed');
    const final = exchange.state === 'done' || exchange.state === 'stopped';
    const showAnswer = exchange.response || waiting || exchange.state !== 'failed';
    return html`<div class="exchange" part="exchange" data-id=${exchange.id}>
      <div class="message user" part="message user-message" dir="auto"><span class="visually-hidden">${strings.you}: </span>${exchange.query}</div>
      ${
        showAnswer
          ? html`<div class="message assistant" part="message assistant-message" dir="auto" aria-busy=${waiting || exchange.state === 'streaming' ? 'true' : 'false'}>
            <span class="visually-hidden">${strings.assistant}: </span>
            ${waiting ? html`<span class="typing" part="typing" role="img" aria-label=${strings.typing}><span></span><span></span><span></span></span>` : nothing}
            ${view?.root ?? nothing}
            ${exchange.state === 'stopped' ? html`<div class="status">${strings.stopped}</div>` : nothing}
            ${final ? this.renderSources(exchange, strings) : nothing}
          </div>`
          : nothing
      }
      ${
        // A failure the alert is not about (an earlier one, or one from before a reload) gets its
        // own Retry, so no question is left unanswerable.
        exchange.state === 'failed' && !(this.shownError && this.failedId === exchange.id)
          ? html`<div class="actions" part="actions">
            <span class="status">${strings.notAnswered}</span>
            <button type="button" class="text-button" part="retry-button" ?disabled=${this.stream.active} @click=${() => this.retryExchange(exchange)}>${strings.retry}</button>
          </div>`
          : nothing
      }
      ${
        final
          ? html`<div class="actions" part="actions">
            <button type="button" class="text-button" @click=${() => this.copyAnswer(exchange)}>${strings.copyAnswer}</button>
            ${
              exchange.messageUuid
                ? html`<button type="button" class="text-button" @click=${() => this.deleteExchange(exchange)}>${strings.deleteExchange}</button>`
                : nothing
            }
          </div>`
          : nothing
      }
    </div>`;
  }

  private renderSources(exchange: Exchange, strings: ChatStrings): TemplateResult | typeof nothing {
    const citations = this.citedSources(exchange);
    if (!citations.length) return nothing;
    return html`<ol class="sources" part="sources" aria-label=${strings.sources}>
      ${citations.map((citation) => {
        const url = safeUrl(citation.url);
        const label = `[${citation.n}] ${citation.title}`;
        return html`<li id=${`${exchange.id}-source-${citation.n}`} tabindex="-1">${
          url
            ? html`<a href=${url} target="_blank" rel="noopener noreferrer">${label}</a>`
            : html`<span>${label}</span>`
        }</li>`;
      })}
    </ol>`;
  }

  private renderSuggestions(strings: ChatStrings): TemplateResult {
    return html`<ul class="suggestions" part="suggestions" aria-label=${strings.suggestions}>
      ${this.suggestions.map(
        (text) =>
          html`<li><button type="button" class="suggestion" part="suggestion" @click=${() => this.send(text)}>${text}</button></li>`,
      )}
    </ul>`;
  }

  private renderError(strings: ChatStrings): TemplateResult | typeof nothing {
    const shown = this.shownError;
    if (!shown) return nothing;
    const waiting = shown.retryAt !== undefined && shown.retryAt > Date.now();
    let wait = '';
    if (shown.retryAt !== undefined) {
      wait = waiting
        ? fill(strings.rateLimitWait, {
            seconds: Math.ceil((shown.retryAt - Date.now()) / 1000),
            time: new Date(shown.retryAt).toLocaleTimeString(this.language()),
          })
        : strings.rateLimitReady;
    }
    const canRetry = shown.retryable && !waiting && this.failedId !== undefined;
    return html`<p>${shown.message}${wait ? html` <span class="wait">${wait}</span>` : nothing}</p>
      ${
        canRetry
          ? html`<button type="button" class="danger-button" part="retry-button" @click=${this.handleRetryClick}>${strings.retry}</button>`
          : nothing
      }`;
  }

  // --- sending -------------------------------------------------------------------------------

  private async sendExchange(query: string, retryOf?: Exchange): Promise<void> {
    if (this.stream.active || this.creatingSession) return;
    if (this.rateLimitedUntil > Date.now()) return;
    this.syncConfig();
    const client = this.resolveClient();
    try {
      if (!client) throw new ChatConfigError('set base-url and api-key, or the client property');
      if (!this.chatbotUuid) throw new ChatConfigError('set chatbot-uuid');
      if (this.sessionData !== undefined) checkSessionData(this.sessionData);
    } catch (error) {
      this.showError(error);
      return;
    }
    const proceed = this.emit<ChatMessageSendDetail>(
      'chatbot-message-send',
      { query, sessionUuid: this.sessionUuid || undefined, retry: retryOf !== undefined },
      true,
    );
    if (!proceed) return;

    let exchange: Exchange;
    if (retryOf) {
      exchange = retryOf;
      exchange.response = '';
      exchange.state = 'pending';
      exchange.messageUuid = undefined;
      exchange.citations = undefined;
      this.views.get(exchange.id)?.update('');
    } else {
      exchange = { id: newExchangeId(), query, response: '', state: 'pending' };
      this.exchanges = [...this.exchanges, exchange];
      if (this.input && this.input.value.trim() === query) this.input.value = '';
    }
    this.exchanges = [...this.exchanges];
    this.shownError = undefined;
    this.failedId = undefined;
    this.reading = false;

    let session: string;
    try {
      session = await this.ensureSession(client!);
    } catch (error) {
      this.failExchange(exchange, error);
      return;
    }
    let outcome = await this.streamAnswer(client!, session, exchange);
    // The remembered session is gone (expired, deleted): start a new one, once, and keep the
    // conversation on screen.
    if (outcome.kind === 'failed' && !outcome.started && isApiError(outcome.error)) {
      if (outcome.error.status === 404) {
        this.useSession('');
        try {
          session = await this.ensureSession(client!);
        } catch (error) {
          this.failExchange(exchange, error);
          return;
        }
        outcome = await this.streamAnswer(client!, session, exchange);
      }
    }
    this.finishExchange(exchange, session, outcome);
  }

  private async ensureSession(client: ChatClient): Promise<string> {
    if (this.sessionUuid) return this.sessionUuid;
    this.creatingSession = true;
    try {
      const data = this.sessionData !== undefined ? checkSessionData(this.sessionData) : undefined;
      const created: ChatSession = await client.sessions.create(this.chatbotUuid, data);
      this.useSession(created.uuid);
      this.save();
      this.emit<ChatSessionCreatedDetail>('chatbot-session-created', {
        sessionUuid: created.uuid,
        chatbotUuid: this.chatbotUuid,
      });
      return created.uuid;
    } finally {
      this.creatingSession = false;
    }
  }

  private streamAnswer(
    client: ChatClient,
    session: string,
    exchange: Exchange,
  ): Promise<StreamOutcome> {
    this.useRenderer();
    this.viewFor(exchange)?.update('');
    return this.stream.start(client, session, exchange.query, {
      onStart: ({ messageUuid, citations }) => {
        exchange.messageUuid = messageUuid;
        exchange.citations = citations;
        exchange.state = 'streaming';
        this.requestUpdate();
      },
      onText: (text) => {
        const first = !exchange.response;
        exchange.response = text;
        this.viewFor(exchange)?.update(text);
        if (first) this.requestUpdate();
        this.follow();
      },
    });
  }

  private finishExchange(exchange: Exchange, session: string, outcome: StreamOutcome): void {
    exchange.response = outcome.text;
    const view = this.viewFor(exchange);
    view?.update(outcome.text);
    view?.finish();
    if (outcome.kind === 'failed') {
      this.failExchange(exchange, outcome.error);
      return;
    }
    exchange.state = outcome.kind === 'stopped' ? 'stopped' : 'done';
    this.exchanges = [...this.exchanges];
    this.save();
    this.announce(
      fill(this.localStrings().answerReady, {
        text: excerpt(view?.plainText ?? outcome.text),
      }),
    );
    this.emit<ChatAnswerFinishedDetail>('chatbot-answer-finished', {
      query: exchange.query,
      response: exchange.response,
      sessionUuid: session,
      messageUuid: exchange.messageUuid,
      citations: exchange.citations,
      stopped: outcome.kind === 'stopped',
    });
  }

  private failExchange(exchange: Exchange, error: unknown): void {
    exchange.state = 'failed';
    this.viewFor(exchange)?.finish();
    this.exchanges = [...this.exchanges];
    this.failedId = exchange.id;
    this.save();
    this.showError(error);
  }

  private showError(error: unknown): void {
    const shown = describeError(error, this.localStrings());
    this.shownError = shown;
    clearTimeout(this.rateTimer);
    if (shown.retryAt !== undefined && shown.retryAt > Date.now()) {
      this.rateLimitedUntil = shown.retryAt;
      this.rateTimer = setTimeout(
        () => {
          this.rateLimitedUntil = 0;
          this.requestUpdate();
        },
        shown.retryAt - Date.now() + 50,
      );
    }
    this.emit<ChatErrorDetail>('chatbot-error', {
      kind: shown.kind,
      message: shown.message,
      error,
    });
  }

  // --- transcript ----------------------------------------------------------------------------

  /** Changes the session without reloading the transcript, as an outside change would. */
  private useSession(uuid: string): void {
    this.sessionUuid = uuid;
    this.loadedKey = this.configKey();
  }

  private configKey(): string {
    const client = this.resolveClient();
    return [client?.baseUrl ?? '', this.chatbotUuid, this.persist, this.sessionUuid].join('\n');
  }

  private loadTranscript(): void {
    const client = this.resolveClient();
    this.stream.stop();
    this.views.clear();
    this.store =
      client && this.chatbotUuid && this.persist !== 'none'
        ? new TranscriptStore(client.baseUrl, this.chatbotUuid)
        : undefined;
    const stored = this.store?.load() ?? { exchanges: [] };
    // A given session-uuid wins; a remembered conversation of another session is not shown.
    if (this.sessionUuid && stored.sessionUuid && stored.sessionUuid !== this.sessionUuid) {
      stored.exchanges = [];
    }
    if (!this.sessionUuid && stored.sessionUuid) this.sessionUuid = stored.sessionUuid;
    this.exchanges = stored.exchanges;
    this.showNewest(this.exchanges.length);
    if (this.exchanges.length) {
      // A closed launcher with a remembered conversation is a returning visitor's: they are
      // likely to open it, and it should show at once, so the renderer comes while the page idles.
      if (this.mode !== 'launcher' || this.open) this.useRenderer();
      else whenIdle(this.useRenderer);
    }
    this.failedId = [...stored.exchanges].reverse().find((e) => e.state === 'failed')?.id;
    this.loadedKey = this.configKey();
    if (client && this.sessionUuid) void this.restore(client, this.sessionUuid);
  }

  /** Replaces the remembered transcript with the server's, where the server keeps one. */
  private async restore(client: ChatClient, session: string): Promise<void> {
    const run = ++this.restoreRun;
    try {
      const messages = await client.messages.list(session);
      if (run !== this.restoreRun || session !== this.sessionUuid) return;
      // A message sent meanwhile makes the local view newer than the list.
      if (this.stream.active || this.creatingSession) return;
      if (!Array.isArray(messages) || (messages.length === 0 && this.exchanges.length > 0)) return;
      const unsent = this.exchanges.filter((e) => e.state === 'failed' && !e.messageUuid);
      const known = new Map(this.exchanges.map((e) => [e.messageUuid, e]));
      const restored = exchangesFromMessages(messages).map((e) => {
        const local = known.get(e.messageUuid);
        // The stream's citations carry links; a record's cite data may not.
        return local ? { ...e, id: local.id, citations: local.citations ?? e.citations } : e;
      });
      // Answers the list confirms keep their rendered markdown; only changed ones render again.
      const before = new Map(this.exchanges.map((e) => [e.id, e.response]));
      for (const id of [...this.views.keys()]) {
        const kept = restored.find((e) => e.id === id) ?? unsent.find((e) => e.id === id);
        if (!kept || before.get(id) !== kept.response) this.views.delete(id);
      }
      const shown = this.exchanges.length - this.shownFrom;
      this.exchanges = [...restored, ...unsent];
      this.shownFrom = Math.max(0, this.exchanges.length - shown);
      this.scheduleReveal();
      this.save();
    } catch {
      // No list (older service), or the session is gone: the remembered transcript stays, and
      // the next message finds out whether the session still exists.
    }
  }

  /**
   * Renders the markdown of the exchanges before `from`, newest first, while a short task allows
   * (and at least `least` of them); returns the index of the oldest one ready. A long remembered
   * conversation would otherwise hold the page in one long task as it loads.
   */
  private prepareViews(from: number, least = 1): number {
    if (!answerViews()) return from;
    const began = performance.now();
    const end = from;
    while (from > 0 && (end - from < least || performance.now() - began < REVEAL_BUDGET_MS)) {
      this.viewFor(this.exchanges[--from]!);
    }
    return from;
  }

  /** Shows the newest exchanges before `from` that a short task allows; older ones follow. */
  private showNewest(from: number): void {
    this.shownFrom = this.prepareViews(from, FIRST_EXCHANGES);
    this.scheduleReveal();
  }

  private scheduleReveal(): void {
    clearTimeout(this.revealTimer);
    this.revealTimer =
      this.shownFrom > 0 && answerViews() ? setTimeout(this.revealOlder) : undefined;
  }

  /** Adds as many older exchanges as a short task allows, keeping the reader's place. */
  private readonly revealOlder = (): void => {
    const from = this.prepareViews(Math.min(this.shownFrom, this.exchanges.length));
    // At the bottom, follow() keeps the log there. Otherwise what the reader is reading must
    // stay put as content appears above it: scroll anchoring does that where the browser has it
    // (see `reading`), this where it has not (Safari). The reader's last scroll may not have been
    // reported yet.
    this.handleLogScroll();
    const log = this.logNode;
    const read = this.reading ? readingAt(log) : undefined;
    const before = read?.getBoundingClientRect().top ?? 0;
    this.shownFrom = from;
    void this.updateComplete.then(() => {
      if (log && read?.isConnected) log.scrollTop += read.getBoundingClientRect().top - before;
      this.scheduleReveal();
    });
  };

  /**
   * Loads the markdown renderer unless it is there; then shows the remembered exchanges that
   * waited for it (see `prepareViews`) and the answers that came meanwhile.
   */
  private readonly useRenderer = (): void => {
    // Asked for again on every hover, focus and send while it loads: one wait is enough.
    if (answerViews() || this.awaitingRenderer) return;
    this.awaitingRenderer = true;
    void loadRenderer().then(() =>
      // A task of its own: the renderer's module has just run in this one.
      setTimeout(() => {
        this.showNewest(this.shownFrom);
        this.requestUpdate();
      }),
    );
  };

  private save(): void {
    this.store?.save({
      sessionUuid: this.sessionUuid || undefined,
      exchanges: this.exchanges.filter((e) => e.state !== 'pending' && e.state !== 'streaming'),
    });
  }

  // --- helpers -------------------------------------------------------------------------------

  private resolveClient(): ChatClient | undefined {
    if (this.client) return this.client;
    if (!this.baseUrl || !this.apiKey) return undefined;
    const key = `${this.baseUrl}\n${this.apiKey}`;
    if (this.ownClient?.key !== key) {
      this.ownClient = {
        key,
        client: createChatClient({ baseUrl: this.baseUrl, apiKey: this.apiKey }),
      };
    }
    return this.ownClient.client;
  }

  private language(): string {
    return this.langAttribute || languageOf(this);
  }

  private localStrings(): ChatStrings {
    return localize(chatStrings, this.language(), this.strings);
  }

  /** The exchange's answer view; undefined while the renderer loads. */
  private viewFor(exchange: Exchange): AnswerView | undefined {
    let view = this.views.get(exchange.id);
    const create = answerViews();
    if (!view && create) {
      view = create({
        citations: () => exchange.citations,
        copyCodeLabel: () => this.localStrings().copyCode,
        idPrefix: exchange.id,
      });
      if (exchange.response) {
        view.update(exchange.response);
        if (exchange.state !== 'pending' && exchange.state !== 'streaming') view.finish();
      }
      this.views.set(exchange.id, view);
    }
    return view;
  }

  /** Sources to list: those the answer cites, or all when it has no markers. */
  private citedSources(exchange: Exchange): Citation[] {
    const citations = exchange.citations ?? [];
    if (!citations.length) return [];
    const cited = new Set(
      [...exchange.response.matchAll(/\[(\d{1,3})\]/g)].map((m) => Number(m[1])),
    );
    const used = citations.filter((c) => cited.has(c.n));
    return used.length ? used : citations;
  }

  /**
   * Keeps the newest text in view while the reader is at the bottom. Off-screen blocks are laid
   * out lazily (content-visibility), so one jump can land short after a burst of text: check
   * again on the next frames until the bottom holds.
   */
  private follow(corrections = 5): void {
    const log = this.logNode;
    if (!log || this.reading) return;
    log.scrollTop = log.scrollHeight;
    this.followTop = log.scrollTop;
    if (corrections > 0 && this.followFrame === undefined) {
      this.followFrame = requestAnimationFrame(() => {
        this.followFrame = undefined;
        // A reader who scrolled up since has not necessarily been reported by a scroll event yet.
        this.handleLogScroll();
        if (log.scrollTop + log.clientHeight < log.scrollHeight - 2) this.follow(corrections - 1);
      });
    }
  }

  private announce(text: string): void {
    // Clearing first makes an identical second answer count as a change.
    this.announcement = '';
    requestAnimationFrame(() => {
      this.announcement = text;
    });
  }

  private flash(text: string): void {
    this.notice = text;
    clearTimeout(this.noticeTimer);
    this.noticeTimer = setTimeout(() => {
      this.notice = '';
    }, 3000);
  }

  private emit<T>(type: string, detail: T, cancelable = false): boolean {
    return this.dispatchEvent(
      new CustomEvent<T>(type, { detail, bubbles: true, composed: true, cancelable }),
    );
  }

  private async copyText(text: string): Promise<boolean> {
    try {
      await navigator.clipboard.writeText(text);
      return true;
    } catch {
      return false;
    }
  }

  private async copyAnswer(exchange: Exchange): Promise<void> {
    const strings = this.localStrings();
    this.flash((await this.copyText(exchange.response)) ? strings.copied : strings.copyFailed);
  }

  private async deleteExchange(exchange: Exchange): Promise<void> {
    const client = this.resolveClient();
    if (!client || !exchange.messageUuid) return;
    const strings = this.localStrings();
    try {
      await client.messages.delete(exchange.messageUuid);
    } catch (error) {
      const shown = describeError(error, strings);
      // Already gone on the server is what the reader asked for.
      if (!(isApiError(error) && error.status === 404)) {
        this.shownError = {
          ...shown,
          kind: 'delete',
          message: strings.deleteFailed,
          retryable: false,
        };
        this.emit<ChatErrorDetail>('chatbot-error', {
          kind: 'delete',
          message: strings.deleteFailed,
          error,
        });
        return;
      }
    }
    this.exchanges = this.exchanges.filter((e) => e.id !== exchange.id);
    this.views.delete(exchange.id);
    this.save();
    this.flash(strings.deleted);
    this.input?.focus();
  }

  // --- handlers ------------------------------------------------------------------------------

  private handleSubmit = (event: SubmitEvent): void => {
    event.preventDefault();
    const text = this.input?.value ?? '';
    void this.send(text);
  };

  private handleInputKeyDown = (event: KeyboardEvent): void => {
    if (event.key !== 'Enter' || event.shiftKey || event.isComposing) return;
    event.preventDefault();
    if (this.stream.active) return;
    void this.send(this.input?.value ?? '');
  };

  private handleStopClick = (): void => {
    this.stream.stop();
  };

  private handleRetryClick = (): void => {
    const exchange = this.exchanges.find((e) => e.id === this.failedId);
    if (exchange) this.retryExchange(exchange);
  };

  private retryExchange(exchange: Exchange): void {
    // The button disappears with the failure: keep focus somewhere useful.
    this.input?.focus();
    void this.sendExchange(exchange.query, exchange);
  }

  private handleNewChatClick = (): void => {
    this.clear();
    this.input?.focus();
  };

  private handleLauncherClick = async (): Promise<void> => {
    this.open = !this.open;
    if (this.open) {
      await this.updateComplete;
      this.input?.focus();
    }
  };

  private handleCloseClick = async (): Promise<void> => {
    this.open = false;
    await this.updateComplete;
    this.launcherButton?.focus();
  };

  private handlePanelKeyDown = (event: KeyboardEvent): void => {
    if (event.key === 'Escape' && this.mode === 'launcher' && this.open) {
      event.stopPropagation();
      void this.handleCloseClick();
    }
  };

  private handleLogScroll = (): void => {
    const log = this.logNode;
    if (!log) return;
    if (log.scrollTop + log.clientHeight >= log.scrollHeight - 32) this.reading = false;
    // While following, layout settling never moves scrollTop (overflow-anchor is off), so this
    // is the reader.
    else if (log.scrollTop < this.followTop - 4) this.reading = true;
  };

  private handleLatestClick = (): void => {
    this.reading = false;
    this.follow();
    // The button goes away with the click; the reader carries on where they write.
    this.input?.focus();
  };

  private handleLogClick = async (event: MouseEvent): Promise<void> => {
    const target = event.target as HTMLElement;
    const copy = target.closest<HTMLButtonElement>('button.copy-code');
    if (copy) {
      const code = copy.parentElement?.querySelector('pre')?.textContent ?? '';
      const strings = this.localStrings();
      const ok = await this.copyText(code);
      this.flash(ok ? strings.copied : strings.copyFailed);
      return;
    }
    const marker = target.closest<HTMLAnchorElement>('a.citation');
    const href = marker?.getAttribute('href');
    if (marker && href?.startsWith('#')) {
      // In-page anchors do not reach into shadow DOM and would change the host page's URL.
      event.preventDefault();
      const item = this.renderRoot.querySelector<HTMLElement>(
        `[id="${CSS.escape(href.slice(1))}"]`,
      );
      item?.focus();
    }
  };
}

declare global {
  interface HTMLElementTagNameMap {
    'chatbot-chat': ChatbotChat;
  }
}
