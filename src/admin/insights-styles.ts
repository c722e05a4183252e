import { css } from 'lit';

/**
 * The Insights panel's own styles, over `panelStyles`. Every colour is one of the admin's tokens,
 * so the charts follow `--chatbot-*` and the dark theme like the rest of the panel.
 */
export const insightsStyles = css`
  .period {
    display: flex;
    flex-wrap: wrap;
    gap: 4px 16px;
    align-items: flex-end;
  }
  .period fieldset {
    display: flex;
    flex-wrap: wrap;
    gap: 4px 14px;
    margin: 0 0 10px;
  }
  .period fieldset label {
    margin: 0;
  }
  .range {
    display: flex;
    flex-wrap: wrap;
    gap: 4px 10px;
    align-items: flex-end;
  }
  .range .error {
    margin: 0 0 10px;
  }
  .status {
    margin: 0 0 8px;
  }
  /* Two a row however narrow: one a row, a phone's seven cards took more than a screen. */
  dl.stats {
    display: grid;
    grid-template-columns: repeat(auto-fill, minmax(min(11em, calc(50% - 5px)), 1fr));
    gap: 10px;
    margin: 0;
  }
  .help.tests {
    margin-top: 8px;
  }
  /* A word longer than a phone's card (the labels are words that fit: admin-de.ts) is
     hyphenated where the browser can, broken where it cannot. */
  .stat {
    min-width: 0;
    overflow-wrap: break-word;
    hyphens: auto;
    border: 1px solid var(--_border);
    border-radius: calc(var(--_radius) / 2);
    padding: 8px 10px;
  }
  .stat dt {
    color: var(--_muted);
    font-size: 0.9em;
  }
  .stat dd {
    margin: 2px 0 0;
  }
  .stat .value {
    display: block;
    font-size: 1.5em;
    font-weight: 600;
    font-variant-numeric: tabular-nums;
  }
  .stat .detail {
    display: block;
    color: var(--_muted);
    font-size: 0.85em;
  }
  .columns {
    display: grid;
    grid-template-columns: repeat(auto-fit, minmax(min(100%, 22em), 1fr));
    gap: 0 12px;
    align-items: start;
  }
  table.simple .count {
    text-align: right;
    font-variant-numeric: tabular-nums;
  }
  /* A number stays whole; its header ("Conversations") may wrap, or a phone's card could not
     hold the table. */
  table.simple td.count {
    white-space: nowrap;
  }
  /* A visitor's question may run to thousands of characters: three lines of it are enough to
     know it again (its tooltip holds the rest). */
  .clamp {
    display: -webkit-box;
    -webkit-box-orient: vertical;
    -webkit-line-clamp: 3;
    line-clamp: 3;
    overflow: hidden;
  }
  table.simple td.when {
    white-space: nowrap;
  }
  /* Each card's tables fit the card's own width: on a phone, or in a narrow column, the gaps
     drop their date so the question keeps room and "Add as Q&A" stays in view. */
  section.card {
    container-type: inline-size;
  }
  @container (width < 30em) {
    table.simple .when {
      display: none;
    }
    /* The day table of a phone's card: its headers are single words ("Conversations",
       "Nachrichten"), which a smaller type fits side by side instead of a scroll away. */
    .table-view table.simple :is(th, td) {
      padding: 4px 4px;
      font-size: 0.85em;
    }
    /* "Add as Q&A" stays on one line where there is room; here it may wrap, at most into two
       lines ("Add as" over "Q&A", not a word a line). */
    table.simple td button {
      white-space: normal;
      min-width: 5.5em;
    }
  }
  figure.chart {
    margin: 0;
  }
  figcaption {
    font-weight: 600;
    margin: 0 0 6px;
  }
  .chart-tools {
    display: flex;
    flex-wrap: wrap;
    gap: 8px 16px;
    align-items: center;
    justify-content: space-between;
    margin: 0 0 6px;
  }
  .legend {
    display: flex;
    flex-wrap: wrap;
    gap: 4px 14px;
    color: var(--_muted);
    font-size: 0.9em;
  }
  .legend li {
    display: flex;
    align-items: center;
    gap: 6px;
  }
  svg.key {
    width: 16px;
    height: 12px;
  }
  svg.plot {
    display: block;
    width: 100%;
    height: auto;
    max-height: 22em;
  }
  .plot .grid {
    stroke: var(--_border);
    stroke-width: 1;
  }
  .plot .tick {
    fill: var(--_muted);
    font-family: var(--_font);
    font-size: 11px;
  }
  .bar {
    fill: var(--_accent);
  }
  .line {
    fill: none;
    stroke: var(--_text);
    stroke-width: 2;
    stroke-linejoin: round;
  }
  /* A ring of the background around the line keeps it apart from the bars it crosses. */
  .halo {
    fill: none;
    stroke: var(--_surface);
    stroke-width: 5;
    stroke-linejoin: round;
  }
  .dot {
    fill: var(--_surface);
    stroke: var(--_text);
    stroke-width: 1.5;
  }
  .table-view {
    max-height: 20em;
    overflow: auto;
  }
  svg.share {
    display: block;
    width: 100%;
    height: 6px;
    margin-top: 6px;
  }
  .share .track {
    fill: none;
    stroke: var(--_border);
    vector-effect: non-scaling-stroke;
  }
  .share .fill {
    fill: var(--_accent);
  }
  /* Its parts wrap between them, not inside: kept on one line, the column took the question's
     width and pushed the table out of its card. */
  .covered .badge {
    white-space: nowrap;
  }
  .never {
    margin: 0;
    padding-inline-start: 1.4em;
  }
`;
