import { css } from 'lit';
import { panelStyles } from './styles.js';
import { tableStyles } from './table.styles.js';

export const styles = [
  panelStyles,
  tableStyles,
  css`
    /*
     * The actions column is as wide as its buttons ("Umbenennen" and "Löschen" need a third more
     * than "Rename" and "Delete"); the title gives way first, down to a few words.
     */
    .tr {
      grid-template-columns:
        2.2em minmax(4em, 3fr) minmax(4em, 0.8fr) minmax(6em, 1fr) minmax(4.5em, 0.8fr)
        minmax(4em, 0.7fr) minmax(10.5em, 1.4fr) minmax(max-content, 1.3fr);
    }
    /*
     * A narrow table (an admin panel in a dashboard's column) drops the columns least needed
     * at a glance, so the title keeps room and every row's actions stay in view: first type,
     * size and tokens, then the date. (Cells: 1 checkbox, 2 title, 3 type, 4 status, 5 size,
     * 6 tokens, 7 date, 8 actions.)
     */
    @container (width < 54em) {
      .tr {
        grid-template-columns: 2.2em minmax(4em, 3fr) minmax(6em, 1fr) minmax(10.5em, 1.4fr) minmax(max-content, 1.3fr);
      }
      .tr > :is(:nth-child(3), :nth-child(5), :nth-child(6)) {
        display: none;
      }
    }
    @container (width < 40em) {
      .tr {
        grid-template-columns: 2.2em minmax(4em, 3fr) minmax(6em, 1fr) minmax(max-content, 1.3fr);
      }
      .tr > :nth-child(7) {
        display: none;
      }
    }
    /*
     * A phone: a row takes three lines, the title, the status (with a failure's reason) and the
     * buttons, so Rename and Delete fit in any language and neither the title nor the reason is
     * squeezed to a few letters. Every row is still as tall as the next: the table measures one.
     */
    @container (width < 30em) {
      .tr {
        grid-template-columns: 2.2em minmax(0, 1fr) auto;
      }
      .thead .tr > :nth-child(4),
      .actions-sizer {
        display: none;
      }
      .tbody {
        --_row-height: 4.9em;
      }
      .tbody .tr {
        row-gap: 2px;
        align-content: center;
      }
      .tbody .tr > :is(.title, .status) {
        grid-column: 2 / -1;
      }
      .tbody .tr > .status {
        flex-direction: row;
        align-items: baseline;
        gap: 0.5em;
        font-size: 0.9em;
      }
      .tbody .tr > .row-actions {
        grid-column: 1 / -1;
        justify-self: end;
      }
    }
    /* Under "Actions", only lends the header its rows' width. */
    .actions-sizer {
      font-weight: normal;
      height: 0;
      overflow: hidden;
      visibility: hidden;
    }
    /* A failed source's reason is cut to the cell's width; its tooltip holds the rest. */
    .status {
      display: flex;
      flex-direction: column;
      min-width: 0;
      line-height: 1.15;
    }
    .status > * {
      overflow: hidden;
      text-overflow: ellipsis;
      white-space: nowrap;
    }
    .status-label {
      flex: none;
      max-width: 100%;
    }
    .reason {
      min-width: 0;
      font-size: 0.8em;
    }
    /* The sort buttons; not the unseen row buttons that size the Actions column. */
    .thead [role='columnheader'] > button {
      border: 0;
      background: none;
      padding: 2px 0;
      font-weight: 600;
      text-align: left;
    }
    .tbody .tr[aria-selected='true'] {
      background: color-mix(in srgb, var(--_accent) 10%, transparent);
    }
    .status-failed {
      color: var(--_danger);
    }
    .status-success {
      color: var(--_success);
    }
    .status-progress {
      color: var(--_muted);
    }
    .results li {
      margin: 2px 0;
    }
  `,
];
