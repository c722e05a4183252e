import { expect } from '@open-wc/testing';
import { exportFileName } from '../../src/admin/export-controller.js';
import {
  mountConversations,
  QUESTIONS,
  recordingClient,
  seedConversations,
} from './conversations-helpers.js';
import { apiClient, button, deep, deepText, pickDate, type, until } from './helpers.js';

/** The export's body held back until `open()`, as over a slow network, its headers at once. */
function gated() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  const answer = (url: string, response: Response) => {
    if (!new URL(url).pathname.endsWith('/messages/export')) return response;
    const body = response.body!.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        async transform(chunk, controller) {
          await opened;
          controller.enqueue(chunk);
        },
      }),
    );
    return new Response(body, { status: response.status, headers: response.headers });
  };
  return { answer, open };
}

const picker = Object.getOwnPropertyDescriptor(window, 'showSaveFilePicker');
const createObjectURL = URL.createObjectURL;
const click = HTMLAnchorElement.prototype.click;

describe('<chatbot-admin> conversations export', () => {
  let blobs: Blob[];
  let downloads: string[];

  beforeEach(() => {
    blobs = [];
    downloads = [];
    // The Blob path, as in browsers without a save picker; the download is caught, not made.
    Object.defineProperty(window, 'showSaveFilePicker', { value: undefined, configurable: true });
    URL.createObjectURL = (blob: Blob | MediaSource) => {
      blobs.push(blob as Blob);
      return createObjectURL.call(URL, blob);
    };
    HTMLAnchorElement.prototype.click = function (this: HTMLAnchorElement) {
      downloads.push(this.download);
    };
  });

  afterEach(() => {
    history.replaceState(null, '', location.pathname + location.search);
    if (picker) Object.defineProperty(window, 'showSaveFilePicker', picker);
    else delete (window as { showSaveFilePicker?: unknown }).showSaveFilePicker;
    URL.createObjectURL = createObjectURL;
    HTMLAnchorElement.prototype.click = click;
  });

  it('should stream the exchanges as CSV into a download, showing rows read of the total', async () => {
    const { bot } = await seedConversations();
    const gate = gated();
    const { client } = await recordingClient(gate.answer);
    const { el, panel } = await mountConversations(client, bot);
    (await until(() => button(panel, 'Export CSV'))).click();
    const progress = await until(() =>
      deep<HTMLProgressElement>(panel, 'progress[aria-label="Export progress"]'),
    );
    await until(() => deepText(panel).includes('Rows: 0 of 3'));
    expect(progress.max).to.equal(3);
    expect(progress.value).to.equal(0);
    expect(button(panel, 'Cancel export')).to.not.equal(null);
    // Unavailable while it runs, but still focusable: a disabled button would drop focus.
    expect(button(panel, 'Export CSV')!.getAttribute('aria-disabled')).to.equal('true');
    await expect(el).to.be.accessible();

    gate.open();
    await until(() => deepText(panel).includes('Rows exported: 3.'));
    expect(deep(panel, 'progress')).to.equal(null);
    expect(downloads).to.have.length(1);
    expect(downloads[0]).to.match(/^conversations-review-bot-[\w-]+-until-\d{4}-\d{2}-\d{2}\.csv$/);
    const bytes = new Uint8Array(await blobs[0]!.arrayBuffer());
    expect([...bytes.slice(0, 3)]).to.deep.equal([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder().decode(bytes.slice(3));
    const [header, ...rows] = text.trimEnd().split('\r\n');
    expect(header).to.equal(
      'session_uuid,created_at,query,response,rating,reason,comment,covered,cited_sources,test',
    );
    expect(rows).to.have.length(3);
    expect(text).to.contain('"We do sell umbrellas, at the kiosk."');
    expect(blobs[0]!.type).to.equal('text/csv');
  });

  it('should name the file after the chatbot and the days it holds, safe on every system', async () => {
    const client = await apiClient();
    const stamp = Date.now().toString(36);
    const bot = await client.chatbots.create({
      name: ` Ops/Support: "Late" ferries\u0007 <Bäckerei> ${stamp}`,
    });
    const session = await client.sessions.create(bot.uuid);
    await client.messages.send(session.uuid, QUESTIONS.uncovered);
    const { panel } = await mountConversations(client, bot);
    const slug = `ops-support-late-ferries-bäckerei-${stamp}`;
    const ymd = (offset: number) => {
      const t = new Date();
      t.setDate(t.getDate() + offset);
      return t.toLocaleDateString('en-CA');
    };
    const exported = async (format: 'CSV' | 'JSON') => {
      const before = downloads.length;
      (await until(() => button(panel, `Export ${format}`))).click();
      return until(() => downloads[before]);
    };
    // No days chosen: everything up to today.
    expect(await exported('CSV')).to.equal(`conversations-${slug}-until-${ymd(0)}.csv`);
    pickDate(deep<HTMLInputElement>(panel, 'input[name=from]')!, ymd(-3));
    pickDate(deep<HTMLInputElement>(panel, 'input[name=to]')!, ymd(0));
    await until(() => deepText(panel).includes('1 shown'));
    expect(await exported('JSON')).to.equal(`conversations-${slug}-${ymd(-3)}-to-${ymd(0)}.json`);
  });

  it('should write a file name no system refuses, whatever the chatbot is called', () => {
    const days = { from: '2026-11-01', to: '2026-11-27' };
    expect(exportFileName('Demo bot', days, 'csv')).to.equal(
      'conversations-demo-bot-2026-11-01-to-2026-11-27.csv',
    );
    expect(exportFileName('../..\\etc/passwd', days, 'json')).to.equal(
      'conversations-etc-passwd-2026-11-01-to-2026-11-27.json',
    );
    // Nothing of the name is left: what the file holds, and its days.
    for (const name of ['', '  ', '"/\\?*:|<>', '\u0000\u001f\u007f', '🙂🙂', '.']) {
      expect(exportFileName(name, days, 'csv'), JSON.stringify(name)).to.equal(
        'conversations-2026-11-01-to-2026-11-27.csv',
      );
    }
    expect(exportFileName('مساعد الميناء', days, 'csv')).to.equal(
      'conversations-مساعد-الميناء-2026-11-01-to-2026-11-27.csv',
    );
    // One day, the first day only (up to today), the last day only.
    const today = new Date(2026, 10, 27, 23, 30);
    expect(exportFileName('Bot', { from: '2026-11-27', to: '2026-11-27' }, 'csv')).to.equal(
      'conversations-bot-2026-11-27.csv',
    );
    expect(exportFileName('Bot', { from: '2026-11-01', to: '' }, 'csv', today)).to.equal(
      'conversations-bot-2026-11-01-to-2026-11-27.csv',
    );
    expect(exportFileName('Bot', { from: '', to: '2026-11-20' }, 'csv', today)).to.equal(
      'conversations-bot-until-2026-11-20.csv',
    );
    // A long name is cut, never inside a character, and the whole stays within 255 bytes.
    const long = exportFileName('𠀀'.repeat(300), days, 'json');
    expect(new TextEncoder().encode(long).length).to.be.at.most(255);
    expect(() => encodeURIComponent(long), 'a lone surrogate').to.not.throw();
    expect(long.endsWith('-2026-11-01-to-2026-11-27.json')).to.equal(true);
  });

  it('should export only the filtered exchanges as JSON', async () => {
    const { bot, uncovered } = await seedConversations();
    const { client, urls } = await recordingClient();
    const { panel } = await mountConversations(client, bot);
    const rating = await until(() => deep<HTMLSelectElement>(panel, 'select[name=rating]'));
    rating.value = 'down';
    rating.dispatchEvent(new Event('change'));
    button(panel, 'Export JSON')!.click();
    await until(() => deepText(panel).includes('Rows exported: 1.'));
    const request = new URL(urls.find((url) => url.includes('/messages/export'))!);
    expect(request.searchParams.get('format')).to.equal('json');
    expect(request.searchParams.get('rating')).to.equal('down');
    expect(downloads[0]).to.match(/\.json$/);
    const rows = JSON.parse(await blobs[0]!.text());
    expect(rows).to.have.length(1);
    expect(rows[0]).to.include({
      session_uuid: uncovered.session,
      query: QUESTIONS.uncovered,
      rating: 'down',
      reason: 'wrong',
      comment: 'We do sell umbrellas, at the kiosk.',
      covered: false,
    });
  });

  it('should export what the search box says, typed a moment before, and keep saying how many rows it wrote', async () => {
    const { bot } = await seedConversations();
    const { client, urls } = await recordingClient();
    const { panel } = await mountConversations(client, bot);
    const search = await until(() => deep<HTMLInputElement>(panel, 'input[type=search]'));
    type(search, 'umbrellas');
    // At once: before the list's pause for more typing has passed.
    button(panel, 'Export JSON')!.click();
    await until(() => deepText(panel).includes('Rows exported: 1.'));
    const request = new URL(urls.find((url) => url.includes('/messages/export'))!);
    expect(request.searchParams.get('q')).to.equal('umbrellas');
    expect(JSON.parse(await blobs[0]!.text())).to.have.length(1);
    // The list shows the same search, and the count stays once the pause is over.
    await until(() => deepText(panel).includes('1 shown'));
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(deepText(panel)).to.contain('Rows exported: 1.');
  });

  it("should export the reader's own days: from the first one's midnight to the one after the last", async () => {
    const { bot } = await seedConversations();
    const { client, urls } = await recordingClient();
    const { panel } = await mountConversations(client, bot);
    const date = (name: string, value: string) =>
      pickDate(deep<HTMLInputElement>(panel, `input[name=${name}]`)!, value);
    // Yesterday and today, as the browser's clock counts them: the seeded conversations are in.
    const now = new Date();
    const day = (offset: number) =>
      new Date(now.getFullYear(), now.getMonth(), now.getDate() + offset);
    const ymd = (d: Date) =>
      `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
    date('from', ymd(day(-1)));
    date('to', ymd(day(0)));
    await until(() => deepText(panel).includes('3 shown'));
    button(panel, 'Export JSON')!.click();
    await until(() => deepText(panel).includes('Rows exported:'));
    const request = new URL(urls.find((url) => url.includes('/messages/export'))!);
    // An instant, not a UTC date: the first day's midnight and the one after the last.
    const instant = (d: Date) => d.toISOString().replace('.000Z', 'Z');
    expect(request.searchParams.get('from')).to.equal(instant(day(-1)));
    expect(request.searchParams.get('to')).to.equal(instant(day(1)));
  });

  it('should offer no export of a list that is empty, and forget the last export when the filters change', async () => {
    const { bot } = await seedConversations();
    const { client, urls } = await recordingClient();
    const { panel } = await mountConversations(client, bot);
    const rating = await until(() => deep<HTMLSelectElement>(panel, 'select[name=rating]'));
    button(panel, 'Export CSV')!.click();
    await until(() => deepText(panel).includes('Rows exported:'));
    // Another filter: the outcome of an export of other rows goes.
    rating.value = 'up';
    rating.dispatchEvent(new Event('change'));
    await until(() => !deepText(panel).includes('Rows exported:'));
    pickDate(deep<HTMLInputElement>(panel, 'input[name=from]')!, '2030-11-28');
    await until(() => deepText(panel).includes('No conversation matches the filters.'));
    await until(() => button(panel, 'Export CSV')!.getAttribute('aria-disabled') === 'true');
    expect(button(panel, 'Export JSON')!.getAttribute('aria-disabled')).to.equal('true');
    const exports = urls.filter((url) => url.includes('/messages/export')).length;
    button(panel, 'Export JSON')!.click();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(urls.filter((url) => url.includes('/messages/export')).length).to.equal(exports);
  });

  it('should cancel an export under way, downloading nothing', async () => {
    const { bot } = await seedConversations();
    const gate = gated();
    const { client } = await recordingClient(gate.answer);
    const { panel } = await mountConversations(client, bot);
    (await until(() => button(panel, 'Export CSV'))).click();
    (await until(() => button(panel, 'Cancel export'))).click();
    await until(() => deepText(panel).includes('Export cancelled.'));
    gate.open();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(blobs).to.deep.equal([]);
    expect(downloads).to.deep.equal([]);
    expect(button(panel, 'Export CSV')!.getAttribute('aria-disabled')).to.equal('false');
  });

  it('should keep focus on the Export button through the export, and ignore it while it runs', async () => {
    const { bot } = await seedConversations();
    const gate = gated();
    const { client, urls } = await recordingClient(gate.answer);
    const { panel } = await mountConversations(client, bot);
    const exportCsv = await until(() => button(panel, 'Export CSV'));
    exportCsv.focus();
    exportCsv.click();
    await until(() => deepText(panel).includes('Rows: 0 of 3'));
    exportCsv.click();
    gate.open();
    await until(() => deepText(panel).includes('Rows exported: 3.'));
    expect(panel.shadowRoot!.activeElement === exportCsv).to.equal(true);
    expect(urls.filter((url) => url.includes('/messages/export'))).to.have.length(1);
    expect(downloads).to.have.length(1);
  });

  it('should download through a Blob where the browser refuses the save picker (a cross-origin frame)', async () => {
    const { client, bot } = await seedConversations();
    let asked = 0;
    Object.defineProperty(window, 'showSaveFilePicker', {
      configurable: true,
      // Stands in for Chromium's own refusal inside a cross-origin iframe, which the test
      // runner's page cannot be.
      value: async () => {
        asked++;
        throw new DOMException(
          "Cross origin sub frames aren't allowed to show a file picker.",
          'SecurityError',
        );
      },
    });
    const { panel } = await mountConversations(client, bot);
    (await until(() => button(panel, 'Export CSV'))).click();
    await until(() => deepText(panel).includes('Rows exported: 3.'));
    expect(asked).to.equal(1);
    expect(deep(panel, '.export [role=alert]')).to.equal(null);
    expect(downloads).to.have.length(1);
    expect(downloads[0]).to.match(/\.csv$/);
    const text = await blobs[0]!.text();
    expect(text).to.contain(QUESTIONS.uncovered);
  });

  it('should cancel the export, downloading nothing, when the save picker is dismissed', async () => {
    const { client, bot } = await seedConversations();
    Object.defineProperty(window, 'showSaveFilePicker', {
      configurable: true,
      value: async () => {
        throw new DOMException('The user aborted a request.', 'AbortError');
      },
    });
    const { panel } = await mountConversations(client, bot);
    (await until(() => button(panel, 'Export JSON'))).click();
    await until(() => deepText(panel).includes('Export cancelled.'));
    expect(downloads).to.deep.equal([]);
    expect(deep(panel, '.export [role=alert]')).to.equal(null);
  });

  it('should write into the file a save picker gives, chunk by chunk, where there is one', async () => {
    const { client, bot } = await seedConversations();
    const chunks: Uint8Array[] = [];
    let suggested = '';
    let closed = false;
    Object.defineProperty(window, 'showSaveFilePicker', {
      configurable: true,
      value: async (options: { suggestedName: string }) => {
        suggested = options.suggestedName;
        return {
          createWritable: async () => ({
            write: async (chunk: Uint8Array) => void chunks.push(chunk),
            close: async () => {
              closed = true;
            },
            abort: async () => {},
          }),
        };
      },
    });
    const { panel } = await mountConversations(client, bot);
    (await until(() => button(panel, 'Export JSON'))).click();
    await until(() => deepText(panel).includes('Rows exported: 3.'));
    expect(closed).to.equal(true);
    expect(suggested).to.match(/^conversations-.*\.json$/);
    expect(blobs).to.deep.equal([]);
    const rows = JSON.parse(await new Blob(chunks as BlobPart[]).text());
    expect(rows.map((row: { query: string }) => row.query).sort()).to.deep.equal(
      Object.values(QUESTIONS).sort(),
    );
  });
});
