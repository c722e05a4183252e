import { html, type TemplateResult } from 'lit';
import type { ChatStrings } from '../ui/strings/chat.js';
import { touchKeyboard } from '../ui/touch-keyboard.js';

export interface ComposerOptions {
  strings: ChatStrings;
  /** An answer is streaming: the button is Stop. */
  streaming: boolean;
  /**
   * Sending is not possible right now (rate limit, session being created): said with
   * `aria-disabled`, as a disabled button would drop keyboard focus to the page.
   */
  sendDisabled: boolean;
  onSubmit: (event: SubmitEvent) => void;
  onKeyDown: (event: KeyboardEvent) => void;
  onStop: () => void;
  /** The attachments' chips and button (`attachments="on"`), from the lazily loaded chunk. */
  attach?: unknown;
}

/**
 * The message box and its one button. Send turns into Stop while an answer streams (the same
 * node, so keyboard focus stays on it); the textbox stays usable throughout, so the reader can
 * write the next question while reading the answer. The button is as wide as the longer of its
 * two words (the other one is laid out unseen, `data-other`), so the textbox and what is typed
 * in it do not move as each answer starts and ends.
 */
export function renderComposer(options: ComposerOptions): TemplateResult {
  const { strings, streaming, sendDisabled } = options;
  return html`<form part="composer" @submit=${options.onSubmit}>
    ${options.attach}
    <textarea
      part="input"
      rows="1"
      dir="auto"
      aria-label=${strings.message}
      placeholder=${strings.placeholder}
      enterkeyhint=${touchKeyboard() ? 'enter' : 'send'}
      @keydown=${options.onKeyDown}
    ></textarea>
    <button
      type=${streaming ? 'button' : 'submit'}
      class="primary"
      part=${streaming ? 'stop-button' : 'send-button'}
      aria-disabled=${!streaming && sendDisabled}
      data-other=${streaming ? strings.send : strings.stop}
      @click=${(event: Event) => {
        if (!streaming) return;
        event.preventDefault();
        options.onStop();
      }}
    >${streaming ? strings.stop : strings.send}</button>
  </form>`;
}
