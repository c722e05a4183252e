import { css } from 'lit';
import { tokens } from '../ui/tokens.js';
import { panelStyles } from './styles.js';

export const styles = [
  tokens,
  panelStyles,
  css`
    :host {
      display: block;
      background: var(--_surface);
      border: 1px solid var(--_border);
      border-radius: var(--_radius);
      overflow: hidden;
      line-height: 1.5;
      /* The dashboard's inherited text styles are its own, not the admin's (direction aside). */
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
    /*
     * The list of chatbots beside the main area while the element is wide enough for both, and
     * above it otherwise: by the element's own width, not the viewport's, since a dashboard may
     * give it a column (a viewport query left the main area 64px wide in a 320px column). Flex
     * wrapping, not a container query: the host keeps sizing to its content where it sits.
     */
    .layout {
      display: flex;
      flex-wrap: wrap;
      min-height: 24em;
    }
    /*
     * The list's end and bottom borders each lie 1px outside its place: the one facing the main
     * area is drawn on the main area's edge (its padding), the other falls outside the element
     * and is clipped. So beside the main area only the end border shows and, above it, only the
     * bottom one: a line down the element's edge doubled its own border.
     */
    nav.sidebar {
      flex: 1 1 var(--chatbot-admin-sidebar-width, 16em);
      box-sizing: border-box;
      background: var(--_surface-2);
      border-inline-end: 1px solid var(--_border);
      border-bottom: 1px solid var(--_border);
      margin-inline-end: -1px;
      margin-bottom: -1px;
      padding: 12px;
      min-width: 0;
    }
    /* New chatbot goes under the heading where both do not fit ("Neuer Chatbot" in 16em). */
    .header {
      display: flex;
      flex-wrap: wrap;
      gap: 8px;
      align-items: center;
      justify-content: space-between;
      margin-bottom: 10px;
    }
    .header h2 {
      margin: 0;
    }
    /*
     * Past 60% of the view the list scrolls in its own box: with many chatbots, stacked above
     * the tabs on a phone, it stood taller than the screen. The padding keeps the cards' focus
     * rings inside the box, which would cut them (over ul.plain's none).
     */
    ul.chatbot-list {
      max-height: max(16em, 60vh);
      overflow-y: auto;
      padding: 3px;
      margin: -3px;
    }
    .chatbot-list li {
      margin: 0 0 6px;
    }
    .chatbot-list button {
      display: block;
      width: 100%;
      /* Start, not left: a name in a right-to-left script (dir="auto") lines up on the right. */
      text-align: start;
      white-space: normal;
      background: var(--_surface);
      padding: 8px 10px;
    }
    .chatbot-list button[aria-current='true'] {
      border-color: var(--_accent);
      box-shadow: inset 3px 0 0 var(--_accent);
    }
    /* The bar on the start side, as the text begins there. */
    .chatbot-list button[aria-current='true']:dir(rtl) {
      box-shadow: inset -3px 0 0 var(--_accent);
    }
    .chatbot-list .name {
      display: block;
      font-weight: 600;
      overflow-wrap: anywhere;
    }
    .chatbot-list .meta {
      display: flex;
      flex-wrap: wrap;
      gap: 4px;
      margin-top: 4px;
      font-size: 0.85em;
      color: var(--_muted);
    }
    .main {
      flex: 999 1 0;
      /* Below this, the main area wraps under the list and takes the whole width. */
      min-width: min(100%, 30em);
      padding: 12px 16px;
      box-sizing: border-box;
    }
    /*
     * One row, scrolled sideways when the tabs are wider than the admin (a phone): wrapped, the
     * seven tabs took three rows at 390px, and the selected one's bar stood between two rows.
     */
    [role='tablist'] {
      display: flex;
      gap: 2px;
      border-bottom: 1px solid var(--_border);
      margin-bottom: 12px;
      overflow-x: auto;
      scrollbar-width: thin;
      /*
       * A shadow at an edge with more tabs beyond it: the covers scroll with the tabs (local)
       * and hide a shadow once its end is reached, the shadows stay at the edges.
       */
      --_shade: color-mix(in srgb, var(--_text) 22%, transparent);
      background:
        linear-gradient(to right, var(--_surface) 40%, transparent) left / 28px 100% no-repeat local,
        linear-gradient(to left, var(--_surface) 40%, transparent) right / 28px 100% no-repeat local,
        radial-gradient(farthest-side at 0 50%, var(--_shade), transparent) left / 12px 100% no-repeat,
        radial-gradient(farthest-side at 100% 50%, var(--_shade), transparent) right / 12px 100%
        no-repeat;
      background-color: var(--_surface);
    }
    /* A shade of the text would be a glow on a dark surface: a shadow is darker than it. */
    @media (prefers-color-scheme: dark) {
      :host(:not([theme='light'])) [role='tablist'] {
        --_shade: rgb(0 0 0 / 0.8);
      }
    }
    :host([theme='dark']) [role='tablist'] {
      --_shade: rgb(0 0 0 / 0.8);
    }
    [role='tab'] {
      flex: none;
      white-space: nowrap;
    }
    /* Inside the row's scrolling box, a ring outside the tab would be cut away. */
    [role='tab']:focus-visible {
      outline-offset: -2px;
    }
    /*
     * Only the selected tab has a border for its bar, the others the same room as padding:
     * forced colors paint every border, a transparent one too, so a bar on each tab left only
     * the bold text to tell the selected one.
     */
    [role='tab'] {
      border: 0;
      border-radius: 0;
      background: none;
      padding: 8px 12px 11px;
    }
    [role='tab'][aria-selected='true'] {
      border-bottom: 3px solid var(--_accent);
      padding-bottom: 8px;
      font-weight: 600;
    }
    @media (forced-colors: active) {
      [role='tab'][aria-selected='true'] {
        border-bottom-color: Highlight;
      }
    }
    /*
     * The chat, and beside it the settings it uses, or below it when the tab is narrow (as
     * .layout, by width): above it, on a phone, they held the chat a screen down.
     */
    .try {
      display: flex;
      flex-wrap: wrap;
      gap: 12px 16px;
      align-items: flex-start;
    }
    .try > .help {
      flex: 1 1 100%;
    }
    .try > .card {
      flex: 1 1 14em;
      min-width: 0;
    }
    .try chatbot-chat {
      flex: 999 1 0;
      min-width: min(100%, 22em);
    }
    /* The chat's panel has a height of its own (540px by default): it fills this box instead, or
       it overflowed the admin, which clips, and its message box and Send were cut away. */
    .try chatbot-chat {
      display: block;
      height: 32em;
      --chatbot-height: 100%;
    }
    /*
     * Beside the chat the Try-it card is narrow (14em): each label goes above its value, which
     * then has the card's width to wrap between words. A wider card (below the chat) sets them
     * side by side, the labels in at most 40% of it.
     */
    .try > .card {
      container-type: inline-size;
    }
    dl.summary {
      display: grid;
      grid-template-columns: minmax(0, 1fr);
      margin: 8px 0 0;
    }
    dl.summary dt {
      color: var(--_muted);
    }
    /* Only a token longer than the line (a URL, a uuid) breaks inside itself: "anywhere" would
       also make every word breakable when the grid sizes the column ("messag / es"). */
    dl.summary dd {
      margin: 0 0 6px;
      overflow-wrap: break-word;
    }
    @container (width >= 26em) {
      dl.summary {
        grid-template-columns: fit-content(40%) minmax(0, 1fr);
        gap: 4px 10px;
      }
      dl.summary dd {
        margin: 0;
      }
    }
  `,
];
