/**
 * The built dist/chatbot-chat.js against the real reference server, in a page with a strict
 * Content-Security-Policy, talking with a chat-only key.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { alertText, assertClean, sessionOf, userTexts } from './chat-page.js';
import { axeViolations, type Harness, startHarness, testPage, writeGuard } from './harness.js';

const BAKERY_ANSWER =
  'The bakery is open **7 am to 6 pm**, Monday to Saturday.\n\n- Bread from 7 am\n- Cakes from 10 am\n\nSee `hours.txt`.';

let h: Harness;

before(async () => {
  // Slow enough pacing that Stop can land mid-answer.
  h = await startHarness({ server: { streamDelayMs: 25 } });
  writeGuard(h);
});

after(async () => {
  await h?.close();
});

interface Bot {
  uuid: string;
  chatKey: string;
}

async function bot(
  settings: { rate_limit?: [number, number]; rate_limit_message?: string } = {},
  answer = BAKERY_ANSWER,
): Promise<Bot> {
  const chatbot = await h.client.chatbots.create({
    name: 'e2e bakery',
    show_citations: true,
    ...settings,
  });
  await h.client.sources.createQa(chatbot.uuid, {
    question: 'What are the opening hours of the bakery?',
    answer,
  });
  await h.server.idle();
  return {
    uuid: chatbot.uuid,
    chatKey: await h.server.createKey('e2e', { chatOnly: chatbot.uuid }),
  };
}

let pageCount = 0;
function chatPage(b: Bot, attrs = ''): string {
  pageCount += 1;
  return h.page(
    `chat-${pageCount}.html`,
    testPage(
      h.url,
      `<main><h1>Shop</h1>
<chatbot-chat base-url="${h.url}" api-key="${b.chatKey}" chatbot-uuid="${b.uuid}" ${attrs}></chatbot-chat>
</main>`,
      '<script type="module" src="/dist/chatbot-chat.js"></script>',
    ),
  );
}

async function open(url: string): Promise<Page> {
  const page = await h.newPage();
  await page.goto(url);
  await page.waitForFunction(() => customElements.get('chatbot-chat') !== undefined);
  return page;
}

async function ask(page: Page, text: string): Promise<void> {
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill(text);
  await box.press('Enter');
}

const answerCount = (page: Page) =>
  page.evaluate(
    () =>
      document.querySelector('chatbot-chat')!.shadowRoot!.querySelectorAll('.exchange .actions')
        .length,
  );

async function waitForAnswers(page: Page, n: number): Promise<void> {
  await page.waitForFunction(
    (count) =>
      document.querySelector('chatbot-chat')!.shadowRoot!.querySelectorAll('.exchange .actions')
        .length >= count,
    n,
  );
}

describe('chatbot-chat.js end to end', () => {
  it('answers from a Q&A source with rendered markdown and its source listed, under a strict CSP', async () => {
    const b = await bot();
    const page = await open(chatPage(b));
    assert.deepEqual(await axeViolations(page), [], 'axe: empty conversation');
    assert.equal(await sessionOf(page), '', 'no session before the first message');
    await ask(page, 'When is the bakery open?');
    await waitForAnswers(page, 1);
    const answer = page.locator('.exchange .assistant .markdown').first();
    assert.equal(await answer.locator('strong').textContent(), '7 am to 6 pm');
    assert.equal(await answer.locator('li').count(), 2);
    assert.equal(await answer.locator('code').textContent(), 'hours.txt');
    const sources = await page.locator('.sources li').allTextContents();
    assert.deepEqual(
      sources.map((s) => s.trim()),
      ['[1] What are the opening hours of the bakery?'],
    );
    assert.deepEqual(await axeViolations(page), [], 'axe: answered');
    await assertClean(page, h.errors);
    await page.context().close();
  });

  it('fetches the HTML sanitizer (chatbot-raw-html.js) only once an answer has raw HTML', async () => {
    const page = await open(chatPage(await bot()));
    const fetched: string[] = [];
    page.on('request', (request) => fetched.push(new URL(request.url()).pathname));
    await ask(page, 'When is the bakery open?');
    await waitForAnswers(page, 1);
    const answers = page.locator('.exchange .assistant .markdown');
    assert.equal(await answers.first().locator('strong').textContent(), '7 am to 6 pm');
    assert.deepEqual(
      fetched.filter((path) => path.includes('raw-html')),
      [],
      'markdown only',
    );
    await page.context().close();

    const withHtml = await open(
      chatPage(await bot({}, 'Water is H<sub>2</sub>O. <b>Fresh</b> daily.')),
    );
    withHtml.on('request', (request) => fetched.push(new URL(request.url()).pathname));
    await ask(withHtml, 'When is the bakery open?');
    await waitForAnswers(withHtml, 1);
    const answer = withHtml.locator('.exchange .assistant .markdown').first();
    await answer.locator('sub').waitFor();
    assert.equal(await answer.locator('b').textContent(), 'Fresh');
    assert.deepEqual(
      fetched.filter((path) => path.includes('raw-html')),
      ['/dist/chatbot-raw-html.js'],
    );
    await assertClean(withHtml, h.errors);
    await withHtml.context().close();
  });

  it('without chatbot-raw-html.js, shows raw HTML in an answer as text and says so once', async () => {
    const b = await bot({}, 'Water is H<sub>2</sub>O. **Fresh** daily.');
    const page = await h.newPage();
    const warnings: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'warning') warnings.push(message.text());
    });
    await page.route('**/chatbot-raw-html.js', (route) => route.fulfill({ status: 404 }));
    await page.goto(chatPage(b));
    await ask(page, 'When is the bakery open?');
    await waitForAnswers(page, 1);
    const answer = page.locator('.exchange .assistant .markdown').first();
    await page.waitForFunction(
      () => !!document.querySelector('chatbot-chat')!.shadowRoot!.querySelector('.markdown strong'),
    );
    assert.equal(await answer.locator('strong').textContent(), 'Fresh');
    assert.equal(await answer.locator('sub').count(), 0);
    assert.match((await answer.textContent()) ?? '', /H<sub>2<\/sub>O/);
    assert.equal(warnings.filter((text) => text.includes('chatbot-raw-html.js')).length, 1);
    await page.context().close();
  });

  it('continues the same session after a reload, showing the conversation', async () => {
    const b = await bot();
    const page = await open(chatPage(b));
    await ask(page, 'When is the bakery open?');
    await waitForAnswers(page, 1);
    const session = await sessionOf(page);
    assert.ok(session);
    await page.reload();
    await page.waitForFunction(() => customElements.get('chatbot-chat') !== undefined);
    await waitForAnswers(page, 1);
    assert.equal(await sessionOf(page), session);
    assert.deepEqual(await userTexts(page), ['When is the bakery open?']);
    await ask(page, 'Are cakes available in the morning?');
    await waitForAnswers(page, 2);
    assert.equal(await sessionOf(page), session);
    const records = await h.client.messages.list(session);
    assert.equal(records.length, 2);
    await assertClean(page, h.errors);
    await page.context().close();
  });

  it('moves to a new session once when its session was deleted, keeping the conversation', async () => {
    const b = await bot();
    const page = await open(chatPage(b));
    await ask(page, 'When is the bakery open?');
    await waitForAnswers(page, 1);
    const old = await sessionOf(page);
    await h.client.sessions.delete(old);
    await ask(page, 'When can I buy bread?');
    await waitForAnswers(page, 2);
    const fresh = await sessionOf(page);
    assert.notEqual(fresh, old);
    assert.deepEqual(await userTexts(page), ['When is the bakery open?', 'When can I buy bread?']);
    assert.equal(await alertText(page), '');
    assert.equal((await h.client.messages.list(fresh)).length, 1);
    await assertClean(page, h.errors);
    await page.context().close();
  });

  it("shows the chatbot's rate-limit message and when sending is possible again", async () => {
    const b = await bot({
      rate_limit: [1, 60],
      rate_limit_message: 'One question a minute, please.',
    });
    const page = await open(chatPage(b));
    await ask(page, 'When is the bakery open?');
    await waitForAnswers(page, 1);
    await ask(page, 'And cakes?');
    await page.getByRole('alert').filter({ hasText: 'One question a minute' }).waitFor();
    assert.match(await alertText(page), /You can send again in \d+ s \(at .+\)/);
    assert.equal(await page.getByRole('button', { name: 'Send' }).isDisabled(), true);
    assert.deepEqual(await userTexts(page), ['When is the bakery open?', 'And cakes?']);
    assert.deepEqual(await axeViolations(page), [], 'axe: rate-limited');
    await assertClean(page, h.errors);
    await page.context().close();
  });

  it('holds a visitor who starts a new conversation for every question to the limit all the same', async () => {
    // One question a conversation; one address may use five (CHATBOT_VISITOR_SESSIONS) times
    // that across conversations, a new conversation counting as one.
    const b = await bot({
      rate_limit: [1, 60],
      rate_limit_message: 'One question a minute, please.',
    });
    const page = await open(chatPage(b));
    const newChat = page.getByRole('button', { name: 'New conversation' });
    await ask(page, 'When is the bakery open?');
    await waitForAnswers(page, 1);
    await newChat.click();
    await ask(page, 'When is the bakery open on Saturday?');
    await waitForAnswers(page, 1);
    await newChat.click();
    await ask(page, 'And on Sunday?');
    await page.getByRole('alert').filter({ hasText: 'One question a minute' }).waitFor();
    assert.match(await alertText(page), /You can send again in \d+ s/);
    assert.deepEqual(await userTexts(page), ['And on Sunday?']);
    await assertClean(page, h.errors);
    await page.context().close();
  });

  it('keeps the partial answer when Stop is pressed mid-answer', async () => {
    const long = Array.from({ length: 120 }, (_, i) => `Sentence number ${i} about bread.`).join(
      ' ',
    );
    const b = await bot({}, long);
    const page = await open(chatPage(b));
    await ask(page, 'What are the opening hours of the bakery?');
    const stop = page.getByRole('button', { name: 'Stop' });
    await stop.waitFor();
    await page.waitForFunction(() =>
      document
        .querySelector('chatbot-chat')!
        .shadowRoot!.querySelector('.markdown')
        ?.textContent?.includes('number 2'),
    );
    assert.deepEqual(await axeViolations(page), [], 'axe: streaming');
    await stop.click();
    await waitForAnswers(page, 1);
    const text = (await page.locator('.exchange .assistant .markdown').first().textContent()) ?? '';
    assert.ok(text.includes('Sentence number 0'), 'the part that arrived is kept');
    assert.ok(!text.includes('Sentence number 119'), 'the answer was cut short');
    assert.equal(await page.locator('.exchange .assistant .status').textContent(), 'Stopped');
    assert.equal(await page.getByRole('button', { name: 'Send' }).count(), 1);
    await assertClean(page, h.errors);
    await page.context().close();
  });

  it('retries the same text after a dropped stream, without a duplicate message', async () => {
    const b = await bot();
    // The page's client cuts the first answer's body after its first chunk, as a lost
    // connection would; everything else is the real server.
    h.page(
      'dropping.js',
      `import { createClient } from '/dist/api.js';
const el = document.querySelector('chatbot-chat');
let drops = 1;
const dropping = async (input, init) => {
  const response = await fetch(input, init);
  if (!String(input).endsWith('/message/stream') || drops === 0) return response;
  drops -= 1;
  const reader = response.body.getReader();
  const body = new ReadableStream({
    async pull(controller) {
      const { value } = await reader.read();
      controller.enqueue(value);
      reader.cancel();
      controller.error(new TypeError('network error'));
    },
  });
  return new Response(body, { status: response.status, headers: response.headers });
};
el.client = createClient({ baseUrl: el.getAttribute('base-url'), apiKey: el.getAttribute('api-key'), fetch: dropping });
`,
    );
    const url = h.page(
      'drop.html',
      testPage(
        h.url,
        `<main><h1>Shop</h1>
<chatbot-chat base-url="${h.url}" api-key="${b.chatKey}" chatbot-uuid="${b.uuid}" persist="none"></chatbot-chat>
</main>`,
        '<script type="module" src="/dist/chatbot-chat.js"></script><script type="module" src="/e2e/dropping.js"></script>',
      ),
    );
    const page = await open(url);
    await page.waitForFunction(() => document.querySelector('chatbot-chat')!.client !== undefined);
    await ask(page, 'When is the bakery open?');
    const retry = page.getByRole('button', { name: 'Retry' });
    await retry.waitFor();
    assert.match(await alertText(page), /connection was lost/);
    const partial =
      (await page.locator('.exchange .assistant .markdown').first().textContent()) ?? '';
    assert.ok(partial.trim().length > 0, 'what arrived is kept');
    assert.deepEqual(await axeViolations(page), [], 'axe: failed');
    await retry.click();
    await waitForAnswers(page, 1);
    assert.deepEqual(await userTexts(page), ['When is the bakery open?']);
    assert.equal(
      await page.locator('.exchange .assistant strong').first().textContent(),
      '7 am to 6 pm',
    );
    assert.equal(await alertText(page), '');
    assert.equal(await answerCount(page), 1);
    await assertClean(page, h.errors);
    await page.context().close();
  });
});
