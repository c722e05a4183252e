import { css } from 'lit';
import { panelStyles } from './styles.js';
import { tableStyles } from './table.styles.js';

export const styles = [
  panelStyles,
  tableStyles,
  css`
    .tr {
      grid-template-columns:
        2.2em minmax(8em, 3fr) minmax(4em, 0.8fr) minmax(6em, 1fr) minmax(4.5em, 0.8fr)
        minmax(4em, 0.7fr) minmax(10.5em, 1.4fr) minmax(10em, 1.3fr);
    }
    /*
     * A narrow table (an admin panel in a dashboard's column) drops the columns least needed
     * at a glance, so the title keeps room and every row's actions stay in view: first type,
     * size and tokens, then the date, then the status. (Cells: 1 checkbox, 2 title, 3 type,
     * 4 status, 5 size, 6 tokens, 7 date, 8 actions.)
     */
    @container (width < 54em) {
      .tr {
        grid-template-columns: 2.2em minmax(8em, 3fr) minmax(6em, 1fr) minmax(10.5em, 1.4fr) minmax(10em, 1.3fr);
      }
      .tr > :is(:nth-child(3), :nth-child(5), :nth-child(6)) {
        display: none;
      }
    }
    @container (width < 40em) {
      .tr {
        grid-template-columns: 2.2em minmax(8em, 3fr) minmax(6em, 1fr) minmax(10em, 1.3fr);
      }
      .tr > :nth-child(7) {
        display: none;
      }
    }
    @container (width < 30em) {
      .tr {
        grid-template-columns: 2.2em minmax(6em, 1fr) auto;
      }
      .tr > :nth-child(4) {
        display: none;
      }
    }
    /* A phone: the title gives way before a row's Delete leaves the view. */
    @container (width < 22em) {
      .tr {
        grid-template-columns: 2.2em minmax(2.5em, 1fr) auto;
      }
      .row-actions button {
        padding: 1px 5px;
        font-size: 0.9em;
      }
    }
    .thead button {
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
