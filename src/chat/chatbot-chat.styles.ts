import { css } from 'lit';
import { tokens } from '../ui/tokens.js';

export const styles = [
  tokens,
  css`
    :host {
      --_width: var(--chatbot-width, 100%);
      --_height: var(--chatbot-height, 540px);
      --_user-bubble: var(--chatbot-user-bubble, var(--_accent));
      --_user-text: var(--chatbot-user-text, var(--_accent-text));
      --_answer-bubble: var(--chatbot-answer-bubble, var(--_surface-2));
      --_gap: var(--chatbot-gap, 12px);
      --_launcher-size: var(--chatbot-launcher-size, 56px);
      --_offset: var(--chatbot-offset, 20px);
      --_z: var(--chatbot-z-index, 2147483000);
      display: block;
      box-sizing: border-box;
      line-height: 1.5;
      /* The page's inherited text styles are its own, not the chat's (direction aside). */
      text-align: start;
      text-transform: none;
      text-indent: 0;
      letter-spacing: normal;
      word-spacing: normal;
      font-style: normal;
      font-weight: 400;
    }
    :host([hidden]) {
      display: none;
    }
    *,
    *::before,
    *::after {
      box-sizing: border-box;
    }

    .panel {
      display: flex;
      flex-direction: column;
      width: var(--_width);
      height: var(--_height);
      background: var(--_surface);
      color: var(--_text);
      border: 1px solid var(--_border);
      border-radius: var(--_radius);
      overflow: hidden;
    }

    /* Launcher mode: a floating button and a panel above it; full screen on narrow screens. */
    :host([mode='launcher']) {
      --_width: var(--chatbot-width, 380px);
      --_height: var(--chatbot-height, 600px);
      position: fixed;
      inset: auto var(--_offset) var(--_offset) auto;
      /* Clear of the notch and the home indicator (with viewport-fit=cover). */
      margin: 0 env(safe-area-inset-right) env(safe-area-inset-bottom) 0;
      z-index: var(--_z);
    }
    :host([mode='launcher']) .panel {
      position: absolute;
      right: 0;
      bottom: calc(var(--_launcher-size) + 12px);
      max-width: calc(100vw - 2 * var(--_offset));
      max-height: calc(100vh - var(--_launcher-size) - 12px - 2 * var(--_offset));
      box-shadow: var(--_shadow);
    }
    :host([mode='launcher']:not([open])) .panel {
      display: none;
    }
    @media (max-width: 480px), (max-height: 480px) and (pointer: coarse) {
      :host([mode='launcher'][open]) .panel {
        position: fixed;
        inset: 0;
        width: 100vw;
        height: 100vh;
        height: 100dvh;
        max-width: none;
        max-height: none;
        border-radius: 0;
        border: 0;
        /* Clear of the notch and the home indicator (with viewport-fit=cover). The open panel's
           top and height follow visualViewport (full-screen.ts) above an on-screen keyboard. */
        padding: env(safe-area-inset-top) env(safe-area-inset-right) env(safe-area-inset-bottom)
          env(safe-area-inset-left);
      }
      :host([mode='launcher'][open]) .launcher {
        display: none;
      }
    }
    .launcher {
      width: var(--_launcher-size);
      height: var(--_launcher-size);
      border-radius: 50%;
      border: 0;
      background: var(--_accent);
      color: var(--_accent-text);
      box-shadow: var(--_shadow);
      cursor: pointer;
      display: grid;
      place-items: center;
    }

    /* Not a <header>: in the launcher's dialog, one would read as a second banner of the page. */
    .head {
      display: flex;
      align-items: center;
      gap: 8px;
      /* The same height with or without its buttons, so the log does not jump. */
      min-height: 48px;
      padding: 10px 12px;
      border-bottom: 1px solid var(--_border);
    }
    .head h2 {
      flex: 1;
      margin: 0;
      font-size: 1em;
      font-weight: 600;
    }

    button {
      font: inherit;
      color: inherit;
    }
    .icon-button,
    .text-button {
      border: 1px solid transparent;
      background: transparent;
      border-radius: 8px;
      padding: 4px 8px;
      cursor: pointer;
      color: var(--_muted);
      font-size: 0.85em;
    }
    .icon-button:hover,
    .text-button:hover {
      background: var(--_surface-2);
      color: var(--_text);
    }

    .log {
      /* Holds the visually hidden labels: positioned against the page, they made it longer. */
      position: relative;
      flex: 1;
      overflow-y: auto;
      overscroll-behavior: contain;
      /* The element follows the answer itself; the browser's anchoring would fight it. */
      overflow-anchor: none;
      padding: var(--_gap);
      display: flex;
      flex-direction: column;
      gap: var(--_gap);
    }
    /* A reader scrolled up: anchoring keeps their text still as blocks above render. */
    .log.reading {
      overflow-anchor: auto;
    }
    /* Takes no room: the button floats over the bottom of the log. */
    .latest {
      position: relative;
      height: 0;
    }
    .latest > button {
      position: absolute;
      bottom: 8px;
      left: 50%;
      transform: translateX(-50%);
      padding: 6px 12px;
      border: 1px solid var(--_border);
      border-radius: 999px;
      background: var(--_surface);
      color: var(--_text);
      box-shadow: 0 2px 8px rgb(0 0 0 / 0.15);
      font-size: 0.875em;
      white-space: nowrap;
      cursor: pointer;
    }
    .latest > button:hover {
      background: var(--_surface-2);
    }

    .exchange {
      display: flex;
      flex-direction: column;
      gap: 6px;
    }
    .message {
      max-width: 88%;
      padding: 8px 12px;
      border-radius: var(--_radius);
      overflow-wrap: anywhere;
      unicode-bidi: plaintext;
    }
    .user {
      align-self: flex-end;
      background: var(--_user-bubble);
      color: var(--_user-text);
      white-space: pre-wrap;
      border-end-end-radius: 4px;
    }
    .assistant {
      align-self: flex-start;
      background: var(--_answer-bubble);
      border-end-start-radius: 4px;
    }
    .status {
      font-size: 0.8em;
      color: var(--_muted);
    }
    .actions {
      display: flex;
      flex-wrap: wrap;
      align-items: center;
      gap: 4px;
      align-self: flex-start;
    }

    .typing {
      display: inline-flex;
      gap: 4px;
      padding: 4px 0;
    }
    .typing span {
      width: 6px;
      height: 6px;
      border-radius: 50%;
      background: var(--_muted);
      animation: blink 1.2s infinite ease-in-out both;
    }
    .typing span:nth-child(2) {
      animation-delay: 0.2s;
    }
    .typing span:nth-child(3) {
      animation-delay: 0.4s;
    }
    @keyframes blink {
      0%,
      80%,
      100% {
        opacity: 0.25;
      }
      40% {
        opacity: 1;
      }
    }
    @media (prefers-reduced-motion: reduce) {
      .typing span {
        animation: none;
      }
    }

    /* Answers as plain text, when the renderer's chunk could not be loaded (see renderer.ts). */
    .markdown.plain {
      white-space: pre-wrap;
    }

    .suggestions {
      display: flex;
      flex-wrap: wrap;
      gap: 6px;
      margin: 0;
      padding: 0;
      list-style: none;
    }
    .suggestion {
      border: 1px solid var(--_border);
      background: var(--_surface);
      border-radius: 999px;
      padding: 4px 12px;
      cursor: pointer;
    }
    .suggestion:hover {
      border-color: var(--_accent);
    }

    .error {
      margin: 0 var(--_gap) var(--_gap);
      padding: 8px 10px;
      border-radius: 8px;
      background: var(--_danger-surface);
      color: var(--_danger);
      display: flex;
      flex-wrap: wrap;
      gap: 8px;
      align-items: center;
    }
    .error p {
      flex: 1;
      margin: 0;
      min-width: 12em;
    }
    .error:empty {
      display: none;
    }

    form {
      display: flex;
      gap: 8px;
      align-items: flex-end;
      padding: 10px 12px;
      border-top: 1px solid var(--_border);
    }
    textarea {
      flex: 1;
      resize: none;
      font: inherit;
      color: inherit;
      background: var(--_surface);
      border: 1px solid var(--_border);
      border-radius: 8px;
      padding: 8px 10px;
      min-height: 2.5em;
      max-height: 9em;
      field-sizing: content;
      unicode-bidi: plaintext;
    }
    /* iOS Safari zooms the page into a text field whose text is under 16px. A finger needs
       44px, corners included (8px rounded off them): 48px buttons, the title bar as high. */
    @media (pointer: coarse) {
      textarea {
        font-size: max(16px, 1em);
      }
      .icon-button,
      .text-button,
      .primary,
      .latest > button {
        min-height: 48px;
        min-width: 48px;
      }
      .head {
        padding-block: 0;
      }
    }
    textarea::placeholder {
      color: var(--_muted);
      opacity: 1;
    }
    .primary {
      display: inline-grid;
      /* The shown word's row and the unseen one's stay their own height, centred together: a
         taller button (48 px for a finger) stretched both rows, and the word sat 5 px high. */
      align-content: center;
      border: 0;
      border-radius: 8px;
      padding: 8px 14px;
      background: var(--_accent);
      color: var(--_accent-text);
      cursor: pointer;
      font-weight: 600;
    }
    .primary::after {
      content: attr(data-other);
      height: 0;
      visibility: hidden;
    }
    .primary[aria-disabled='true'] {
      opacity: 0.55;
      cursor: not-allowed;
    }
    .danger-button {
      border: 1px solid currentColor;
      border-radius: 8px;
      padding: 4px 10px;
      background: transparent;
      cursor: pointer;
    }

    @media (forced-colors: active) {
      .panel,
      .message,
      .launcher,
      .primary,
      .suggestion,
      .error,
      textarea {
        border: 1px solid CanvasText;
      }
      .typing span {
        background: CanvasText;
      }
    }
  `,
];
