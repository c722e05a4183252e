/**
 * The one-tag embed: dist/chatbot-embed.js as a classic script reads its data-* attributes and
 * mounts the launcher; the whole flow works from the keyboard.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { axeViolations, type Harness, startHarness, testPage, writeGuard } from './harness.js';

let h: Harness;
let chatbotUuid: string;
let chatKey: string;

before(async () => {
  h = await startHarness();
  writeGuard(h);
  const chatbot = await h.client.chatbots.create({ name: 'embed bakery', show_citations: true });
  await h.client.sources.createQa(chatbot.uuid, {
    question: 'What are the opening hours of the bakery?',
    answer: 'The bakery is open from 7 am to 6 pm, Monday to Saturday.',
  });
  await h.server.idle();
  chatbotUuid = chatbot.uuid;
  chatKey = await h.server.createKey('e2e', { chatOnly: chatbot.uuid });
});

after(async () => {
  await h?.close();
});

function embedPage(name: string, extra = ''): string {
  return h.page(
    name,
    testPage(
      h.url,
      `<main><h1>Bakery</h1><p>Fresh bread every day. <a href="#menu">Menu</a></p></main>
<script src="/dist/chatbot-embed.js" data-base-url="${h.url}" data-api-key="${chatKey}" data-chatbot-uuid="${chatbotUuid}" ${extra}></script>`,
    ),
  );
}

const inChat = <T>(page: Page, fn: (root: ShadowRoot, el: HTMLElement) => T) =>
  page.evaluate(
    `(${fn.toString()})(document.querySelector('chatbot-chat').shadowRoot, document.querySelector('chatbot-chat'))`,
  ) as Promise<T>;

const activeInChat = (page: Page) =>
  page.evaluate(() => {
    const el = document.querySelector('chatbot-chat')!;
    if (document.activeElement !== el) return `outside: ${document.activeElement?.nodeName}`;
    const active = el.shadowRoot!.activeElement;
    return active?.getAttribute('aria-label') ?? active?.textContent?.trim() ?? '';
  });

/** Sends `text` from the open panel and waits for the finished answer. */
async function ask(page: Page, text: string): Promise<void> {
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill(text);
  await box.press('Enter');
  await page.waitForFunction(() =>
    document.querySelector('chatbot-chat')!.shadowRoot!.querySelector('.exchange .actions'),
  );
}

/** The last answer's rendered markup, without the blocks that hold it. */
const answerHtml = (page: Page) =>
  inChat(page, (root) =>
    [...root.querySelectorAll('.exchange .assistant .markdown > .block')]
      .map((block) => block.innerHTML)
      .join(''),
  );

const answerText = (page: Page) =>
  inChat(page, (root) => root.querySelector('.exchange .assistant .markdown')?.textContent ?? '');

describe('chatbot-embed.js', () => {
  it('mounts a launcher from its script tag that works from the keyboard alone', async () => {
    const page = await h.newPage();
    await page.goto(embedPage('embed.html', 'data-greeting="Hi! Ask about our hours."'));
    await page.locator('chatbot-chat[mode="launcher"]').waitFor({ state: 'attached' });
    const attrs = await page.evaluate(() => {
      const el = document.querySelector('chatbot-chat')!;
      return [el.getAttribute('base-url'), el.getAttribute('chatbot-uuid'), el.greeting];
    });
    assert.deepEqual(attrs, [h.url, chatbotUuid, 'Hi! Ask about our hours.']);
    assert.deepEqual(await axeViolations(page), [], 'axe: closed');

    // Tab from the page's own link to the launcher.
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    assert.equal(await activeInChat(page), 'Open chat');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.querySelector('chatbot-chat')!.open);
    await page.waitForFunction(
      () =>
        document.querySelector('chatbot-chat')!.shadowRoot!.activeElement?.nodeName === 'TEXTAREA',
    );
    assert.equal(await activeInChat(page), 'Message');
    assert.deepEqual(await axeViolations(page), [], 'axe: open');

    await page.keyboard.type('When is the bakery open?');
    await page.keyboard.press('Shift+Enter');
    await page.keyboard.type('Thanks!');
    await page.keyboard.press('Enter');
    await page.waitForFunction(() =>
      document.querySelector('chatbot-chat')!.shadowRoot!.querySelector('.exchange .actions'),
    );
    const [question, answer] = await inChat(page, (root) => [
      root.querySelector('.exchange .user')?.textContent?.replace(/^\s*You:\s*/, ''),
      root.querySelector('.exchange .assistant .markdown')?.textContent?.trim(),
    ]);
    assert.equal(question, 'When is the bakery open?\nThanks!');
    assert.match(answer ?? '', /7 am to 6 pm/);
    assert.equal(await activeInChat(page), 'Message', 'focus stays in the textbox');
    assert.deepEqual(await axeViolations(page), [], 'axe: answered');

    await page.keyboard.press('Escape');
    await page.waitForFunction(() => !document.querySelector('chatbot-chat')!.open);
    assert.equal(await activeInChat(page), 'Open chat', 'focus returns to the launcher');
    const { pwned, violations } = await page.evaluate(() => ({
      pwned: (window as unknown as { __pwned: number }).__pwned,
      violations: (window as unknown as { __violations: string[] }).__violations,
    }));
    assert.equal(pwned, 0);
    assert.deepEqual(violations, [], 'works under a strict CSP');
    assert.deepEqual(h.errors, []);
    await page.context().close();
  });

  it('loads the markdown renderer only when the reader reaches for the launcher, once', async () => {
    const page = await h.newPage();
    const loads: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/chatbot-markdown.js')) loads.push(request.url());
    });
    await page.goto(embedPage('embed-lazy.html'));
    const launcher = page.getByRole('button', { name: 'Open chat' });
    await launcher.waitFor();
    await page.waitForLoadState('networkidle');
    assert.deepEqual(loads, [], 'a page whose launcher is not touched does not load it');

    const loading = page.waitForRequest(/\/chatbot-markdown\.js$/);
    await launcher.hover();
    await loading;
    await launcher.click();
    await ask(page, 'When is the bakery open?');
    assert.match(await answerHtml(page), /^<p>The bakery is open from 7 am to 6 pm/);
    assert.deepEqual(loads, [`${h.url}/dist/chatbot-markdown.js`]);
    assert.deepEqual(h.errors, []);
    await page.context().close();
  });

  it('loads the renderer unasked for a returning visitor, whose conversation shows at once on opening', async () => {
    const page = await h.newPage();
    await page.goto(embedPage('embed-first-visit.html', 'data-open'));
    await ask(page, 'When is the bakery open?');

    await page.goto(embedPage('embed-returning.html'));
    const launcher = page.getByRole('button', { name: 'Open chat' });
    await launcher.waitFor();
    // The panel is closed and nothing was touched; the remembered answer renders behind it.
    await page.waitForFunction(() =>
      document
        .querySelector('chatbot-chat')!
        .shadowRoot!.querySelector('.exchange .assistant .markdown > .block'),
    );
    await launcher.click();
    assert.match(await answerHtml(page), /^<p>The bakery is open from 7 am to 6 pm/);
    assert.deepEqual(h.errors, []);
    await page.context().close();
  });

  it('shows answers as plain text, never HTML, when the renderer cannot be loaded', async () => {
    const page = await h.newPage();
    await page.route('**/chatbot-markdown.js', (route) => route.abort());
    const warnings: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'warning') warnings.push(message.text());
    });
    await page.goto(embedPage('embed-no-renderer.html', 'data-open'));
    await ask(page, 'When is the bakery open? <b>now</b>');
    const shown = await inChat(page, (root) => {
      const answer = root.querySelector('.exchange .assistant .markdown')!;
      return { plain: answer.classList.contains('plain'), elements: answer.children.length };
    });
    assert.deepEqual(shown, { plain: true, elements: 0 });
    assert.match(await answerText(page), /7 am to 6 pm/);
    assert.equal(warnings.filter((w) => w.includes('chatbot-markdown.js')).length, 1);
    assert.deepEqual(h.errors, []);
    await page.context().close();
  });

  it('renders markdown when embedded from another origin', async () => {
    const page = await h.newPage();
    const url = h.page(
      'embed-cross-origin.html',
      testPage(
        h.url,
        `<main><h1>Bakery</h1></main>
<script src="${h.url}/dist/chatbot-embed.js" data-base-url="${h.url}" data-api-key="${chatKey}" data-chatbot-uuid="${chatbotUuid}" data-open></script>`,
        '',
        false,
      ),
    );
    const other = new URL(url);
    other.hostname = 'localhost';
    await page.goto(other.href);
    await ask(page, 'When is the bakery open?');
    assert.match(await answerHtml(page), /^<p>The bakery is open from 7 am to 6 pm/);
    assert.deepEqual(h.errors, []);
    await page.context().close();
  });

  it('mounts one launcher when the snippet is pasted twice, and says why in the console', async () => {
    const page = await h.newPage();
    const warnings: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'warning') warnings.push(message.text());
    });
    const tag = `<script src="/dist/chatbot-embed.js" data-base-url="${h.url}" data-api-key="${chatKey}" data-chatbot-uuid="${chatbotUuid}" data-persist="none"></script>`;
    await page.goto(
      h.page('embed-twice.html', testPage(h.url, `<main><h1>Bakery</h1></main>${tag}${tag}`)),
    );
    await page.getByRole('button', { name: 'Open chat' }).waitFor();
    await page.waitForLoadState('load');
    assert.equal(await page.locator('chatbot-chat').count(), 1);
    assert.equal(warnings.filter((w) => w.includes('already on the page')).length, 1);
    assert.deepEqual(h.errors, []);
    await page.context().close();
  });

  it('copies an answer from a frame of another origin, where the Clipboard API is refused', async () => {
    const framed = embedPage('embed-framed.html', 'data-open data-persist="none"');
    const top = new URL(
      h.page(
        'embed-frame-host.html',
        `<!doctype html><title>Host</title><iframe src="${framed}" title="Chat" style="width: 420px; height: 640px"></iframe>`,
      ),
    );
    top.hostname = 'localhost';
    const page = await h.newPage({ permissions: ['clipboard-read', 'clipboard-write'] });
    await page.goto(top.href);
    const frame = page.frameLocator('iframe');
    const box = frame.getByRole('textbox', { name: 'Message' });
    await box.fill('When is the bakery open?');
    await box.press('Enter');
    const copy = frame.getByRole('button', { name: 'Copy answer' });
    await copy.click();
    await frame.getByRole('status').filter({ hasText: 'Copied' }).waitFor();
    assert.match(await page.evaluate(() => navigator.clipboard.readText()), /7 am to 6 pm/);
    // Focus stays on the button the reader pressed.
    assert.equal(await copy.evaluate((button) => button.matches(':focus')), true);
    assert.deepEqual(h.errors, []);
    await page.context().close();
  });

  it("says on a site its chatbot's allowed origins leave out that the chat is not available there, with no Retry", async () => {
    const listed = await h.client.chatbots.create({
      name: 'listed bakery',
      allowed_origins: [new URL(h.url).origin],
    });
    const key = await h.server.createKey('e2e', { chatOnly: listed.uuid });
    const page = await h.newPage();
    const url = h.page(
      'embed-refused-origin.html',
      testPage(
        h.url,
        `<main><h1>Another shop</h1></main>
<script src="${h.url}/dist/chatbot-embed.js" data-base-url="${h.url}" data-api-key="${key}" data-chatbot-uuid="${listed.uuid}" data-open></script>`,
        '',
        false,
      ),
    );
    const other = new URL(url);
    other.hostname = 'localhost';
    await page.goto(other.href);
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('When is the bakery open?');
    await box.press('Enter');
    const alert = page.locator('chatbot-chat [part="error"]');
    await alert.filter({ hasText: 'This chat is not available on this site.' }).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Retry' }).count(), 0);
    // Not a lost connection: the browser read the refusal (no CORS error in the console).
    assert.deepEqual(h.errors, []);
    assert.deepEqual(await h.client.sessions.list(listed.uuid), []);
    await page.context().close();
  });

  it('opens full-screen on a narrow screen', async () => {
    const page = await h.newPage({ viewport: { width: 360, height: 640 } });
    await page.goto(embedPage('embed-narrow.html'));
    await page.getByRole('button', { name: 'Open chat' }).click();
    const box = await page.locator('[part="panel"]').boundingBox();
    assert.deepEqual(box, { x: 0, y: 0, width: 360, height: 640 });
    assert.deepEqual(await axeViolations(page), [], 'axe: full-screen panel');
    await page.getByRole('button', { name: 'Close chat' }).click();
    assert.equal(await page.getByRole('button', { name: 'Open chat' }).isVisible(), true);
    await page.context().close();
  });

  it("follows the system's dark color scheme, and a forced light theme overrides it", async () => {
    const page = await h.newPage({ colorScheme: 'dark' });
    await page.goto(embedPage('embed-dark.html', 'data-open'));
    const panel = page.locator('[part="panel"]');
    await panel.waitFor();
    const background = () => panel.evaluate((node) => getComputedStyle(node).backgroundColor);
    assert.equal(await background(), 'rgb(17, 24, 39)');
    assert.deepEqual(await axeViolations(page), [], 'axe: dark');
    await page.evaluate(() =>
      document.querySelector('chatbot-chat')!.setAttribute('theme', 'light'),
    );
    assert.equal(await background(), 'rgb(255, 255, 255)');
    await page.context().close();
  });

  it('takes the optional data attributes: language, theme, suggestions, open', async () => {
    const page = await h.newPage();
    await page.goto(
      embedPage(
        'embed-de.html',
        'data-lang="de" data-theme="dark" data-suggestions="Öffnungszeiten?|Preise?" data-persist="none" data-open',
      ),
    );
    await page.getByRole('textbox', { name: 'Nachricht' }).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Chat öffnen' }).count(), 1);
    assert.equal(await page.getByRole('button', { name: 'Senden' }).count(), 1);
    assert.deepEqual(
      (await page.locator('[part="suggestion"]').allTextContents()).map((s) => s.trim()),
      ['Öffnungszeiten?', 'Preise?'],
    );
    const attrs = await page.evaluate(() => {
      const el = document.querySelector('chatbot-chat')!;
      return [el.getAttribute('theme'), el.persist, el.open];
    });
    assert.deepEqual(attrs, ['dark', 'none', true]);
    assert.deepEqual(await axeViolations(page), [], 'axe: dark, German');
    await page.context().close();
  });

  it('loads the German strings for a German page only, and is in English without them', async () => {
    const english = await h.newPage();
    const loads: string[] = [];
    english.on('request', (request) => {
      if (request.url().endsWith('/chatbot-chat-de.js')) loads.push(request.url());
    });
    await english.goto(embedPage('embed-en-only.html', 'data-open'));
    await english.getByRole('textbox', { name: 'Message' }).waitFor();
    await english.waitForLoadState('networkidle');
    assert.deepEqual(loads, [], 'an English page does not load the German strings');
    await english.context().close();

    const page = await h.newPage();
    await page.route('**/chatbot-chat-de.js', (route) => route.abort());
    const warnings: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'warning') warnings.push(message.text());
    });
    await page.goto(embedPage('embed-de-missing.html', 'data-lang="de" data-open'));
    await ask(page, 'When is the bakery open?');
    assert.match(await answerText(page), /7 am to 6 pm/);
    assert.equal(await page.getByRole('button', { name: 'Send' }).count(), 1);
    assert.equal(warnings.filter((w) => w.includes('chatbot-chat-de.js')).length, 1);
    assert.deepEqual(h.errors, []);
    await page.context().close();
  });
});
