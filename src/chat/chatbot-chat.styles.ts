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
      --_pressed: var(--chatbot-feedback-pressed, var(--_accent));
      --_target: var(--chatbot-target-size, 24px);
      display: block;
      box-sizing: border-box;
      line-height: 1.5;
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
    @media (max-width: 480px) {
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
    .launcher svg {
      width: 26px;
      height: 26px;
    }

    header {
      display: flex;
      align-items: center;
      gap: 8px;
      /* The same height with or without its buttons, so the log does not jump. */
      min-height: 48px;
      padding: 10px 12px;
      border-bottom: 1px solid var(--_border);
      background: var(--_surface);
    }
    header h2 {
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
    .latest button {
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
      font: inherit;
      font-size: 0.875em;
      white-space: nowrap;
      cursor: pointer;
    }
    .latest button:hover {
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
    .greeting {
      align-self: flex-start;
    }
    .who {
      position: absolute;
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

    /* Ratings: text buttons like their neighbours; a pressed one is bold and outlined. */
    @media (pointer: coarse) {
      :host {
        --_target: var(--chatbot-target-size, 44px);
      }
    }
    .feedback {
      display: flex;
      gap: 4px;
    }
    .feedback button,
    .feedback-form button,
    .feedback-form label,
    .feedback-form input[name='comment'] {
      min-height: var(--_target);
    }
    .feedback [aria-pressed='true'] {
      color: var(--_pressed);
      border-color: currentColor;
      font-weight: 600;
    }
    .feedback-error {
      align-self: center;
      font-size: 0.8em;
      color: var(--_danger);
    }
    /* On its own line under the buttons. */
    .feedback-form {
      flex-basis: 100%;
      flex-wrap: wrap;
      padding: 8px;
      border: 1px solid var(--_border);
      border-radius: 8px;
      font-size: 0.875em;
    }
    .feedback-form fieldset {
      flex-basis: 100%;
      margin: 0;
      padding: 0;
      border: 0;
    }
    .feedback-form label {
      display: inline-flex;
      align-items: center;
      gap: 4px;
      margin-inline-end: 12px;
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

    /* Rendered markdown */
    /*
     * The last block's bottom margin is taken back by the container, not by :last-child or
     * :has() rules: those would restyle every block of a long answer on each streamed frame.
     */
    .markdown {
      margin-bottom: -0.6em;
    }
    /* Answers as plain text, when the markdown renderer could not be loaded. */
    .markdown.plain {
      white-space: pre-wrap;
      margin-bottom: 0;
    }
    .markdown > .block:first-child > :first-child {
      margin-top: 0;
    }
    /*
     * A finished block never changes again: the browser may skip laying out and painting it
     * while it is off-screen, which keeps a long answer's frames short.
     */
    .markdown > .block:not(.open) {
      content-visibility: auto;
      contain-intrinsic-size: auto 3em;
    }
    .markdown p,
    .markdown ul,
    .markdown ol,
    .markdown blockquote,
    .markdown table,
    .markdown .code-block {
      margin: 0 0 0.6em;
    }
    .markdown h1,
    .markdown h2,
    .markdown h3,
    .markdown h4,
    .markdown h5,
    .markdown h6 {
      margin: 0.6em 0 0.3em;
      font-size: 1.05em;
      line-height: 1.3;
    }
    .markdown h1 {
      font-size: 1.2em;
    }
    .markdown ul,
    .markdown ol {
      padding-inline-start: 1.4em;
    }
    .markdown a {
      color: var(--_accent);
      text-decoration: underline;
    }
    .markdown blockquote {
      border-inline-start: 3px solid var(--_border);
      padding-inline-start: 10px;
      color: var(--_muted);
    }
    .markdown code {
      font-family: var(--_mono);
      font-size: 0.9em;
      background: var(--_surface);
      border-radius: 4px;
      padding: 0.1em 0.3em;
    }
    .markdown .code-block {
      position: relative;
    }
    .markdown pre {
      margin: 0;
      padding: 10px;
      padding-top: 28px;
      overflow-x: auto;
      background: var(--_surface);
      border: 1px solid var(--_border);
      border-radius: 8px;
      unicode-bidi: isolate;
      direction: ltr;
    }
    .markdown pre code {
      padding: 0;
      background: none;
    }
    .copy-code {
      position: absolute;
      top: 4px;
      inset-inline-end: 4px;
      font-size: 0.75em;
      border: 1px solid var(--_border);
      background: var(--_surface-2);
      border-radius: 6px;
      padding: 1px 6px;
      cursor: pointer;
    }
    .markdown table {
      border-collapse: collapse;
      display: block;
      overflow-x: auto;
    }
    .markdown th,
    .markdown td {
      border: 1px solid var(--_border);
      padding: 4px 8px;
    }
    .citation {
      text-decoration: none;
      font-size: 0.85em;
    }

    .sources {
      margin: 6px 0 0;
      padding: 6px 0 0;
      border-top: 1px solid var(--_border);
      font-size: 0.85em;
      list-style: none;
      display: flex;
      flex-wrap: wrap;
      gap: 4px 10px;
    }
    .sources a,
    .sources span {
      color: var(--_muted);
    }
    .sources :target,
    .sources .highlight {
      color: var(--_text);
      font-weight: 600;
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
    textarea,
    .feedback-form [name='comment'] {
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
    textarea::placeholder {
      color: var(--_muted);
      opacity: 1;
    }
    .primary {
      border: 0;
      border-radius: 8px;
      padding: 8px 14px;
      background: var(--_accent);
      color: var(--_accent-text);
      cursor: pointer;
      font-weight: 600;
    }
    .primary:disabled {
      opacity: 0.55;
      cursor: not-allowed;
    }
    .danger-button {
      border: 1px solid currentColor;
      border-radius: 8px;
      padding: 4px 10px;
      background: transparent;
      color: inherit;
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
