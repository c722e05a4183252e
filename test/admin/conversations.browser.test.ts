import { expect } from '@open-wc/testing';
import { setViewport } from '@web/test-runner-commands';
import {
  listRequests,
  mountConversations,
  QUESTIONS,
  recordingClient,
  seedConversations,
  shownQuestions,
} from './conversations-helpers.js';
import { deep, deepAll, deepText, newChatbot, pickDate, type, until } from './helpers.js';

/** The widest of a year's dates and times as the list writes them in `lang`, in `font`. */
function widestDate(lang: string, font: string): { text: string; width: number } {
  const context = document.createElement('canvas').getContext('2d')!;
  context.font = font;
  const format = new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'short' });
  let widest = { text: '', width: 0 };
  for (let month = 0; month < 12; month++) {
    for (const hour of [10, 22]) {
      const text = format.format(new Date(2026, month, 28, hour, 58));
      const { width } = context.measureText(text);
      if (width > widest.width) widest = { text, width };
    }
  }
  return widest;
}

/** A header drawn on screen: not hidden, nor only read by screen readers (1px, clipped). */
const drawn = (header: HTMLElement) => header.offsetWidth > 1;

const rowOf = (panel: Element, question: string) =>
  deepAll(panel, '.tbody [role=row]').find(
    (row) => row.querySelector('.title')?.textContent?.trim() === question,
  )!;

function select(panel: Element, name: string, value: string) {
  const control = deep<HTMLSelectElement>(panel, `select[name=${name}]`)!;
  control.value = value;
  control.dispatchEvent(new Event('change', { bubbles: true }));
}

function tick(panel: Element, name: string, on = true) {
  const box = deep<HTMLInputElement>(panel, `input[name=${name}]`)!;
  box.checked = on;
  box.dispatchEvent(new Event('change', { bubbles: true }));
}

function setDate(panel: Element, name: 'from' | 'to', value: string) {
  pickDate(deep<HTMLInputElement>(panel, `input[name=${name}]`)!, value);
}

/** The reader's date `offset` days from today, as a date input holds it. */
const day = (offset: number) => {
  const t = new Date();
  t.setDate(t.getDate() + offset);
  return t.toLocaleDateString('en-CA');
};

/** What a day's bound is asked as: an instant, at which the reader's clock shows its midnight. */
function expectLocalMidnight(value: string | null, date: string) {
  expect(value).to.match(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
  const at = new Date(value!);
  expect(at.toLocaleDateString('en-CA'), value!).to.equal(date);
  expect([at.getHours(), at.getMinutes(), at.getSeconds()], value!).to.deep.equal([0, 0, 0]);
}

const all = [QUESTIONS.uncovered, QUESTIONS.escalated, QUESTIONS.covered].sort();

/** `from`, `from + step`, … below `to`. */
const range = (from: number, to: number, step: number) =>
  Array.from({ length: Math.ceil((to - from) / step) }, (_, i) => from + i * step);

/** Opens the filters a narrow panel folds behind its Filters button (nothing when wide). */
async function unfold(panel: Element) {
  const button = deep<HTMLButtonElement>(panel, 'button.fold')!;
  if (!button.checkVisibility() || button.ariaExpanded === 'true') return;
  button.click();
  await until(() => deep<HTMLSelectElement>(panel, 'select[name=rating]')!.checkVisibility());
}

async function shows(panel: Element, questions: string[]) {
  await until(
    () => JSON.stringify(shownQuestions(panel)) === JSON.stringify([...questions].sort()),
  );
}

describe('<chatbot-admin> conversations', () => {
  afterEach(() => history.replaceState(null, '', location.pathname + location.search));

  it('should list each conversation with its first question, exchanges, last activity and flags in words, accessibly', async () => {
    const { client, bot } = await seedConversations();
    const { el, panel } = await mountConversations(client, bot);
    await shows(panel, all);
    expect(deep(el, '#tab-sessions')!.textContent?.trim()).to.equal('Conversations');
    const uncovered = rowOf(panel, QUESTIONS.uncovered);
    const cells = [...uncovered.querySelectorAll('[role=cell]')].map((c) => c.textContent ?? '');
    expect(cells[1]!.trim()).to.equal('1');
    expect(cells[2]).to.match(/\d/);
    // The flags read as words, the symbols beside them hidden from screen readers.
    expect(cells[3]).to.contain('1 rated not helpful').and.to.contain('1 not covered by sources');
    expect(rowOf(panel, QUESTIONS.covered).textContent).to.contain('1 rated helpful');
    expect(rowOf(panel, QUESTIONS.escalated).textContent).to.contain('1 escalated to a human');
    // Each mark is an icon drawn in the text's colour, not a character some font may lack (an
    // empty box, and a font search on every layout of the row).
    const marks = [...uncovered.querySelectorAll('.flag > [aria-hidden=true]')];
    expect(marks).to.have.length(2);
    for (const mark of marks) {
      expect(mark.querySelector('svg.icon')?.getAttribute('stroke')).to.equal('currentColor');
      expect(mark.textContent?.trim()).to.equal('1');
    }
    const open = uncovered.querySelector('button')!;
    expect(open.textContent?.trim()).to.equal('Open');
    expect(open.ariaLabel).to.equal(`Open session: ${QUESTIONS.uncovered}`);
    // Described by its last activity: two conversations may begin with the same question.
    const described = panel.shadowRoot!.getElementById(open.getAttribute('aria-describedby')!);
    expect(described?.textContent).to.equal(cells[2]);
    expect(deepText(panel)).to.contain('3 shown');
    await expect(el).to.be.accessible();
  });

  it('should show each column header whole and every row’s actions, at any width the admin is given', async () => {
    const { client, bot } = await seedConversations();
    const { el, panel } = await mountConversations(client, bot);
    await shows(panel, all);
    for (const [lang, width] of ['en', 'de'].flatMap((l) =>
      [320, 480, 720, 960, 1200, 1600].map((w) => [l, w] as const),
    )) {
      el.lang = lang;
      el.style.width = `${width}px`;
      await el.updateComplete;
      await new Promise((resolve) => requestAnimationFrame(resolve));
      const headers = deepAll(panel, '[role=columnheader]').filter(drawn);
      // The admin's own width decides its layout: in a 320px column the list of chatbots goes
      // above, and the conversations take the whole width (a viewport query left them 64px).
      const table = deep(panel, '[role=table]')!.getBoundingClientRect();
      if (width <= 480) expect(table.width, `the table at ${width}px`).to.be.at.least(width * 0.8);
      expect(headers.length, `${width}px`).to.be.at.least(2);
      // Every row's actions in view: the table cuts off what overflows it.
      for (const button of deepAll(panel, '.tbody .row-actions button')) {
        expect(button.getBoundingClientRect().right, `actions at ${width}px`).to.be.at.most(
          table.right,
        );
      }
      for (const header of headers) {
        // A label wider than its column ran into the next one ("ExchangesLast activity").
        expect(header.scrollWidth, `${header.textContent} at ${width}px (${lang})`).to.be.at.most(
          header.clientWidth,
        );
      }
      // Where the last activity is shown, the widest date of the language fits whole, whatever
      // the clock says now: cut, "Nov 28, 2026, 12:32 …" lost its AM or PM.
      const dates = deepAll(panel, '.tbody .date').filter((d) => d.offsetWidth > 0);
      if (dates.length > 0) {
        const cell = getComputedStyle(dates[0]!);
        const room =
          dates[0]!.clientWidth - parseFloat(cell.paddingLeft) - parseFloat(cell.paddingRight);
        const widest = widestDate(lang, cell.font);
        expect(widest.width, `"${widest.text}" at ${width}px (${lang})`).to.be.at.most(room);
      }
    }
  });

  it('should never run one column header into the next, in English or German, at common widths', async () => {
    const { client, bot } = await seedConversations();
    const { el, panel } = await mountConversations(client, bot);
    await shows(panel, all);
    /** Where a header's words are drawn: past its own box when they do not fit it. */
    const inked = (header: Element) => {
      const range = document.createRange();
      range.selectNodeContents(header);
      return range.getBoundingClientRect();
    };
    /** The header's words that are drawn on more than one line: broken for want of room. */
    const broken = (header: Element) => {
      const text = [...header.childNodes].find(
        (n) => n.nodeType === Node.TEXT_NODE && n.textContent?.trim(),
      )!;
      return [...text.textContent!.matchAll(/\S+/g)].filter((word) => {
        const range = document.createRange();
        range.setStart(text, word.index);
        range.setEnd(text, word.index + word[0].length);
        return range.getClientRects().length > 1;
      });
    };
    try {
      for (const viewport of [1024, 1280, 1366, 1920]) {
        await setViewport({ width: viewport, height: 800 });
        await until(() => innerWidth === viewport);
        // The admin in a dashboard beside its sidebar (as in the demo) and alone in the page;
        // in the widest, every width from a tablet's on, where the columns change.
        const widths = [viewport - 250, viewport - 16];
        if (viewport === 1920) widths.push(...range(480, viewport, 10));
        for (const width of widths) {
          el.style.width = `${width}px`;
          for (const lang of ['en', 'de']) {
            el.lang = lang;
            await el.updateComplete;
            await new Promise((resolve) => requestAnimationFrame(resolve));
            const headers = deepAll(panel, '[role=columnheader]').filter(drawn);
            headers.forEach((header, i) => {
              const what = `${header.textContent?.trim()} at ${width}px (${lang})`;
              const text = inked(header);
              const next = headers[i + 1]?.getBoundingClientRect();
              expect(text.right, what).to.be.at.most(header.getBoundingClientRect().right + 0.5);
              if (next) expect(text.right, what).to.be.at.most(next.left);
              // Whole words: a column as narrow as that would break one in two.
              expect(broken(header).map(String), what).to.deep.equal([]);
            });
          }
        }
      }
    } finally {
      el.style.width = '';
      await setViewport({ width: 800, height: 600 });
    }
  });

  it('should list conversations, their times in English, on a page whose lang is no language tag', async () => {
    const { client, bot } = await seedConversations();
    const { el, panel } = await mountConversations(client, bot);
    await shows(panel, all);
    // Written as some sites do: Intl refuses it, and every formatter given it throws.
    el.lang = 'en_US';
    await el.updateComplete;
    await new Promise((resolve) => requestAnimationFrame(resolve));
    await shows(panel, all);
    const time = rowOf(panel, QUESTIONS.covered).querySelector('.date')!.textContent!.trim();
    // "Nov 28, 2026, 6:40 AM" (a narrow space before AM in recent Chromium).
    expect(time).to.match(/^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2}\s[AP]M$/);
    el.lang = '';
  });

  it("should show a row's marks and last activity at every width, below its question where the table is narrow", async () => {
    const { client, bot } = await seedConversations();
    const { el, panel } = await mountConversations(client, bot);
    await shows(panel, all);
    try {
      // A phone; a tablet; the admin beside a dashboard's sidebar at 1024×768 (721px); wide.
      for (const [viewport, width] of [
        [320, 320],
        [390, 390],
        [768, 752],
        [1024, 721],
        [1280, 1264],
      ] as const) {
        await setViewport({ width: viewport, height: 768 });
        await until(() => innerWidth === viewport);
        el.style.width = `${width}px`;
        for (const lang of ['en', 'de']) {
          el.lang = lang;
          await el.updateComplete;
          await new Promise((resolve) => requestAnimationFrame(resolve));
          const row = rowOf(panel, QUESTIONS.uncovered);
          const box = row.getBoundingClientRect();
          /** Drawn inside the row, clear of each of `others`. */
          const placed = (part: HTMLElement, what: string, others: string) => {
            const r = part.getBoundingClientRect();
            expect(r.width, what).to.be.above(0);
            expect(r.left, what).to.be.at.least(box.left);
            expect(r.right, what).to.be.at.most(box.right);
            expect(r.top, what).to.be.at.least(box.top);
            expect(r.bottom, what).to.be.at.most(box.bottom);
            for (const other of row.querySelectorAll(others)) {
              const o = other.getBoundingClientRect();
              const apart =
                r.right <= o.left || r.left >= o.right || r.bottom <= o.top || r.top >= o.bottom;
              expect(apart, `${what} clear of ${other.textContent?.trim()}`).to.equal(true);
            }
          };
          const marks = [...row.querySelectorAll<HTMLElement>('.flag')];
          expect(marks.length, `marks at ${width}px`).to.be.at.least(2);
          for (const mark of marks) placed(mark, `${mark.title} at ${width}px (${lang})`, 'button');
          // Its column still has its header for a screen reader.
          const header = deepAll(panel, '[role=columnheader]')[3]!;
          expect(header.getClientRects().length, `marks header at ${width}px`).to.be.above(0);
          // And when it was, whole, clear of the question, marks and buttons, its header kept.
          const date = row.querySelector<HTMLElement>('.date')!;
          const when = `last activity at ${width}px (${lang})`;
          placed(date, when, '.flag, button, .title');
          expect(date.scrollWidth, when).to.be.at.most(date.clientWidth);
          const dateHeader = deepAll(panel, '[role=columnheader]')[2]!;
          expect(dateHeader.getClientRects().length, `date header at ${width}px`).to.be.above(0);
        }
      }
    } finally {
      el.style.width = '';
      await setViewport({ width: 800, height: 600 });
    }
  });

  it("should keep each row's Open and Delete and the Actions header whole in a phone's viewport", async () => {
    const { client, bot } = await seedConversations();
    const { el, panel } = await mountConversations(client, bot);
    await shows(panel, all);
    try {
      // Bare, and inside a page's own margins (a dashboard's): at 320px, 222px for the panel.
      for (const [lang, width, margin] of ['en', 'de'].flatMap((l) =>
        [320, 360, 390].flatMap((w) => [0, 24].map((m) => [l, w, m] as const)),
      )) {
        el.lang = lang;
        el.style.marginInline = `${margin}px`;
        await setViewport({ width, height: 640 });
        await until(() => innerWidth === width);
        await el.updateComplete;
        await new Promise((resolve) => requestAnimationFrame(resolve));
        const at = `at ${width}px, ${margin}px margins (${lang})`;
        const table = deep(panel, '[role=table]')!.getBoundingClientRect();
        const headers = deepAll(panel, '[role=columnheader]').filter(drawn);
        for (const header of headers) {
          const what = `${header.textContent?.trim()} ${at}`;
          expect(header.getBoundingClientRect().right, what).to.be.at.most(table.right);
          expect(header.scrollWidth, what).to.be.at.most(header.clientWidth);
        }
        for (const row of deepAll(panel, '.tbody [role=row]')) {
          const actions = row.querySelector('.row-actions')!;
          // "Actions" heads the buttons, not a column beside them.
          expect(headers.at(-1)!.getBoundingClientRect().right, `Actions ${at}`).to.be.closeTo(
            actions.getBoundingClientRect().right,
            1,
          );
          // Inside the row, which cuts off what overflows it, and the table.
          const box = row.getBoundingClientRect();
          for (const part of row.querySelectorAll<HTMLElement>('.title, .date, button')) {
            const what = `${part.textContent?.trim().slice(0, 20)} ${at}`;
            const { left, right, top, bottom } = part.getBoundingClientRect();
            expect(left, what).to.be.at.least(box.left);
            expect(right, what).to.be.at.most(Math.min(box.right, table.right));
            expect(top, what).to.be.at.least(box.top);
            expect(bottom, what).to.be.at.most(box.bottom);
            if (part.localName === 'button' || part.classList.contains('date')) {
              expect(part.scrollWidth, what).to.be.at.most(part.clientWidth);
            }
          }
          // The question keeps room to be read.
          const title = row.querySelector('.title')!.getBoundingClientRect();
          expect(title.width, `question ${at}`).to.be.at.least(120);
        }
      }
    } finally {
      el.style.marginInline = '';
      await setViewport({ width: 800, height: 600 });
    }
  });

  it('should filter by rating, coverage, escalation and error on the server', async () => {
    const { bot } = await seedConversations();
    const { client, urls } = await recordingClient();
    const { panel } = await mountConversations(client, bot);
    await shows(panel, all);

    select(panel, 'rating', 'down');
    await shows(panel, [QUESTIONS.uncovered]);
    expect(listRequests(urls).at(-1)!.get('rating')).to.equal('down');
    select(panel, 'rating', 'up');
    await shows(panel, [QUESTIONS.covered]);
    select(panel, 'rating', 'none');
    await shows(panel, [QUESTIONS.escalated]);
    select(panel, 'rating', '');
    await shows(panel, all);

    tick(panel, 'notCovered');
    // The escalation is no gap in the sources: they were never asked.
    await shows(panel, [QUESTIONS.uncovered]);
    expect(listRequests(urls).at(-1)!.get('covered')).to.equal('false');
    tick(panel, 'notCovered', false);
    tick(panel, 'escalated');
    await shows(panel, [QUESTIONS.escalated]);
    tick(panel, 'escalated', false);
    tick(panel, 'error');
    await until(() => deepText(panel).includes('No conversation matches the filters.'));
    expect(listRequests(urls).at(-1)!.get('error')).to.equal('true');
    tick(panel, 'error', false);
    await shows(panel, all);
  });

  it('should search questions and answers once typing pauses, keeping the text', async () => {
    const { bot } = await seedConversations();
    const { client, urls } = await recordingClient();
    const { panel } = await mountConversations(client, bot);
    await shows(panel, all);
    const before = listRequests(urls).length;
    const search = deep<HTMLInputElement>(panel, 'input[type=search]')!;
    for (const text of ['u', 'um', 'umb', 'umbrella']) type(search, text);
    await shows(panel, [QUESTIONS.uncovered]);
    const sent = listRequests(urls).slice(before);
    expect(sent.map((params) => params.get('q'))).to.deep.equal(['umbrella']);
    expect(search.value).to.equal('umbrella');
    // Answers are searched too: "noon" is only in the ferry's answer.
    type(search, 'noon');
    await shows(panel, [QUESTIONS.covered]);
    type(search, '');
    await shows(panel, all);

    // No word to look for, or more than the server takes: said beside the box, nothing asked.
    const asked = listRequests(urls).length;
    const said = () => panel.shadowRoot!.getElementById(search.getAttribute('aria-describedby')!);
    type(search, '%%');
    await until(() => search.getAttribute('aria-invalid') === 'true');
    expect(said()?.textContent?.trim()).to.equal('Search for a word: letters or digits.');
    type(search, 'u'.repeat(501));
    await until(() => said()?.textContent?.includes('At most 500 characters; this has 501.'));
    expect(search.value).to.have.length(501);
    expect(listRequests(urls).length).to.equal(asked);
    // A search that finds nothing says so where it is announced.
    type(search, 'zebra');
    await until(() => search.getAttribute('aria-invalid') === 'false');
    await shows(panel, []);
    await until(() =>
      deepAll(panel, '[role=status]').some((status) => status.textContent?.trim() === '0 shown'),
    );
    expect(deepText(panel)).to.contain('No conversation matches the filters.');
  });

  it('should filter by dates, and refuse a from date after the to date beside the inputs without asking', async () => {
    const { bot } = await seedConversations();
    const { client, urls } = await recordingClient();
    const { el, panel } = await mountConversations(client, bot);
    await shows(panel, all);
    setDate(panel, 'from', day(1));
    await until(() => deepText(panel).includes('No conversation matches the filters.'));
    // The reader's days, as the list shows its times: from the first one's midnight to the
    // midnight after the last (a bare date would be the server's UTC day).
    expectLocalMidnight(listRequests(urls).at(-1)!.get('from'), day(1));
    setDate(panel, 'from', day(-1));
    setDate(panel, 'to', day(0));
    await shows(panel, all);
    expectLocalMidnight(listRequests(urls).at(-1)!.get('from'), day(-1));
    expectLocalMidnight(listRequests(urls).at(-1)!.get('to'), day(1));

    const asked = urls.length;
    setDate(panel, 'from', day(2));
    const alert = await until(() => deep(panel, '#date-error'));
    expect(alert.textContent).to.contain('“From” must not be later than “To”.');
    expect(alert.getAttribute('role')).to.equal('alert');
    const from = deep<HTMLInputElement>(panel, 'input[name=from]')!;
    expect(from.getAttribute('aria-invalid')).to.equal('true');
    expect(from.getAttribute('aria-describedby')).to.equal('date-error');
    // The list of the last good filters stays, and export waits for dates in order.
    expect(shownQuestions(panel)).to.deep.equal(all);
    const exportCsv = deepAll<HTMLButtonElement>(panel, '.export button')[0]!;
    expect(exportCsv.getAttribute('aria-disabled')).to.equal('true');
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(urls.length).to.equal(asked);
    await expect(el).to.be.accessible();

    setDate(panel, 'from', day(0));
    await until(() => !deep(panel, '#date-error'));
    expect(from.getAttribute('aria-invalid')).to.equal('false');
  });

  it("should say a search's and a date range's problem right under its own field, at 360px and 768px", async () => {
    const { client, bot } = await seedConversations();
    const { el, panel } = await mountConversations(client, bot);
    await shows(panel, all);
    const search = deep<HTMLInputElement>(panel, 'input[type=search]')!;
    const from = deep<HTMLInputElement>(panel, 'input[name=from]')!;
    const to = deep<HTMLInputElement>(panel, 'input[name=to]')!;
    type(search, '%%');
    setDate(panel, 'from', day(2));
    setDate(panel, 'to', day(0));
    const said = (input: HTMLInputElement) =>
      panel.shadowRoot!.getElementById(input.getAttribute('aria-describedby') ?? '');
    await until(() => said(search) && said(from));
    expect(said(search)!.textContent).to.contain('Search for a word: letters or digits.');
    expect(said(to)!.textContent).to.contain('“From” must not be later than “To”.');
    const card = deep(panel, 'section')!;
    const controls = deepAll(panel, '.toolbar :is(input, select, button)');
    try {
      for (const width of [360, 768]) {
        await setViewport({ width, height: 800 });
        await until(() => innerWidth === width);
        await new Promise((resolve) => requestAnimationFrame(resolve));
        await unfold(panel);
        const at = `at ${width}px`;
        // Directly below its field (the gap between a label's parts), beside nothing else.
        for (const [field, inputs] of [
          ['search', [search]],
          ['dates', [from, to]],
        ] as const) {
          const message = said(inputs[0])!.getBoundingClientRect();
          const above = inputs.map((input) => input.getBoundingClientRect());
          const bottom = Math.max(...above.map((box) => box.bottom));
          expect(message.top - bottom, `${field} ${at}`).to.be.within(0, 12);
          expect(message.left, `${field} ${at}`).to.be.closeTo(above[0]!.left, 1);
        }
        const box = card.getBoundingClientRect();
        for (const control of controls.filter((c) => c.checkVisibility())) {
          const { left, right } = control.getBoundingClientRect();
          expect(left, `${control.outerHTML.slice(0, 40)} ${at}`).to.be.at.least(box.left);
          expect(right, `${control.outerHTML.slice(0, 40)} ${at}`).to.be.at.most(box.right);
        }
      }
      await expect(el).to.be.accessible();
    } finally {
      await setViewport({ width: 800, height: 600 });
    }
  });

  it('should stack the filters in a narrow column as full lines, From and To sharing one where it holds both', async () => {
    const { client, bot } = await seedConversations();
    const { el, panel } = await mountConversations(client, bot);
    await shows(panel, all);
    const box = (selector: string) => deep<HTMLElement>(panel, selector)!.getBoundingClientRect();
    try {
      // A phone's admin with a dashboard's margins around it (each date a line of its own), and
      // a wider column that holds both dates whole.
      for (const [width, shared] of [
        ['300px', false],
        ['420px', true],
      ] as const) {
        el.style.width = width;
        await new Promise((resolve) => requestAnimationFrame(resolve));
        await unfold(panel);
        // The search shares its line with the Filters button: together they span the column.
        const search = box('input[type=search]');
        const end = box('button.fold').right;
        for (const selector of ['select[name=rating]', 'select[name=test]']) {
          expect(box(selector).left, `${selector} at ${width}`).to.be.closeTo(search.left, 1);
          expect(box(selector).right, `${selector} at ${width}`).to.be.closeTo(end, 1);
        }
        const [from, to] = [box('input[name=from]'), box('input[name=to]')];
        expect(from.left, `From at ${width}`).to.be.closeTo(search.left, 1);
        expect(to.right, `To at ${width}`).to.be.closeTo(end, 1);
        expect(Math.abs(from.top - to.top) < 0.5, `From and To on one line at ${width}`).to.equal(
          shared,
        );
        // Wide enough for a whole date ("mm/dd/yyyy" and the picker's button were cut).
        for (const date of [from, to]) expect(date.width, `a date at ${width}`).to.be.at.least(150);
      }
    } finally {
      el.style.width = '';
    }
  });

  it('should fold all filters but the search behind a Filters button on a phone, which counts those set', async () => {
    const { client, bot } = await seedConversations();
    const { el, panel } = await mountConversations(client, bot);
    await shows(panel, all);
    const fold = deep<HTMLButtonElement>(panel, 'button.fold')!;
    const shown = (selector: string) => deep(panel, selector)!.checkVisibility();
    const folded = [
      'select[name=rating]',
      'select[name=test]',
      'input[name=from]',
      'input[name=error]',
    ];
    try {
      el.style.width = '390px';
      await new Promise((resolve) => requestAnimationFrame(resolve));
      expect(fold.checkVisibility()).to.equal(true);
      expect(fold.ariaExpanded).to.equal('false');
      expect(fold.textContent?.trim()).to.equal('Filters');
      for (const selector of folded) expect(shown(selector), selector).to.equal(false);
      // The list right under the search and its Filters button, not a screen down.
      const search = deep(panel, 'input[type=search]')!.getBoundingClientRect();
      expect(fold.getBoundingClientRect().top).to.be.below(search.bottom);
      const firstRow = deep(panel, '.tbody [role=row]')!.getBoundingClientRect();
      expect(firstRow.top - search.bottom).to.be.below(220);

      fold.click();
      await until(() => fold.ariaExpanded === 'true');
      await el.updateComplete;
      for (const selector of folded) expect(shown(selector), selector).to.equal(true);
      select(panel, 'rating', 'down');
      tick(panel, 'notCovered');
      await shows(panel, [QUESTIONS.uncovered]);
      fold.click();
      await until(() => fold.ariaExpanded === 'false');
      expect(fold.textContent?.trim()).to.equal('Filters (2)');
      expect(shown('select[name=rating]')).to.equal(false);
      // One tap from the filtered list back to all of it.
      const clear = deepAll<HTMLButtonElement>(panel, 'button').find(
        (button) => button.textContent?.trim() === 'Clear filters',
      )!;
      expect(clear.checkVisibility(), 'Clear filters, folded').to.equal(true);
      clear.click();
      await shows(panel, all);
      expect(fold.textContent?.trim()).to.equal('Filters');
      await expect(el).to.be.accessible();

      // Wide, every filter is in view and there is nothing to unfold.
      el.style.width = '1280px';
      await new Promise((resolve) => requestAnimationFrame(resolve));
      expect(fold.checkVisibility()).to.equal(false);
      for (const selector of folded) expect(shown(selector), selector).to.equal(true);
    } finally {
      el.style.width = '';
    }
  });

  it('should line up the filters side by side: their labels, and their controls top and bottom', async () => {
    const { client, bot } = await seedConversations();
    const { panel } = await mountConversations(client, bot);
    await shows(panel, all);
    const controls = [
      'input[type=search]',
      'input[name=from]',
      'input[name=to]',
      'select[name=rating]',
    ].map((selector) => deep<HTMLElement>(panel, selector)!);
    try {
      // Wide enough for the four on one row, as in a dashboard on a laptop.
      await setViewport({ width: 1400, height: 800 });
      await until(() => innerWidth === 1400);
      await new Promise((resolve) => requestAnimationFrame(resolve));
      const boxes = controls.map((control) => control.getBoundingClientRect());
      const labels = controls.map((control) => control.closest('label')!.getBoundingClientRect());
      for (const [i, box] of boxes.entries()) {
        const name = controls[i]!.outerHTML.slice(0, 30);
        expect(box.bottom, name).to.be.closeTo(boxes[0]!.bottom, 0.5);
        expect(box.top, name).to.be.closeTo(boxes[0]!.top, 0.5);
        expect(labels[i]!.top, `${name}'s label`).to.be.closeTo(labels[0]!.top, 0.5);
      }
    } finally {
      await setViewport({ width: 800, height: 600 });
    }
  });

  it('should read the next page by cursor as the list scrolls to the end of those loaded', async () => {
    const { client, urls } = await recordingClient();
    const bot = await newChatbot(client, 'Busy bot');
    const total = 36;
    for (let i = 0; i < total; i++) {
      const session = await client.sessions.create(bot.uuid);
      await client.messages.send(session.uuid, `Question number ${i}`);
    }
    const { panel } = await mountConversations(client, bot);
    panel.pageSize = 5;
    panel.refresh();
    const status = () => deep(panel, 'p[role=status]')?.textContent ?? '';
    // Pages follow one another until the rows on screen (and a margin) are loaded.
    await until(() => /\b(1[5-9]|[2-9]\d) shown, more load as you scroll/.test(status()));
    const body = deep<HTMLElement>(panel, '.tbody')!;
    for (let i = 0; i < 20 && !/^\s*36 shown\s*$/.test(status()); i++) {
      body.scrollTop = body.scrollHeight;
      await new Promise((resolve) => setTimeout(resolve, 60));
    }
    await until(() => /^\s*36 shown\s*$/.test(status()));
    const pages = listRequests(urls).filter((params) => params.get('limit') === '5');
    expect(pages.length).to.equal(Math.ceil(total / 5));
    expect(pages[0]!.get('cursor')).to.equal(null);
    expect(pages.slice(1).every((params) => params.get('cursor'))).to.equal(true);
    expect(deep(panel, '[role=table]')!.getAttribute('aria-rowcount')).to.equal(String(total + 1));
    expect(deep(panel, '.more button')).to.equal(null);
    // Only the rows on screen are in the DOM; scrolled through, each question shows once.
    expect(deepAll(panel, '.tbody [role=row]').length).to.be.below(total);
    const seen = new Set<string>();
    for (let top = 0; top <= body.scrollHeight; top += body.clientHeight / 2) {
      body.scrollTop = top;
      await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 20)));
      for (const question of shownQuestions(panel)) seen.add(question);
    }
    expect(seen.size).to.equal(total);
    const last = deepAll(panel, '.tbody [role=row]').at(-1)!;
    expect(last.getAttribute('aria-rowindex')).to.equal(String(total + 1));
  });
});
