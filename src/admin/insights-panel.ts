import { Task, TaskStatus } from '@lit/task';
import { html, nothing } from 'lit';
import { state } from 'lit/decorators.js';
import { isMissingRoute, refusesParameter } from '../api/errors.js';
import type { Insights } from '../api/types.js';
import { emit } from '../ui/events.js';
import { fill, plural } from '../ui/i18n.js';
import { dateRange, localDayStart, type RangeEnd } from './date-range.js';
import type { AdminChangeEvent } from './events.js';
import { formatDate } from './format.js';
import { barLineChart, shareBar } from './insights-chart.js';
import {
  customPeriod,
  formatCount,
  formatDay,
  formatShare,
  lastDays,
  MAX_PERIOD_DAYS,
  type Period,
  type PeriodChoice,
  PRESET_DAYS,
  readerZone,
} from './insights-format.js';
import { insightsStyles } from './insights-styles.js';
import { AdminPanel } from './panel.js';
import { QaFormController } from './qa-from-exchange.js';
import { panelStyles } from './styles.js';

/**
 * A visitor's question, which may run to thousands of characters: a few lines of it on screen,
 * the whole of it in its tooltip and, for screen readers, in the DOM.
 */
const visitorQuestion = (text: string) => html`<span class="clamp" title=${text}>${text}</span>`;

/** The server lists every source never cited; a chatbot may have thousands. */
const NEVER_CITED_SHOWN = 20;

/**
 * What the selected chatbot's conversations say over a period: traffic per day, the answers the
 * sources did not cover, the ratings, the questions asked most, the knowledge gaps (each one a
 * Q&A source away from closed) and which sources are cited. A server without the insights route
 * (the hosted service) answers 404 or 405: the panel then asks the admin to hide its tab.
 */
export class AdminInsightsPanel extends AdminPanel {
  static override styles = [panelStyles, insightsStyles];

  /** "Add as Q&A" under a gap, keyed by the gap's question. */
  private readonly qa = new QaFormController(this);

  @state() private choice: PeriodChoice = 30;
  @state() private customFrom = '';
  @state() private customTo = '';
  /** The period asked for: it only ever holds a valid one, so a wrong range asks nothing. */
  @state() private period: Period = lastDays(30);
  /** The last answer, kept on screen while another period loads. */
  @state() private insights?: Insights;
  @state() private tableShown = false;
  /** The chart's width on screen, which it is drawn at (see `barLineChart`). */
  @state() private chartWidth?: number;
  private readonly chartResize = new ResizeObserver(([entry]) => {
    const width = Math.round(entry?.contentRect.width ?? 0);
    if (width > 0 && width !== this.chartWidth) this.chartWidth = width;
  });
  private chartObserved?: Element;
  /** Gap questions turned into Q&A sources here (the gaps themselves are history). */
  @state() private answered: ReadonlySet<string> = new Set();
  /** The server counts UTC days only: it refused `tz`. */
  private zoneless = false;

  private readonly insightsTask = new Task(this, {
    task: async ([client, uuid, from, to], { signal }) => {
      if (!client || !uuid) return undefined;
      if (!this.zoneless) {
        // The reader's days, as the times beside them are shown: from the first one's start to
        // the start of the day after the last, counted in the reader's zone.
        const period = { from: localDayStart(from), to: localDayStart(to, 1), tz: readerZone() };
        try {
          return await client.review.insights(uuid, period, { signal });
        } catch (error) {
          if (!refusesParameter(error, 'tz')) throw error;
          this.zoneless = true;
        }
      }
      // Its UTC days, asked for as they always were.
      return client.review.insights(uuid, { from, to }, { signal });
    },
    args: () => [this.client, this.chatbot?.uuid, this.period.from, this.period.to] as const,
    onComplete: (insights) => {
      this.insights = insights;
    },
    onError: (error) => {
      if (isMissingRoute(error))
        emit(this, 'admin-tab-unavailable', 'insights', { composed: false });
    },
  });

  constructor() {
    super();
    // The Q&A form reports its saved source from this element, on its way to the admin.
    this.addEventListener('chatbot-admin-change', (event: AdminChangeEvent) => {
      const gap = this.qa.openKey;
      if (gap !== undefined && event.detail.kind === 'source' && event.detail.action === 'create') {
        this.answered = new Set(this.answered).add(gap);
      }
    });
  }

  override updated(): void {
    // The chart comes and goes with the numbers: watch the one there is, by its tools' row, as
    // wide as the drawing and as tall whatever it is drawn at (the figure's height follows the
    // drawing, which would report a resize while drawing for the last one).
    const figure = this.renderRoot.querySelector('figure.chart .chart-tools') ?? undefined;
    if (figure === this.chartObserved) return;
    if (this.chartObserved) this.chartResize.unobserve(this.chartObserved);
    if (figure) this.chartResize.observe(figure);
    this.chartObserved = figure;
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.chartResize.disconnect();
    this.chartObserved = undefined;
  }

  /** Asks again; "the last N days" move on with the clock. */
  override refresh(): void {
    if (this.choice !== 'custom') this.period = lastDays(this.choice);
    void this.insightsTask.run();
  }

  private handleChoice(choice: PeriodChoice): void {
    this.choice = choice;
    if (choice !== 'custom') {
      this.period = lastDays(choice);
      return;
    }
    // The range starts as the period on screen, for the owner to move from there.
    this.customFrom ||= this.period.from;
    this.customTo ||= this.period.to;
    this.applyCustom();
  }

  private handleRangeInput(end: RangeEnd, value: string): void {
    if (end === 'from') this.customFrom = value;
    else this.customTo = value;
    this.applyCustom();
  }

  private applyCustom(): void {
    const range = customPeriod(this.customFrom, this.customTo);
    if (typeof range === 'object') this.period = range;
  }

  override render() {
    const s = this.strings;
    const insights = this.insights;
    const pending = this.insightsTask.status === TaskStatus.PENDING;
    return html`<section class="card" part="card" aria-labelledby="insights-heading">
        <h2 id="insights-heading">${s.insightsHeading}</h2>
        ${this.renderPeriod()}
        ${
          pending && insights
            ? html`<p class="muted status" role="status">${s.refreshing}</p>`
            : this.insightsTask.render({
                pending: () => this.renderPending(),
                error: (error) =>
                  isMissingRoute(error)
                    ? nothing
                    : this.renderLoadError(error, () => this.insightsTask.run(), 'insights.get'),
              })
        }
        ${insights ? this.renderTotals(insights) : nothing}
        ${
          // Only a server that says so leaves them out: an older one counts them with the rest.
          insights?.test === 'exclude'
            ? html`<p class="help tests">${s.insightsTestsLeftOut}</p>`
            : nothing
        }
      </section>
      ${insights ? this.renderDetails(insights) : nothing}`;
  }

  private renderPeriod() {
    const s = this.strings;
    const range = customPeriod(this.customFrom, this.customTo);
    const problem =
      this.choice !== 'custom'
        ? undefined
        : range === 'order'
          ? s.dateRangeInvalid
          : range === 'long'
            ? fill(s.insightsPeriodTooLong, { days: formatCount(MAX_PERIOD_DAYS, this.lang) })
            : undefined;
    const choices: [PeriodChoice, string][] = [
      ...PRESET_DAYS.map((days): [PeriodChoice, string] => [
        days,
        plural(s, 'insightsLastDays', days, this.lang),
      ]),
      ['custom', s.insightsCustom],
    ];
    return html`<form class="period" part="form" @submit=${(e: Event) => e.preventDefault()}>
      <fieldset>
        <legend>${s.insightsPeriod}</legend>
        ${choices.map(
          ([choice, label]) => html`<label class="inline"
            ><input
              type="radio"
              name="period"
              value=${choice}
              .checked=${this.choice === choice}
              @change=${() => this.handleChoice(choice)}
            />${label}</label
          >`,
        )}
      </fieldset>
      ${
        this.choice === 'custom'
          ? html`<div class="range">
              ${dateRange(
                s,
                { from: this.customFrom, to: this.customTo },
                problem ? 'range-error' : undefined,
                (end, date) => this.handleRangeInput(end, date),
              )}
              ${
                problem
                  ? html`<p class="error" part="error" id="range-error" role="alert">
                      ${problem}
                    </p>`
                  : nothing
              }
            </div>`
          : nothing
      }
    </form>`;
  }

  private renderTotals({ totals }: Insights) {
    const s = this.strings;
    const lang = this.lang;
    const rated = totals.up + totals.down;
    const stat = (label: string, value: number, detail: unknown = nothing) =>
      html`<div class="stat">
        <dt>${label}</dt>
        <dd><span class="value">${formatCount(value, lang)}</span>${detail}</dd>
      </div>`;
    return html`<dl class="stats">
      ${stat(s.conversations, totals.conversations)}
      ${stat(s.insightsMessages, totals.messages)}
      <div class="stat">
        <dt>${s.filterNotCovered}</dt>
        <dd>
          <span class="value">${formatShare(totals.not_covered, totals.messages, lang)}</span>
          <span class="detail">${plural(s, 'insightsNotCoveredShare', totals.messages, lang, {
            share: formatCount(totals.not_covered, lang),
            count: formatCount(totals.messages, lang),
          })}</span>
          ${shareBar(totals.not_covered, totals.messages)}
        </dd>
      </div>
      ${stat(
        s.ratingUp,
        totals.up,
        html`<span class="detail">${formatShare(totals.up, rated, lang)}</span>
          ${shareBar(totals.up, rated)}`,
      )}
      ${stat(
        s.ratingDown,
        totals.down,
        html`<span class="detail">${formatShare(totals.down, rated, lang)}</span>
          ${shareBar(totals.down, rated)}`,
      )}
      ${stat(s.filterEscalated, totals.escalated)} ${stat(s.insightsErrors, totals.errors)}
    </dl>`;
  }

  private renderDetails(insights: Insights) {
    const s = this.strings;
    const lang = this.lang;
    const { days } = insights;
    const withYear = days[0]?.date.slice(0, 4) !== days.at(-1)?.date.slice(0, 4);
    const first = days[0]?.date ?? this.period.from;
    const last = days.at(-1)?.date ?? this.period.to;
    return html`<section class="card" part="card">
        ${barLineChart({
          id: 'per-day',
          caption: fill(s.insightsPerDay, {
            from: formatDay(first, lang, true),
            to: formatDay(last, lang, true),
          }),
          labels: days.map((day) => formatDay(day.date, lang, withYear)),
          labelHeader: s.insightsDay,
          bars: { name: s.conversations, values: days.map((d) => d.conversations) },
          line: { name: s.insightsMessages, values: days.map((d) => d.messages) },
          tableShown: this.tableShown,
          width: this.chartWidth,
          toggleLabel: s.insightsShowTable,
          onToggle: () => {
            this.tableShown = !this.tableShown;
          },
        })}
      </section>
      ${this.renderGaps(insights)}
      <div class="columns">
        ${this.renderTopQuestions(insights)}
        ${this.renderSources(insights)}
      </div>`;
  }

  private renderSources(insights: Insights) {
    const s = this.strings;
    const lang = this.lang;
    return html`<div>
      <section class="card" part="card" aria-labelledby="cited-heading">
        <h3 id="cited-heading">${s.insightsCited}</h3>
        ${
          insights.sources_cited.length
            ? html`<table class="simple" part="table" aria-labelledby="cited-heading">
                <thead>
                  <tr>
                    <th scope="col" part="header-cell">${s.title}</th>
                    <th scope="col" part="header-cell" class="count">${s.insightsCitations}</th>
                  </tr>
                </thead>
                <tbody>
                  ${insights.sources_cited.map(
                    (source) => html`<tr part="row">
                      <td part="cell" class="user-text" dir="auto">${source.title}</td>
                      <td part="cell" class="count">${formatCount(source.count, lang)}</td>
                    </tr>`,
                  )}
                </tbody>
              </table>`
            : html`<p class="empty">${s.insightsNoneCited}</p>`
        }
      </section>
      <section class="card" part="card" aria-labelledby="never-heading">
        <h3 id="never-heading">${s.insightsNeverCited}</h3>
        ${
          insights.sources_never_cited.length
            ? html`<ul class="never" aria-labelledby="never-heading">
                  ${insights.sources_never_cited
                    .slice(0, NEVER_CITED_SHOWN)
                    .map((source) => html`<li class="user-text" dir="auto">${source.title}</li>`)}
                </ul>
                ${
                  insights.sources_never_cited.length > NEVER_CITED_SHOWN
                    ? html`<p class="muted">
                        ${fill(s.insightsMore, {
                          count: formatCount(
                            insights.sources_never_cited.length - NEVER_CITED_SHOWN,
                            lang,
                          ),
                        })}
                      </p>`
                    : nothing
                }`
            : html`<p class="empty">${s.insightsAllCited}</p>`
        }
      </section>
    </div>`;
  }

  private renderGaps({ gaps }: Insights) {
    const s = this.strings;
    return html`<section class="card" part="card" aria-labelledby="gaps-heading">
      <h3 id="gaps-heading">${s.insightsGaps}</h3>
      <p class="help">${s.insightsGapsHelp}</p>
      ${
        gaps.length
          ? html`<table class="simple" part="table" aria-labelledby="gaps-heading">
              <thead>
                <tr>
                  <th scope="col" part="header-cell">${s.question}</th>
                  <th scope="col" part="header-cell" class="count">${s.insightsAsked}</th>
                  <th scope="col" part="header-cell" class="when">${s.insightsLastAsked}</th>
                  <th scope="col" part="header-cell"><span class="visually-hidden">${s.actions}</span></th>
                </tr>
              </thead>
              <tbody>
                ${gaps.map(
                  (gap) => html`<tr part="row">
                    <td part="cell" class="user-text" dir="auto">${visitorQuestion(gap.question)}</td>
                    <td part="cell" class="count">${formatCount(gap.count, this.lang)}</td>
                    <td part="cell" class="when">${formatDate(gap.last_asked, this.lang)}</td>
                    <td part="cell">${this.renderGapAction(gap)}</td>
                  </tr>
                  ${
                    this.qa.openKey === gap.question
                      ? html`<tr>
                          <td colspan="4">${this.qa.render(gap.question)}</td>
                        </tr>`
                      : nothing
                  }`,
                )}
              </tbody>
            </table>`
          : html`<p class="empty">${s.insightsNoGaps}</p>`
      }
    </section>`;
  }

  /**
   * What the owner can do about a gap: nothing once the sources answer it (a Q&A added here, or
   * since, as a server that knows says), else Add as Q&A. While the form that added it is open,
   * the form says so.
   */
  private renderGapAction(gap: Insights['gaps'][number]) {
    const s = this.strings;
    if (this.answered.has(gap.question)) {
      return this.qa.openKey === gap.question
        ? nothing
        : html`<span class="ok">${s.qaAdded}</span>`;
    }
    if (gap.answered_now) return html`<span class="ok">${s.insightsAnsweredNow}</span>`;
    return html`<button
      type="button"
      part="button"
      aria-label=${fill(s.addAsQaFor, { question: gap.question })}
      aria-expanded=${this.qa.openKey === gap.question ? 'true' : 'false'}
      @click=${() => this.qa.toggle(gap.question, { question: gap.question, answer: '' }, 'gap')}
    >
      ${s.addAsQa}
    </button>`;
  }

  /**
   * Whether a question asked most was covered: always, never, or the latest time but not every
   * time (a server without `not_covered` says only the latest).
   */
  private renderCoverage(row: Insights['top_questions'][number]) {
    const s = this.strings;
    const uncovered = html`<span class="badge">${s.insightsUncovered}</span>`;
    const mixed =
      row.not_covered !== undefined && row.not_covered > 0 && row.not_covered < row.count;
    if (!mixed) return row.covered ? s.insightsCovered : uncovered;
    return html`${
      row.covered
        ? s.insightsCoveredLast
        : html`<span class="badge">${s.insightsUncoveredLast}</span>`
    }
      · ${fill(s.insightsNotCoveredOf, {
        count: formatCount(row.not_covered!, this.lang),
        total: formatCount(row.count, this.lang),
      })}`;
  }

  private renderTopQuestions({ top_questions }: Insights) {
    const s = this.strings;
    return html`<section class="card" part="card" aria-labelledby="top-heading">
      <h3 id="top-heading">${s.insightsTopQuestions}</h3>
      ${
        top_questions.length
          ? html`<table class="simple" part="table" aria-labelledby="top-heading">
              <thead>
                <tr>
                  <th scope="col" part="header-cell">${s.question}</th>
                  <th scope="col" part="header-cell" class="count">${s.insightsAsked}</th>
                  <th scope="col" part="header-cell">${s.insightsCovered}</th>
                </tr>
              </thead>
              <tbody>
                ${top_questions.map(
                  (row) => html`<tr part="row">
                    <td part="cell" class="user-text" dir="auto">${visitorQuestion(row.question)}</td>
                    <td part="cell" class="count">${formatCount(row.count, this.lang)}</td>
                    <td part="cell" class="covered">${this.renderCoverage(row)}</td>
                  </tr>`,
                )}
              </tbody>
            </table>`
          : html`<p class="empty">${s.insightsNoQuestions}</p>`
      }
    </section>`;
  }
}

/**
 * Registers the tag; the admin calls it once this module has loaded (see lazy-tab.ts).
 * Named through a table, as index.ts names the other panels: a panel is no public element, and
 * the manifest analyzer (the README's element reference) only sees tags defined by literal.
 */
const tags: [string, CustomElementConstructor][] = [['chatbot-admin-insights', AdminInsightsPanel]];

export function defineInsightsPanel(): void {
  for (const [name, element] of tags) {
    if (!customElements.get(name)) customElements.define(name, element);
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'chatbot-admin-insights': AdminInsightsPanel;
  }
}
