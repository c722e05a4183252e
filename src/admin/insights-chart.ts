import { html, svg } from 'lit';

/*
 * The Insights charts are drawn here in SVG rather than with a charting library: a bar chart with
 * one line over at most a few dozen points is some forty lines of arithmetic, where a library
 * would add tens of kilobytes (and its own theming and accessibility to work around) to a tab
 * most owners open now and then. Colours come from the admin's tokens (`--_accent`, `--_text`,
 * …, set from the page's `--chatbot-*` properties), so the charts follow the theme and dark mode.
 */

/** One series: its name and a value per point. */
export interface Series {
  readonly name: string;
  readonly values: readonly number[];
}

export interface BarLineChartOptions {
  /** Prefix of the ids the toggle, caption and table refer to each other by. */
  readonly id: string;
  readonly caption: string;
  /** A label per point, e.g. a formatted day. */
  readonly labels: readonly string[];
  /** The heading of the table's label column. */
  readonly labelHeader: string;
  /** Drawn as bars (a filled shape in the legend). */
  readonly bars: Series;
  /** Drawn as a line with markers (a line in the legend): told apart by form, not only colour. */
  readonly line: Series;
  readonly tableShown: boolean;
  readonly toggleLabel: string;
  readonly onToggle: () => void;
  /**
   * The width the drawing is shown at, in CSS pixels, when known: it is drawn at that width, so
   * its text keeps its size in a narrow column instead of shrinking with the whole drawing.
   */
  readonly width?: number;
}

/** The drawing's width until the one it is shown at is known, and the least it is drawn at. */
const WIDTH = 640;
const MIN_WIDTH = 200;
const HEIGHT = 200;
const LEFT = 36;
const RIGHT = 8;
const TOP = 10;
const BOTTOM = 22;
const PLOT_H = HEIGHT - TOP - BOTTOM;
/** Room for one label under the x axis; the others are left out so they never overlap. */
const X_LABEL_WIDTH = 72;

/** A round step (1, 2 or 5 times a power of ten) that splits `max` into about four. */
export function niceStep(max: number): number {
  const rough = max / 4;
  if (rough <= 1) return 1;
  const power = 10 ** Math.floor(Math.log10(rough));
  const fraction = rough / power;
  return (fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 5 ? 5 : 10) * power;
}

/**
 * A figure with its caption, a bar series and a line series over the same points, and the same
 * numbers as a table: always read by screen readers (the drawing is hidden from them), shown in
 * place of the drawing while "Show as table" is pressed.
 */
export function barLineChart(options: BarLineChartOptions) {
  const { id, caption, labels, bars, line, tableShown } = options;
  return html`<figure class="chart" part="chart">
    <figcaption id="${id}-caption">${caption}</figcaption>
    <div class="chart-tools">
      <ul class="legend plain" aria-hidden="true">
        <li><svg viewBox="0 0 12 12" class="key"><rect class="bar" x="1" y="1" width="10" height="10"></rect></svg>${bars.name}</li>
        <li><svg viewBox="0 0 16 12" class="key"><line class="line" x1="0" y1="6" x2="16" y2="6"></line><circle class="dot" cx="8" cy="6" r="3"></circle></svg>${line.name}</li>
      </ul>
      <button
        type="button"
        part="button"
        aria-pressed=${tableShown ? 'true' : 'false'}
        aria-controls="${id}-table"
        @click=${options.onToggle}
      >
        ${options.toggleLabel}
      </button>
    </div>
    ${tableShown ? null : drawing(labels, bars, line, options.width)}
    <!-- Scrolls when shown: focusable, so a keyboard can scroll it too. -->
    <div
      id="${id}-table"
      class=${tableShown ? 'table-view' : 'visually-hidden'}
      role="region"
      aria-labelledby="${id}-caption"
      tabindex=${tableShown ? '0' : '-1'}
    >
      <table class="simple" aria-labelledby="${id}-caption">
        <thead>
          <tr>
            <th scope="col">${options.labelHeader}</th>
            <th scope="col">${bars.name}</th>
            <th scope="col">${line.name}</th>
          </tr>
        </thead>
        <tbody>
          ${labels.map(
            (label, i) => html`<tr>
              <th scope="row">${label}</th>
              <td>${bars.values[i] ?? 0}</td>
              <td>${line.values[i] ?? 0}</td>
            </tr>`,
          )}
        </tbody>
      </table>
    </div>
  </figure>`;
}

function drawing(labels: readonly string[], bars: Series, line: Series, shownWidth?: number) {
  const width = Math.max(MIN_WIDTH, Math.round(shownWidth ?? WIDTH));
  const plotWidth = width - LEFT - RIGHT;
  const count = Math.max(labels.length, 1);
  const step = niceStep(Math.max(1, ...bars.values, ...line.values));
  const top = step * Math.max(1, Math.ceil(Math.max(1, ...bars.values, ...line.values) / step));
  const y = (value: number) => TOP + PLOT_H - (value / top) * PLOT_H;
  const band = plotWidth / count;
  const x = (i: number) => LEFT + band * (i + 0.5);
  const barWidth = Math.min(band * 0.7, 28);
  const every = Math.ceil(count / Math.max(2, Math.floor(plotWidth / X_LABEL_WIDTH)));
  const ticks = Array.from({ length: top / step + 1 }, (_, k) => k * step);
  const points = line.values.map((value, i) => `${x(i)},${y(value)}`).join(' ');
  const dot = count > 31 ? 1.5 : 3;
  return html`<svg
    class="plot"
    viewBox="0 0 ${width} ${HEIGHT}"
    aria-hidden="true"
    focusable="false"
  >
    ${ticks.map(
      (
        tick,
      ) => svg`<line class="grid" x1=${LEFT} x2=${width - RIGHT} y1=${y(tick)} y2=${y(tick)}></line>
        <text class="tick" x=${LEFT - 6} y=${y(tick) + 4} text-anchor="end">${tick}</text>`,
    )}
    ${bars.values.map(
      (value, i) => svg`<rect class="bar" x=${x(i) - barWidth / 2} y=${y(value)}
        width=${barWidth} height=${TOP + PLOT_H - y(value)}>
        <title>${labels[i]}: ${bars.name} ${value}, ${line.name} ${line.values[i] ?? 0}</title>
      </rect>`,
    )}
    <polyline class="halo" points=${points}></polyline>
    <polyline class="line" points=${points}></polyline>
    ${line.values.map((value, i) => svg`<circle class="dot" cx=${x(i)} cy=${y(value)} r=${dot}></circle>`)}
    ${labels.map((label, i) =>
      // Counted back from the last point, so the newest day always has its label.
      (count - 1 - i) % every === 0
        ? i === count - 1
          ? // The last ends at the drawing's edge rather than past it.
            svg`<text class="tick" x=${Math.min(width - 1, x(i) + band / 2)} y=${HEIGHT - 6} text-anchor="end">${label}</text>`
          : svg`<text class="tick" x=${x(i)} y=${HEIGHT - 6} text-anchor="middle">${label}</text>`
        : null,
    )}
  </svg>`;
}

/**
 * A thin bar filled in proportion to `part / whole`, beside text that states both numbers: it
 * only lets the eye compare, so it is hidden from screen readers. The rest is an outline, not a
 * second colour.
 */
export function shareBar(part: number, whole: number) {
  const width = whole > 0 ? (Math.min(part, whole) / whole) * 100 : 0;
  return html`<svg class="share" viewBox="0 0 100 6" preserveAspectRatio="none" aria-hidden="true" focusable="false">
    <rect class="track" x="0.5" y="0.5" width="99" height="5" rx="2"></rect>
    <rect class="fill" x="0" y="0" width=${width} height="6" rx="2"></rect>
  </svg>`;
}
