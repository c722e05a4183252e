/**
 * The stylesheet of everything the lazily loaded chunk draws: rendered markdown, the cited
 * sources, the rating controls and attachments. It comes with the chunk, so the element's first-load bundle
 * does not carry styles for what cannot show before an answer; `adoptAnswerStyles` adds it to
 * an element's shadow root beside the element's own styles (chatbot-chat.styles.ts), whose
 * tokens (`--_accent`, `--_border`…) it uses.
 */

/** The text as written: the tag's name has the build minify it as CSS (see vite.config.ts). */
const css = String.raw;

const styles = css`
  :host {
    --_pressed: var(--chatbot-feedback-pressed, var(--_accent));
    --_target: var(--chatbot-target-size, 24px);
  }

  /* Rendered markdown */
  /*
   * The last block's bottom margin is taken back by the container, not by :last-child or
   * :has() rules: those would restyle every block of a long answer on each streamed frame.
   */
  .markdown {
    margin-bottom: -0.6em;
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
  /*
   * Older exchanges are skipped whole, so opening a long remembered conversation lays out only
   * the newest ones; where scroll anchoring holds a reader's text still as they are drawn
   * (Safari has none). Never one inside the other: the anchoring then lets the text jump as the
   * inner blocks are drawn. The newest five are drawn, so a reader scrolling up from the bottom
   * is reading (anchoring on: FollowController) before reaching a skipped one.
   */
  @supports (overflow-anchor: auto) {
    .exchange:nth-last-child(n + 6) {
      content-visibility: auto;
      contain-intrinsic-size: auto 8em;
      /* Focus rings at its edges (a touch screen's hit areas: below). */
      overflow-clip-margin: 8px;
    }
    .exchange:nth-last-child(n + 6) .markdown > .block {
      content-visibility: visible;
    }
  }
  .markdown p,
  .markdown ul,
  .markdown ol,
  .markdown blockquote,
  .markdown .table,
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
  .markdown pre {
    margin: 0;
    padding: 10px;
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
  /* A code block: a bar with its language and Copy button (markdown.ts), the code below it. */
  .markdown .code-block {
    border: 1px solid var(--_border);
    border-radius: 8px;
    background: var(--_surface);
  }
  .markdown .code-block > pre {
    border: 0;
    background: none;
  }
  .code-head {
    display: flex;
    align-items: center;
    gap: 8px;
    padding: 2px;
    padding-inline-start: 10px;
    border-bottom: 1px solid var(--_border);
    border-radius: 7px 7px 0 0;
    background: var(--_surface-2);
    color: var(--_muted);
    font-size: 0.75em;
    /* A selection of the answer copies its words, not the bar's. */
    user-select: none;
  }
  .code-lang {
    font-family: var(--_mono);
    overflow-wrap: anywhere;
  }
  .copy-code {
    margin-inline-start: auto;
    font-size: inherit;
    border: 1px solid var(--_border);
    background: var(--_surface);
    border-radius: 6px;
    padding: 1px 6px;
    cursor: pointer;
  }
  .markdown .table {
    overflow-x: auto;
  }
  .markdown table {
    border-collapse: collapse;
    width: max-content;
  }
  .markdown th,
  .markdown td {
    border: 1px solid var(--_border);
    padding: 4px 8px;
    /* Whole words, and a long cell wraps at a readable width. */
    overflow-wrap: normal;
    max-width: 14em;
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
  .sources :target {
    color: var(--_text);
    font-weight: 600;
  }

  /*
   * On a touch screen every control under and inside an answer takes a finger: at least
   * --_target (44px) each way. A mouse keeps the compact layout.
   */
  @media (pointer: coarse) {
    :host {
      --_target: var(--chatbot-target-size, 44px);
    }
    .copy-code,
    .sources a,
    .actions .text-button,
    .feedback-form button,
    .flash button,
    .danger-button,
    .suggestion {
      min-width: var(--_target);
      min-height: var(--_target);
    }
    .sources {
      /* Clear of the hit area of a marker on the answer's last line. */
      margin-top: calc(var(--_target) / 4);
    }
    .sources a {
      display: inline-flex;
      align-items: center;
    }
    /* A marker is a word of the text: its hit area grows around it, the line does not. */
    .citation {
      position: relative;
    }
    .citation::after {
      content: '';
      position: absolute;
      inset: 50% auto auto 50%;
      width: var(--_target);
      height: var(--_target);
      transform: translate(-50%, -50%);
    }
    /* A block's containment would clip that hit area at the block's edges. (Chromium refuses a
       calc() here, so the margin is the whole target rather than its half.) */
    .markdown > .block,
    .exchange:nth-last-child(n + 6) {
      overflow-clip-margin: var(--_target);
    }
  }

  /* Ratings: icon buttons like their neighbours (below); a pressed one is coloured and outlined. */
  .feedback {
    display: flex;
    gap: 4px;
  }
  .feedback-form button,
  .feedback-form label,
  .feedback-form input[name='comment'] {
    min-height: var(--_target);
  }
  /* The comment field looks as the message box does (chatbot-chat.styles.ts). */
  .feedback-form [name='comment'] {
    flex: 1;
    font: inherit;
    color: inherit;
    background: var(--_surface);
    border: 1px solid var(--_border);
    border-radius: 8px;
    padding: 8px 10px;
    unicode-bidi: plaintext;
  }
  /* iOS Safari zooms the page into a text field whose text is under 16px. */
  @media (pointer: coarse) {
    .feedback-form [name='comment'] {
      font-size: max(16px, 1em);
    }
  }
  .feedback [aria-pressed='true'] {
    color: var(--_pressed);
    border-color: currentColor;
  }
  .feedback-error,
  .feedback-thanks {
    align-self: center;
    font-size: 0.8em;
    color: var(--_danger);
  }
  .feedback-thanks {
    color: var(--_muted);
  }
  .feedback-error {
    flex-basis: 100%;
  }
  /* On its own line under the buttons. */
  .feedback-form {
    position: relative;
    flex-basis: 100%;
    flex-wrap: wrap;
    --_form-padding: 8px;
    padding: var(--_form-padding);
    border: 1px solid var(--_border);
    border-radius: 8px;
    font-size: 0.875em;
  }
  .feedback-form fieldset {
    flex-basis: 100%;
    margin: 0;
    /* Room for the close button, in the form's corner as a dialog's (it wrapped alone onto a
       last line of its own on a phone). */
    padding: 0;
    padding-inline-end: var(--_target, 32px);
    border: 0;
    box-sizing: border-box;
  }
  .feedback-form .icon-button {
    position: absolute;
    top: 2px;
    inset-inline-end: 2px;
  }
  /* Centred on the question's line (the form's padding and half a line), whatever the button's
     size: a touch screen's 44 px target stood 6 px low from a fixed top. */
  @supports (top: 1lh) {
    .feedback-form .icon-button {
      top: calc(var(--_form-padding) + 0.5lh);
      translate: 0 -50%;
    }
  }
  .feedback-form label {
    display: inline-flex;
    align-items: center;
    gap: 4px;
    margin-inline-end: 12px;
  }
  /* Centred on its word: the browser's own top margin set the circle 2 px low. */
  .feedback-form [type='radio'] {
    margin-block: 0;
  }

  /* Attachments (attachments="on"): the chips above the textbox and under a sent question. */
  form {
    flex-wrap: wrap;
  }
  .chips {
    flex-basis: 100%;
    display: flex;
    flex-wrap: wrap;
    gap: 6px;
    margin: 0;
    padding: 0;
    list-style: none;
  }
  .chip {
    display: inline-flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 6px;
    max-width: 100%;
    padding: 2px 4px 2px 10px;
    border: 1px solid var(--_border);
    border-radius: 12px;
    background: var(--_surface-2);
    color: var(--_text);
    font-size: 0.85em;
  }
  .user .chips {
    margin-top: 6px;
  }
  .user .chip {
    padding-inline-end: 10px;
  }
  /* A long name wraps beside its size and remove button instead of pushing them onto a row of
     their own (a phone's chip was three rows tall, the button under the name's end). */
  .chip .name {
    flex: 1 1 0;
    min-width: 0;
    overflow-wrap: anywhere;
  }
  .chip .size {
    color: var(--_muted);
  }
  .chip progress {
    width: 4em;
  }
  .attach-notes {
    flex-basis: 100%;
  }
  /* Out of the composer's row while empty, so its gaps do not widen, and still a live region. */
  .attach-notes:empty {
    position: absolute;
  }
  .attach-wait {
    flex-basis: 100%;
    margin: 0;
    color: var(--_muted);
    font-size: 0.85em;
  }
  .chip .chip-error {
    flex-basis: 100%;
    color: var(--_danger);
    padding-inline-end: 6px;
  }
  .chip button,
  .attach {
    min-width: var(--_target);
    min-height: var(--_target);
    border: 0;
    background: transparent;
    color: inherit;
    cursor: pointer;
    border-radius: 8px;
  }
  .attach {
    align-self: center;
    font-size: 1.2em;
  }
  .attach svg {
    width: 1em;
    height: 1em;
    vertical-align: -0.125em;
  }
  /*
   * A flash ("Copied") is read from the status region, and shown over the foot of the log for
   * the reader who pressed the button, as the way back down is.
   */
  .flash:not(:empty) {
    display: flex;
    align-items: center;
    gap: 4px;
    width: auto;
    height: auto;
    margin: 0;
    clip: auto;
    bottom: 8px;
    left: 50%;
    transform: translateX(-50%);
    padding: 4px 12px;
    border: 1px solid transparent;
    border-radius: 999px;
    background: var(--_text);
    color: var(--_surface);
    font-size: 0.875em;
    pointer-events: none;
  }
  /*
   * An answer's four actions as icons (action-icons.ts), each named by its words, which show as
   * a tip on hover and on keyboard focus: as words they took two rows under every answer on a
   * phone and in the launcher. Without this chunk (no renderer) they stay words.
   */
  .actions :is(.copy, .delete, .rate) {
    position: relative;
    display: inline-flex;
    align-items: center;
    justify-content: center;
    /* A finger's target, its rounded corners too (as chatbot-chat.styles.ts). */
    min-width: max(34px, var(--_target) + 4px);
    min-height: calc(var(--_target) + 4px);
  }
  .actions .icon {
    width: 18px;
    height: 18px;
    flex: none;
  }
  .rate[value='down'] .icon {
    rotate: 180deg;
  }
  /* The name, read but not drawn: shown as a tip above its button (the row is often the log's
     last line), from its start edge. */
  .actions :is(.copy, .delete, .rate) > span {
    position: absolute;
    bottom: calc(100% + 4px);
    inset-inline-start: 0;
    clip-path: inset(50%);
    white-space: nowrap;
    z-index: 1;
    padding: 2px 6px;
    border: 1px solid transparent;
    border-radius: 4px;
    background: var(--_text);
    color: var(--_surface);
    pointer-events: none;
  }
  .actions :is(.copy, .delete, .rate):focus-visible > span {
    clip-path: none;
  }
  /* Not on a touch screen, where a tapped button would keep its tip. */
  @media (hover: hover) {
    .actions :is(.copy, .delete, .rate):hover > span {
      clip-path: none;
    }
  }
  /* Nor its hover shade, which would read as pressed (and layout can slide another button under
     the place last tapped). Here, not in the first load's hover rule: no bytes to spare there. */
  @media (hover: none) {
    .actions .text-button:not([aria-pressed='true']):hover {
      background: none;
      color: var(--_muted);
    }
  }
  /* Delete's question, among an exchange's actions: it reads as one with its two answers. */
  .confirm {
    display: inline-flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 4px;
    padding-inline-start: 4px;
    font-size: 0.85em;
  }
  .confirm .text-button {
    font-size: 1em;
  }
  .confirm .danger-button {
    color: var(--_text);
  }
  /* New conversation's Undo: the one control a flash holds. */
  .flash button {
    padding: 2px 6px;
    border: 0;
    background: none;
    font-weight: 600;
    text-decoration: underline;
    cursor: pointer;
    pointer-events: auto;
  }
  .panel.dragging {
    outline: 2px dashed var(--_accent);
    outline-offset: -4px;
  }
  /*
   * On paper an inline chat is the whole conversation: on screen its log scrolls in a panel of
   * fixed height, of which a printer got one screenful. What a reader acts with (the composer, an
   * answer's actions, the code bars) stays off paper, not a refusal's topics (its text's own list
   * of them is hidden); a launcher is the page's chrome and prints nothing.
   */
  @media print {
    :host([mode='launcher']) {
      display: none;
    }
    .panel {
      height: auto;
      border: 0;
    }
    .log {
      flex: none;
      overflow: visible;
    }
    .log .exchange:nth-last-child(n),
    .log .markdown > .block:not(.open) {
      content-visibility: visible;
    }
    .head button,
    [part='composer'],
    .actions,
    .latest,
    .code-head {
      display: none;
    }
  }
`;

let sheet: CSSStyleSheet | undefined;

/** Adds the stylesheet to an element's render root, once. */
export function adoptAnswerStyles(root: HTMLElement | DocumentFragment): void {
  // Firefox before 101 and Safari before 16.4 cannot share a constructed sheet, as Lit finds too.
  if (!(root instanceof ShadowRoot && 'replaceSync' in CSSStyleSheet.prototype)) {
    const style = document.createElement('style');
    style.textContent = styles;
    // Ahead of the nodes Lit renders, which it keeps after this one.
    root.prepend(style);
    return;
  }
  if (!sheet) {
    sheet = new CSSStyleSheet();
    sheet.replaceSync(styles);
  }
  if (!root.adoptedStyleSheets.includes(sheet)) {
    root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
  }
}
