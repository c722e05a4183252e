import { css } from 'lit';

/**
 * The virtual tables (data sources, conversations): a toolbar above, a grid per row whose
 * columns each table sets on `.tr`, and one row height, from which the table works out which
 * rows are on screen.
 */
export const tableStyles = css`
  .toolbar {
    display: flex;
    flex-wrap: wrap;
    gap: 8px;
    align-items: flex-end;
    margin-bottom: 8px;
  }
  /* No wider than the toolbar (a phone's, a long tag name's select): a label's own minimum is
     its field's natural width, which would otherwise stick out and be cut off. */
  .toolbar label {
    margin: 0;
    min-width: 0;
    max-width: 100%;
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
    align-items: center;
    gap: 6px;
    padding: 4px 8px;
    border-bottom: 1px solid var(--_border);
    width: 100%;
    box-sizing: border-box;
    min-height: 2.4em;
  }
  .thead .tr {
    background: var(--_surface-2);
    font-weight: 600;
  }
  /* As tall as its rows, up to the height set (a few rows left a box of blank space above what
     follows, a transcript opened from the list). Not all rows are in the DOM to give it, so it
     is their count (set by virtual-rows-controller.ts) times their one height: from CSS, not
     measured, or the body's size would change in the update its own ResizeObserver asked for. */
  .tbody {
    --_row-height: 2.75em;
    height: min(
      var(--chatbot-admin-table-height, 28em),
      calc(var(--_rows, 1000) * var(--_row-height))
    );
    overflow: auto;
    contain: strict;
    /* The rows are placed by the table itself; the browser's scroll anchoring would move the
       scroll position whenever a reused row's content shifts, and the two would chase. */
    overflow-anchor: none;
  }
  .tbody > .sizer {
    height: calc(var(--_rows, 0) * var(--_row-height));
  }
  /* One height for every row: the table works out from it which rows are on screen. With
     containment, a row whose text changes lays out only itself. */
  .tbody .tr {
    height: var(--_row-height);
    contain: strict;
  }
  /* Cells whose text is cut short rather than let the row grow (the conversations' flags too). */
  .tr > :is(.title, .date, .flags) {
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
  }
  /* A header longer than its column (a narrow table, another language) takes a second line,
     which the header row has room for, rather than run into the next header: between words,
     else hyphenated where the browser can, else anywhere in a word too long for the column. */
  .tr > [role='columnheader'] {
    overflow: hidden;
    overflow-wrap: anywhere;
    hyphens: auto;
  }
  .date {
    font-size: 0.9em;
  }
  .num {
    text-align: right;
    font-variant-numeric: tabular-nums;
  }
  .row-actions {
    display: flex;
    gap: 4px;
  }
  .row-actions button {
    padding: 1px 8px;
  }
`;
