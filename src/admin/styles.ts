import { css } from 'lit';
import { baseStyles } from '../ui/tokens.js';

/**
 * Styles of every panel. Panels live inside <chatbot-admin>'s shadow root and inherit its
 * `--_*` tokens (computed from the page's `--chatbot-*` properties and the `theme` attribute),
 * so they must not redeclare them: a dark theme set on the outer element would be undone.
 */
export const panelStyles = css`
  :host {
    display: block;
    color: var(--_text);
    font-family: var(--_font);
    font-size: var(--_font-size);
  }
  ${baseStyles}
  h2,
  h3,
  h4 {
    margin: 0 0 0.5em;
    line-height: 1.25;
  }
  h2 {
    font-size: 1.15em;
  }
  h3 {
    font-size: 1.05em;
  }
  h4 {
    font-size: 1em;
  }
  section,
  fieldset.box,
  .card {
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    background: var(--_surface);
    padding: 12px 14px;
    margin: 0 0 12px;
  }
  fieldset {
    border: 1px solid var(--_border);
    border-radius: calc(var(--_radius) / 2);
    margin: 8px 0;
    padding: 8px 10px;
    min-width: 0;
  }
  legend {
    font-weight: 600;
    padding: 0 4px;
  }
  label,
  .field {
    display: flex;
    flex-direction: column;
    gap: 4px;
    margin: 0 0 10px;
    font-weight: 500;
  }
  label.inline {
    flex-direction: row;
    align-items: center;
    gap: 8px;
    font-weight: 400;
  }
  .help {
    color: var(--_muted);
    font-size: 0.9em;
    font-weight: 400;
    margin: 0;
  }
  input,
  select,
  textarea {
    font: inherit;
    color: var(--_text);
    background: var(--_surface);
    border: 1px solid var(--_border);
    border-radius: 6px;
    padding: 6px 8px;
    min-width: 0;
    /* A select is as wide as its longest option (a tag's long name): it stays in its column and
       the browser cuts the option's text instead. */
    max-width: 100%;
    box-sizing: border-box;
  }
  /* One height for one-line fields, so side by side their labels and boxes line up: Chromium
     draws a date input 2 px taller than a text input, and a select 2.5 px shorter. */
  select,
  input:not([type='checkbox'], [type='radio'], [type='color'], [type='file']) {
    height: calc(1.5em + 14px);
  }
  input[type='checkbox'],
  input[type='color'] {
    padding: 0;
  }
  /* Not shrunk by a label's text that wraps beside it (a long Q&A question's member box). */
  input[type='checkbox'] {
    flex: none;
    width: 1.05em;
    height: 1.05em;
    accent-color: var(--_accent);
  }
  input[type='color'] {
    width: 2.5em;
    height: 2.2em;
  }
  input[aria-invalid='true'],
  textarea[aria-invalid='true'] {
    border-color: var(--_danger);
  }
  textarea {
    resize: vertical;
    min-height: 4.5em;
    line-height: 1.45;
  }
  textarea.prompt {
    font-family: var(--_mono);
    min-height: 12em;
  }
  button {
    font: inherit;
    cursor: pointer;
    color: var(--_text);
    background: var(--_surface-2);
    border: 1px solid var(--_border);
    border-radius: 6px;
    padding: 5px 12px;
    white-space: nowrap;
  }
  button.primary {
    background: var(--_accent);
    border-color: var(--_accent);
    color: var(--_accent-text);
  }
  button.danger {
    color: var(--_danger);
    border-color: currentColor;
    background: var(--_surface);
  }
  /* A toggle keeps its label ("Show as table"), so its state must show. */
  button[aria-pressed='true'] {
    background: color-mix(in srgb, var(--_accent) 16%, var(--_surface));
    border-color: var(--_accent);
    box-shadow: inset 0 1px 2px rgb(0 0 0 / 0.2);
  }
  @media (forced-colors: active) {
    button[aria-pressed='true'] {
      border: 2px solid Highlight;
    }
  }
  button:disabled,
  :is(button, input)[aria-disabled='true'] {
    cursor: not-allowed;
    opacity: 0.6;
  }
  .row {
    display: flex;
    flex-wrap: wrap;
    gap: 8px;
    align-items: flex-end;
  }
  .row.center {
    align-items: center;
  }
  /* Fields whose help or message sits under their input: their labels and inputs line up from
     the top. */
  .row.top {
    align-items: flex-start;
  }
  .color-pair {
    display: flex;
    gap: 8px;
    align-items: center;
  }
  .color-pair > input:not([type='color']) {
    flex: 1;
  }
  .flush {
    margin: 0;
  }
  .padded {
    padding: 8px 12px;
  }
  .row > label,
  .row > .field {
    flex: 1 1 10em;
  }
  /* A row of fields keeps the space under them itself, where a lone field keeps it as its bottom
     margin: a row's other controls (a colour picker, a remove button) then stand level with its
     inputs. As padding, it adds to a following fieldset's margin as the labels' margins did, and
     wrapped lines keep that space between them too. */
  .row:not(.center) {
    row-gap: 18px;
    padding-bottom: 10px;
  }
  .row:not(.center) > :is(label, .field) {
    margin-bottom: 0;
  }
  /* A field wrapped with its message: the pair takes the spacing of one label. */
  .field > label,
  .field > .error {
    margin: 0;
  }
  /* Bottom-aligned, a message would lift its field's input above its neighbours'. */
  :is(.row, .toolbar):has(> .field > .error) {
    align-items: flex-start;
  }
  .actions {
    display: flex;
    flex-wrap: wrap;
    gap: 8px;
    align-items: center;
    margin-top: 8px;
  }
  .spacer {
    flex: 1;
  }
  /* A card's switch and buttons: one group at the end of its heading's line, or wrapped whole
     onto the next, never split (Delete alone on a phone's second line). Where even that line
     is too short (German on a phone), a switch wraps apart from its buttons, which stay paired. */
  .controls {
    display: flex;
    flex-wrap: wrap;
    gap: 8px;
    align-items: center;
  }
  /* A switch's word sits on its buttons' line: no field label's bottom margin lifting it. */
  .controls > label {
    margin: 0;
  }
  .error {
    color: var(--_danger);
    background: var(--_danger-surface);
    border-radius: 6px;
    padding: 6px 10px;
    margin: 8px 0;
  }
  .error p {
    margin: 0 0 6px;
  }
  .error ul {
    margin: 0;
    padding-inline-start: 1.2em;
  }
  .ok {
    color: var(--_success);
  }
  .pending,
  .empty,
  .muted {
    color: var(--_muted);
  }
  .badge {
    display: inline-block;
    font-size: 0.8em;
    border: 1px solid var(--_border);
    border-radius: 999px;
    padding: 0 8px;
    color: var(--_muted);
    white-space: nowrap;
  }
  .swatch {
    display: inline-block;
    width: 0.95em;
    height: 0.95em;
    border-radius: 3px;
    border: 1px solid var(--_border);
    vertical-align: -0.1em;
    flex: none;
  }
  ul.plain {
    list-style: none;
    padding: 0;
    margin: 0;
  }
  .checklist {
    max-height: 14em;
    overflow: auto;
    border: 1px solid var(--_border);
    border-radius: 6px;
    padding: 6px 8px;
  }
  .checklist label {
    margin: 2px 0;
  }
  .user-text {
    white-space: pre-wrap;
    overflow-wrap: anywhere;
  }
  dialog {
    color: var(--_text);
    background: var(--_surface);
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    box-shadow: var(--_shadow);
    max-width: min(32em, 90vw);
    box-sizing: border-box;
  }
  /* Names quoted in a dialog are written by users and may be one long word (a pasted URL, a
     string of letters): they wrap rather than run past the dialog's edge. */
  dialog :is(h2, p) {
    overflow-wrap: anywhere;
  }
  dialog::backdrop {
    background: rgb(0 0 0 / 0.35);
  }
  table.simple {
    border-collapse: collapse;
    width: 100%;
  }
  table.simple th,
  table.simple td {
    /* Start, not left: a cell in a right-to-left script (dir="auto") lines up on the right. */
    text-align: start;
    padding: 4px 6px;
    border-bottom: 1px solid var(--_border);
    vertical-align: top;
  }
`;
