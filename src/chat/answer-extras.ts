import type { TemplateResult } from 'lit';
import type { ChatStrings } from '../ui/strings/chat.js';
import { adoptAnswerStyles } from './answer.styles.js';
import { AttachmentsController, type AttachmentsHost } from './attachments-controller.js';
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
import type { nothing } from './lazy-lit.js';
import { renderSources } from './sources.js';
import type { Exchange } from './transcript-store.js';

export interface AnswerExtrasOptions extends FeedbackOptions, FullScreenOptions {
  /** Copies `text` for the reader and says whether that worked. */
  copy(text: string): void;
}

/**
 * What an element shows around finished answers once the renderer's chunk has loaded: the
 * sources an answer cites, the rating controls, the copy buttons of code blocks and the links
 * of citation markers (both drawn by the markdown view), and the stylesheet of all these.
 * They come with the chunk because none can show before an answer exists; one is made per
 * element, by the element, when `answerExtras()` (renderer.ts) has it. If the chunk cannot be
 * loaded, answers show as plain text without any of them: no sources list and no ratings.
 * The chunk also brings what the launcher's panel does on a phone (`FullScreenController`):
 * the launcher loads it as soon as it is touched, so it is there when the panel opens; and
 * attachments (`AttachmentsController`), which an inline chat loads it for at once.
 */
export class AnswerExtras {
  private readonly ratings: FeedbackController;
  /** The files attached to the next question (`attachments="on"`). */
  readonly attachments: AttachmentsController;

  constructor(
    private readonly host: FeedbackHost & FullScreenHost & AttachmentsHost,
    private readonly options: AnswerExtrasOptions,
  ) {
    adoptAnswerStyles(host.renderRoot);
    this.ratings = new FeedbackController(host, options);
    new FullScreenController(host, options);
    this.attachments = new AttachmentsController(host);
  }

  /** Under the text of a finished answer: the sources it cites. */
  sources(exchange: Exchange, strings: ChatStrings): TemplateResult | typeof nothing {
    return renderSources(exchange, strings);
  }

  /** Among a finished exchange's actions: its rating controls. */
  rating(exchange: Exchange): TemplateResult | typeof nothing {
    return this.ratings.render(exchange);
  }

  /** A click in the conversation: a code block's copy button, or a citation marker. */
  readonly handleLogClick = (event: MouseEvent): void => {
    const target = event.target as HTMLElement;
    const copy = target.closest('button.copy-code');
    if (copy) {
      this.options.copy(copy.parentElement?.querySelector('pre')?.textContent ?? '');
      return;
    }
    const marker = target.closest('a.citation');
    const href = marker?.getAttribute('href');
    if (href?.startsWith('#')) {
      // In-page anchors do not reach into shadow DOM and would change the host page's URL.
      event.preventDefault();
      const id = CSS.escape(href.slice(1));
      this.host.renderRoot.querySelector<HTMLElement>(`[id="${id}"]`)?.focus();
    }
  };
}
