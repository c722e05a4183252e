import type { TemplateResult } from 'lit';
import type { ChatClient } from '../api/client.js';
import { isMissingRoute } from '../api/errors.js';
import type { FeedbackInput, FeedbackReason, Rating } from '../api/types.js';
import { emit } from '../ui/events.js';
import { type ChatStrings, type FeedbackStrings, feedbackStrings } from '../ui/strings/chat.js';
import type { StringsController, StringsHost } from '../ui/strings-controller.js';
import { renderFeedback } from './feedback-view.js';
import { nothing, Strings } from './lazy-lit.js';
import type { NoticesController } from './notices-controller.js';
import type { Exchange, ReaderFeedback } from './transcript-store.js';

/**
 * Services whose first rating was answered 404 or 405: they have no feedback route (the hosted
 * service may lack it), so no element of the page offers ratings for them again.
 */
const unsupported = new Set<string>();
/**
 * Services that accepted a rating: they have the route, so a 404 from one later means that
 * answer's message is gone (deleted in the admin), not the route.
 */
const supported = new Set<string>();

/** The element's configuration the ratings follow. */
export interface FeedbackHost extends StringsHost<FeedbackStrings> {
  feedback: 'on' | 'off';
  readonly renderRoot: ParentNode;
}

export interface FeedbackOptions {
  /** The client in use; undefined while the host has none configured. */
  client(): ChatClient | undefined;
  strings(): ChatStrings;
  /** Remembers the conversation with its ratings. */
  save(): void;
  notices: NoticesController;
}

/**
 * The readers' ratings of answers: the buttons under each rateable answer and the reason form,
 * shown as pressed at once and taken back if the service refuses. One request per exchange is
 * in flight at a time; a change made meanwhile follows it, so the service ends with the last.
 * It fires `chatbot-feedback` from its host for each rating the service accepted. It starts
 * nothing that outlives the host, so it needs none of a controller's lifecycle hooks. It comes
 * with the lazily loaded chunk (see `AnswerExtras`): until that has loaded none are drawn,
 * and a page that cannot load it shows answers as plain text with no rating controls.
 */
export class FeedbackController {
  /** The exchange whose reason form is open. */
  #asking?: string;
  /** The exchange whose last rating could not be saved. */
  #failed?: string;
  /** Exchanges whose message the service no longer has (deleted in the admin). */
  readonly #gone = new Set<string>();
  /**
   * Exchanges thanked for their rating, beside its buttons for the rest of the page's life (a
   * reader who looks back sees it was taken); not after a reload, as the reason form is not.
   */
  readonly #thanked = new Set<string>();
  /** Exchanges to thank once the service has accepted their rating. */
  readonly #thanking = new Set<string>();
  /** The rating to send next, per exchange. */
  readonly #queued = new Map<string, FeedbackInput>();
  /** The last rating the service accepted, per exchange with a request in flight. */
  readonly #settled = new Map<string, ReaderFeedback | undefined>();

  /** The rating controls' strings: their table comes with the chunk, not the first load. */
  readonly #i18n: StringsController<FeedbackStrings>;

  readonly #host: FeedbackHost;
  readonly #options: FeedbackOptions;

  constructor(host: FeedbackHost, options: FeedbackOptions) {
    this.#host = host;
    this.#options = options;
    this.#i18n = new Strings(host, feedbackStrings);
  }

  /** The rating controls of a finished exchange, or nothing when it cannot be rated. */
  render(exchange: Exchange, icons: boolean): TemplateResult | typeof nothing {
    const client = this.#options.client();
    if (
      this.#host.feedback === 'off' ||
      !client ||
      unsupported.has(client.baseUrl) ||
      !exchange.messageUuid ||
      !exchange.response
    ) {
      return nothing;
    }
    return renderFeedback({
      strings: this.#i18n.value,
      rating: exchange.feedback?.rating,
      icons,
      asking: this.#asking === exchange.id,
      failed: this.#failed === exchange.id,
      gone: this.#gone.has(exchange.id),
      thanked: this.#thanked.has(exchange.id),
      onRate: (rating) => this.#toggle(exchange, rating),
      onSubmit: (event) => this.#handleReasonSubmit(exchange, event),
      onClose: () => this.#close(exchange),
    });
  }

  /** Presses `rating`, or releases it when it is pressed; "Not helpful" asks why. */
  #toggle(exchange: Exchange, rating: Rating): void {
    const release = exchange.feedback?.rating === rating;
    this.#asking = !release && rating === 'down' ? exchange.id : undefined;
    this.#thanked.delete(exchange.id);
    // "Not helpful" is thanked once its form is sent; a withdrawal never.
    if (!release && rating === 'up') this.#thanking.add(exchange.id);
    else this.#thanking.delete(exchange.id);
    this.#rate(exchange, { rating: release ? null : rating });
    if (this.#asking) this.#focus(exchange, 'form input');
  }

  #handleReasonSubmit(exchange: Exchange, event: SubmitEvent): void {
    event.preventDefault();
    const data = new FormData(event.target as HTMLFormElement);
    const reason = data.get('reason') as FeedbackReason | null;
    const comment = String(data.get('comment') ?? '').trim();
    this.#close(exchange);
    this.#thanking.add(exchange.id);
    // "Not helpful" itself is saved already: only a reason or a comment adds to it.
    if (reason || comment) {
      this.#rate(exchange, {
        rating: 'down',
        ...(reason ? { reason } : {}),
        ...(comment ? { comment } : {}),
      });
    } else if (!this.#settled.has(exchange.id) && exchange.feedback) {
      this.#thank(exchange);
    }
  }

  /**
   * Thanks the reader beside the buttons, and says it once, in the polite live region: a flash
   * would show it a second time, over the foot of the log, where the last answer's buttons are.
   */
  #thank(exchange: Exchange): void {
    this.#thanking.delete(exchange.id);
    this.#thanked.add(exchange.id);
    this.#options.notices.announce(this.#i18n.value.feedbackThanks);
    this.#host.requestUpdate();
  }

  /** Closes the reason form, back to the button that opened it. */
  #close(exchange: Exchange): void {
    this.#asking = undefined;
    this.#host.requestUpdate();
    this.#focus(exchange, 'button[value=down]');
  }

  #focus(exchange: Exchange, selector: string): void {
    void this.#host.updateComplete.then(() =>
      this.#host.renderRoot
        .querySelector<HTMLElement>(`[data-id="${exchange.id}"] ${selector}`)
        ?.focus(),
    );
  }

  /** Shows `input` at once, and sends it after any request for the exchange in flight. */
  #rate(exchange: Exchange, input: FeedbackInput): void {
    const { id } = exchange;
    const sending = this.#settled.has(id);
    if (!sending) this.#settled.set(id, exchange.feedback);
    exchange.feedback = given(input);
    this.#failed = undefined;
    this.#queued.set(id, input);
    this.#host.requestUpdate();
    if (!sending) void this.#send(exchange);
  }

  async #send(exchange: Exchange): Promise<void> {
    const { id, messageUuid } = exchange;
    const client = this.#options.client();
    try {
      if (!client || !messageUuid) return;
      for (let input = this.#queued.get(id); input; input = this.#queued.get(id)) {
        this.#queued.delete(id);
        try {
          await client.messages.feedback(messageUuid, input);
        } catch (error) {
          this.#queued.delete(id);
          this.#thanking.delete(id);
          exchange.feedback = this.#settled.get(id);
          const missing = isMissingRoute(error);
          // A service that took a rating has the route: its 404 says the message is gone.
          if (missing && supported.has(client.baseUrl)) this.#gone.add(id);
          else if (missing) unsupported.add(client.baseUrl);
          else {
            this.#failed = id;
            return;
          }
          if (this.#asking === id) this.#asking = undefined;
          // The controls go: a reader on one of them (or in the reason form) carries on from the
          // exchange's other buttons.
          const root = this.#host.renderRoot as ShadowRoot;
          if (root.activeElement?.closest('.feedback, .feedback-form')) {
            this.#focus(exchange, '.actions button');
          }
          return;
        }
        supported.add(client.baseUrl);
        this.#settled.set(id, given(input));
        // For the last rating asked for, not one a later change has superseded.
        if (input.rating && !this.#queued.has(id) && this.#thanking.has(id)) this.#thank(exchange);
        emit(this.#host, 'chatbot-feedback', { messageUuid, ...input });
      }
    } finally {
      this.#settled.delete(id);
      this.#options.save();
      this.#host.requestUpdate();
    }
  }
}

const given = (input: FeedbackInput) => (input.rating ? (input as ReaderFeedback) : undefined);
