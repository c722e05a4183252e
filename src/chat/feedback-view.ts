import type { TemplateResult } from 'lit';
import type { Rating } from '../api/types.js';
import type { FeedbackStrings } from '../ui/strings/chat.js';
import { actionIcon } from './action-icons.js';
import { html, nothing } from './lazy-lit.js';

export interface FeedbackViewOptions {
  strings: FeedbackStrings;
  /** The rating shown as pressed. */
  rating: Rating | undefined;
  /** The thumbs are drawn (not while the answer is far out of view: AnswerExtras). */
  icons: boolean;
  /** The reason form is open under the buttons. */
  asking: boolean;
  /** The last rating could not be saved. */
  failed: boolean;
  /** The answer's message is gone from the service: nothing to rate any more. */
  gone: boolean;
  /** The service took the rating: the reader is thanked. */
  thanked: boolean;
  onRate: (rating: Rating) => void;
  onSubmit: (event: SubmitEvent) => void;
  onClose: () => void;
}

/** The reasons a reader can give with "Not helpful": the value sent, and its string's key. */
const REASONS = [
  ['wrong', 'reasonWrong'],
  ['incomplete', 'reasonIncomplete'],
  ['not-asked', 'reasonNotAsked'],
  ['other', 'reasonOther'],
] as const;

/**
 * The two toggle buttons that rate an answer and, after "Not helpful", the optional reason form:
 * a choice, a short comment (Enter sends it), and a close button (Escape does the same).
 */
export function renderFeedback(options: FeedbackViewOptions): TemplateResult {
  const { strings, rating } = options;
  if (options.gone) {
    return html`<span class="feedback-error" part="feedback-error" role="alert">${strings.feedbackGone}</span>`;
  }
  const toggle = (value: Rating, label: string) =>
    html`<button type="button" class="text-button rate" part="feedback-button" value=${value} aria-pressed=${rating === value} @click=${() => options.onRate(value)}>${options.icons ? actionIcon('thumb') : nothing}<span>${label}</span></button>`;
  return html`<div class="feedback" part="feedback" role="group" aria-label=${strings.rateAnswer}>
      ${toggle('up', strings.helpful)}${toggle('down', strings.notHelpful)}
    </div>
    ${
      // Out of the group, on a line of its own below (answer.styles.ts): inside, a narrow chat
      // wrapped the buttons' words and moved the group, from under the reader's finger.
      options.failed
        ? html`<span class="feedback-error" part="feedback-error" role="alert">${strings.feedbackFailed}</span>`
        : nothing
    }
    ${
      // Beside the group, not in it: a line too short for it wraps the words alone, and the
      // buttons stay where the reader's finger is. No live region of its own: the chat's status
      // region says it (FeedbackController).
      options.thanked
        ? html`<span class="feedback-thanks" part="feedback-thanks">${strings.feedbackThanks}</span>`
        : nothing
    }
    ${
      options.asking
        ? html`<form
            class="feedback-form"
            part="feedback-form"
            aria-label=${strings.notHelpful}
            @submit=${options.onSubmit}
            @keydown=${(event: KeyboardEvent) => {
              if (event.key !== 'Escape') return;
              // Not the launcher's Escape too: one press closes one thing.
              event.stopPropagation();
              options.onClose();
            }}
          >
            <fieldset>
              <legend>${strings.feedbackReason}</legend>
              ${REASONS.map(
                ([value, key]) =>
                  html`<label><input type="radio" name="reason" value=${value} />${strings[key]}</label>`,
              )}
            </fieldset>
            <input part="feedback-comment" name="comment" maxlength="1000" dir="auto" enterkeyhint="send" aria-label=${strings.feedbackComment} placeholder=${strings.feedbackComment} />
            <button class="primary">${strings.feedbackSend}</button>
            <button type="button" class="icon-button" aria-label=${strings.feedbackClose} @click=${options.onClose}>✕</button>
          </form>`
        : nothing
    }`;
}
