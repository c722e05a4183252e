import type { ReactiveController, ReactiveControllerHost, TemplateResult } from 'lit';
import type { ChatClient } from '../api/client.js';
import type { AnswerStrings } from '../ui/strings/chat.js';
import { html } from './lazy-lit.js';
import type { NoticesController } from './notices-controller.js';
import type { Transcript, TranscriptStore } from './transcript-store.js';

export interface NewChatUndoHost extends ReactiveControllerHost, EventTarget {
  sessionUuid: string;
  readonly chatbotUuid: string;
  readonly userId: string;
  readonly renderRoot: ParentNode;
}

export interface NewChatUndoOptions {
  client(): ChatClient | undefined;
  notices: NoticesController;
  /** The conversation's own transcript store (none when nothing is remembered). */
  transcripts(): TranscriptStore | undefined;
}

/**
 * New conversation, taken back. It sits beside Close in the header, where a thumb on a phone
 * finds it by mistake, and it forgets a conversation at once: Undo is offered in the status
 * region (drawn over the foot of the log) until the new conversation's first message. The old
 * session was only forgotten by the element, never deleted, so Undo returns to it as a reload
 * does: the remembered transcript first (put back as it was, with the questions only this page
 * has, one the service refused or never answered), then the service's list. The offer has no
 * timer, so a reader who needs longer to reach it has that time (WCAG 2.2.1). It is never
 * another visitor's way back: it goes as soon as the visitor (`user-id`), the chatbot or the
 * service changes.
 */
export class NewChatUndo implements ReactiveController {
  #kept?: { session: string; owner: string; transcript?: Transcript };
  /** The offer last put in the status region, to take out only that. */
  #shown?: TemplateResult;

  readonly #host: NewChatUndoHost;
  readonly #options: NewChatUndoOptions;
  readonly #strings: () => AnswerStrings;

  constructor(host: NewChatUndoHost, options: NewChatUndoOptions, strings: () => AnswerStrings) {
    this.#host = host;
    this.#options = options;
    this.#strings = strings;
    host.addController(this);
    // Sending starts the new conversation: the old one is no longer a step back.
    host.addEventListener('chatbot-message-send', () => this.#drop());
  }

  /**
   * Remembers the session for Undo, as New conversation forgets it; with none (no message was
   * sent, or `forget()` has just cleared it), no Undo is offered, nor one offered before.
   */
  keep(): void {
    const session = this.#host.sessionUuid;
    if (session) {
      this.#kept = {
        session,
        owner: this.#owner(),
        transcript: this.#options.transcripts()?.load(),
      };
    } else this.#drop();
  }

  hostUpdate(): void {
    if (!this.#kept) return;
    if (this.#host.sessionUuid || this.#owner() !== this.#kept.owner) {
      this.#drop();
      return;
    }
    const { notices } = this.#options;
    // Drawn again each update (the language may have changed), and back after a flash that
    // ended ("Copied", pressed just before) emptied the region.
    if (notices.notice !== '' && notices.notice !== this.#shown) return;
    const s = this.#strings();
    this.#shown = html`${s.newChatStarted} <button type="button" part="undo-button" @click=${this.#undo}>${s.undo}</button>`;
    notices.notice = this.#shown;
  }

  readonly #undo = (): void => {
    const { session, transcript } = this.#kept ?? {};
    this.#drop();
    if (!session) return;
    if (transcript?.sessionUuid === session) this.#options.transcripts()?.save(transcript);
    this.#host.sessionUuid = session;
    // The button goes with the offer: the reader carries on where they write.
    this.#host.renderRoot.querySelector<HTMLElement>('textarea')?.focus();
  };

  #drop(): void {
    this.#kept = undefined;
    const { notices } = this.#options;
    if (this.#shown && notices.notice === this.#shown) {
      notices.notice = '';
      this.#host.requestUpdate();
    }
    this.#shown = undefined;
  }

  #owner(): string {
    const host = this.#host;
    return [this.#options.client()?.baseUrl, host.chatbotUuid, host.userId].join('\n');
  }
}
