import type { ReactiveController, TemplateResult } from 'lit';
import { isApiError } from '../api/errors.js';
import { fill } from '../ui/i18n.js';
import {
  type AnswerStrings,
  answerStrings,
  type SentStrings,
  sentStrings,
} from '../ui/strings/chat.js';
import type { StringsController, StringsHost } from '../ui/strings-controller.js';
import { type ActionIcon, actionIcon } from './action-icons.js';
import { adoptAnswerStyles } from './answer.styles.js';
import type { AttachmentsController, AttachmentsHost } from './attachments-controller.js';
import { copyBySelection } from './copy-selection.js';
import { DeleteConfirm } from './delete-confirm.js';
import {
  FeedbackController,
  type FeedbackHost,
  type FeedbackOptions,
} from './feedback-controller.js';
import {
  FullScreenController,
  type FullScreenHost,
  type FullScreenOptions,
} from './full-screen.js';
import { html, nothing, Strings } from './lazy-lit.js';
import { NewChatUndo, type NewChatUndoHost, type NewChatUndoOptions } from './new-chat-undo.js';
import { renderSent } from './sent-documents.js';
import { renderSources } from './sources.js';
import { hideOfferedList, renderSuggestions } from './suggestions.js';
import type { Exchange } from './transcript-store.js';

export interface AnswerExtrasOptions
  extends FeedbackOptions,
    FullScreenOptions,
    NewChatUndoOptions {
  /** Copies `text` for the reader and says whether that worked. */
  copy(text: string): void;
}

let attachments: Promise<typeof AttachmentsController | undefined> | undefined;

/**
 * The upload client and the chips are a chunk of their own, dist/chatbot-attachments.js beside
 * this one (vite.config.ts): a page that shows answers without attachments never downloads
 * them. A relative import of this module resolves against its own address, beside the element,
 * for the embed too. If it cannot be loaded, the chat works without the Attach file button.
 */
function loadAttachments(): Promise<typeof AttachmentsController | undefined> {
  attachments ??= import('./attachments-chunk.js').then(
    (chunk) => {
      chunk.useLit({ html, nothing, Strings });
      return chunk.AttachmentsController;
    },
    (error: unknown) => {
      console.warn(
        'chatbot-chat: attachments (chatbot-attachments.js, beside the element) did not load; the Attach file button stays hidden.',
        error,
      );
      return undefined;
    },
  );
  return attachments;
}

type ExtrasHost = FeedbackHost &
  FullScreenHost &
  AttachmentsHost &
  NewChatUndoHost &
  StringsHost<AnswerStrings> & {
    /** The exchanges in the log, oldest first. */
    readonly answers: { readonly shown: readonly Exchange[] };
  };

/**
 * What an element shows around finished answers once the renderer's chunk has loaded: the
 * sources an answer cites, the rating controls, a refusal's topics as buttons, the copy buttons
 * of code blocks and the links of citation markers (both drawn by the markdown view), and the
 * stylesheet of all these.
 * They come with the chunk because none can show before an answer exists; one is made per
 * element, by the element, when `answerExtras()` (renderer.ts) has it. If the chunk cannot be
 * loaded, answers show as plain text without any of them: no sources list and no ratings.
 * The chunk also brings the Copy buttons' fallback where the Clipboard API is refused (a copy as
 * a selection: copy-selection.ts), and what the launcher's panel does on a phone (`FullScreenController`):
 * the launcher loads it as soon as it is touched, so it is there when the panel opens; and,
 * for `attachments="on"` only, loads attachments' own chunk (whose chips' styles are here).
 */
export class AnswerExtras implements ReactiveController {
  readonly #ratings: FeedbackController;
  /** The files attached to the next question, once `attachments="on"` has loaded their chunk. */
  attachments?: AttachmentsController;
  #attachmentsAsked = false;
  readonly #sentI18n: StringsController<SentStrings>;
  readonly #answerI18n: StringsController<AnswerStrings>;
  readonly #newChat: NewChatUndo;
  readonly #deletes: DeleteConfirm;
  /**
   * Exchanges grow with no update of the element: a finished block is laid out only once it
   * nears the view (content-visibility), frames after the jump that brought it there on a busy
   * machine, and raw HTML is drawn again once its sanitizer loads. The log follows them (when
   * the reader is at the bottom), or the first open of a long conversation lands short of it.
   * On the next frame: scrolling in the observer's callback lays out blocks that come into view,
   * which the browser reports as a ResizeObserver loop error on the host page.
   */
  readonly #growth = new ResizeObserver(() => {
    if (this.#growing) return;
    this.#growing = requestAnimationFrame(() => {
      this.#growing = 0;
      this.#options.resized();
    });
  });
  #growing = 0;
  readonly #watched = new Set<Element>();
  /**
   * The exchanges whose actions have their icons: four SVGs an exchange were most of what
   * opening 200 remembered exchanges cost (test/bench/README.md). The newest five, which are
   * never skipped (answer.styles.ts), and an older one once the browser draws it as it nears the
   * view; where the skipping does not apply, or the browser would not say (a Firefox before
   * 125), every one (`#skipping` false). Once drawn, kept.
   */
  readonly #drawn = new Set<string>();
  readonly #skipping =
    CSS.supports('overflow-anchor', 'auto') && 'ContentVisibilityAutoStateChangeEvent' in window;

  readonly #host: ExtrasHost;
  readonly #options: AnswerExtrasOptions;

  constructor(host: ExtrasHost, options: AnswerExtrasOptions) {
    this.#host = host;
    this.#options = options;
    adoptAnswerStyles(host.renderRoot);
    options.notices.copyBySelection = copyBySelection;
    this.#ratings = new FeedbackController(host, options);
    this.#sentI18n = new Strings(host, sentStrings);
    this.#answerI18n = new Strings(host, answerStrings);
    this.#newChat = new NewChatUndo(host, options, () => this.#answerI18n.value);
    this.#deletes = new DeleteConfirm(host, () => this.#answerI18n.value);
    new FullScreenController(host, options);
    // Not bubbling: seen on the way down. A finished block's event (blocks are skipped on their
    // own in the newest exchanges) has no exchange id.
    host.renderRoot.addEventListener('contentvisibilityautostatechange', this.#handleDrawn, true);
    host.addController(this);
  }

  #handleDrawn = (event: Event): void => {
    const id = (event.target as HTMLElement).dataset.id;
    if ((event as ContentVisibilityAutoStateChangeEvent).skipped || !id || this.#drawn.has(id)) {
      return;
    }
    this.#drawn.add(id);
    this.#host.requestUpdate();
  };

  /** Whether `exchange`'s actions draw their icons now (see `#drawn`). */
  #iconsFor(exchange: Exchange): boolean {
    return !this.#skipping || this.#drawn.has(exchange.id);
  }

  hostUpdate(): void {
    for (const exchange of this.#host.answers.shown.slice(-5)) this.#drawn.add(exchange.id);
    if (this.#host.attachments !== 'on' || this.#attachmentsAsked) return;
    this.#attachmentsAsked = true;
    void loadAttachments().then((Controller) => {
      if (!Controller) return;
      this.attachments = new Controller(this.#host);
      this.#host.requestUpdate();
    });
  }

  hostUpdated(): void {
    for (const exchange of this.#watched) {
      if (exchange.isConnected) continue;
      this.#growth.unobserve(exchange);
      this.#watched.delete(exchange);
    }
    for (const exchange of this.#host.renderRoot.querySelectorAll('.exchange')) {
      if (this.#watched.has(exchange)) continue;
      this.#watched.add(exchange);
      this.#growth.observe(exchange);
    }
  }

  /**
   * New conversation is forgetting the conversation: Undo is offered until the next message
   * (see `NewChatUndo.keep`).
   */
  keep(): void {
    this.#newChat.keep();
  }

  /**
   * A question the reference server refused for its length, in the chat's words and language
   * rather than the API's ("query must be at most 20000 characters"). Here, not with the
   * element's other errors: only a question of thousands of characters meets it, and the chunk
   * is there by the time the service answers one.
   */
  describe(error: unknown): { message: string } | undefined {
    if (!isApiError(error)) return undefined;
    const max = /^query must be at most (\d+) characters$/.exec(error.serverMessage)?.[1];
    return max ? { message: fill(this.#answerI18n.value.tooLong, { max }) } : undefined;
  }

  /** Under a question: the files sent with it, attachments on or off. */
  sent(documents: Exchange['documents']): unknown {
    return renderSent(documents, this.#sentI18n.value.attachments, this.#sentI18n.language);
  }

  /** Under the text of a finished answer: the sources it cites. */
  sources(exchange: Exchange): TemplateResult | typeof nothing {
    return renderSources(exchange, this.#answerI18n.value.sources);
  }

  /**
   * Under a finished refusal: the topics it offers, as buttons that ask them (as suggested
   * actions are in Bot Framework Web Chat or Intercom), and its text's own list of them hidden
   * in `answer`, its rendered text, so that each is read once.
   */
  offer(
    exchange: Exchange,
    answer: HTMLElement | undefined,
    onAsk: (question: string) => void,
  ): TemplateResult | typeof nothing {
    const topics = exchange.suggestions;
    if (!topics?.length) return nothing;
    if (answer) hideOfferedList(answer, topics);
    return renderSuggestions(html, topics, this.#answerI18n.value.askInstead, onAsk);
  }

  /**
   * The icon of one of `exchange`'s actions (the element draws Copy and Delete's), or none
   * while the exchange is out of view and not drawn yet: its button is there, named.
   */
  icon(name: ActionIcon, exchange: Exchange): TemplateResult | typeof nothing {
    return this.#iconsFor(exchange) ? actionIcon(name) : nothing;
  }

  /** Whether the reader confirms deleting `exchange`: asked among its actions. */
  confirmDelete(exchange: Exchange): Promise<boolean> {
    return this.#deletes.ask(exchange);
  }

  /** Among a finished exchange's actions: Delete's question while it is asked, and the rating. */
  actions(exchange: Exchange): TemplateResult {
    return html`${this.#deletes.render(exchange)}${this.#ratings.render(exchange, this.#iconsFor(exchange))}`;
  }

  /** A click in the conversation: a code block's copy button, or a citation marker. */
  readonly handleLogClick = (event: MouseEvent): void => {
    const target = event.target as HTMLElement;
    const copy = target.closest('button.copy-code');
    if (copy) {
      this.#options.copy(copy.closest('.code-block')?.querySelector('pre')?.textContent ?? '');
      return;
    }
    const marker = target.closest('a.citation');
    const href = marker?.getAttribute('href');
    if (href?.startsWith('#')) {
      // In-page anchors do not reach into shadow DOM and would change the host page's URL.
      event.preventDefault();
      const id = CSS.escape(href.slice(1));
      this.#host.renderRoot.querySelector<HTMLElement>(`[id="${id}"]`)?.focus();
    }
  };
}
