import { css } from 'lit';
import { panelStyles } from './styles.js';

export const styles = [
  panelStyles,
  css`
    .toolbar {
      display: flex;
      flex-wrap: wrap;
      gap: 8px;
      align-items: flex-end;
      margin-bottom: 8px;
    }
    .toolbar label {
      margin: 0;
    }
    .toolbar .search {
      flex: 1 1 14em;
    }
    .table {
      border: 1px solid var(--_border);
      border-radius: calc(var(--_radius) / 2);
      overflow: hidden;
      container-type: inline-size;
    }
    .tr {
      display: grid;
      grid-template-columns:
        2.2em minmax(8em, 3fr) minmax(4em, 0.8fr) minmax(6em, 1fr) minmax(4.5em, 0.8fr)
        minmax(4em, 0.7fr) minmax(10.5em, 1.4fr) minmax(10em, 1.3fr);
      align-items: center;
      gap: 6px;
      padding: 4px 8px;
      border-bottom: 1px solid var(--_border);
      width: 100%;
      box-sizing: border-box;
      min-height: 2.4em;
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
    .thead .tr {
      background: var(--_surface-2);
      font-weight: 600;
    }
    .thead button {
      border: 0;
      background: none;
      padding: 2px 0;
      font-weight: 600;
      text-align: left;
    }
    .tbody {
      height: var(--chatbot-admin-table-height, 28rem);
      overflow: auto;
      contain: strict;
      /* The rows are placed by the table itself; the browser's scroll anchoring would move the
         scroll position whenever a reused row's content shifts, and the two would chase. */
      overflow-anchor: none;
    }
    /* One height for every row: the table works out from it which rows are on screen. With
       containment, a row whose text changes lays out only itself. */
    .tbody .tr {
      height: 2.75em;
      contain: strict;
    }
    .tbody .tr[aria-selected='true'] {
      background: color-mix(in srgb, var(--_accent) 10%, transparent);
    }
    .title {
      overflow: hidden;
      text-overflow: ellipsis;
      white-space: nowrap;
    }
    .date {
      white-space: nowrap;
      overflow: hidden;
      text-overflow: ellipsis;
      font-size: 0.9em;
    }
    .num {
      text-align: right;
      font-variant-numeric: tabular-nums;
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
    .row-actions {
      display: flex;
      gap: 4px;
    }
    .row-actions button {
      padding: 1px 8px;
    }
    .results li {
      margin: 2px 0;
    }
  `,
];
