/**
 * The README's promise, checked: `npm start` on a free port with its store in a temporary
 * directory, every demo page opened in headless Chromium, the demo bot asked about the project,
 * the admin panel showing the demo chatbot. Screenshots land in test/output/ (not committed);
 * with `SCREENSHOTS=1`, the website's and the admin's also replace the README's in
 * demo/screenshots/ (as chat-phone.test.ts does for the phone's), which went stale otherwise.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { axeViolations, launchBrowser } from './harness.js';

const root = resolve(import.meta.dirname, '../..');
const output = join(root, 'test/output');

/** Writes test/output/`name`, and the README's copy (demo/screenshots/`readme`) when asked. */
async function screenshot(page: Page, name: string, readme?: string, fullPage = false) {
  await page.screenshot({ path: join(output, name), fullPage });
  if (readme && process.env.SCREENSHOTS) {
    await page.screenshot({ path: join(root, 'demo/screenshots', readme), fullPage });
  }
}
const storeDir = mkdtempSync(join(tmpdir(), 'chatbot-demo-'));

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const probe = createServer();
    probe.once('error', fail);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => done(port));
    });
  });
}

interface Started {
  child: ChildProcess;
  out: string;
  code: Promise<number | null>;
}

/** Runs `npm start` (as its script does) and resolves once it printed the demo key, or exited. */
function start(port: number, args: string[] = []): Promise<Started> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'demo/start.ts', ...args], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      CHATBOT_DB: join(storeDir, 'chatbot.sqlite'),
      CHATBOT_LOG: 'off',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const started: Started = {
    child,
    out: '',
    code: new Promise((done) => child.once('exit', (code) => done(code))),
  };
  const collect = (data: Buffer) => {
    started.out += data;
  };
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  return new Promise((done, fail) => {
    const timer = setTimeout(
      () => fail(new Error(`npm start printed no demo key in 120 s:\n${started.out}`)),
      120_000,
    );
    const check = () => {
      if (/demo key: \S+/.test(started.out)) {
        clearTimeout(timer);
        done(started);
      }
    };
    child.stdout!.on('data', check);
    void started.code.then(() => {
      clearTimeout(timer);
      done(started);
    });
  });
}

async function stop(started: Started): Promise<void> {
  started.child.kill('SIGTERM');
  await started.code;
}

const demoKey = (out: string) => /demo key: (\S+)/.exec(out)?.[1];

async function ask(page: Page, question: string): Promise<void> {
  const box = page.getByRole('textbox', { name: 'Message' }).first();
  await box.fill(question);
  await box.press('Enter');
}

describe('npm start', () => {
  let port: number;
  let first: Started;
  let browser: Browser;
  let base: string;

  before(async () => {
    mkdirSync(output, { recursive: true });
    port = await freePort();
    first = await start(port);
    base = `http://127.0.0.1:${port}`;
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
    if (first && first.child.exitCode === null) await stop(first);
    rmSync(storeDir, { recursive: true, force: true });
  });

  it('prints the page addresses and a demo key that opens the API', async () => {
    assert.match(first.out, new RegExp(`${base}/admin.html`));
    const key = demoKey(first.out);
    assert.ok(key, 'a demo key is printed');
    const response = await fetch(`${base}/api/v1/chatbots`, {
      headers: { Authorization: `Bearer ${key}` },
    });
    assert.equal(response.status, 200);
    const bots = (await response.json()) as Array<{ name: string }>;
    assert.deepEqual(
      bots.map((bot) => bot.name),
      ['chatbot-elements guide', 'Northwind Cycles'],
    );
  });

  it('serves a company website whose one-tag launcher answers about the company, citing its guide', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${base}/`);
    await page.getByRole('button', { name: 'Open chat' }).click();
    // The shop's own chatbot, not the project's: a visitor of this site asks about the shop.
    await page.getByText("Hi! I'm Northwind's assistant", { exact: false }).waitFor();
    await ask(page, "Do you sell kids' bikes?");
    const log = page.getByRole('log').first();
    await log
      .getByText('16 and 20 inch wheels', { exact: false })
      .first()
      .waitFor({ timeout: 30_000 });
    const sources = log.getByRole('list', { name: 'Sources' });
    await sources.getByText('Northwind Cycles customer guide').waitFor({ timeout: 30_000 });
    // The screenshot shows the finished answer: Stop has turned back into Send.
    await page.getByRole('button', { name: 'Send' }).waitFor({ timeout: 30_000 });
    await screenshot(page, 'demo-website.png', 'website.png');
    assert.deepEqual(errors, []);
    await page.close();
  });

  it("keeps the website's launcher readable in dark mode, with no second banner", async () => {
    const page = await browser.newPage({
      viewport: { width: 1280, height: 800 },
      colorScheme: 'dark',
    });
    await page.goto(`${base}/`);
    await page.getByRole('button', { name: 'Open chat' }).click();
    await ask(page, 'When are you open?');
    // Offered once the answer has finished; pressed, it opens the reasons.
    const notHelpful = page.getByRole('button', { name: 'Not helpful' }).first();
    await notHelpful.click({ timeout: 30_000 });
    await page.locator('chatbot-chat [aria-pressed="true"]').waitFor({ timeout: 30_000 });
    // The visitor's bubble, Send, a link and a pressed rating are drawn in the shop's accent.
    assert.deepEqual(await axeViolations(page), []);
    await page.close();
  });

  it('answers from the README on the inline page, with cited sources', async () => {
    const page = await browser.newPage({ viewport: { width: 1100, height: 900 } });
    await page.goto(`${base}/chat.html`);
    await ask(page, 'Which errors can the API module throw?');
    // The README is titled by its first heading, "chatbot-elements".
    const sources = page.getByRole('log').first().getByRole('list', { name: 'Sources' });
    await sources
      .getByText('chatbot-elements', { exact: false })
      .first()
      .waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Send' }).waitFor({ timeout: 30_000 });
    await screenshot(page, 'demo-inline-chat.png');
    await page.close();
  });

  it('shows the demo chatbot and its seeded sources in the admin panel', async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(`${base}/admin.html`);
    await page.getByText('chatbot-elements guide').first().click({ timeout: 30_000 });
    await page.getByRole('tab', { name: 'Data sources' }).click();
    // A Q&A pair and the README (titled by its first heading), both processed.
    const table = page.getByRole('table').first();
    await table.getByText('What is chatbot-elements?').first().waitFor({ timeout: 30_000 });
    await table.getByText('chatbot-elements', { exact: true }).first().waitFor({ timeout: 30_000 });
    assert.equal(
      await table.getByText('Succeeded', { exact: true }).count(),
      9,
      'all nine sources processed',
    );
    await screenshot(page, 'demo-admin.png', 'admin.png');
    // The seeded conversations give Insights something to show on first start.
    await page.getByRole('tab', { name: 'Insights' }).click();
    const gaps = page.getByRole('region', { name: 'Knowledge gaps' });
    await gaps.getByText('Is there a WordPress plugin?').waitFor({ timeout: 30_000 });
    await page.setViewportSize({ width: 1400, height: 1125 });
    await screenshot(page, 'demo-insights.png', 'insights.png');
    await page.close();
  });

  it('renders the theming page: four styled chats, one of them right to left', async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    await page.goto(`${base}/theming.html`);
    await page.waitForFunction(
      () =>
        document.querySelectorAll('chatbot-chat').length === 4 &&
        customElements.get('chatbot-chat'),
    );
    const chats = await page.evaluate(() =>
      [...document.querySelectorAll('chatbot-chat')].map((chat) => ({
        textbox: chat.shadowRoot?.querySelector('textarea') !== null,
        direction: getComputedStyle(chat).direction,
      })),
    );
    assert.equal(chats.length, 4);
    assert.ok(
      chats.every((chat) => chat.textbox),
      'every chat has its composer',
    );
    assert.deepEqual(
      chats.map((chat) => chat.direction),
      ['ltr', 'ltr', 'ltr', 'rtl'],
    );
    // The introduction reads as the examples' heading: straight above them, on their left edge.
    const layout = await page.evaluate(() => {
      const intro = document.querySelector('main p')!.getBoundingClientRect();
      const first = document.querySelector('.themes figure')!.getBoundingClientRect();
      return { gap: first.top - intro.bottom, left: first.left - intro.left };
    });
    assert.ok(layout.gap < 48, `${layout.gap} px between the introduction and the examples`);
    assert.equal(Math.round(layout.left), 0);
    await screenshot(page, 'demo-theming.png', undefined, true);
    await page.close();
  });

  it('reuses the store on a second start, and --reset starts clean', async () => {
    const key = demoKey(first.out);
    await stop(first);
    const second = await start(port);
    assert.equal(demoKey(second.out), key, 'the same demo key');
    assert.doesNotMatch(second.out, /First start/);
    assert.doesNotMatch(second.out, /Seeding the website's chatbot/);
    await stop(second);

    // A store from before the website's chatbot: its config names none, and the next start
    // seeds it, keeping the keys and the demo chatbot.
    const configFile = join(storeDir, 'demo.json');
    const { shopChatbotUuid, shopChatKey, ...older } = JSON.parse(readFileSync(configFile, 'utf8'));
    assert.ok(shopChatbotUuid && shopChatKey, "the website's chatbot and its key are kept");
    writeFileSync(configFile, JSON.stringify(older));
    const third = await start(port);
    assert.match(third.out, /Seeding the website's chatbot/);
    assert.equal(demoKey(third.out), key, 'the same demo key');
    const config = JSON.parse(readFileSync(configFile, 'utf8'));
    const page = await fetch(`${base}/`).then((response) => response.text());
    assert.match(page, new RegExp(`data-chatbot-uuid="${config.shopChatbotUuid}"`));
    assert.match(page, new RegExp(`data-api-key="${config.shopChatKey}"`));
    await stop(third);
    const reset = await start(port, ['--reset']);
    assert.match(reset.out, /Reset: starting from an empty store/);
    assert.notEqual(demoKey(reset.out), key);
    await stop(reset);
  });

  it('explains a port in use in one line, without a stack trace', async () => {
    const blocker = createServer();
    await new Promise<void>((done) => blocker.listen(port, '127.0.0.1', done));
    try {
      const blocked = await start(port);
      assert.equal(await blocked.code, 1);
      assert.match(blocked.out, /npm start: port \d+ is in use/);
      assert.doesNotMatch(blocked.out, /\n\s+at /);
    } finally {
      blocker.close();
    }
  });
});
