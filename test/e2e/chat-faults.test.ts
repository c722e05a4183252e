/**
 * The built dist/chatbot-chat.js through the faults a visitor's connection meets: the server
 * killed and restarted mid-answer, an answer that stalls, the browser going offline and back,
 * and the tab hidden while an answer streams. Every time the widget must recover, keeping the
 * part of the answer that arrived and what the visitor typed. The server is the real one in a
 * process of its own; its language model (chat-faults-helpers.ts) answers only when told, so
 * each fault lands mid-answer by construction, not by timing.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { type ChatbotClient, createClient } from '../../src/api/client.js';
import {
  hiddenTabScript,
  idleClientScript,
  ScriptedLlm,
  ServerProcess,
} from './chat-faults-helpers.js';
import { alertText, assertClean, sessionOf, userTexts } from './chat-page.js';
import { type Harness, startHarness, testPage, writeGuard } from './harness.js';

const KEY = 'faults-e2e-key';
const QUESTION = 'When does the harbour open?';
const DRAFT = 'And on Sundays?';
/** The stall timeout of the stall test's client: the answer's silence it ends. */
const STALL_MS = 1500;

let h: Harness;
let llm: ScriptedLlm;
let server: ServerProcess;
let api: ChatbotClient;
let dir: string;

before(async () => {
  h = await startHarness({ builds: ['api', 'chat'] });
  writeGuard(h);
  h.page('idle-client.js', idleClientScript);
  llm = await ScriptedLlm.start();
  dir = mkdtempSync(join(tmpdir(), 'chatbot-faults-'));
  server = await ServerProcess.start({
    db: join(dir, 'faults.sqlite'),
    apiKeys: `faults:${KEY}`,
    llm: llm.url,
  });
  api = createClient({ baseUrl: server.url, apiKey: KEY });
});

after(async () => {
  await server?.kill();
  await llm?.close();
  await h?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Records the element's answers and failures in the page, on every load of it. */
const eventsScript = `window.__finished = [];
window.__failed = [];
document.addEventListener('chatbot-answer-finished', (e) => window.__finished.push(e.detail.response));
document.addEventListener('chatbot-error', (e) => window.__failed.push(e.detail.kind));`;

let pageCount = 0;
/** A page of the harness's origin with the element talking to the server process. */
async function open(options: { stallMs?: number; hiddenTab?: boolean } = {}): Promise<Page> {
  await server.up();
  const chatbot = await api.chatbots.create({ name: 'faults harbour' });
  pageCount += 1;
  const client = options.stallMs ? '<script type="module" src="/e2e/idle-client.js"></script>' : '';
  const url = h.page(
    `faults-${pageCount}.html`,
    testPage(
      server.url,
      `<main><h1>Harbour</h1>
<chatbot-chat base-url="${server.url}" api-key="${KEY}" chatbot-uuid="${chatbot.uuid}" data-stream-idle-ms="${options.stallMs ?? ''}"></chatbot-chat>
</main>`,
      `<script type="module" src="/dist/chatbot-chat.js"></script>${client}`,
    ),
  );
  const page = await h.newPage();
  await page.addInitScript(eventsScript);
  if (options.hiddenTab) await page.addInitScript(hiddenTabScript);
  await page.goto(url);
  await page.waitForFunction(() => customElements.get('chatbot-chat') !== undefined);
  if (options.stallMs) {
    await page.waitForFunction(() => document.querySelector('chatbot-chat')!.client !== undefined);
  }
  return page;
}

const textbox = (page: Page) => page.getByRole('textbox', { name: 'Message' });

async function ask(page: Page, text: string): Promise<void> {
  await textbox(page).fill(text);
  await textbox(page).press('Enter');
}

/** Every answer on screen, as text. */
const answers = (page: Page) =>
  page.evaluate(() =>
    [
      ...document
        .querySelector('chatbot-chat')!
        .shadowRoot!.querySelectorAll('.exchange .assistant .markdown'),
    ].map((n) => (n.textContent ?? '').trim()),
  );

/**
 * Waits until the newest answer on screen holds `text`. Polled on a timer rather than on
 * animation frames, which a hidden tab does not have.
 */
async function waitForAnswer(page: Page, text: string): Promise<void> {
  await page.waitForFunction(
    (t) =>
      [
        ...document
          .querySelector('chatbot-chat')!
          .shadowRoot!.querySelectorAll('.exchange .assistant .markdown'),
      ]
        .at(-1)
        ?.textContent?.includes(t),
    text,
    { polling: 50 },
  );
}

/** Waits for the `n`th `chatbot-answer-finished`; returns the responses the events carried. */
async function finished(page: Page, n: number): Promise<string[]> {
  await page.waitForFunction(
    (count) => (window as unknown as { __finished: string[] }).__finished.length >= count,
    n,
    { polling: 50 },
  );
  return page.evaluate(() => (window as unknown as { __finished: string[] }).__finished);
}

/** Waits for the `n`th `chatbot-error`; returns the kinds the events carried. */
async function failures(page: Page, n: number): Promise<string[]> {
  await page.waitForFunction(
    (count) => (window as unknown as { __failed: string[] }).__failed.length >= count,
    n,
  );
  return page.evaluate(() => (window as unknown as { __failed: string[] }).__failed);
}

const retryButton = (page: Page) => page.locator('[part="retry-button"]');

/** The conversation as the service stored it: each question with its answer. */
async function stored(page: Page): Promise<string[][]> {
  const records = await api.messages.list(await sessionOf(page));
  return records.map((r) => [r.query, r.response]);
}

/** Reloads the page and waits until the service's list of messages has reached it. */
async function reloadWithList(page: Page): Promise<void> {
  const listed = page.waitForResponse(
    (r) => r.request().method() === 'GET' && r.url().endsWith('/messages'),
  );
  await page.reload();
  await (await listed).finished();
  await page.waitForFunction(() => customElements.get('chatbot-chat') !== undefined);
}

/**
 * Reloads the page and returns the conversation it shows once it has taken the service's list
 * (as many exchanges as the service stored).
 */
async function afterReload(page: Page): Promise<string[][]> {
  const exchanges = (await stored(page)).length;
  await page.reload();
  await page.waitForFunction(
    (n) =>
      document.querySelector('chatbot-chat')?.shadowRoot?.querySelectorAll('.exchange .actions')
        .length === n,
    exchanges,
  );
  const questions = await userTexts(page);
  const shown = await answers(page);
  return questions.map((q, i) => [q, shown[i] ?? '']);
}

describe('chatbot-chat.js through client faults', () => {
  it('keeps the partial answer and the typed text when the server is killed mid-answer; Retry after its restart answers', async () => {
    const page = await open();
    await ask(page, 'Is there parking?');
    const earlier = await llm.next();
    earlier.send('Yes, by the pier.');
    earlier.end();
    await finished(page, 1);
    await ask(page, QUESTION);
    const cut = await llm.next();
    assert.equal(cut.question, QUESTION);
    cut.send('The harbour opens ');
    cut.send('at six. ');
    await waitForAnswer(page, 'opens at six');
    await textbox(page).fill(DRAFT);
    const session = await sessionOf(page);

    await server.kill();
    await retryButton(page).waitFor();
    assert.deepEqual(await failures(page, 1), ['network']);
    assert.match(await alertText(page), /connection was lost/);
    const partial = ['Yes, by the pier.', 'The harbour opens at six.'];
    assert.deepEqual(await answers(page), partial, 'what arrived is kept');
    assert.equal(await textbox(page).inputValue(), DRAFT);
    // Retry while the server is still down fails again, and keeps all the same.
    await retryButton(page).click();
    assert.deepEqual(await failures(page, 2), ['network', 'network']);
    await retryButton(page).waitFor();
    assert.deepEqual(await answers(page), partial, 'a failed Retry keeps what the first try got');
    assert.equal(await textbox(page).inputValue(), DRAFT);

    // The visitor reloads once the server is back: the cut answer is still there, to retry.
    await server.restart();
    await reloadWithList(page);
    await retryButton(page).waitFor();
    assert.deepEqual(await answers(page), partial);
    assert.deepEqual(await userTexts(page), ['Is there parking?', QUESTION]);

    await retryButton(page).click();
    const again = await llm.next();
    assert.equal(again.question, QUESTION, 'Retry sends the same question');
    again.send('The harbour opens at six ');
    again.send('and closes at ten.');
    again.end();
    await finished(page, 1);
    const answered = [
      ['Is there parking?', 'Yes, by the pier.'],
      [QUESTION, 'The harbour opens at six and closes at ten.'],
    ];
    assert.deepEqual(
      await answers(page),
      answered.map(([, a]) => a),
    );
    assert.deepEqual(await userTexts(page), ['Is there parking?', QUESTION]);
    assert.equal(await alertText(page), '');
    assert.equal(await sessionOf(page), session, 'the session outlived the restart');
    assert.deepEqual(await stored(page), answered);
    await assertClean(page, h.errors);
    assert.deepEqual(await afterReload(page), answered);
    await page.context().close();
  });

  it('ends a stalled answer after the stall timeout with Retry, keeping what arrived', async () => {
    const page = await open({ stallMs: STALL_MS });
    await ask(page, QUESTION);
    const stalled = await llm.next();
    stalled.send('The ferry leaves at seven. ');
    await waitForAnswer(page, 'leaves at seven');
    await textbox(page).fill(DRAFT);
    // Nothing more comes: the element's client gives up after STALL_MS of silence.
    await retryButton(page).waitFor();
    assert.match(await alertText(page), /took too long/);
    assert.deepEqual(await answers(page), ['The ferry leaves at seven.']);
    assert.equal(await textbox(page).inputValue(), DRAFT);
    // Giving up reached the server, which stopped asking the model.
    await stalled.closed;
    // Still there after a reload, to retry: the service's record of the cut answer does not
    // pass for a finished one.
    await reloadWithList(page);
    await retryButton(page).waitFor();
    assert.deepEqual(await answers(page), ['The ferry leaves at seven.']);

    await retryButton(page).click();
    const again = await llm.next();
    assert.equal(again.question, QUESTION);
    again.send('The ferry leaves at seven and returns at nine.');
    again.end();
    await finished(page, 1);
    const answered = [[QUESTION, 'The ferry leaves at seven and returns at nine.']];
    assert.deepEqual(await answers(page), [answered[0]![1]]);
    assert.equal(await alertText(page), '');
    assert.deepEqual(await stored(page), answered, "the retry's record replaced the cut one");
    await assertClean(page, h.errors);
    assert.deepEqual(await afterReload(page), answered, 'the question shows once after a reload');
    await page.context().close();
  });

  it('says so when sending offline and keeps the question; back online, Retry and the next send work', async () => {
    const page = await open();
    const context = page.context();
    await context.setOffline(true);
    await ask(page, QUESTION);
    await retryButton(page).waitFor();
    assert.match(await alertText(page), /You are offline\. Your question is kept/);
    assert.deepEqual(await userTexts(page), [QUESTION], 'the question is kept, to retry');
    await textbox(page).fill(DRAFT);
    // Retry while still offline fails the same way, and still keeps everything.
    await retryButton(page).click();
    assert.deepEqual(await failures(page, 2), ['network', 'network']);
    await retryButton(page).waitFor();
    assert.match(await alertText(page), /You are offline\. Your question is kept/);
    assert.deepEqual(await userTexts(page), [QUESTION]);
    assert.equal(await textbox(page).inputValue(), DRAFT);

    await context.setOffline(false);
    await retryButton(page).click();
    const turn = await llm.next();
    assert.equal(turn.question, QUESTION);
    turn.send('Six in the morning.');
    turn.end();
    await finished(page, 1);
    assert.deepEqual(await answers(page), ['Six in the morning.']);
    assert.equal(await alertText(page), '');
    assert.equal(await textbox(page).inputValue(), DRAFT);

    // The next question goes out as usual.
    await ask(page, DRAFT);
    const next = await llm.next();
    assert.equal(next.question, DRAFT);
    await textbox(page).fill('Thanks!');
    next.send('On Sundays it opens at eight.');
    next.end();
    await finished(page, 2);
    const answered = [
      [QUESTION, 'Six in the morning.'],
      [DRAFT, 'On Sundays it opens at eight.'],
    ];
    assert.deepEqual(
      await answers(page),
      answered.map(([, a]) => a),
    );
    assert.deepEqual(await userTexts(page), [QUESTION, DRAFT]);
    assert.equal(await textbox(page).inputValue(), 'Thanks!');
    await assertClean(page, h.errors);
    assert.deepEqual(await afterReload(page), answered);
    await page.context().close();
  });

  it('completes an answer streamed while the tab is hidden, once, whether it ends hidden or visible', async () => {
    const page = await open({ hiddenTab: true });
    const tab = (action: 'hide' | 'show') =>
      page.evaluate(
        (a) => (window as unknown as { __tab: Record<string, () => void> }).__tab[a]!(),
        action,
      );
    await ask(page, QUESTION);
    const first = await llm.next();
    first.send('Part one. ');
    await waitForAnswer(page, 'Part one.');
    await textbox(page).fill(DRAFT);
    await tab('hide');
    first.send('Part two. ');
    first.send('Part three.');
    first.end();
    // Ends while hidden: no frame comes to draw it, and the answer is finished all the same.
    assert.deepEqual(await finished(page, 1), ['Part one. Part two. Part three.']);
    await tab('show');
    await waitForAnswer(page, 'Part three.');
    assert.deepEqual(await answers(page), ['Part one. Part two. Part three.']);

    const second = 'And the ferry?';
    await page.evaluate((q) => {
      void document.querySelector('chatbot-chat')!.send(q);
    }, second);
    const turn = await llm.next();
    turn.send('Ferry one. ');
    await waitForAnswer(page, 'Ferry one.');
    await tab('hide');
    turn.send('Ferry two. ');
    // Visible again mid-answer: the rest follows on.
    await tab('show');
    await waitForAnswer(page, 'Ferry two.');
    turn.send('Ferry three.');
    turn.end();
    await finished(page, 2);
    const answered = [
      [QUESTION, 'Part one. Part two. Part three.'],
      [second, 'Ferry one. Ferry two. Ferry three.'],
    ];
    assert.deepEqual(
      await answers(page),
      answered.map(([, a]) => a),
    );
    assert.deepEqual(await userTexts(page), [QUESTION, second]);
    assert.equal(await alertText(page), '');
    assert.equal(await textbox(page).inputValue(), DRAFT);
    assert.deepEqual(await stored(page), answered);
    await assertClean(page, h.errors);
    assert.deepEqual(await afterReload(page), answered);
    await page.context().close();
  });
});
