import type { ReactiveControllerHost, TemplateResult } from 'lit';
import type { AnswerStrings } from '../ui/strings/chat.js';
import { html, nothing } from './lazy-lit.js';
import type { Exchange } from './transcript-store.js';

export interface DeleteConfirmHost extends ReactiveControllerHost {
  readonly renderRoot: ParentNode;
}

/**
 * "Delete this exchange" asks first, among the exchange's own actions. It sits beside Copy
 * answer, where a thumb finds it by mistake, and the service deletes at once, beyond any undo
 * (it cannot make the message record again). Focus goes to Cancel, the choice that loses nothing,
 * as in an alert dialog; Escape is Cancel too. One question at a time: asking about another
 * exchange answers the first one no.
 */
export class DeleteConfirm {
  #asking?: {
    id: string;
    answer: (yes: boolean) => void;
    /** What had focus when Delete was pressed (the button, unless the browser does not focus one). */
    from: Element | null;
  };

  readonly #host: DeleteConfirmHost;
  readonly #strings: () => AnswerStrings;

  constructor(host: DeleteConfirmHost, strings: () => AnswerStrings) {
    this.#host = host;
    this.#strings = strings;
  }

  /** Whether the reader confirms the deletion of `exchange`. */
  ask(exchange: Exchange): Promise<boolean> {
    this.#settle(false);
    return new Promise((answer) => {
      const from = (this.#host.renderRoot as ShadowRoot).activeElement;
      this.#asking = { id: exchange.id, answer, from };
      this.#host.requestUpdate();
      void this.#host.updateComplete.then(() =>
        this.#host.renderRoot.querySelector<HTMLElement>('[part~=delete-confirm] .cancel')?.focus(),
      );
    });
  }

  /** The question, in the actions of the exchange it is about. */
  render(exchange: Exchange): TemplateResult | typeof nothing {
    if (this.#asking?.id !== exchange.id) return nothing;
    const s = this.#strings();
    return html`<span
      class="confirm"
      role="group"
      part="delete-confirm"
      aria-labelledby="delete-question"
      @keydown=${this.#handleKeydown}
    >
      <span id="delete-question">${s.deleteQuestion}</span>
      <button type="button" class="text-button danger-button" @click=${this.#confirm}>${s.deleteYes}</button>
      <button type="button" class="text-button cancel" @click=${this.#cancel}>${s.cancel}</button>
    </span>`;
  }

  readonly #confirm = (): void => {
    // Focus back where it was while the service deletes: the element then moves it on.
    this.#refocus();
    this.#settle(true);
  };

  readonly #cancel = (): void => {
    this.#refocus();
    this.#settle(false);
  };

  readonly #handleKeydown = (event: KeyboardEvent): void => {
    if (event.key !== 'Escape') return;
    // Not the launcher's Escape, which would close the whole chat.
    event.stopPropagation();
    this.#cancel();
  };

  #refocus(): void {
    const from = this.#asking?.from;
    if (from instanceof HTMLElement && from.isConnected) from.focus();
    else this.#host.renderRoot.querySelector<HTMLElement>('textarea')?.focus();
  }

  #settle(yes: boolean): void {
    const asking = this.#asking;
    if (!asking) return;
    this.#asking = undefined;
    asking.answer(yes);
    this.#host.requestUpdate();
  }
}
