import { css } from 'lit';
import { iconStyles } from './icons.js';
import { panelStyles } from './styles.js';
import { tableStyles } from './table.styles.js';

export const styles = [
  panelStyles,
  tableStyles,
  iconStyles,
  css`
    /* The filters below read the panel's width (the table's queries read the table's). */
    :host {
      container-type: inline-size;
    }
    .toolbar.flags {
      gap: 4px 16px;
    }
    /* A phone or a narrow column: the filters stack as full lines, From and To sharing one
       where both keep a whole date in view, not a ragged column of each control's natural
       width. */
    @container (width < 30em) {
      .toolbar:not(.flags) > :is(label, .field) {
        flex: 1 1 100%;
      }
      .dates > label {
        flex: 1 1 10em;
      }
      /* The search and the Filters button share a line. */
      .toolbar:not(.flags) > .field.search {
        flex: 1 1 8em;
      }
      /* Folded, Clear filters stays: one tap from "no conversation matches". */
      .toolbar:not(.flags).folded > :not(.search, .fold),
      .toolbar.flags.folded > label,
      .toolbar.flags.folded:not(:has(> button)) {
        display: none;
      }
    }
    /* Wider, every filter is in view: there is nothing to unfold. */
    @container (width >= 30em) {
      .fold {
        display: none;
      }
    }
    /* A control with its problem under it, as one item of the toolbar; the message wraps to the
       control's width rather than widen it (top-aligned then: panelStyles). */
    .toolbar > .field {
      margin: 0;
      min-width: 0;
      max-width: 100%;
    }
    .toolbar > .field > .error {
      contain: inline-size;
    }
    .dates {
      display: flex;
      flex-wrap: wrap;
      gap: 8px;
      align-items: flex-end;
    }
    /* Brought into view when it opens: not flush with the top edge. */
    .detail {
      scroll-margin-top: 12px;
    }
    .detail-head {
      display: flex;
      align-items: baseline;
      justify-content: space-between;
      gap: 8px;
    }
    .export {
      align-items: center;
    }
    .export progress {
      flex: 0 1 12em;
      accent-color: var(--_accent);
    }
    .export .error {
      flex-basis: 100%;
    }
    /* Each column at least as wide as its header's longest word in English and German, with a
       tenth to spare for another font ("Austausche" 6.5em, "Markierungen" 7.9em, bold); the
       date's as its widest date ("May 28, 2026, 10:58 AM", 10.3em at its 0.9em), or its AM/PM
       was cut at two-digit hours. */
    .tr {
      grid-template-columns:
        minmax(8em, 3fr) minmax(7.25em, 0.6fr) minmax(12em, 1.3fr) minmax(8.75em, 1.2fr)
        minmax(10em, 1fr);
    }
    /* Narrower: the count goes first, then the date; the question, its flags and the actions
       stay, the question with room to be read. (Cells: 1 question, 2 exchanges, 3 date, 4 flags,
       5 actions.) */
    @container (width < 52em) {
      .tr {
        grid-template-columns: minmax(8em, 3fr) minmax(12em, 1.3fr) minmax(8.75em, 1.2fr) minmax(10em, 1fr);
      }
      .tr > :nth-child(2) {
        display: none;
      }
    }
    /* Narrower still: the last activity goes under the question, the marks and the buttons
       beside both (a list with no time at all left the owner guessing which was which). Its
       header is only read, as the marks' is on a phone. */
    @container (width < 44em) {
      .tr {
        grid-template-columns: minmax(8em, 3fr) minmax(8.75em, 1.2fr) minmax(10em, 1fr);
      }
      .tr > :nth-child(2) {
        display: none;
      }
      .thead .tr > :nth-child(3) {
        position: absolute;
        width: 1px;
        height: 1px;
        overflow: hidden;
        clip-path: inset(50%);
        white-space: nowrap;
      }
      .tbody {
        --_row-height: 4.4em;
      }
      .tbody .tr {
        row-gap: 2px;
        align-content: center;
      }
      .tbody .tr > .title {
        grid-area: 1 / 1;
      }
      .tbody .tr > .date {
        grid-area: 2 / 1;
        color: var(--_muted);
      }
      .tbody .tr > :is(.flags, .row-actions) {
        grid-row: 1 / span 2;
      }
    }
    /* A phone, a dashboard's sidebar, or the admin beside one at 1024 px: the question, its
       marks and the row's actions, which must stay in view. A row takes two lines, the question
       above its marks and buttons, as a data source's does: beside each other, the buttons in
       German left a question of a few letters, or ran out of the table. The marks' header is
       only read (a screen reader names each mark's cell by it), as the row of headers is one
       line. */
    @container (width < 30em) {
      .tr {
        grid-template-columns: minmax(0, 1fr) auto;
      }
      .thead .tr > :nth-child(4) {
        position: absolute;
        width: 1px;
        height: 1px;
        overflow: hidden;
        clip-path: inset(50%);
        white-space: nowrap;
      }
      .tbody {
        --_row-height: 6em;
      }
      .tbody .tr > :is(.title, .date) {
        grid-column: 1 / -1;
      }
      .tbody .tr > .title {
        grid-row: 1;
      }
      .tbody .tr > .date {
        grid-row: 2;
      }
      .tbody .tr > .flags {
        grid-area: 3 / 1;
        overflow: hidden;
        white-space: nowrap;
      }
      .tbody .tr > .row-actions {
        grid-area: 3 / 2;
        justify-self: end;
      }
    }
    .tbody .tr[aria-current='true'] {
      box-shadow: inset 3px 0 0 var(--_accent);
      background: color-mix(in srgb, var(--_accent) 8%, transparent);
    }
    .tbody .tr[aria-current='true']:dir(rtl) {
      box-shadow: inset -3px 0 0 var(--_accent);
    }
    .flag {
      margin-inline-end: 6px;
      font-size: 0.9em;
    }
    .flag.bad,
    .not-covered,
    .rated-down {
      color: var(--_danger);
    }
    .flag.ok,
    .covered,
    .rated-up {
      color: var(--_success);
    }
    .flag.test {
      border: 1px solid var(--_border);
      border-radius: 4px;
      padding: 0 4px;
      color: var(--_muted);
    }
    .more {
      display: flex;
      gap: 8px;
      align-items: center;
      margin-top: 6px;
    }
    .exchange {
      border-bottom: 1px solid var(--_border);
      padding: 8px 0;
    }
    .speaker {
      font-weight: 600;
      font-size: 0.85em;
      color: var(--_muted);
      margin: 6px 0 2px;
    }
    .bubble {
      background: var(--_surface-2);
      border-radius: 8px;
      padding: 6px 10px;
      margin: 0;
    }
    ul.facts {
      margin: 6px 0 0;
      font-size: 0.9em;
    }
    dl.data {
      display: grid;
      grid-template-columns: auto 1fr;
      gap: 2px 10px;
      margin: 0;
    }
    dl.data dt {
      color: var(--_muted);
    }
    dl.data dd {
      margin: 0;
    }
    ol.citations {
      margin: 4px 0 0;
      padding-inline-start: 1.6em;
      font-size: 0.9em;
    }
    .qa-form {
      margin-top: 8px;
    }
  `,
];
