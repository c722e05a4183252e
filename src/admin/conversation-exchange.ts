import { html, nothing } from 'lit';
import type { AnswerMeta, CiteData, Feedback, FeedbackReason, Message } from '../api/types.js';
import { fill } from '../ui/i18n.js';
import type { AdminStrings } from '../ui/strings/admin.js';
import { formatDate, parseJson } from './format.js';
import { icons } from './icons.js';
import { answerToCorrect, type QaFormController } from './qa-from-exchange.js';

export const shorten = (text: string, max = 60) =>
  text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text;

const REASONS: Record<FeedbackReason, keyof AdminStrings> = {
  wrong: 'reasonWrong',
  incomplete: 'reasonIncomplete',
  'not-asked': 'reasonNotAsked',
  other: 'reasonOther',
};

/** What the transcript needs besides the message. */
export interface ExchangeContext {
  readonly strings: AdminStrings;
  readonly lang: string;
  readonly qa: QaFormController;
  /** The answer as the visitor saw it: rendered, or its raw text. */
  readonly answer: (message: Message) => unknown;
  /** A passage an answer quoted, by its citation's number: rendered, or its raw text. */
  readonly passage: (message: Message, n: string, text: string) => unknown;
  readonly delete: (message: Message) => void;
}

/**
 * One exchange of a transcript: the question, the answer, what the server recorded about it
 * (cut short, failed, covered by the sources or not, escalated), the visitor's rating with its
 * reason and comment, the cited sources, and the owner's actions: Add as Q&A (the form opens
 * under the exchange) and Delete.
 */
export function renderExchange(message: Message, ctx: ExchangeContext) {
  const s = ctx.strings;
  const cites = Object.entries(parseJson<CiteData>(message.cite_data_json) ?? {}).sort(
    ([a], [b]) => Number(a) - Number(b),
  );
  const meta = parseJson<AnswerMeta>(message.meta_json);
  // An agent that answered before the sources were asked left no gap in them.
  const notCovered = meta?.covered === false && meta.sources_asked !== false;
  const label = shorten(message.query);
  return html`<article class="exchange" part="exchange" aria-label=${label}>
    <p class="speaker">${s.you} · ${formatDate(message.created_at, ctx.lang)}</p>
    <p class="bubble user-text" part="message user-message" dir="auto">${message.query}</p>
    <p class="speaker">${s.bot}</p>
    <div class="bubble user-text answer" part="message assistant-message" dir="auto">${ctx.answer(message)}</div>
    ${message.finish_reason === 'length' ? html`<p class="muted">${s.cutShort}</p>` : nothing}
    ${message.error_message ? html`<p class="error user-text">${message.error_message}</p>` : nothing}
    <ul class="plain facts">
      ${
        meta?.covered === true
          ? html`<li class="covered">${s.answerCovered}</li>`
          : notCovered
            ? html`<li class="not-covered">${s.answerNotCovered}</li>`
            : nothing
      }
      ${meta?.escalated ? html`<li>${s.answerEscalated}</li>` : nothing}
      ${renderRating(s, parseJson<Feedback>(message.feedback_json))}
    </ul>
    ${
      cites.length
        ? html`<div part="sources">
            <p class="speaker">${s.citations}</p>
            <ol class="citations">
              ${cites.map(
                ([n, c]) => html`<li value=${Number(n) || nothing} tabindex="-1">
                  <span class="user-text" dir="auto">${c.title || c.file_name}</span>
                  ${c.text ? html`<details><summary>${s.quotedPassage}</summary><div class="user-text passage" dir="auto">${ctx.passage(message, n, c.text)}</div></details>` : nothing}
                </li>`,
              )}
            </ol>
          </div>`
        : nothing
    }
    <div class="actions">
      ${
        ctx.qa.added(message.uuid)
          ? ctx.qa.renderAdded(message.uuid)
          : html`<button
        type="button"
        part="button"
        aria-label=${fill(s.addAsQaFor, { question: label })}
        aria-expanded=${ctx.qa.openKey === message.uuid ? 'true' : 'false'}
        @click=${() =>
          // What a question the sources did not cover got is an apology and a list of topics:
          // nothing to correct, the owner writes the answer (as from Insights' gaps).
          notCovered
            ? ctx.qa.toggle(message.uuid, { question: message.query, answer: '' }, 'gap')
            : ctx.qa.toggle(message.uuid, {
                question: message.query,
                answer: answerToCorrect(message.response),
              })}
      >
        ${s.addAsQa}
      </button>`
      }
      <button
        type="button"
        class="danger"
        part="button danger"
        aria-label=${`${s.deleteMessage}: ${label}`}
        @click=${() => ctx.delete(message)}
      >
        ${s.deleteMessage}
      </button>
    </div>
    ${ctx.qa.render(message.uuid)}
  </article>`;
}

/** The visitor's rating in words (a mark beside them, never colour alone). */
function renderRating(s: AdminStrings, feedback: Feedback | undefined) {
  if (feedback?.rating === 'up') {
    return html`<li class="rated-up">${icons.up} ${s.ratedUp}</li>`;
  }
  if (feedback?.rating !== 'down') return nothing;
  const reason = feedback.reason && REASONS[feedback.reason];
  return html`<li class="rated-down">
    ${icons.down} ${reason ? fill(s.ratedDownReason, { reason: s[reason] }) : s.ratedDown}
    ${
      feedback.comment
        ? html`<br /><span class="user-text">${fill(s.feedbackComment, { comment: feedback.comment })}</span>`
        : nothing
    }
  </li>`;
}
