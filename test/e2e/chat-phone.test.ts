/**
 * The built dist/chatbot-chat.js in launcher mode on an emulated phone (touch, no fine pointer,
 * device scale factor 3, 390×844), against the real reference server: the full-screen panel,
 * its scroll lock and focus trap, the composer above a simulated on-screen keyboard, the
 * composer's text size and what Enter does. `SCREENSHOTS=1` also writes
 * demo/screenshots/chat-phone.png for the README.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { BrowserContextOptions, Page } from 'playwright-core';
import { type Harness, root, startHarness, testPage, writeGuard } from './harness.js';

const PHONE: BrowserContextOptions = {
  viewport: { width: 390, height: 844 },
  deviceScaleFactor: 3,
  isMobile: true,
  hasTouch: true,
};

let h: Harness;
let chatbotUuid = '';
let chatKey = '';

before(async () => {
  h = await startHarness({ builds: ['chat'] });
  writeGuard(h);
  // Small text everywhere: the composer's must stay at 16px on a touch screen all the same.
  h.page('phone.css', 'chatbot-chat { --chatbot-font-size: 13px; }');
  const chatbot = await h.client.chatbots.create({ name: 'e2e phone', show_citations: true });
  await h.client.sources.createQa(chatbot.uuid, {
    question: 'What are the opening hours of the bakery?',
    answer: 'The bakery is open **7 am to 6 pm**, Monday to Saturday.',
  });
  await h.server.idle();
  chatbotUuid = chatbot.uuid;
  chatKey = await h.server.createKey('e2e', { chatOnly: chatbot.uuid });
});

after(async () => {
  await h?.close();
});

let pageCount = 0;
async function phonePage(options: BrowserContextOptions = PHONE): Promise<Page> {
  pageCount += 1;
  const url = h.page(
    `phone-${pageCount}.html`,
    testPage(
      h.url,
      `<main><h1>Bakery</h1>${'<p>Fresh bread every morning, cakes from ten.</p>'.repeat(80)}</main>
<chatbot-chat mode="launcher" persist="none" base-url="${h.url}" api-key="${chatKey}" chatbot-uuid="${chatbotUuid}"
  greeting="Ask me about the bakery."></chatbot-chat>`,
      '<link rel="stylesheet" href="/e2e/phone.css"><script type="module" src="/dist/chatbot-chat.js"></script>',
    ),
  );
  const page = await h.newPage(options);
  await page.goto(url);
  await page.waitForFunction(() => customElements.get('chatbot-chat') !== undefined);
  return page;
}

/** Scrolls the page, then opens the launcher with a tap and waits for the full-screen hold. */
async function openPanel(page: Page, scrollY = 600): Promise<void> {
  await page.evaluate((y) => window.scrollTo(0, y), scrollY);
  await page.getByRole('button', { name: 'Open chat' }).tap();
  await page.waitForFunction(
    () =>
      document
        .querySelector('chatbot-chat')!
        .shadowRoot!.querySelector('.panel')!
        .getAttribute('aria-modal') === 'true',
  );
}

const panelBox = (page: Page) =>
  page.evaluate(() => {
    const r = document
      .querySelector('chatbot-chat')!
      .shadowRoot!.querySelector('.panel')!
      .getBoundingClientRect();
    return { top: r.top, left: r.left, width: r.width, height: r.height };
  });

const exchanges = (page: Page) =>
  page.evaluate(
    () => document.querySelector('chatbot-chat')!.shadowRoot!.querySelectorAll('.exchange').length,
  );

describe('chatbot-chat.js on a phone', () => {
  it('covers the screen, locks the page behind and puts it back where it was on close', async () => {
    const page = await phonePage();
    const bodyTop = () => page.evaluate(() => document.body.getBoundingClientRect().top);
    await openPanel(page);
    // The page is held where it was (give or take its body's collapsed margin).
    const before = await bodyTop();
    assert.ok(Math.abs(before + 600) <= 8, `page held at its scroll position (${before})`);
    assert.deepEqual(await panelBox(page), { top: 0, left: 0, width: 390, height: 844 });
    const box = page.getByRole('textbox', { name: 'Message' });
    assert.equal(
      await box.evaluate((node) => getComputedStyle(node).fontSize),
      '16px',
      'at least 16px although --chatbot-font-size is 13px',
    );
    assert.equal(
      await page.evaluate(() => getComputedStyle(document.documentElement).overflow),
      'hidden',
    );
    // A swipe on the page behind moves nothing.
    await page.mouse.wheel(0, 400);
    await page.waitForTimeout(100);
    assert.equal(await bodyTop(), before, 'nor after a swipe');
    await page.getByRole('button', { name: 'Close chat' }).tap();
    await page.waitForFunction(() => !document.querySelector('chatbot-chat')!.open);
    assert.equal(await page.evaluate(() => window.scrollY), 600, 'scroll position restored');
    assert.equal(await page.evaluate(() => document.documentElement.style.overflow), '');
    assert.equal(await page.evaluate(() => document.body.style.cssText), '');
    await page.context().close();
  });

  it('covers the screen of a phone held sideways, low rather than narrow', async () => {
    const page = await phonePage({ ...PHONE, viewport: { width: 844, height: 390 } });
    await openPanel(page, 300);
    assert.deepEqual(await panelBox(page), { top: 0, left: 0, width: 844, height: 390 });
    assert.equal(
      await page.evaluate(() => getComputedStyle(document.documentElement).overflow),
      'hidden',
      'the page behind is held',
    );
    await page.context().close();
  });

  it('holds the page again when the open panel is taken off it and put back', async () => {
    const page = await phonePage();
    await openPanel(page);
    const modal = () =>
      page.evaluate(() =>
        document
          .querySelector('chatbot-chat')!
          .shadowRoot!.querySelector('.panel')!
          .getAttribute('aria-modal'),
      );
    // What a framework's re-render may do: out of the page, then back, still open.
    await page.evaluate(() => {
      const chat = document.querySelector('chatbot-chat')!;
      const parent = chat.parentNode!;
      chat.remove();
      return new Promise((resolve) => setTimeout(resolve, 50)).then(() => parent.append(chat));
    });
    await page.waitForFunction(
      () =>
        document
          .querySelector('chatbot-chat')!
          .shadowRoot!.querySelector('.panel')!
          .getAttribute('aria-modal') === 'true',
    );
    assert.equal(await modal(), 'true');
    assert.equal(
      await page.evaluate(() => getComputedStyle(document.documentElement).overflow),
      'hidden',
    );
    await page.context().close();
  });

  it('keeps the composer above a keyboard that shrinks the viewport, and the log at its end', async () => {
    const page = await phonePage();
    await openPanel(page, 0);
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('When is the bakery open?');
    await page.getByRole('button', { name: 'Send' }).tap();
    await page.waitForFunction(
      () =>
        document.querySelector('chatbot-chat')!.shadowRoot!.querySelectorAll('.exchange .actions')
          .length === 1,
    );
    await box.focus();
    // The on-screen keyboard: the visual viewport loses its lower part.
    await page.setViewportSize({ width: 390, height: 460 });
    await page.waitForFunction(() => window.visualViewport!.height === 460);
    await page.waitForTimeout(100);
    const panel = await panelBox(page);
    assert.equal(panel.top, 0);
    assert.equal(panel.height, 460, 'the panel fits the visible part');
    const { composerBottom, logGap, focused } = await page.evaluate(() => {
      const shadow = document.querySelector('chatbot-chat')!.shadowRoot!;
      const log = shadow.querySelector<HTMLElement>('.log')!;
      return {
        composerBottom: shadow.querySelector('form')!.getBoundingClientRect().bottom,
        logGap: log.scrollHeight - log.clientHeight - log.scrollTop,
        focused: shadow.activeElement?.tagName,
      };
    });
    assert.ok(composerBottom <= 460, `composer visible above the keyboard (${composerBottom})`);
    assert.ok(logGap <= 2, `the log still shows its end (${logGap}px left below)`);
    assert.equal(focused, 'TEXTAREA');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.waitForFunction(() => window.visualViewport!.height === 844);
    await page.waitForTimeout(100);
    assert.equal((await panelBox(page)).height, 844);
    if (process.env.SCREENSHOTS) {
      await page.screenshot({ path: join(root, 'demo/screenshots/chat-phone.png') });
    }
    await page.context().close();
  });

  it('keeps Tab and Shift+Tab inside the open panel', async () => {
    const page = await phonePage();
    await openPanel(page);
    const inside = () =>
      page.evaluate(() => {
        const el = document.querySelector('chatbot-chat')!;
        return document.activeElement === el && el.shadowRoot!.activeElement !== null;
      });
    for (let i = 0; i < 8; i += 1) {
      await page.keyboard.press('Tab');
      assert.ok(await inside(), `focus inside the panel after ${i + 1} Tab`);
    }
    for (let i = 0; i < 8; i += 1) {
      await page.keyboard.press('Shift+Tab');
      assert.ok(await inside(), `focus inside the panel after ${i + 1} Shift+Tab`);
    }
    // Focus sent to the page behind comes back.
    await page.evaluate(() => {
      const link = document.createElement('button');
      document.body.append(link);
      link.focus();
    });
    assert.ok(await inside(), 'focus recalled into the panel');
    await page.context().close();
  });

  it('writes a new line on Enter from a touch keyboard and sends from the Send button', async () => {
    const page = await phonePage();
    await openPanel(page);
    const box = page.getByRole('textbox', { name: 'Message' });
    assert.equal(await box.getAttribute('enterkeyhint'), 'enter');
    await box.fill('first line');
    await box.press('Enter');
    await box.pressSequentially('second line');
    assert.equal(await box.inputValue(), 'first line\nsecond line');
    assert.equal(await exchanges(page), 0, 'Enter sent nothing');
    await page.getByRole('button', { name: 'Send' }).tap();
    await page.waitForFunction(
      () =>
        document.querySelector('chatbot-chat')!.shadowRoot!.querySelectorAll('.exchange').length ===
        1,
    );
    assert.equal(await box.inputValue(), '');
    await page.context().close();
  });

  it('keeps Enter to send with a hardware keyboard and a fine pointer, on a narrow window', async () => {
    const page = await phonePage({ viewport: { width: 390, height: 844 } });
    await page.getByRole('button', { name: 'Open chat' }).click();
    const box = page.getByRole('textbox', { name: 'Message' });
    assert.equal(await box.getAttribute('enterkeyhint'), 'send');
    await box.fill('When is the bakery open?');
    await box.press('Enter');
    await page.waitForFunction(
      () =>
        document.querySelector('chatbot-chat')!.shadowRoot!.querySelectorAll('.exchange').length ===
        1,
    );
    assert.deepEqual(h.errors, [], 'no console errors');
    await page.context().close();
  });
});
