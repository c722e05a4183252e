import { expect, oneEvent } from '@open-wc/testing';
import { sendKeys, setViewport } from '@web/test-runner-commands';
import type { ChatbotClient } from '../../src/api/index.js';
import type { DataSource } from '../../src/api/types.js';
import {
  apiClient,
  button,
  confirmDialog,
  deep,
  deepAll,
  holdingClient,
  loaded,
  mountAdmin,
  newChatbot,
  slowListClient,
  type,
  until,
} from './helpers.js';

type Panel = HTMLElement & { updateComplete: Promise<unknown>; refresh(): void; polling: boolean };

async function sourcesPanel(client?: ChatbotClient) {
  const real = await apiClient();
  const bot = await newChatbot(real);
  const el = await mountAdmin(client ?? real, bot, 'sources');
  const panel = await until(() => deep<Panel>(el, 'chatbot-admin-sources'));
  const add = await until(() => deep<Panel>(panel, 'chatbot-admin-source-add'));
  return { client: real, bot, el, panel, add };
}

/** The rendered rows. Only rows on screen are rendered, so the table is brought into view. */
function rows(panel: Element) {
  const body = deep(panel, '.tbody');
  if (body) {
    const { top, bottom } = body.getBoundingClientRect();
    if (top < 0 || bottom > innerHeight) body.scrollIntoView({ block: 'start' });
  }
  return deepAll(panel, '.tbody [role=row]');
}
/** Titles in table order, by row index. */
const titles = (panel: Element) =>
  rows(panel)
    .sort(
      (a, b) => Number(a.getAttribute('aria-rowindex')) - Number(b.getAttribute('aria-rowindex')),
    )
    .map((r) => r.querySelector('.title')!.textContent);
const rowOf = (panel: Element, title: string) =>
  until(() => rows(panel).find((r) => r.querySelector('.title')?.textContent === title));

function select(panel: Element, label: string, value: string) {
  const field = deepAll<HTMLLabelElement>(panel, '.toolbar label')
    .find((l) => l.textContent?.includes(label))!
    .querySelector('select')!;
  field.value = value;
  field.dispatchEvent(new Event('change'));
}

/** Fills the add panel's Q&A form and submits it; returns the form. */
async function submitQa(add: Element, question: string, answer: string) {
  const form = await until(() => deep<HTMLFormElement>(add, 'form[aria-labelledby=qa-heading]'));
  type(form.querySelector('input[name=question]')!, question);
  type(form.querySelector('textarea[name=answer]')!, answer);
  button(form, 'Add Q&A')!.click();
  return form;
}

const pageUrl = (name = 'page.html') => new URL(`fixtures/${name}`, import.meta.url).href;

describe('<chatbot-admin> data sources', () => {
  afterEach(() => history.replaceState(null, '', location.pathname + location.search));

  it('should add a Q&A pair, show it in the table as text, and be accessible', async () => {
    const { client, bot, el, panel, add } = await sourcesPanel();
    const form = await submitQa(add, 'Is <b>parking</b> free?', 'Yes, after six.');
    await until(() => form.querySelector<HTMLInputElement>('input[name=question]')!.value === '');
    const [stored] = await client.sources.list(bot.uuid);
    expect(stored!.type).to.equal('qa');
    // Whatever title the server derives, markup in it is shown as text.
    const row = await rowOf(panel, stored!.title);
    expect(stored!.title).to.contain('<b');
    expect(row.querySelector('b')).to.equal(null);
    await expect(el).to.be.accessible();
  });

  it('should keep the Q&A form as typed when adding fails', async () => {
    const { client, bot, add } = await sourcesPanel();
    await client.chatbots.delete(bot.uuid);
    const form = await submitQa(add, 'Kept question', 'Kept answer');
    await until(() => form.querySelector('[role=alert]'));
    expect(form.querySelector<HTMLInputElement>('input[name=question]')!.value).to.equal(
      'Kept question',
    );
    expect(form.querySelector<HTMLTextAreaElement>('textarea[name=answer]')!.value).to.equal(
      'Kept answer',
    );
  });

  it('should say beside each blank Q&A field what it needs, focus the first, and clear each message once filled', async () => {
    const { client, bot, el, add } = await sourcesPanel();
    const form = await until(() => deep<HTMLFormElement>(add, 'form[aria-labelledby=qa-heading]'));
    const question = form.querySelector<HTMLInputElement>('input[name=question]')!;
    const answer = form.querySelector<HTMLTextAreaElement>('textarea[name=answer]')!;
    const message = (field: Element) => {
      const id = field.getAttribute('aria-describedby');
      return id ? add.shadowRoot!.getElementById(id)?.textContent?.trim() : undefined;
    };
    // Untouched fields are not wrong yet.
    expect(question.getAttribute('aria-invalid')).to.equal('false');

    button(form, 'Add Q&A')!.click();
    await until(() => question.getAttribute('aria-invalid') === 'true');
    expect(message(question)).to.equal('Enter a question.');
    expect(answer.getAttribute('aria-invalid')).to.equal('true');
    expect(message(answer)).to.equal('Enter an answer.');
    expect(add.shadowRoot!.activeElement === question).to.equal(true);
    await expect(el).to.be.accessible();

    type(answer, 'Kept answer');
    await until(() => answer.getAttribute('aria-invalid') === 'false');
    expect(message(answer)).to.equal(undefined);
    expect(message(question)).to.equal('Enter a question.');
    button(form, 'Add Q&A')!.click();
    await until(() => add.shadowRoot!.activeElement === question);
    expect(answer.value).to.equal('Kept answer');
    expect(await client.sources.list(bot.uuid)).to.deep.equal([]);

    el.setAttribute('lang', 'de');
    await until(() => message(question) === 'Geben Sie eine Frage ein.');
    type(question, 'Kept question');
    await until(() => question.getAttribute('aria-invalid') === 'false');
    expect(form.querySelectorAll('.error').length).to.equal(0);
  });

  it('should refresh statuses by itself until every source has settled', async () => {
    const { panel, add } = await sourcesPanel();
    await submitQa(add, 'When is low tide?', 'At noon.');
    const row = await rowOf(panel, 'When is low tide?');
    expect(panel.polling).to.equal(true);
    await until(() => row.isConnected && row.textContent?.includes('Succeeded'));
    await until(() => !panel.polling);
  });

  it('should keep a source added while an older list is still on its way', async () => {
    const slow = await slowListClient('/data-sources');
    const { client, bot, panel, add } = await sourcesPanel(slow.client);
    const held = slow.hold();
    panel.refresh();
    await held;
    const form = await submitQa(add, 'When does the last ferry leave?', 'At eleven.');
    await until(() => form.querySelector<HTMLInputElement>('input[name=question]')!.value === '');
    const [stored] = await client.sources.list(bot.uuid);
    await rowOf(panel, stored!.title);

    slow.release();
    await loaded(panel, 'sourcesTask');
    expect(rows(panel).map((r) => r.querySelector('.title')?.textContent)).to.deep.equal([
      stored!.title,
    ]);
  });

  it('should upload several files at once, each with its own progress and its own error', async () => {
    const { client, bot, panel, add } = await sourcesPanel();
    const input = await until(() => deep<HTMLInputElement>(add, 'input[type=file]'));
    const transfer = new DataTransfer();
    transfer.items.add(
      new File(['Ferries leave every hour.'], 'ferries.txt', { type: 'text/plain' }),
    );
    transfer.items.add(
      new File(['# Tickets\nBuy them on board.'], 'tickets.md', { type: 'text/markdown' }),
    );
    transfer.items.add(
      new File([new Uint8Array([0, 1, 2])], 'virus.exe', { type: 'application/octet-stream' }),
    );
    input.files = transfer.files;
    input.dispatchEvent(new Event('change'));
    await until(() => deepAll(add, '.uploads li').length === 3);
    expect(deepAll(add, '.uploads progress').length).to.be.greaterThan(0);
    const failed = await until(() =>
      deepAll(add, '.uploads li').find((li) => li.querySelector('.failed')),
    );
    expect(failed.textContent).to.contain('virus.exe');
    expect(failed.textContent).to.contain('file type not allowed');
    await until(() => deepAll(add, '.uploads .done').length === 2);
    await rowOf(
      panel,
      (await client.sources.list(bot.uuid)).find((s) => s.file_name === 'ferries.txt')!.title,
    );
    expect((await client.sources.list(bot.uuid)).map((s) => s.file_name).sort()).to.deep.equal([
      'ferries.txt',
      'tickets.md',
    ]);
  });

  it('should name every failed upload, its reason on a line of its own below, until it is dismissed', async () => {
    const { el, add } = await sourcesPanel();
    const zone = await until(() => deep(add, '[part=dropzone]'));
    const transfer = new DataTransfer();
    const names = ['quarterly-report-final.exe', 'photo.png'];
    transfer.items.add(new File(['MZ'], names[0]!));
    transfer.items.add(new File(['x'], names[1]!, { type: 'image/png' }));
    zone.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, cancelable: true }));
    const items = () => deepAll(add, '.uploads li');
    await until(() => items().length === 2 && items().every((li) => li.querySelector('.failed')));
    for (const [i, li] of items().entries()) {
      const name = li.querySelector<HTMLElement>('.file-name')!;
      const reason = li.querySelector<HTMLElement>('.failed')!;
      expect(name.textContent).to.equal(names[i]);
      expect(name.title).to.equal(names[i]);
      // The name keeps its room beside a reason of any length, which goes on a line below it.
      expect(name.getBoundingClientRect().width, names[i]).to.be.at.least(
        Math.min(name.scrollWidth, 40),
      );
      expect(reason.textContent).to.contain('file type not allowed');
      expect(reason.getBoundingClientRect().top).to.be.at.least(
        name.getBoundingClientRect().bottom - 1,
      );
      expect(reason.getBoundingClientRect().right).to.be.at.most(
        li.getBoundingClientRect().right + 1,
      );
    }
    await expect(el).to.be.accessible();

    // Each goes with its own Dismiss button; focus moves on to the next one, then to the picker.
    const first = button(add, `Dismiss ${names[0]}`)!;
    expect(first.textContent!.trim()).to.equal('Dismiss');
    first.focus();
    first.click();
    await until(() => items().length === 1);
    expect(add.shadowRoot!.activeElement?.getAttribute('aria-label')).to.equal(
      `Dismiss ${names[1]}`,
    );
    (add.shadowRoot!.activeElement as HTMLButtonElement).click();
    await until(() => items().length === 0);
    expect(add.shadowRoot!.activeElement?.textContent?.trim()).to.equal('Upload files');
  });

  it('should cut a long file name to its row, whole in its tooltip', async () => {
    const { add } = await sourcesPanel();
    const input = await until(() => deep<HTMLInputElement>(add, 'input[type=file]'));
    const long = `${'annual-report-of-the-harbour-ferry-company-'.repeat(4)}final.exe`;
    const transfer = new DataTransfer();
    transfer.items.add(new File(['MZ'], long));
    input.files = transfer.files;
    input.dispatchEvent(new Event('change'));
    const li = await until(() =>
      deepAll(add, '.uploads li').find((l) => l.querySelector('.failed')),
    );
    const name = li.querySelector<HTMLElement>('.file-name')!;
    const dismiss = li.querySelector<HTMLElement>('button')!;
    expect(name.title).to.equal(long);
    expect(name.getBoundingClientRect().width).to.be.greaterThan(100);
    expect(name.getBoundingClientRect().right).to.be.at.most(dismiss.getBoundingClientRect().left);
    expect(dismiss.getBoundingClientRect().right).to.be.at.most(li.getBoundingClientRect().right);
  });

  it('should offer in the file picker only the types the server reads', async () => {
    const { add } = await sourcesPanel();
    const input = await until(() => deep<HTMLInputElement>(add, 'input[type=file]'));
    expect(input.accept.split(',')).to.have.members([
      '.txt',
      '.text',
      '.md',
      '.markdown',
      '.html',
      '.htm',
      '.pdf',
      '.docx',
      '.csv',
      '.json',
    ]);
  });

  it('should upload files dropped on the drop zone', async () => {
    const { client, bot, add } = await sourcesPanel();
    const zone = await until(() => deep(add, '[part=dropzone]'));
    const transfer = new DataTransfer();
    transfer.items.add(
      new File(['Dropped text about boats.'], 'dropped.txt', { type: 'text/plain' }),
    );
    zone.dispatchEvent(new DragEvent('dragover', { dataTransfer: transfer, cancelable: true }));
    await add.updateComplete;
    expect(zone.classList.contains('over')).to.equal(true);
    zone.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, cancelable: true }));
    await until(() => deepAll(add, '.uploads .done').length === 1);
    expect((await client.sources.list(bot.uuid)).map((s) => s.file_name)).to.deep.equal([
      'dropped.txt',
    ]);
  });

  it('should add URLs one per line and keep only the ones that failed', async () => {
    const { client, bot, panel, add } = await sourcesPanel();
    const form = await until(() => deep<HTMLFormElement>(add, 'form[aria-labelledby=url-heading]'));
    const field = form.querySelector<HTMLTextAreaElement>('textarea[name=url]')!;
    type(field, `${pageUrl()}\nnot a url\n`);
    button(form, 'Add URLs')!.click();
    await until(() => form.querySelector('[role=alert]'));
    expect(field.value).to.equal('not a url');
    expect(form.querySelector('[role=alert]')!.textContent).to.contain('not a url');
    const [source] = await client.sources.list(bot.uuid);
    expect(source!.type).to.equal('link');
    await until(() => rows(panel).some((r) => r.textContent?.includes('Succeeded')));
  });

  it('should re-scrape the selected URL sources and show the result of each', async () => {
    const { client, bot, panel } = await sourcesPanel();
    const link = await client.sources.createUrl(bot.uuid, { url: pageUrl() });
    await client.sources.createQa(bot.uuid, { question: 'Q?', answer: 'A.' });
    // Once scraped, the title comes from the page and stays put.
    let settled: DataSource | undefined;
    await until(async () => {
      settled = (await client.sources.list(bot.uuid)).find((s) => s.uuid === link.uuid);
      return settled?.status === 'success';
    }, 15_000);
    panel.refresh();
    // The row as the refresh drew it: the one before it still has the address as its title.
    const row = await until(() =>
      rows(panel).find((r) => r.textContent?.includes('Harbour opening hours')),
    );
    row.querySelector<HTMLInputElement>('input[type=checkbox]')!.click();
    await panel.updateComplete;
    button(panel, 'Re-scrape')!.click();
    const results = await until(() => deep(panel, '.results'));
    expect(results.textContent).to.contain('restarted scraping');
    expect(results.textContent).to.contain('Harbour opening hours');
  });

  it("should keep the title readable and every row's actions in view in a narrow panel", async () => {
    const { client, bot, panel } = await sourcesPanel();
    await client.sources.createQa(bot.uuid, {
      question: 'A question with a long title',
      answer: 'a',
    });
    panel.refresh();
    const row = await until(() => rows(panel)[0]);
    const visibleHeaders = () =>
      deepAll<HTMLElement>(panel, '[role=columnheader]')
        .filter((h) => h.checkVisibility())
        // As read on screen: not the unseen buttons that size the Actions column.
        .map((h) => h.innerText.replace(/[▲▼]/g, '').trim());
    const table = deep<HTMLElement>(panel, '[role=table]')!;
    const cases = [
      {
        width: 1100,
        headers: ['', 'Title', 'Type', 'Status', 'Size', 'Tokens', 'Date', 'Actions'],
      },
      { width: 720, headers: ['', 'Title', 'Status', 'Date', 'Actions'] },
      { width: 520, headers: ['', 'Title', 'Status', 'Actions'] },
      { width: 400, headers: ['', 'Title', 'Actions'] },
      // A phone's panel, inside the admin's and the card's padding.
      { width: 270, headers: ['', 'Title', 'Actions'], title: 40 },
    ];
    for (const { width, headers, title: least = 90 } of cases) {
      panel.style.width = `${width}px`;
      await new Promise((resolve) => requestAnimationFrame(resolve));
      expect(visibleHeaders(), `headers at ${width}px`).to.deep.equal(headers);
      for (const header of deepAll<HTMLElement>(panel, '[role=columnheader]')) {
        if (!header.checkVisibility()) continue;
        // Whole, not run into the next column.
        expect(header.scrollWidth, `${header.textContent} at ${width}px`).to.be.at.most(
          header.clientWidth,
        );
      }
      const remove = row.querySelector<HTMLElement>('button.danger')!.getBoundingClientRect();
      expect(remove.right, `Delete in view at ${width}px`).to.be.at.most(
        table.getBoundingClientRect().right,
      );
      const title = row.querySelector<HTMLElement>('.title')!.getBoundingClientRect();
      expect(title.width, `title width at ${width}px`).to.be.at.least(least);
    }
    panel.style.width = '';
  });

  it("should show each status in the reader's language, and why a source failed", async () => {
    const { client, bot, el, panel } = await sourcesPanel();
    await client.sources.createQa(bot.uuid, {
      question: 'Opening hours?',
      answer: 'Nine to five.',
    });
    const link = await client.sources.createUrl(bot.uuid, { url: pageUrl('missing.html') });
    const failed = await until(async () => {
      const source = (await client.sources.list(bot.uuid)).find((s) => s.uuid === link.uuid);
      return source?.status === 'fail' && source;
    });
    const reason: string = JSON.parse(failed.meta_json).error;
    expect(reason).to.contain('404');
    panel.refresh();
    const statusOf = async (title: string) =>
      (await rowOf(panel, title)).querySelector<HTMLElement>('[role=cell].status')!;
    for (const [lang, width, ok, fail] of [
      ['en', 1280, 'Succeeded', 'Failed'],
      ['de', 1280, 'Erfolgreich', 'Fehlgeschlagen'],
      ['en', 390, 'Succeeded', 'Failed'],
      ['de', 390, 'Erfolgreich', 'Fehlgeschlagen'],
    ] as const) {
      el.lang = lang;
      el.style.width = `${width}px`;
      await until(async () => (await statusOf(failed.title)).textContent?.startsWith(fail));
      expect((await statusOf('Opening hours?')).textContent).to.equal(ok);
      const row = await rowOf(panel, failed.title);
      const shown = row.querySelector<HTMLElement>('.status .reason')!;
      // Cut to its line on screen, whole in its tooltip and for screen readers.
      expect(shown.textContent).to.equal(reason);
      expect(shown.title).to.equal(reason);
      expect(shown.checkVisibility(), `reason shown at ${width}px (${lang})`).to.equal(true);
      const box = row.getBoundingClientRect();
      const line = shown.getBoundingClientRect();
      expect(line.width, `reason at ${width}px (${lang})`).to.be.at.least(20);
      expect(line.right).to.be.at.most(box.right);
      expect(line.bottom).to.be.at.most(box.bottom);
    }
    el.style.width = '';
    await expect(el).to.be.accessible();
  });

  it("should say which step a source in progress is at, in the reader's language", async () => {
    const { client, bot, el, panel } = await sourcesPanel();
    // A page whose body never comes: the server stays at its download step.
    const held = btoa(JSON.stringify({ contentType: 'text/html', hold: true }))
      .replace(/\+/g, '-')
      .replace(/\//g, '_')
      .replace(/=+$/, '');
    const link = await client.sources.createUrl(bot.uuid, {
      url: `${location.origin}/fixture/stream/${held}/page.html`,
    });
    await until(async () =>
      (await client.sources.list(bot.uuid)).some(
        (s) => s.uuid === link.uuid && s.status === 'downloading',
      ),
    );
    panel.refresh();
    const status = async () =>
      (await rowOf(panel, link.title)).querySelector<HTMLElement>('[role=cell].status')!;
    await until(async () => (await status()).textContent === 'In progressDownloading');
    expect((await status()).querySelector('.reason')!.textContent).to.equal('Downloading');
    el.lang = 'de';
    await until(async () => (await status()).textContent === 'In BearbeitungWird heruntergeladen');
    await client.sources.delete(link.uuid);
  });

  it("should keep every row's status, Rename and Delete inside the row, in English and German, at any width", async () => {
    const real = await apiClient();
    const standIns: DataSource[] = ['A question with a long title', 'Opening hours', 'Prices'].map(
      (title, i) => ({
        uuid: `w${i}`,
        title,
        type: i === 2 ? 'link' : 'qa',
        status: i === 2 ? 'fail' : 'success',
        file_name: '',
        file_size: 0,
        tokens: 12,
        meta_json: JSON.stringify(
          i === 2 ? { error: 'getaddrinfo ENOTFOUND prices.example.com (a long reason)' } : {},
        ),
        created_at: '2026-11-22T10:00:00Z',
        modified_at: '2026-11-22T10:00:00Z',
      }),
    );
    const { el, panel } = await sourcesPanel({
      ...real,
      sources: { ...real.sources, list: async () => standIns },
    });
    await until(() => rows(panel).length === standIns.length);
    for (const [lang, width] of ['en', 'de'].flatMap((l) =>
      [320, 360, 390, 400, 480, 560, 640, 720, 800, 900, 1024, 1280, 1600].map(
        (w) => [l, w] as const,
      ),
    )) {
      el.lang = lang;
      el.style.width = `${width}px`;
      const remove = lang === 'de' ? 'Löschen' : 'Delete';
      await until(
        () => rows(panel)[0]?.querySelector('button.danger')?.textContent?.trim() === remove,
      );
      await new Promise((resolve) => requestAnimationFrame(resolve));
      const headers = deepAll(panel, '.thead [role=columnheader]');
      const oneLine = headers[3]!.checkVisibility();
      for (const row of rows(panel)) {
        const box = row.getBoundingClientRect();
        const name = `${row.querySelector('.title')!.textContent} at ${width}px (${lang})`;
        const shown = [
          ...row.querySelectorAll<HTMLElement>('.row-actions button, [role=cell] > *'),
        ];
        for (const part of shown.filter((p) => p.checkVisibility())) {
          // Inside the row, which cuts off what overflows it.
          const { left, right, top, bottom } = part.getBoundingClientRect();
          const what = `${part.textContent?.trim() || part.localName} of ${name}`;
          expect(left, what).to.be.at.least(box.left);
          expect(right, what).to.be.at.most(box.right);
          expect(top, what).to.be.at.least(box.top);
          expect(bottom, what).to.be.at.most(box.bottom);
        }
        // Where a row is one line, "Actions" heads the buttons' column, not a column beside it.
        if (oneLine) {
          expect(
            headers.at(-1)!.getBoundingClientRect().left,
            `Actions header over ${name}`,
          ).to.be.closeTo(row.querySelector('.row-actions')!.getBoundingClientRect().left, 1);
        }
        // Still a few words of the title, not two letters beside the buttons.
        const title = row.querySelector<HTMLElement>('.title')!.getBoundingClientRect();
        expect(title.width, `title of ${name}`).to.be.at.least(40);
      }
    }
    el.style.width = '';
  });

  it('should keep Re-scrape and Delete selected together on one line, on a laptop and a phone', async () => {
    const { el, panel } = await sourcesPanel();
    const [rescrape, remove] = ['Re-scrape', 'Delete selected'].map((name) => button(panel, name)!);
    try {
      // A 390 px phone, with a dashboard's margins around the element, and a laptop.
      for (const width of ['326px', '1000px']) {
        el.style.width = width;
        await new Promise((resolve) => requestAnimationFrame(resolve));
        expect(remove!.getBoundingClientRect().top, `at ${width}`).to.be.closeTo(
          rescrape!.getBoundingClientRect().top,
          0.5,
        );
      }
    } finally {
      el.style.width = '';
    }
  });

  it("should fit the toolbar, a long tag's filter and the add forms in a phone's viewport, in English and German", async () => {
    const { client, bot } = await sourcesPanel();
    const tag = `Tag${'x'.repeat(150)}`;
    await client.tags.create(bot.uuid, { name: tag, color: '#123456' });
    // Mounted again, for the panel to list the tag.
    const el = await mountAdmin(client, bot, 'sources');
    const panel = await until(() => deep<Panel>(el, 'chatbot-admin-sources'));
    const add = await until(() => deep<Panel>(panel, 'chatbot-admin-source-add'));
    await until(() => deepAll(panel, '.toolbar option').some((o) => o.textContent === tag));
    // A page's own margins around the element, as a dashboard's: at 320px, 222px for the panel.
    el.style.marginInline = '24px';
    try {
      for (const [lang, width] of ['en', 'de'].flatMap((l) =>
        [320, 360, 390, 480, 768, 1280].map((w) => [l, w] as const),
      )) {
        el.lang = lang;
        await setViewport({ width, height: 640 });
        await until(() => innerWidth === width);
        await el.updateComplete;
        await new Promise((resolve) => requestAnimationFrame(resolve));
        // The element cuts off what overflows it, inside its border.
        const host = el.getBoundingClientRect();
        const left = host.left + el.clientLeft;
        const right = left + el.clientWidth;
        const within = (part: Element, box: { left: number; right: number }, what: string) => {
          const r = part.getBoundingClientRect();
          expect(r.left, `${what} at ${width}px (${lang})`).to.be.at.least(box.left - 0.5);
          expect(r.right, `${what} at ${width}px (${lang})`).to.be.at.most(box.right + 0.5);
        };
        const toolbar = deep(panel, '.toolbar')!;
        for (const field of toolbar.querySelectorAll('input, select')) {
          const label = [...field.closest('label')!.childNodes].find(
            (n) => n.nodeType === Node.TEXT_NODE && n.textContent?.trim(),
          );
          const name = label?.textContent?.trim() ?? field.localName;
          within(field, toolbar.getBoundingClientRect(), name);
        }
        // Each card in its column: on a page with margins of its own, a card wider than its
        // column reached past the element's edge.
        const grid = deep(add, '.grid')!.getBoundingClientRect();
        for (const card of deepAll(add, '.grid > .card')) {
          const heading = card.querySelector('h3')!.textContent!;
          within(card, grid, heading);
          within(card, { left, right }, heading);
          for (const part of card.querySelectorAll('input:not([hidden]), textarea, button')) {
            within(part, card.getBoundingClientRect(), `${part.localName} of ${heading}`);
          }
        }
      }
    } finally {
      await setViewport({ width: 800, height: 600 });
    }
  });

  it('should sort by each column and filter by type, status and text', async () => {
    const { client, bot, panel } = await sourcesPanel();
    await client.sources.createQa(bot.uuid, { question: 'Bravo question', answer: 'b' });
    await client.sources.createQa(bot.uuid, { question: 'Alpha question', answer: 'a' });
    await client.sources.upload(
      bot.uuid,
      new File(['Charlie text'], 'charlie.txt', { type: 'text/plain' }),
    );
    // Processed first: a file's row changes when its processing ends (a poll brings it), and a
    // change between the two sorts below would look like a sort that failed.
    await until(
      async () => (await client.sources.list(bot.uuid)).every((s) => s.status === 'success'),
      15_000,
    );
    panel.refresh();
    await until(() => {
      const shown = rows(panel);
      return shown.length === 3 && shown.every((r) => r.textContent?.includes('Succeeded'));
    });
    const header = (name: string) =>
      deepAll(panel, '[role=columnheader] button').find((b) =>
        b.textContent?.trim().startsWith(name),
      )!;
    // The rows are read once the header says the sort took: the order before it (newest first,
    // with ties inside a second) may happen to start with the same title.
    const sorted = (order: string) =>
      until(() => deepAll(panel, '[role=columnheader]')[1]!.getAttribute('aria-sort') === order);
    const ascending = titles(panel).sort(new Intl.Collator('en', { sensitivity: 'base' }).compare);
    expect(ascending[0]).to.equal('Alpha question');
    header('Title').click();
    await sorted('ascending');
    await until(() => titles(panel).join() === ascending.join());
    header('Title').click();
    await sorted('descending');
    await until(() => titles(panel).join() === [...ascending].reverse().join());
    for (const column of ['Type', 'Status', 'Size', 'Tokens', 'Date']) {
      header(column).click();
      await panel.updateComplete;
      expect(rows(panel).length, column).to.equal(3);
    }
    select(panel, 'Filter by type', 'file');
    await until(() => rows(panel).length === 1);
    select(panel, 'Filter by type', '');
    select(panel, 'Filter by status', 'failed');
    await panel.updateComplete;
    expect(deep(panel, '.empty')!.textContent).to.contain('No source matches');
    select(panel, 'Filter by status', '');
    const search = deep<HTMLInputElement>(panel, 'input[type=search]')!;
    type(search, 'alpha');
    await until(() => titles(panel).join() === 'Alpha question');
  });

  it('should rename a title at once and roll back when the server refuses', async () => {
    const { client, bot, panel } = await sourcesPanel();
    const kept = await client.sources.createQa(bot.uuid, { question: 'Old title', answer: 'x' });
    const gone = await client.sources.createQa(bot.uuid, { question: 'Doomed title', answer: 'y' });
    panel.refresh();
    button(await rowOf(panel, 'Old title'), 'Rename Old title')!.click();
    let dialog = await until(() => deep<HTMLDialogElement>(panel, 'dialog.rename[open]'));
    type(dialog.querySelector('input[name=title]')!, 'New <title>');
    const changed = oneEvent(panel, 'chatbot-admin-change');
    button(dialog, 'Save')!.click();
    await changed;
    await rowOf(panel, 'New <title>');
    expect((await client.sources.list(bot.uuid)).find((s) => s.uuid === kept.uuid)!.title).to.equal(
      'New <title>',
    );

    await client.sources.delete(gone.uuid);
    button(await rowOf(panel, 'Doomed title'), 'Rename Doomed title')!.click();
    dialog = await until(() => deep<HTMLDialogElement>(panel, 'dialog.rename[open]'));
    type(dialog.querySelector('input[name=title]')!, 'Never saved');
    button(dialog, 'Save')!.click();
    await until(() => dialog.querySelector('[role=alert]'));
    expect(titles(panel)).to.include('Doomed title');
    expect(titles(panel)).to.not.include('Never saved');
    expect(dialog.querySelector<HTMLInputElement>('input[name=title]')!.value).to.equal(
      'Never saved',
    );
  });

  it('should say a title longer than the server takes beside it, keep it, and send nothing', async () => {
    const sent: string[] = [];
    const recording = await apiClient(async (input, init) => {
      sent.push(`${init?.method ?? 'GET'} ${input instanceof Request ? input.url : String(input)}`);
      return fetch(input, init);
    });
    const { client, bot, panel } = await sourcesPanel(recording);
    await client.sources.createQa(bot.uuid, { question: 'Short title', answer: 'x' });
    panel.refresh();
    button(await rowOf(panel, 'Short title'), 'Rename Short title')!.click();
    const dialog = await until(() => deep<HTMLDialogElement>(panel, 'dialog.rename[open]'));
    const input = dialog.querySelector<HTMLInputElement>('input[name=title]')!;
    const long = `  ${'t'.repeat(600)}  `;
    type(input, long);
    input.focus();
    await sendKeys({ press: 'Enter' });
    const message = await until(() => dialog.querySelector('.error'));
    // Counted as it would be sent: trimmed.
    expect(message.textContent?.trim()).to.equal('At most 500 characters; this has 600.');
    expect(input.getAttribute('aria-invalid')).to.equal('true');
    expect(input.getAttribute('aria-describedby')).to.equal(message.id);
    expect(input.value).to.equal(long);
    expect(dialog.open).to.equal(true);
    expect(sent.filter((request) => request.includes('/update'))).to.deep.equal([]);
    expect(titles(panel)).to.deep.equal(['Short title']);

    type(input, 't'.repeat(500));
    await sendKeys({ press: 'Enter' });
    await until(() => !dialog.open);
    await rowOf(panel, 't'.repeat(500));
  });

  it('should delete one source, then several, after confirmations that name them', async () => {
    const { client, bot, panel } = await sourcesPanel();
    for (const q of ['First', 'Second', 'Third']) {
      await client.sources.createQa(bot.uuid, { question: q, answer: q });
    }
    panel.refresh();
    button(await rowOf(panel, 'First'), 'Delete First')!.click();
    const deleted = oneEvent(panel, 'chatbot-admin-change');
    expect(await confirmDialog(panel)).to.contain('First');
    // The row goes at once (optimistic); the request is done when the change is announced.
    await until(() => !titles(panel).includes('First'));
    await deleted;
    for (const title of ['Second', 'Third']) {
      (await rowOf(panel, title)).querySelector<HTMLInputElement>('input[type=checkbox]')!.click();
    }
    await until(() => deep(panel, '.toolbar [role=status]')?.textContent?.includes('2 selected'));
    button(panel, 'Delete selected')!.click();
    const deletedMany = oneEvent(panel, 'chatbot-admin-change');
    const message = await confirmDialog(panel);
    expect(message).to.contain('Second').and.to.contain('Third');
    await until(() => rows(panel).length === 0);
    await deletedMany;
    expect(await client.sources.list(bot.uuid)).to.deep.equal([]);
  });

  it("should move focus to the next row's Delete when a deleted row goes, and to the heading when none is left", async () => {
    const { client, bot, panel } = await sourcesPanel();
    for (const q of ['First', 'Second']) {
      await client.sources.createQa(bot.uuid, { question: q, answer: q });
    }
    panel.refresh();
    const active = () => panel.shadowRoot!.activeElement;
    const remove = button(await rowOf(panel, 'First'), 'Delete First')!;
    remove.focus();
    remove.click();
    await confirmDialog(panel);
    await until(() => !titles(panel).includes('First'));
    await until(() => active()?.getAttribute('aria-label') === 'Delete Second');

    (active() as HTMLButtonElement).click();
    await confirmDialog(panel);
    await until(() => rows(panel).length === 0);
    await until(() => active()?.id === 'table-heading');
    expect(active()!.textContent).to.equal('Data sources');
  });

  it('should keep focus on Delete selected while it deletes, as it waits for a new selection', async () => {
    const { client, bot, panel } = await sourcesPanel();
    for (const q of ['One', 'Two']) {
      await client.sources.createQa(bot.uuid, { question: q, answer: q });
    }
    panel.refresh();
    for (const title of ['One', 'Two']) {
      (await rowOf(panel, title)).querySelector<HTMLInputElement>('input[type=checkbox]')!.click();
    }
    const remove = button(panel, 'Delete selected')!;
    await until(() => remove.getAttribute('aria-disabled') === 'false');
    remove.focus();
    remove.click();
    const deleted = oneEvent(panel, 'chatbot-admin-change');
    await confirmDialog(panel);
    await deleted;
    await until(() => rows(panel).length === 0);
    expect(panel.shadowRoot!.activeElement === remove).to.equal(true);
    // Nothing is selected now: pressing it asks nothing.
    expect(remove.getAttribute('aria-disabled')).to.equal('true');
    remove.click();
    await panel.updateComplete;
    expect(deep(panel, 'dialog.confirm[open]')).to.equal(null);
  });

  it('should not bring a source back when a list answers while its delete is on its way', async () => {
    const deletes = await holdingClient(
      (method, url) => method === 'POST' && url.endsWith('/delete'),
      'request',
    );
    const { client, bot, panel } = await sourcesPanel(deletes.client);
    await client.sources.createQa(bot.uuid, { question: 'Doomed', answer: 'x' });
    await client.sources.createQa(bot.uuid, { question: 'Kept', answer: 'y' });
    panel.refresh();
    button(await rowOf(panel, 'Doomed'), 'Delete Doomed')!.click();
    const held = deletes.hold();
    const deleted = oneEvent(panel, 'chatbot-admin-change');
    await confirmDialog(panel);
    await held;
    await until(() => !titles(panel).includes('Doomed'));

    // The server still has the source when it answers this list.
    const lists = () =>
      deletes.answered.filter((r) => r.startsWith('GET') && r.endsWith('/data-sources')).length;
    const before = lists();
    panel.refresh();
    await until(() => lists() > before);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(titles(panel)).to.not.include('Doomed');

    deletes.release();
    await deleted;
    await loaded(panel, 'sourcesTask');
    expect(titles(panel)).to.deep.equal(['Kept']);
    expect((await client.sources.list(bot.uuid)).map((s) => s.title)).to.deep.equal(['Kept']);
  });

  it('should put deleted rows back when deleting fails', async () => {
    const real = await apiClient();
    const refusing = {
      ...real,
      sources: {
        ...real.sources,
        // Stands in for a server that refuses the delete (the real one has no such case on demand).
        delete: () => Promise.reject(new Error('refused by the stand-in')),
      },
    };
    const { client, bot, panel } = await sourcesPanel(refusing);
    await client.sources.createQa(bot.uuid, { question: 'Survivor', answer: 'x' });
    panel.refresh();
    button(await rowOf(panel, 'Survivor'), 'Delete Survivor')!.click();
    await confirmDialog(panel);
    await until(() => deep(panel, '[role=alert]'));
    expect(deep(panel, '[role=alert]')!.textContent).to.contain('refused by the stand-in');
    expect(titles(panel)).to.include('Survivor');
  });

  it('should filter the table by tag', async () => {
    const { client, bot, panel } = await sourcesPanel();
    const tagged = await client.sources.createQa(bot.uuid, { question: 'Tagged', answer: 'x' });
    await client.sources.createQa(bot.uuid, { question: 'Untagged', answer: 'y' });
    const tag = await client.tags.create(bot.uuid, {
      name: 'Harbour',
      color: '#112233',
      data_source_uuids: [tagged.uuid],
    });
    panel.refresh();
    await until(() => rows(panel).length === 2);
    await until(() => deepAll(panel, 'option').some((o) => o.textContent === 'Harbour'));
    select(panel, 'Filter by tag', tag.uuid);
    await until(() => titles(panel).join() === 'Tagged');
    expect(location.hash).to.contain(`tag=${tag.uuid}`);
  });

  /** A panel over 10,000 stand-in records: creating them on the server would only slow the test. */
  async function bigTable() {
    const real = await apiClient();
    const many: DataSource[] = Array.from({ length: 10_000 }, (_, i) => ({
      uuid: `s${i}`,
      title: `Source ${String(i).padStart(5, '0')}`,
      type: i % 3 === 0 ? 'file' : i % 3 === 1 ? 'qa' : 'link',
      status: 'success',
      file_name: `f${i}.txt`,
      file_size: i * 10,
      tokens: i,
      meta_json: '{}',
      created_at: '2026-11-22T10:00:00Z',
      modified_at: '2026-11-22T10:00:00Z',
    }));
    const { panel } = await sourcesPanel({
      ...real,
      sources: { ...real.sources, list: async () => many },
    });
    await until(() => rows(panel).length > 0);
    const body = deep<HTMLElement>(panel, '.tbody')!;
    const rowHeight = rows(panel)[0]!.getBoundingClientRect().height;
    /** The title of the row drawn at the top edge of the table body. */
    const topTitle = () => {
      const edge = body.getBoundingClientRect().top;
      return rows(panel)
        .find((r) => Math.abs(r.getBoundingClientRect().top - edge) < rowHeight / 2)
        ?.querySelector('.title')?.textContent;
    };
    const active = () => (panel.shadowRoot!.activeElement as HTMLElement | null) ?? null;
    /** Scrolls the body and waits for the table to answer: the browser fires scroll in its next frame. */
    const scrollTo = async (row: number) => {
      body.scrollTop = row * rowHeight;
      await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      await panel.updateComplete;
    };
    return { panel, body, rowHeight, topTitle, active, scrollTo };
  }

  it('should keep only the visible rows of 10,000 sources in the DOM', async () => {
    const { panel, body } = await bigTable();
    expect(rows(panel).length).to.be.lessThan(100);
    expect(deep(panel, '[role=table]')!.getAttribute('aria-rowcount')).to.equal('10001');
    body.scrollTop = body.scrollHeight;
    await until(() => titles(panel).includes('Source 00000'));
  });

  it('should be as tall as its rows when they are few, and scroll at the set height when they are many', async () => {
    const { panel, body, rowHeight } = await bigTable();
    // 28em, the default of --chatbot-admin-table-height.
    const set = 28 * parseFloat(getComputedStyle(body).fontSize);
    expect(body.clientHeight).to.be.closeTo(set, 1);
    expect(body.scrollHeight).to.be.above(body.clientHeight * 100);
    expect(rows(panel).length).to.be.above(0);
    // Three rows: no box of blank space under them.
    const client = await apiClient();
    const bot = await newChatbot(client);
    for (const n of [1, 2, 3]) {
      await client.sources.createQa(bot.uuid, { question: `Question ${n}?`, answer: 'Yes.' });
    }
    const el = await mountAdmin(client, bot, 'sources');
    const few = await until(() => deep<Panel>(el, 'chatbot-admin-sources'));
    // Read as soon as the rows are in the DOM, before a frame has measured them: on a slow
    // machine that first frame showed a scrollbar, the rows' box sized by a guessed row height.
    const first = new Promise<{ client: number; scroll: number }>((resolve) => {
      const watch = new MutationObserver(() => {
        const short = deep<HTMLElement>(few, '.tbody');
        if (!short || rows(few).length !== 3) return;
        watch.disconnect();
        resolve({ client: short.clientHeight, scroll: short.scrollHeight });
      });
      watch.observe(few.shadowRoot!, { childList: true, subtree: true });
    });
    const { client: height, scroll } = await first;
    expect(height).to.be.closeTo(3 * rowHeight, 1);
    expect(scroll).to.be.at.most(height);
  });

  it('should draw the rows that belong at the scrolled position, after a jump too', async () => {
    // Equal dates sort in list order, so the row at position n is Source n.
    const { topTitle, scrollTo } = await bigTable();
    expect(topTitle()).to.equal('Source 00000');
    for (const row of [5000, 9980, 37, 38]) {
      await scrollTo(row);
      expect(topTitle()).to.equal(`Source ${String(row).padStart(5, '0')}`);
    }
  });

  it("should keep focus on the same source's control while the table scrolls", async () => {
    const { panel, topTitle, active, scrollTo } = await bigTable();
    const remove = deepAll<HTMLButtonElement>(panel, '.tbody button').find(
      (b) => b.getAttribute('aria-label') === 'Delete Source 00012',
    )!;
    remove.focus();
    await scrollTo(15);
    expect(topTitle()).to.equal('Source 00015');
    // The rows' elements are reused for other sources; focus moves with Source 00012.
    expect(active()?.getAttribute('aria-label')).to.equal('Delete Source 00012');
    await scrollTo(6000);
    expect(topTitle()).to.equal('Source 06000');
    // Its row is gone: focus waits on the table body, never on another source's Delete.
    // (Compared by role: a failed comparison of two elements makes the runner serialize them.)
    expect(active()?.getAttribute('role')).to.equal('rowgroup');
  });
});
