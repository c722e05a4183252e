import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import type { ChatbotAdmin } from '../../src/admin/index.js';
import type { ChatbotClient } from '../../src/api/index.js';
import { type Insights, OWNER_TEST_MEMBER } from '../../src/api/types.js';
import {
  apiClient,
  button,
  deep,
  deepAll,
  mountAdmin,
  newChatbot,
  pickDate,
  type,
  until,
} from './helpers.js';

type Panel = HTMLElement & { updateComplete: Promise<unknown> };

/** The reader's date `offset` days from today. */
const localDay = (offset = 0) => {
  const t = new Date();
  t.setDate(t.getDate() + offset);
  return t.toLocaleDateString('en-CA');
};
/** The instant the reader's day `date` begins, `days` later: a bound as the admin asks for it. */
const localMidnight = (date: string, days = 0) => {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(y, m - 1, d + days).toISOString().replace('.000Z', 'Z');
};

/**
 * A chatbot with two Q&A sources (one never asked about) and two conversations: a covered
 * question rated helpful, an uncovered one rated not helpful, and the uncovered one again in
 * other words, unrated.
 */
async function seeded(client?: ChatbotClient) {
  client ??= await apiClient();
  const bot = await newChatbot(client);
  const ferry = await client.sources.createQa(bot.uuid, {
    question: 'When does the ferry leave?',
    answer: 'The ferry leaves at noon from pier 2.',
  });
  const harbour = await client.sources.createQa(bot.uuid, {
    question: 'Where is the harbour office?',
    answer: 'The harbour office is next to the lighthouse.',
  });
  const first = await client.sessions.create(bot.uuid);
  await client.messages.send(first.uuid, 'When does the ferry leave?');
  await client.messages.send(first.uuid, 'Do you sell umbrellas?');
  const second = await client.sessions.create(bot.uuid);
  await client.messages.send(second.uuid, 'do you sell UMBRELLAS');
  const [covered, uncovered] = await client.messages.list(first.uuid);
  await client.messages.feedback(covered!.uuid, { rating: 'up' });
  await client.messages.feedback(uncovered!.uuid, { rating: 'down', reason: 'wrong' });
  return { client, bot, ferry, harbour };
}

/** The uncovered question answered by a Q&A, then asked again: covered the third time. */
async function askAgainAnswered(client: ChatbotClient, bot: { uuid: string }) {
  const qa = await client.sources.createQa(bot.uuid, {
    question: 'Do you sell umbrellas?',
    answer: 'We sell umbrellas at the kiosk on pier 2.',
  });
  // Indexed in the background: asked before, it would not be found.
  await until(async () =>
    (await client.sources.list(bot.uuid)).some((s) => s.uuid === qa.uuid && s.status === 'success'),
  );
  // Times are stored to the second: a second later, this asking is the latest.
  await new Promise((resolve) => setTimeout(resolve, 1100));
  const session = await client.sessions.create(bot.uuid);
  await client.messages.send(session.uuid, 'Do you sell umbrellas?');
}

/** A client that records the insights requests it makes. */
async function recordingClient() {
  const asked: URL[] = [];
  const client = await apiClient((input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.pathname.endsWith('/insights')) asked.push(url);
    return fetch(input, init);
  });
  return { client, asked };
}

async function openInsights(client: ChatbotClient, bot: { uuid: string }) {
  const el = await mountAdmin(client, bot as never, 'insights');
  const panel = await until(() => deep<Panel>(el, 'chatbot-admin-insights'));
  await until(() => deep(panel, 'dl.stats'));
  return { el, panel };
}

/** Each total's label with the number shown under it. */
const totals = (panel: Element) =>
  Object.fromEntries(
    deepAll(panel, '.stat').map((stat) => [
      stat.querySelector('dt')!.textContent!.trim(),
      stat.querySelector('.value')!.textContent!.trim(),
    ]),
  );

/** The text of every cell of a table, row by row. */
const cells = (table: Element) =>
  [...table.querySelectorAll('tbody tr')].map((row) =>
    [...row.children].map((cell) => cell.textContent!.replace(/\s+/g, ' ').trim()),
  );

describe('<chatbot-admin> insights', () => {
  afterEach(() => history.replaceState(null, '', location.pathname + location.search));

  it('should show the numbers the server counted: totals, per day, questions, gaps and sources', async () => {
    const { client, bot } = await seeded();
    const answer = await client.review.insights(bot.uuid);
    expect(answer.totals).to.include({
      conversations: 2,
      messages: 3,
      not_covered: 2,
      up: 1,
      down: 1,
    });
    const { el, panel } = await openInsights(client, bot);

    expect(totals(panel)).to.deep.equal({
      Conversations: '2',
      Messages: '3',
      'Not covered by sources': '67%',
      Helpful: '1',
      'Not helpful': '1',
      'Escalated to a human': '0',
      'Failed answers': '0',
    });
    expect(deep(panel, '.stat .detail')!.textContent).to.contain('2 of 3 answers');

    // Every day of the last 30, today last with the traffic.
    const perDay = cells(deep(panel, 'figure table')!);
    expect(perDay).to.have.length(30);
    expect(perDay.at(-1)!.slice(1)).to.deep.equal(['2', '3']);
    expect(perDay.slice(0, -1).every(([, c, m]) => c === '0' && m === '0')).to.equal(true);
    expect(deep(panel, 'figcaption')!.textContent).to.contain('Conversations and messages per day');

    const top = cells(deep(panel, 'table[aria-labelledby=top-heading]')!);
    expect(top).to.deep.equal(
      answer.top_questions.map((q) => [
        q.question,
        String(q.count),
        q.covered ? 'Covered' : 'Not covered',
      ]),
    );
    expect(top.map(([, count, covered]) => [count, covered])).to.deep.equal([
      ['2', 'Not covered'],
      ['1', 'Covered'],
    ]);

    const gaps = cells(deep(panel, 'table[aria-labelledby=gaps-heading]')!);
    expect(gaps.map(([question, count]) => [question, count])).to.deep.equal([
      [answer.gaps[0]!.question, '2'],
    ]);
    expect(gaps[0]![0]!.toLowerCase()).to.contain('umbrellas');

    expect(cells(deep(panel, 'table[aria-labelledby=cited-heading]')!)).to.deep.equal([
      ['When does the ferry leave?', '1'],
    ]);
    expect(deepAll(panel, 'ul.never li').map((li) => li.textContent)).to.deep.equal([
      'Where is the harbour office?',
    ]);
    await expect(el).to.be.accessible();
  });

  it("should leave the owner's tests in Try it out of every figure, and say so", async () => {
    const { client, bot } = await seeded();
    const tried = await client.sessions.create(bot.uuid, { [OWNER_TEST_MEMBER]: true });
    await client.messages.send(tried.uuid, 'Do you sell umbrellas?');
    await client.messages.send(tried.uuid, 'Is there a night ferry?');
    const { el, panel } = await openInsights(client, bot);
    expect(totals(panel)).to.include({ Conversations: '2', Messages: '3' });
    const gaps = cells(deep(panel, 'table[aria-labelledby=gaps-heading]')!);
    expect(gaps.map(([, count]) => count)).to.deep.equal(['2']);
    expect(deep(panel, 'p.tests')!.textContent).to.equal(
      "These figures leave out the owner's tests in Try it.",
    );
    await expect(el).to.be.accessible();
  });

  it('should show the chart as a table on "Show as table", and always to screen readers', async () => {
    const { client, bot } = await seeded();
    const { el, panel } = await openInsights(client, bot);
    const toggle = button(panel, 'Show as table')!;
    const tableView = () => deep(panel, '#per-day-table')!;
    expect(toggle.getAttribute('aria-pressed')).to.equal('false');
    const look = () => {
      const style = getComputedStyle(toggle);
      return `${style.backgroundColor} ${style.borderColor}`;
    };
    const unpressed = look();
    expect(deep(panel, 'figure svg.plot')!.getAttribute('aria-hidden')).to.equal('true');
    // Read by screen readers, not drawn.
    expect(tableView().className).to.equal('visually-hidden');
    expect(deep(panel, 'figure table')!.getAttribute('aria-labelledby')).to.equal(
      'per-day-caption',
    );

    toggle.click();
    await until(() => toggle.getAttribute('aria-pressed') === 'true');
    // Pressed shows as pressed, not only to a screen reader: the same label brings the chart back.
    expect(look()).to.not.equal(unpressed);
    expect(tableView().className).to.equal('table-view');
    expect(tableView().getBoundingClientRect().height).to.be.greaterThan(20);
    expect(deep(panel, 'figure svg.plot')).to.equal(null);
    await expect(el).to.be.accessible();

    toggle.click();
    await until(() => deep(panel, 'figure svg.plot'));
    expect(deepAll(panel, 'figure svg.plot rect.bar')).to.have.length(30);
  });

  it('should draw in the theme: the accent property and dark mode reach the chart', async () => {
    const { client, bot } = await seeded();
    const { el, panel } = await openInsights(client, bot);
    const bar = () => getComputedStyle(deep(panel, 'rect.bar')!).fill;
    const line = () => getComputedStyle(deep(panel, 'polyline.line')!).stroke;
    el.style.setProperty('--chatbot-accent', 'rgb(1, 2, 3)');
    expect(bar()).to.equal('rgb(1, 2, 3)');
    el.style.removeProperty('--chatbot-accent');
    el.setAttribute('theme', 'dark');
    expect(bar()).to.equal('rgb(96, 165, 250)');
    expect(line()).to.equal('rgb(249, 250, 251)');
    el.setAttribute('theme', 'light');
    expect(line()).to.equal('rgb(17, 24, 39)');
  });

  it('should ask again when the period changes, and not for a range that ends before it starts', async () => {
    const recording = await recordingClient();
    const { bot } = await seeded(recording.client);
    const { panel } = await openInsights(recording.client, bot);
    const today = localDay();
    const last = () => recording.asked.at(-1)!.searchParams;
    // The reader's days, counted in the reader's zone: from the first one's midnight to the
    // midnight after today.
    expect(last().get('from')).to.equal(localMidnight(localDay(-29)));
    expect(last().get('to')).to.equal(localMidnight(today, 1));
    expect(last().get('tz')).to.equal(Intl.DateTimeFormat().resolvedOptions().timeZone);

    deep<HTMLInputElement>(panel, 'input[type=radio][value="7"]')!.click();
    await until(() => recording.asked.length === 2);
    expect(last().get('from')).to.equal(localMidnight(localDay(-6)));
    expect(last().get('to')).to.equal(localMidnight(today, 1));
    await until(() => deepAll(panel, 'figure table tbody tr').length === 7);

    // A range starts as the period on screen: nothing new to ask.
    deep<HTMLInputElement>(panel, 'input[type=radio][value=custom]')!.click();
    const from = await until(() => deep<HTMLInputElement>(panel, 'input[name=from]'));
    const to = deep<HTMLInputElement>(panel, 'input[name=to]')!;
    expect(from.value).to.equal(localDay(-6));
    expect(to.value).to.equal(today);

    pickDate(from, '2030-01-10');
    pickDate(to, '2030-01-05');
    const message = await until(() => deep(panel, '#range-error'));
    expect(message.textContent).to.contain('“From” must not be later than “To”.');
    expect(message.getAttribute('role')).to.equal('alert');
    expect(from.getAttribute('aria-invalid')).to.equal('true');
    expect(from.getAttribute('aria-describedby')).to.equal('range-error');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(recording.asked).to.have.length(2);

    pickDate(from, '2030-01-01');
    await until(() => recording.asked.length === 3);
    expect(last().get('from')).to.equal(localMidnight('2030-01-01'));
    expect(last().get('to')).to.equal(localMidnight('2030-01-05', 1));
    await until(() => deep(panel, '#range-error') === null);
    await until(() => deepAll(panel, 'figure table tbody tr').length === 5);
    expect(totals(panel).Conversations).to.equal('0');

    // More days than the server takes: said beside the dates, nothing asked; a leap year fits.
    pickDate(from, '2028-01-01');
    pickDate(to, '2029-01-01');
    const tooLong = await until(() => deep(panel, '#range-error'));
    expect(tooLong.textContent).to.contain('At most 366 days');
    expect(to.getAttribute('aria-invalid')).to.equal('true');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(recording.asked).to.have.length(3);
    pickDate(to, '2028-12-31');
    await until(() => recording.asked.length === 4);
    await until(() => deep(panel, '#range-error') === null);
  });

  it('should fit every table in its card on a phone, each gap’s Add as Q&A in view', async () => {
    const { client, bot } = await seeded();
    const { el, panel } = await openInsights(client, bot);
    await until(() => deepAll(panel, 'button').some((b) => b.textContent?.trim() === 'Add as Q&A'));
    el.style.width = '320px';
    await new Promise((resolve) => requestAnimationFrame(resolve));
    for (const card of deepAll(panel, 'section.card')) {
      const box = card.getBoundingClientRect();
      for (const table of card.querySelectorAll<HTMLElement>('table.simple')) {
        // The chart's own table scrolls in its frame (or is for screen readers only).
        if (table.closest('.visually-hidden, .table-view')) continue;
        expect(
          table.getBoundingClientRect().right,
          card.querySelector('h3')?.textContent ?? '',
        ).to.be.at.most(box.right);
      }
      for (const add of card.querySelectorAll('td button')) {
        expect(add.getBoundingClientRect().right, add.textContent!).to.be.at.most(box.right);
        // Wrapped at most once ("Add as" over "Q&A"), not a word a line.
        const words = document.createRange();
        words.selectNodeContents(add);
        const lines = new Set([...words.getClientRects()].map((r) => Math.round(r.top)));
        expect(lines.size, `${add.textContent!.trim()}: lines`).to.be.at.most(2);
      }
    }
    // The chart is drawn at the width it has: its numbers and days keep their size (11 px).
    const tick = () => deep(panel, 'svg.plot text.tick')!.getBoundingClientRect().height;
    await until(() => tick() >= 11);
    const plot = deep(panel, 'svg.plot')!;
    expect(plot.getBoundingClientRect().right).to.be.at.most(
      plot.closest('section.card')!.getBoundingClientRect().right,
    );
    el.style.width = '';
  });

  it('should set the totals two to a row on a phone, each whole in its card, no word broken', async () => {
    const { client, bot } = await seeded();
    const { el, panel } = await openInsights(client, bot);
    await until(() => deepAll(panel, '.stat').length === 7);
    for (const [lang, width] of ['en', 'de'].flatMap((l) =>
      ['320px', '390px'].map((w) => [l, w] as const),
    )) {
      el.lang = lang;
      el.style.width = width;
      if (lang === 'de') await until(() => deep(panel, '.stat dt')?.textContent === 'Gespräche');
      await el.updateComplete;
      await new Promise((resolve) => requestAnimationFrame(resolve));
      const stats = deepAll(panel, '.stat');
      const rows = new Set(stats.map((stat) => Math.round(stat.getBoundingClientRect().top)));
      // One to a row, the seven took more than a phone's screen.
      expect(rows.size, `rows at ${width} (${lang})`).to.equal(4);
      for (const stat of stats) {
        const label = stat.querySelector('dt')!;
        expect(stat.scrollWidth, label.textContent!).to.be.at.most(stat.clientWidth);
        // A word split over two lines ("Fehlgeschlage" over "ne") draws in two boxes.
        const text = [...label.childNodes].find((node) => node.nodeType === Node.TEXT_NODE)!;
        for (const word of text.textContent!.matchAll(/\S+/g)) {
          const range = document.createRange();
          range.setStart(text, word.index);
          range.setEnd(text, word.index + word[0].length);
          const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
          expect(lines.size, `${word[0]} at ${width} (${lang})`).to.equal(1);
        }
      }
    }
    el.style.width = '';
  });

  it('should clamp a long question to a few lines, keep "Add as Q&A" on one line and the day table in its card', async () => {
    const { client, bot } = await seeded();
    const long = `Do you sell ${'very '.repeat(1000)}large umbrellas?`;
    const session = await client.sessions.create(bot.uuid);
    await client.messages.send(session.uuid, long);
    const { el, panel } = await openInsights(client, bot);
    const cellsOf = () =>
      deepAll(panel, 'table.simple td.user-text').filter((td) => td.textContent?.trim() === long);
    // In the questions asked most and in the knowledge gaps.
    await until(() => cellsOf().length === 2);
    for (const width of [1280, 320]) {
      el.style.width = `${width}px`;
      await new Promise((resolve) => requestAnimationFrame(resolve));
      const lineHeight = parseFloat(getComputedStyle(cellsOf()[0]!).lineHeight) || 20;
      for (const cell of cellsOf()) {
        expect(cell.getBoundingClientRect().height, `at ${width}px`).to.be.below(6 * lineHeight);
        // Whole on hover and for screen readers.
        expect(cell.querySelector('[title]')?.getAttribute('title')).to.equal(long);
      }
    }
    el.style.width = '1280px';
    await new Promise((resolve) => requestAnimationFrame(resolve));
    const show = button(panel, 'Show as table')!;
    for (const add of deepAll(panel, 'td button')) {
      // One line: as tall as another one-line button.
      expect(add.getBoundingClientRect().height, add.textContent!).to.be.at.most(
        show.getBoundingClientRect().height + 1,
      );
    }
    show.click();
    const view = await until(() => deep(panel, '.table-view'));
    for (const [lang, width] of ['en', 'de'].flatMap((l) =>
      [320, 240].map((w) => [l, w] as const),
    )) {
      el.lang = lang;
      el.style.width = `${width}px`;
      await el.updateComplete;
      await new Promise((resolve) => requestAnimationFrame(resolve));
      const frame = view.getBoundingClientRect();
      const card = view.closest('section.card')!.getBoundingClientRect();
      expect(frame.right, `the day table's frame in its card at ${width}px`).to.be.at.most(
        card.right,
      );
      // Messages, the last column: in view on a phone (inside a scrollbar too), or narrower
      // still, a scroll away inside the table's own frame.
      const last = view.querySelector('thead th:last-child')!;
      const inView = frame.left + view.clientLeft + view.clientWidth;
      const fits = last.getBoundingClientRect().right <= inView;
      const scrolls =
        view.scrollWidth > view.clientWidth && getComputedStyle(view).overflowX === 'auto';
      const what = `${last.textContent} at ${width}px (${lang})`;
      if (width >= 320) expect(fits, what).to.equal(true);
      else expect(fits || scrolls, what).to.equal(true);
    }
    el.style.width = '';
  });

  it('should turn a knowledge gap into a Q&A source, the question prefilled and the answer written', async () => {
    const { client, bot } = await seeded();
    const { el, panel } = await openInsights(client, bot);
    const gap = (await client.review.insights(bot.uuid)).gaps[0]!.question;
    button(panel, `Add as Q&A: ${gap}`)!.click();
    const form = await until(() => deep<HTMLFormElement>(panel, 'form.qa-form'));
    const question = form.querySelector<HTMLInputElement>('[name=question]')!;
    const answer = form.querySelector<HTMLTextAreaElement>('[name=answer]')!;
    expect(question.value).to.equal(gap);
    expect(answer.value).to.equal('');
    // Nothing to correct: the help asks for the answer to be written.
    expect(form.querySelector('#qa-form-help')!.textContent).to.contain(
      'Write the answer visitors should get to this question',
    );
    await expect(el).to.be.accessible();

    type(answer, 'We sell umbrellas at the kiosk on pier 2.');
    const changed = oneEvent(el, 'chatbot-admin-change');
    form.querySelector<HTMLButtonElement>('button[type=submit]')!.click();
    expect((await changed).detail).to.include({ kind: 'source', action: 'create' });
    await until(() => deep(panel, '.qa-form [role=status]'));

    const sources = await client.sources.list(bot.uuid);
    const added = sources.find((s) => s.type === 'qa' && s.title === gap);
    expect(added, 'a Q&A source titled with the question').to.not.equal(undefined);
    // Said once, in the form that added it, not beside it in the row as well.
    const said = () =>
      deepAll(panel, 'table[aria-labelledby=gaps-heading] *').filter(
        (node) =>
          node.childElementCount === 0 && node.textContent?.trim() === 'Added as a Q&A source.',
      );
    expect(said()).to.have.length(1);
    button(panel, 'Close')!.click();
    await until(() => deep(panel, 'form.qa-form, .qa-form') === null);
    const row = deepAll(panel, 'table[aria-labelledby=gaps-heading] tbody tr')[0]!;
    expect(row.textContent).to.contain('Added as a Q&A source.');
    expect(said()).to.have.length(1);
  });

  it('should show a gap the sources answer now as answered, without Add as Q&A, after a reload too', async () => {
    const { client, bot } = await seeded();
    const first = await openInsights(client, bot);
    const gap = (await client.review.insights(bot.uuid)).gaps[0]!.question;
    button(first.panel, `Add as Q&A: ${gap}`)!.click();
    const form = await until(() => deep<HTMLFormElement>(first.panel, 'form.qa-form'));
    type(form.querySelector('[name=answer]')!, 'We sell umbrellas at the kiosk on pier 2.');
    form.querySelector<HTMLButtonElement>('button[type=submit]')!.click();
    await until(() => deep(first.panel, '.qa-form [role=status]'));
    first.el.remove();

    // The page again, as after a reload: the gap stays in its period, answered.
    const { el, panel } = await openInsights(client, bot);
    const row = await until(() =>
      deepAll(panel, 'table[aria-labelledby=gaps-heading] tbody tr').find((tr) =>
        tr.textContent?.includes(gap),
      ),
    );
    await until(() => row.textContent?.includes('Answered now'));
    expect(row.querySelector('button')).to.equal(null);
    expect(button(panel, `Add as Q&A: ${gap}`)).to.equal(null);
    await expect(el).to.be.accessible();
    el.lang = 'de';
    await until(() =>
      deepAll(panel, 'table[aria-labelledby=gaps-heading] tbody tr').some((tr) =>
        tr.textContent?.includes('Jetzt beantwortet'),
      ),
    );
  });

  it('should say how often a question asked most went uncovered when its latest answer was covered', async () => {
    const { client, bot } = await seeded();
    await askAgainAnswered(client, bot);
    const { el, panel } = await openInsights(client, bot);
    const top = cells(deep(panel, 'table[aria-labelledby=top-heading]')!);
    expect(top[0]).to.deep.equal([
      'Do you sell umbrellas?',
      '3',
      'Covered last time · 2 of 3 not covered',
    ]);
    // Narrow, the words wrap: the table stays in its card, the question keeps its width.
    const table = deep(panel, 'table[aria-labelledby=top-heading]')!;
    for (const width of [400, 320]) {
      el.style.width = `${width}px`;
      await new Promise((resolve) => requestAnimationFrame(resolve));
      const card = table.closest('section.card')!.getBoundingClientRect();
      expect(table.getBoundingClientRect().right, `at ${width}px`).to.be.at.most(card.right);
      const question = table.querySelector('tbody td')!.getBoundingClientRect();
      const coverage = table.querySelector('tbody td.covered')!.getBoundingClientRect();
      expect(question.width, `the question at ${width}px`).to.be.at.least(coverage.width / 2);
    }
    el.style.width = '';
    el.lang = 'de';
    await until(
      () =>
        cells(deep(panel, 'table[aria-labelledby=top-heading]')!)[0]![2] ===
        'Zuletzt abgedeckt · 2 von 3 nicht abgedeckt',
    );
  });

  it("should close a knowledge gap's Q&A form on Escape, giving focus back to its button", async () => {
    const { client, bot } = await seeded();
    const { panel } = await openInsights(client, bot);
    const gap = (await client.review.insights(bot.uuid)).gaps[0]!.question;
    const add = await until(() => button(panel, `Add as Q&A: ${gap}`));
    add.focus();
    add.click();
    const form = await until(() => deep<HTMLFormElement>(panel, 'form.qa-form'));
    await until(() => panel.shadowRoot!.activeElement === form.querySelector('[name=answer]'));
    await sendKeys({ press: 'Escape' });
    await until(() => deep(panel, '.qa-form') === null);
    await until(() => panel.shadowRoot!.activeElement === add);
    expect((await client.sources.list(bot.uuid)).length).to.equal(2);
  });

  it('should set an Arabic knowledge gap right to left', async () => {
    const client = await apiClient();
    const bot = await newChatbot(client);
    const question = 'هل تبيعون المظلات؟';
    const session = await client.sessions.create(bot.uuid);
    await client.messages.send(session.uuid, question);
    const { panel } = await openInsights(client, bot);
    const cell = await until(() =>
      deepAll(panel, 'table[aria-labelledby=gaps-heading] tbody td').find((td) =>
        td.textContent?.includes(question),
      ),
    );
    expect(getComputedStyle(cell).direction).to.equal('rtl');
  });
});

describe('<chatbot-admin> insights against a server without the route', () => {
  afterEach(() => history.replaceState(null, '', location.pathname + location.search));

  /** The real server, except that the insights route answers `status` as the hosted one may. */
  async function withoutInsights(status: number) {
    return await apiClient((input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      if (url.pathname.endsWith('/insights')) {
        return Promise.resolve(new Response('Not Found', { status }));
      }
      return fetch(input, init);
    });
  }

  const tabNames = (el: ChatbotAdmin) => deepAll(el, '[role=tab]').map((t) => t.id);

  it('should count UTC days and show the gaps and questions as before, against a server from before tz, answered_now, not_covered and test', async () => {
    const asked: URL[] = [];
    const client = await apiClient(async (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      if (!url.pathname.endsWith('/insights')) return fetch(input, init);
      asked.push(url);
      if (url.searchParams.has('tz')) {
        const error = {
          code: 'invalid_input',
          message: 'tz is not a parameter of this endpoint (it takes from, to)',
        };
        return Response.json({ error }, { status: 400 });
      }
      const insights = (await (await fetch(input, init)).json()) as Insights;
      delete insights.test;
      for (const gap of insights.gaps) delete gap.answered_now;
      for (const question of insights.top_questions) delete question.not_covered;
      return Response.json(insights);
    });
    const { bot } = await seeded(client);
    await askAgainAnswered(client, bot);
    const { panel } = await openInsights(client, bot);
    expect(asked.map((url) => url.searchParams.has('tz'))).to.deep.equal([true, false]);
    // As it always asked: the dates themselves, which that server reads as UTC days.
    expect(asked[1]!.searchParams.get('from')).to.match(/^\d{4}-\d{2}-\d{2}$/);
    expect(cells(deep(panel, 'table[aria-labelledby=top-heading]')!)[0]).to.deep.equal([
      'Do you sell umbrellas?',
      '3',
      'Covered',
    ]);
    // The gap the Q&A closed still offers Add as Q&A: that server does not say it is answered.
    const gap = (await (await apiClient()).review.insights(bot.uuid)).gaps[0]!.question;
    expect(button(panel, `Add as Q&A: ${gap}`)).to.not.equal(null);
    // The choice of period keeps to UTC days from then on, without asking with tz again.
    deep<HTMLInputElement>(panel, 'input[type=radio][value="7"]')!.click();
    await until(() => asked.length === 3);
    expect(asked[2]!.searchParams.has('tz')).to.equal(false);
    expect(deep(panel, '[role=alert]')).to.equal(null);
    // It counts the owner's tests with the rest: no line says otherwise.
    expect(deep(panel, 'p.tests')).to.equal(null);
  });

  for (const status of [404, 405]) {
    it(`should hide the Insights tab for the element's life after a ${status}, quietly`, async () => {
      const client = await withoutInsights(status);
      const bot = await newChatbot(client);
      const other = await newChatbot(client);
      const logged: unknown[] = [];
      const originals = { error: console.error, warn: console.warn, log: console.log };
      for (const name of ['error', 'warn', 'log'] as const) {
        console[name] = (...args: unknown[]) => logged.push(args);
      }
      try {
        const el = await mountAdmin(client, bot, 'sessions');
        expect(tabNames(el)).to.include('tab-insights');
        deep<HTMLButtonElement>(el, '#tab-insights')!.click();
        await until(() => !tabNames(el).includes('tab-insights'));
        // Back where the owner came from, with the rest working.
        expect(deep(el, '[role=tab][aria-selected=true]')!.id).to.equal('tab-sessions');
        expect(location.hash).to.contain('tab=sessions');
        expect(deep(el, '#panel-insights')).to.equal(null);
        expect(deep(el, '#panel-sessions [role=alert]')).to.equal(null);
        // The arrow keys skip it.
        deep(el, '#tab-sessions')!.dispatchEvent(
          new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true, composed: true }),
        );
        await until(() => deep(el, '#tab-settings')?.getAttribute('aria-selected') === 'true');

        // Another chatbot does not bring it back.
        const names = deepAll(el, 'nav button .name');
        names
          .find((n) => n.textContent === other.name)!
          .closest('button')!
          .click();
        await until(() => deep(el, 'h2.user-text')?.textContent === other.name);
        expect(tabNames(el)).to.not.include('tab-insights');
        await expect(el).to.be.accessible();
      } finally {
        Object.assign(console, originals);
      }
      expect(logged).to.deep.equal([]);
    });
  }

  it('should land on Conversations when a link opens Insights on such a server', async () => {
    const client = await withoutInsights(404);
    const bot = await newChatbot(client);
    location.hash = `chatbot=${bot.uuid}&tab=insights`;
    const el = await fixture<ChatbotAdmin>(html`<chatbot-admin .client=${client}></chatbot-admin>`);
    await until(() => deep(el, '[role=tab][aria-selected=true]')?.id === 'tab-sessions');
    expect(tabNames(el)).to.not.include('tab-insights');
    await until(() => deep(el, '#panel-sessions'));
  });
});
