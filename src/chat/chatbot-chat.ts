import {
  html,
  LitElement,
  nothing,
  type PropertyDeclarations,
  type PropertyValues,
  type TemplateResult,
} from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import { type ChatbotClient, type ChatClient, createChatClient } from '../api/client.js';
import type { SessionData } from '../api/types.js';
import { ClientController } from '../ui/client-controller.js';
import {
  type ChatStringOverrides,
  type ChatStrings,
  chatLanguages,
  chatStrings,
} from '../ui/strings/chat.js';
import { StringsController } from '../ui/strings-controller.js';
import { touchKeyboard } from '../ui/touch-keyboard.js';
import type { AnswerExtras } from './answer-extras.js';
import { AnswerViewsController } from './answer-views-controller.js';
import { styles } from './chatbot-chat.styles.js';
import { renderComposer } from './composer.js';
import { ConversationController } from './conversation-controller.js';
import { jsonConverter, listConverter } from './converters.js';
import { FollowController } from './follow-controller.js';
import { renderLauncher } from './launcher.js';
import { NoticesController } from './notices-controller.js';
import { answerExtras } from './renderer.js';
import { renderSuggestions } from './suggestions.js';
import type { Exchange } from './transcript-store.js';

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
 * @attr user-id - The signed-in visitor, on a site with accounts: each visitor's conversation and session are stored apart (under a hash of the id), and a change (sign-out: empty) starts a new conversation, never showing another visitor's.
 * @attr mode - `inline` (default): a panel in the page flow; `launcher`: a floating button that opens the panel.
 * @attr open - In launcher mode, whether the panel is open.
 * @attr persist - `local` (default): remember the conversation in localStorage; `none`: forget it on reload.
 * @attr theme - `light` or `dark` forces a scheme; without it the element follows `prefers-color-scheme`.
 * @attr lang - The language of the strings (`en`, `de`); inherited from the page when absent.
 * @attr greeting - A first message shown above the conversation; never sent to the service.
 * @attr suggestions - Suggested first questions: a JSON array or `|`-separated text.
 * @attr session-data - Initial data for a new session: a flat JSON object (nested values are refused).
 * @attr attachments - `on`: visitors may attach files to a question (button, drag and drop, paste); `off` (default): not. Hidden for good once the service answers an upload 404 or 405.
 * @attr accept - The types a visitor may attach: extensions and MIME types, comma-separated (default `.txt,.md,.csv,.html,.pdf,.docx`, the server's).
 * @attr max-attachment-size - The largest file a visitor may attach, in bytes (default 10485760, 10 MiB, the server's).
 * @attr feedback - `on` (default): "Helpful" and "Not helpful" under each answer; `off`: none. Hidden for good once the service answers them 404 or 405.
 *
 * @fires chatbot-session-created - A session was created (lazily, on the first message). Detail: `{ sessionUuid, chatbotUuid }`.
 * @fires chatbot-message-send - A message is about to be sent. Cancelable: `preventDefault()` keeps it unsent in the textbox. Detail: `{ query, sessionUuid, retry }`.
 * @fires chatbot-answer-finished - An answer is complete or was stopped. Detail: `{ query, response, sessionUuid, messageUuid, citations, stopped }`.
 * @fires chatbot-error - A failure was shown to the reader. Detail: `{ kind, message, error }`.
 * @fires chatbot-feedback - The service accepted a rating (`rating: null`: withdrawn). Detail: `{ messageUuid, rating, reason?, comment? }`.
 *
 * @csspart launcher - The floating button (launcher mode).
 * @csspart panel - The chat panel.
 * @csspart header - The panel's title bar.
 * @csspart heading - The panel's title.
 * @csspart close-button - Closes the panel (launcher mode).
 * @csspart new-chat-button - Starts a new conversation.
 * @csspart undo-button - Undo after New conversation: brings the conversation back, until the next message.
 * @csspart delete-confirm - The question after "Delete this exchange", with its Delete and Cancel buttons.
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
 * @csspart actions - The copy, delete and rating controls of an exchange.
 * @csspart feedback - The group of the two rating buttons.
 * @csspart feedback-button - "Helpful" or "Not helpful", a thumb icon named by its word (`aria-pressed` tells which is pressed).
 * @csspart feedback-error - Says the rating could not be saved.
 * @csspart feedback-form - The optional reason and comment after "Not helpful".
 * @csspart feedback-comment - The comment field of that form.
 * @csspart feedback-thanks - "Thanks for your feedback", beside the buttons once the service took the rating.
 * @csspart error - The alert shown after a failure.
 * @csspart retry-button - Re-sends the failed message.
 * @csspart attach-button - "Attach file" (`attachments="on"`).
 * @csspart attachments - The list of attachment chips, above the textbox or under a sent question.
 * @csspart attachment - One attachment chip: name, size, upload progress.
 * @csspart remove-attachment - Removes an attachment before sending.
 * @csspart attachment-error - Says why a file was refused, on its chip.
 * @csspart attachments-wait - Beside the textbox: the question waits for its files to upload, or would go without one that failed.
 * @csspart composer - The form with the textbox and its button.
 * @csspart input - The textbox.
 * @csspart send-button - The Send button; `[aria-disabled="true"]` while sending is not possible (a rate limit, a session being started): it keeps focus, so it is not `:disabled`.
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
 * @cssproperty --chatbot-feedback-pressed - Color of a pressed rating button.
 * @cssproperty --chatbot-target-size - Least height of the rating controls (24px); on touch screens, least width and height of every control under and inside answers (44px).
 */
export class ChatbotChat extends LitElement {
  static override styles = styles;

  private readonly i18n = new StringsController<ChatStrings>(this, chatStrings, chatLanguages);
  private readonly api = new ClientController<ChatClient>(this, createChatClient);
  private readonly follow = new FollowController(this, () => this.logNode);
  private readonly notices = new NoticesController(this, this.i18n);
  /** @internal The exchanges' views; the answers' chunk reads which are shown. */
  readonly answers = new AnswerViewsController(this, {
    exchanges: () => this.conversation.exchanges,
    copyCodeLabel: () => this.i18n.value.copyCode,
    visible: () => this.mode !== 'launcher' || this.open,
    keepPlace: () => this.follow.keepPlace(),
  });
  private readonly conversation = new ConversationController(this, {
    client: () => this.api.value,
    strings: () => this.i18n.value,
    answers: this.answers,
    notices: this.notices,
    onAccept: (query, retry) => {
      if (!retry) {
        if (this.input?.value.trim() === query) this.input.value = '';
        this.extras?.attachments?.clear();
      }
      this.follow.showLatest(false);
    },
    onRefused: (query) => {
      const input = this.input!;
      input.value = query + (input.value && `\n${input.value}`);
      this.extras?.attachments?.restore();
    },
    onText: () => this.follow.follow(),
    documents: () => this.extras?.attachments?.documents(),
    describe: (error) => this.extras?.describe(error),
  });
  /**
   * The sources, ratings and code copy buttons of answers: they come with the renderer, so they
   * are made once it has loaded, and never if it could not be (see `AnswerExtras`).
   */
  private extras?: AnswerExtras;

  // Plain lookups rather than Lit's @query: its decorator modules cost the first load ~0.2 KB.
  private find<T extends Element>(selector: string): T | undefined {
    return this.renderRoot?.querySelector<T>(selector) ?? undefined;
  }
  private get logNode() {
    return this.find<HTMLElement>('.log');
  }
  private get input() {
    return this.find<HTMLTextAreaElement>('textarea');
  }
  private get launcherButton() {
    return this.find<HTMLButtonElement>('.launcher');
  }

  // Declared here rather than with @property: the decorator and its calls cost the first load
  // about 0.3 KB gzip. The fields below keep their types, defaults and documentation.
  static override properties: PropertyDeclarations = {
    baseUrl: { attribute: 'base-url' },
    apiKey: { attribute: 'api-key' },
    chatbotUuid: { attribute: 'chatbot-uuid' },
    sessionUuid: { attribute: 'session-uuid' },
    userId: { attribute: 'user-id' },
    mode: { reflect: true },
    open: { type: Boolean, reflect: true },
    persist: {},
    theme: { reflect: true },
    greeting: {},
    suggestions: { converter: listConverter },
    sessionData: { attribute: 'session-data', converter: jsonConverter },
    attachments: {},
    accept: {},
    maxAttachmentSize: { attribute: 'max-attachment-size', type: Number },
    feedback: {},
    langAttribute: { attribute: 'lang' },
    strings: { converter: jsonConverter },
    client: { attribute: false },
  };

  /**
   * The service's address (without `/api/v1`). Ignored when `client` is set. One without
   * `http(s)://` (`localhost:8787`) leaves the chat unconfigured: sending says so, and the console
   * names the address.
   */
  baseUrl = '';

  /** The bearer key. Use a chat-only key in public pages. Ignored when `client` is set. */
  apiKey = '';

  /**
   * The chatbot to talk to. Changed on a live chat, it shows that chatbot's own remembered
   * conversation in its own session (a new one at the next message), never the previous
   * chatbot's; the same for another service (`client`).
   */
  chatbotUuid = '';

  /**
   * The session in use: set it to continue a given session; after the first message it holds
   * the session the element created.
   */
  sessionUuid = '';

  /** The visitor, who sees only their own conversation (empty: an anonymous visitor). */
  userId = '';

  /** `inline` or `launcher`. */
  mode: 'inline' | 'launcher' = 'inline';

  /**
   * In launcher mode, whether the panel is open. Set to `true` from script (your own "Chat with
   * us" button), focus goes to the textbox, as with the launcher, and Escape closes it; a chat that
   * starts open leaves the page's focus alone.
   */
  open = false;

  /**
   * `local` keeps the conversation in localStorage; `none` keeps nothing. Turned to `none` on a
   * live chat (a visitor withdrawing consent), what was stored is removed, and the conversation
   * stays on screen.
   */
  persist: 'local' | 'none' = 'local';

  /** `light` or `dark` forces a color scheme; unset follows the system. */
  theme?: 'light' | 'dark';

  /** A first message shown above the conversation. */
  greeting = '';

  /**
   * Suggested first questions, shown while the conversation is empty. As an attribute: a JSON
   * array (`["Opening hours?","Prices?"]`) or `|`-separated text (`Opening hours?|Prices?`).
   */
  suggestions: string[] = [];

  /**
   * Initial data of a session this element creates: a flat object (as an attribute, JSON such
   * as `{"plan":"pro"}`; nested values are refused).
   */
  sessionData?: SessionData;

  /** `on` lets visitors attach files to a question; `off` does not. */
  attachments: 'on' | 'off' = 'off';

  /** The types a visitor may attach (empty: the server's). */
  accept = '';

  /** The largest file a visitor may attach, in bytes (0: the server's 10 MiB). */
  maxAttachmentSize = 0;

  /** `on` offers a rating under each answer; `off` does not. */
  feedback: 'on' | 'off' = 'on';

  /**
   * The language of the strings (`en`, `de`), the element's own `lang` (as a property, the
   * native `lang`); without it, the closest ancestor's or the page's, followed as it changes.
   */
  protected langAttribute?: string;

  /**
   * Overrides for any visible string (see `ChatStrings`, `FeedbackStrings`, `AttachmentStrings`).
   * As an attribute (and the one-tag embed's `data-strings`), a JSON object:
   * `{"heading":"Northwind Cycles"}` names the title bar; text that is not one changes nothing.
   */
  strings?: ChatStringOverrides;

  /** A ready API client (e.g. one with `getToken` for a proxy), instead of base-url and api-key. */
  client?: ChatbotClient;

  /**
   * Sends `text` as the reader would. Resolves when the answer has finished or failed; while an
   * answer streams (or the rate limit holds), it sends nothing and resolves at once, as the
   * textbox would refuse it.
   */
  async send(text: string): Promise<void> {
    const query = text.trim();
    if (query) await this.conversation.send(query);
  }

  /** Stops the answer that is streaming, keeping what arrived. */
  stop(): void {
    this.conversation.stop();
  }

  /** Forgets the conversation (and its session): the next message starts a new one. */
  clear(): void {
    this.conversation.clear();
    this.follow.reading = false;
  }

  /** Removes the current visitor's stored conversation and clears the view; others' stay. */
  forget(): void {
    this.clear();
    // No session now: an Undo that New conversation offered goes too.
    this.extras?.keep();
  }

  protected override scheduleUpdate(): Promise<unknown> | undefined {
    return this.i18n.schedule(() => super.scheduleUpdate());
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    // Opened by the launcher or from script (a page's own "Chat with us"): focus goes in, where
    // Escape closes it. Not when the page starts it open: that would take the page's focus.
    if (changed.get('open') === false && this.open) {
      void this.updateComplete.then(() => this.focusComposer());
    }
    const Extras = answerExtras();
    if (this.extras || !Extras) return;
    this.extras = new Extras(this, {
      client: () => this.api.value,
      strings: () => this.i18n.value,
      save: () => this.conversation.save(),
      transcripts: () => this.conversation.store,
      notices: this.notices,
      copy: (text) => this.notices.copy(text),
      resized: () => this.follow.follow(),
    });
  }

  protected override render(): TemplateResult {
    const strings = this.i18n.value;
    const launcher = this.mode === 'launcher';
    return html`
      ${
        launcher
          ? renderLauncher({
              label: strings.openChat,
              open: this.open,
              onClick: this.handleLauncherClick,
              onIntent: this.answers.load,
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
        <div class="head" part="header">
          <h2 id="heading" part="heading">${strings.heading}</h2>
          ${
            this.conversation.exchanges.length
              ? html`<button type="button" class="text-button" part="new-chat-button" @click=${this.handleNewChatClick}>${strings.newChat}</button>`
              : nothing
          }
          ${
            launcher
              ? html`<button type="button" class="icon-button" part="close-button" aria-label=${strings.closeChat} @click=${this.handleCloseClick}>✕</button>`
              : nothing
          }
        </div>
        <div
          class=${this.follow.reading ? 'log reading' : 'log'}
          part="log"
          role="log"
          aria-live="off"
          aria-label=${strings.conversation}
          tabindex="0"
          @scroll=${this.follow.handleScroll}
          @click=${this.extras?.handleLogClick}
        >
          ${this.greeting ? html`<div class="message assistant greeting" part="message assistant-message greeting" dir="auto">${this.greeting}</div>` : nothing}
          ${repeat(
            this.answers.shown,
            (exchange) => exchange.id,
            (exchange) => this.renderExchange(exchange, strings),
          )}
          ${this.conversation.exchanges.length === 0 && this.suggestions.length ? renderSuggestions(html, this.suggestions, strings.suggestions, this.handleSuggestionClick) : nothing}
        </div>
        <div class="latest">
          ${
            this.follow.behind
              ? html`<button type="button" part="latest-button" @click=${this.handleLatestClick}>
                  <span aria-hidden="true">↓</span> ${strings.latest}
                </button>`
              : nothing
          }
          <div class="visually-hidden flash" role="status">${this.notices.notice}</div>
        </div>
        <div class="error" part="error" role="alert">${this.notices.renderError(
          this.conversation.failedId === undefined ? undefined : () => this.retryExchange(),
        )}</div>
        ${renderComposer({
          strings,
          streaming: this.conversation.streaming,
          sendDisabled: this.conversation.creatingSession || this.notices.rateLimited,
          onSubmit: this.handleSubmit,
          onKeyDown: this.handleInputKeyDown,
          onStop: this.handleStopClick,
          attach: this.extras?.attachments?.render(),
        })}
        <div class="visually-hidden" aria-live="polite">${this.notices.announcement}</div>
      </section>
    `;
  }

  private renderExchange(exchange: Exchange, strings: ChatStrings): TemplateResult {
    const view = this.answers.viewFor(exchange);
    const waiting =
      exchange.state === 'pending' ||
      (exchange.state === 'streaming' && !exchange.response) ||
      // The renderer is still loading: the typing dots hold the place of the text.
      (!view && exchange.state !== 'failed');
    const final = exchange.state === 'done' || exchange.state === 'stopped';
    const showAnswer = exchange.response || waiting || exchange.state !== 'failed';
    return html`<div class="exchange" part="exchange" data-id=${exchange.id}>
      <div class="message user" part="message user-message" dir="auto"><span class="visually-hidden">${strings.you}: </span>${exchange.query}${this.extras?.sent(exchange.documents)}</div>
      ${
        showAnswer
          ? html`<div class="message assistant" part="message assistant-message" dir="auto" aria-busy=${waiting || exchange.state === 'streaming' ? 'true' : 'false'}>
            <span class="visually-hidden">${strings.assistant}: </span>
            ${waiting ? html`<span class="typing" part="typing" role="img" aria-label=${strings.typing}><span></span><span></span><span></span></span>` : nothing}
            ${view?.root ?? nothing}
            ${exchange.state === 'stopped' ? html`<div class="status">${strings.stopped}</div>` : nothing}
            ${final ? this.extras?.sources(exchange) : nothing}
          </div>`
          : nothing
      }
      ${
        // A refusal's offered topics: a click asks one, as a starter suggestion does.
        final ? this.extras?.offer(exchange, view?.root, this.handleSuggestionClick) : nothing
      }
      ${
        // A failure the alert is not about (an earlier one, or one from before a reload) gets its
        // own Retry, so no question is left unanswerable.
        exchange.state === 'failed' &&
        !(this.notices.shownError && this.conversation.failedId === exchange.id)
          ? html`<div class="actions" part="actions">
            <span class="status">${strings.notAnswered}</span>
            <button type="button" class="text-button" part="retry-button" ?disabled=${this.conversation.streaming} @click=${() => this.retryExchange(exchange)}>${strings.retry}</button>
          </div>`
          : nothing
      }
      ${
        final
          ? html`<div class="actions" part="actions">
            <button type="button" class="text-button copy" @click=${() => this.notices.copy(exchange.response)}>${this.extras?.icon('copy', exchange)}<span>${strings.copyAnswer}</span></button>
            ${
              exchange.messageUuid
                ? html`<button type="button" class="text-button delete" @click=${() => this.deleteExchange(exchange)}>${this.extras?.icon('delete', exchange)}<span>${strings.deleteExchange}</span></button>`
                : nothing
            }
            ${this.extras?.actions(exchange)}
          </div>`
          : nothing
      }
    </div>`;
  }

  /**
   * Focus for a reader whose control went away, or who just opened the chat: the textbox, but on
   * a touch screen the conversation, where focusing the textbox would raise a keyboard over it.
   */
  private focusComposer(): void {
    (touchKeyboard() ? this.logNode : this.input)?.focus();
  }

  private async deleteExchange(exchange: Exchange): Promise<void> {
    // Asked first by the answers' chunk; a chat whose chunk did not load deletes at once.
    if ((await this.extras?.confirmDelete(exchange)) === false) return;
    // The button goes away with the exchange; the reader carries on where they write.
    if (await this.conversation.remove(exchange)) this.focusComposer();
  }

  /** Re-sends a failed message: by default the one the alert is about. */
  private retryExchange(exchange = this.conversation.failed): void {
    if (!exchange) return;
    // The button disappears with the failure: keep focus somewhere useful.
    this.focusComposer();
    void this.conversation.send(exchange.query, exchange);
  }

  // --- handlers ------------------------------------------------------------------------------

  private handleSubmit = (event: SubmitEvent): void => {
    event.preventDefault();
    void this.send(this.input?.value ?? '');
  };

  private handleInputKeyDown = (event: KeyboardEvent): void => {
    // A touch keyboard has no Shift+Enter for a new line: its Enter writes one, Send sends.
    if (event.key !== 'Enter' || event.shiftKey || event.isComposing || touchKeyboard()) return;
    event.preventDefault();
    if (this.conversation.streaming) return;
    void this.send(this.input?.value ?? '');
  };

  private handleStopClick = (): void => this.stop();

  private handleSuggestionClick = (question: string): void => {
    // The starters go once one is chosen: focus would fall to the page, out of the chat.
    this.focusComposer();
    void this.send(question);
  };

  private handleNewChatClick = (): void => {
    this.extras?.keep();
    this.clear();
    this.focusComposer();
  };

  private handleLauncherClick = (): void => {
    this.open = !this.open;
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

  private handleLatestClick = (): void => {
    this.follow.showLatest();
    // The button goes away with the click; the reader carries on where they write.
    this.focusComposer();
  };
}

declare global {
  interface HTMLElementTagNameMap {
    'chatbot-chat': ChatbotChat;
  }
}
