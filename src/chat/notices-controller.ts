import {
  html,
  nothing,
  type ReactiveController,
  type ReactiveControllerHost,
  type TemplateResult,
} from 'lit';
import { emit } from '../ui/events.js';
import { fill } from '../ui/i18n.js';
import type { ChatStrings } from '../ui/strings/chat.js';
import { describeError, type ShownError } from './errors.js';

/** How long a flash stays in the status region. */
const FLASH_MS = 3000;

/**
 * What the chat tells its reader besides the conversation: the failure in the alert (with the
 * rate limit's countdown), an announcement of each finished answer in the polite live region,
 * and short flashes ("Copied") in the status region. It owns their timers.
 */
export class NoticesController implements ReactiveController {
  /** The failure the alert shows. */
  shownError?: ShownError;
  /** The text of the polite live region. */
  announcement = '';
  /** The text of the status region (New conversation's Undo puts a button beside it). */
  notice: string | TemplateResult = '';
  /** Until when (epoch ms) the service refuses messages, after a 429 that said. */
  #rateLimitedUntil = 0;
  #rateTimer?: ReturnType<typeof setTimeout>;
  #noticeTimer?: ReturnType<typeof setTimeout>;
  #announceFrame?: number;

  readonly #host: ReactiveControllerHost & EventTarget;
  /** The host's strings and their language (its `StringsController`). */
  readonly #i18n: { readonly value: ChatStrings; readonly language: string };

  constructor(
    host: ReactiveControllerHost & EventTarget,
    i18n: { readonly value: ChatStrings; readonly language: string },
  ) {
    this.#host = host;
    this.#i18n = i18n;
    host.addController(this);
  }

  /** Sending waits for the rate limit to pass. */
  get rateLimited(): boolean {
    return this.#rateLimitedUntil > Date.now();
  }

  /** The alert's rate limit has not passed yet: its Retry waits. */
  get waiting(): boolean {
    const retryAt = this.shownError?.retryAt;
    return retryAt !== undefined && retryAt > Date.now();
  }

  /** What the alert adds to a rate limit: when sending is possible again, or that it is now. */
  countdown(): string {
    const retryAt = this.shownError?.retryAt;
    if (retryAt === undefined) return '';
    const { value: strings, language } = this.#i18n;
    if (!this.waiting) return strings.rateLimitReady;
    return fill(strings.rateLimitWait, {
      seconds: Math.ceil((retryAt - Date.now()) / 1000),
      time: new Date(retryAt).toLocaleTimeString(language),
    });
  }

  /**
   * The alert's content: the failure shown, with a rate limit's countdown, and its Retry button
   * once the wait is over, when the failure can be retried and `retry` is given.
   */
  renderError(retry: (() => void) | undefined): TemplateResult | typeof nothing {
    const shown = this.shownError;
    if (!shown) return nothing;
    const wait = this.countdown();
    const canRetry = shown.retryable && !this.waiting && retry;
    return html`<p>${shown.message}${wait ? html` <span class="wait">${wait}</span>` : nothing}</p>
      ${
        canRetry
          ? html`<button type="button" class="danger-button" part="retry-button" @click=${retry}>${this.#i18n.value.retry}</button>`
          : nothing
      }`;
  }

  /**
   * Copies as a selection where the Clipboard API is refused (see copy-selection.ts): set by the
   * answers' chunk, which every Copy button but one in a chat whose chunk did not load comes with.
   */
  copyBySelection?: (text: string, root: ParentNode) => boolean;

  /** Copies `text` for the reader, and flashes whether that worked. */
  async copy(text: string): Promise<void> {
    const strings = this.#i18n.value;
    // Asked first where the frame's policy allows it: a refused call logs a browser error.
    const policy = (document as { featurePolicy?: { allowsFeature(name: string): boolean } })
      .featurePolicy;
    let copied = false;
    if (policy?.allowsFeature('clipboard-write') !== false) {
      try {
        await navigator.clipboard.writeText(text);
        copied = true;
      } catch {
        // Refused (or no Clipboard API, on plain http): copied as a selection below.
      }
    }
    copied ||= !!this.copyBySelection?.(
      text,
      (this.#host as { renderRoot?: ParentNode }).renderRoot ?? document.body,
    );
    this.flash(copied ? strings.copied : strings.copyFailed);
  }

  hostConnected(): void {
    // A host taken off the page during the wait lost its timer.
    if (this.rateLimited) this.#waitForRateLimit();
  }

  hostDisconnected(): void {
    clearTimeout(this.#rateTimer);
    clearTimeout(this.#noticeTimer);
    if (this.#announceFrame !== undefined) cancelAnimationFrame(this.#announceFrame);
    this.#announceFrame = undefined;
  }

  /**
   * Shows `error` in the alert as `describeError` words it (`as` overrides its description;
   * `partial`: part of an answer stays on screen) and fires `chatbot-error`. A rate limit that
   * says when it ends holds sending until then.
   */
  showError(error: unknown, as?: Partial<ShownError>, partial?: boolean): ShownError {
    const shown = { ...describeError(error, this.#i18n.value, partial), ...as };
    this.shownError = shown;
    if (shown.retryAt !== undefined && shown.retryAt > Date.now()) {
      this.#rateLimitedUntil = shown.retryAt;
      this.#waitForRateLimit();
    }
    this.#host.requestUpdate();
    emit(this.#host, 'chatbot-error', { kind: shown.kind, message: shown.message, error });
    return shown;
  }

  /** Empties the alert. */
  clearError(): void {
    if (!this.shownError) return;
    this.shownError = undefined;
    this.#host.requestUpdate();
  }

  /** Says `text` once in the polite live region. */
  announce(text: string): void {
    // Clearing first makes an identical second answer count as a change.
    this.announcement = '';
    this.#host.requestUpdate();
    if (this.#announceFrame !== undefined) cancelAnimationFrame(this.#announceFrame);
    this.#announceFrame = requestAnimationFrame(() => {
      this.#announceFrame = undefined;
      this.announcement = text;
      this.#host.requestUpdate();
    });
  }

  /** Shows `text` in the status region for a few seconds. */
  flash(text: string): void {
    this.notice = text;
    this.#host.requestUpdate();
    clearTimeout(this.#noticeTimer);
    this.#noticeTimer = setTimeout(() => {
      this.notice = '';
      this.#host.requestUpdate();
    }, FLASH_MS);
  }

  #waitForRateLimit(): void {
    clearTimeout(this.#rateTimer);
    this.#rateTimer = setTimeout(
      () => {
        this.#rateLimitedUntil = 0;
        this.#host.requestUpdate();
      },
      this.#rateLimitedUntil - Date.now() + 50,
    );
  }
}
