import { html, nothing } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import type { ChatSession, Message } from '../api/types.js';
import { type ExchangeContext, renderExchange } from './conversation-exchange.js';

/** What a conversation's transcript is drawn from, besides each exchange's context. */
export interface TranscriptView extends ExchangeContext {
  readonly session: ChatSession;
  readonly messages: readonly Message[];
  /** The conversation is the owner's test (Try it), as its row said. */
  readonly test: boolean;
  /** The failure of the last change made from the transcript, if any. */
  readonly error: unknown;
  readonly deleteSession: () => void;
}

/**
 * An open conversation: the data its session was created with, each exchange (see
 * renderExchange) in a log, and Delete for the whole conversation.
 */
export function renderTranscript(view: TranscriptView) {
  const s = view.strings;
  const data = Object.entries(view.session.meta ?? {});
  return html`
    ${view.test ? html`<p class="help">${s.transcriptTest}</p>` : nothing}
    <h3>${s.storedData}</h3>
    ${
      data.length
        ? html`<dl class="data">
            ${data.map(
              ([k, v]) => html`<dt class="user-text">${k}</dt>
                <dd class="user-text" dir="auto">${String(v)}</dd>`,
            )}
          </dl>`
        : html`<p class="empty">${s.noStoredData}</p>`
    }
    <h3 id="exchanges-heading">${s.exchanges}</h3>
    ${view.error}
    <div part="transcript" role="log" aria-labelledby="exchanges-heading">
      ${
        view.messages.length
          ? repeat(
              view.messages,
              (m) => m.uuid,
              (m) => renderExchange(m, view),
            )
          : html`<p class="empty">${s.noMessages}</p>`
      }
    </div>
    <div class="actions">
      <button type="button" class="danger" part="button danger" @click=${view.deleteSession}>
        ${s.deleteSession}
      </button>
    </div>
  `;
}
