/**
 * Attachments in the built dist/chatbot-chat.js (inline, `attachments="on"`), with a chat-only
 * key, against the real reference server, under a strict Content-Security-Policy: a text file
 * asked about and a follow-up without re-attaching it, the "too long" answer with the session
 * working after, a refused type, and the chips after a reload. The upload code is a file of its
 * own (dist/chatbot-attachments.js), fetched only for `attachments="on"`; without it the chat
 * works without the Attach file button.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { isApiError } from '../../src/api/index.js';
import { type Harness, startHarness, testPage, writeGuard } from './harness.js';

let h: Harness;
let url = '';
let offUrl = '';
let chatbotUuid = '';

before(async () => {
  h = await startHarness({ builds: ['chat'] });
  writeGuard(h);
  const chatbot = await h.client.chatbots.create({ name: 'e2e attachments', show_citations: true });
  chatbotUuid = chatbot.uuid;
  await h.client.sources.createQa(chatbot.uuid, {
    question: 'What are the opening hours of the bakery?',
    answer: 'The bakery is open from 7 am to 6 pm, Monday to Saturday.',
  });
  await h.server.idle();
  const key = await h.server.createKey('e2e', { chatOnly: chatbot.uuid });
  url = h.page(
    'attachments.html',
    testPage(
      h.url,
      `<chatbot-chat base-url="${h.url}" api-key="${key}" chatbot-uuid="${chatbot.uuid}" attachments="on"></chatbot-chat>`,
      '<script type="module" src="/dist/chatbot-chat.js"></script>',
    ),
  );
  offUrl = h.page(
    'attachments-off.html',
    testPage(
      h.url,
      `<chatbot-chat base-url="${h.url}" api-key="${key}" chatbot-uuid="${chatbot.uuid}"></chatbot-chat>`,
      '<script type="module" src="/dist/chatbot-chat.js"></script>',
    ),
  );
});

after(async () => {
  await h?.close();
});

const answersDone = (page: Page, n: number) =>
  page.waitForFunction(
    (count) =>
      document.querySelector('chatbot-chat')!.shadowRoot!.querySelectorAll('.exchange .actions')
        .length >= count,
    n,
  );

const lastAnswer = (page: Page) =>
  page.evaluate(() => {
    const all = document.querySelector('chatbot-chat')!.shadowRoot!.querySelectorAll('.assistant');
    return all[all.length - 1]?.textContent?.replace(/\s+/g, ' ').trim() ?? '';
  });

async function attach(page: Page, name: string, text: string): Promise<void> {
  await page.locator('chatbot-chat input[type="file"]').setInputFiles({
    name,
    mimeType: 'text/plain',
    buffer: Buffer.from(text),
  });
}

const uploaded = (page: Page) =>
  page.waitForFunction(() => {
    const shadow = document.querySelector('chatbot-chat')!.shadowRoot!;
    return (
      shadow.querySelector('form [part="attachment"]') && !shadow.querySelector('form progress')
    );
  });

async function ask(page: Page, text: string, n: number): Promise<void> {
  await page.getByRole('textbox', { name: 'Message' }).fill(text);
  await page.getByRole('button', { name: 'Send' }).click();
  await answersDone(page, n);
}

describe('chatbot-chat.js attachments end to end', () => {
  it('refuses a file that fits alone but not beside the session’s earlier one, keeps chatting, and keeps each document to its session', async () => {
    const page = await h.newPage();
    await page.goto(url);
    await page.getByRole('button', { name: 'Attach file' }).waitFor();

    // Each about 3,500 tokens: one fits the 6,000-token context, the two together do not.
    await attach(page, 'menu.txt', 'The soup of the day is lentil. '.repeat(450));
    await uploaded(page);
    await ask(page, 'What is the soup of the day?', 1);
    assert.match(await lastAnswer(page), /lentil/);
    await attach(page, 'prices.txt', 'A loaf of rye costs four euros. '.repeat(450));
    await uploaded(page);
    await ask(page, 'What does a loaf of rye cost?', 2);
    assert.match(
      await lastAnswer(page),
      /The uploaded file\(s\) are too long, please reduce the length and try again, or start a new chat session\./,
    );
    await ask(page, 'Which soup is served today?', 3);
    assert.match(await lastAnswer(page), /lentil/, 'the session keeps its earlier document');

    // The document is bound to the visitor's session: another session of the same chatbot, even
    // with the owner's key, cannot use it.
    const [session] = await h.client.sessions.list(chatbotUuid);
    const [first] = await h.client.messages.list(session!.uuid);
    const documents = first?.session_documents as Array<{ uuid: string; filename: string }>;
    assert.equal(documents[0]?.filename, 'menu.txt');
    const other = await h.client.sessions.create(chatbotUuid);
    const refused = await h.client.messages
      .send(other.uuid, 'What is the soup of the day?', {
        sessionDocumentUuids: [documents[0]!.uuid],
      })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    assert.ok(isApiError(refused) && refused.status === 404, String(refused));
    assert.deepEqual(h.errors, []);
    await page.context().close();
  });

  it('answers from an attached file, again without re-attaching, refuses what does not fit, and keeps the chips after a reload', async () => {
    const page = await h.newPage();
    await page.goto(url);
    await page.getByRole('button', { name: 'Attach file' }).waitFor();

    await attach(page, 'notes.txt', 'The secret word of the bakery is marmalade.');
    await uploaded(page);
    await ask(page, 'What is the secret word?', 1);
    assert.match(await lastAnswer(page), /marmalade/);
    await ask(page, 'Which word is the secret word?', 2);
    assert.match(await lastAnswer(page), /marmalade/, 'a follow-up reads the same document');

    await attach(page, 'long.txt', 'The ovens are cleaned on Sundays. '.repeat(1200));
    await uploaded(page);
    await ask(page, 'When are the ovens cleaned?', 3);
    assert.match(
      await lastAnswer(page),
      /The uploaded file\(s\) are too long, please reduce the length and try again\./,
    );
    await ask(page, 'What is the secret word?', 4);
    assert.match(await lastAnswer(page), /marmalade/, 'the session keeps working');

    await page.locator('chatbot-chat input[type="file"]').setInputFiles({
      name: 'setup.exe',
      mimeType: 'application/octet-stream',
      buffer: Buffer.from('MZ'),
    });
    await page.getByText(/This type of file cannot be attached/).waitFor();
    await page.getByRole('textbox', { name: 'Message' }).fill('still here');
    await page.getByRole('button', { name: 'Remove setup.exe' }).click();
    assert.equal(await page.getByRole('textbox', { name: 'Message' }).inputValue(), 'still here');

    await page.reload();
    await answersDone(page, 4);
    // The chips are drawn by chatbot-attachments.js, which arrives after the answers' chunk.
    await page.waitForFunction(
      () =>
        document
          .querySelector('chatbot-chat')
          ?.shadowRoot?.querySelectorAll('.user [part="attachment"]').length === 2,
    );
    const chips = await page.evaluate(() =>
      [
        ...document
          .querySelector('chatbot-chat')!
          .shadowRoot!.querySelectorAll('.user [part="attachment"] .name'),
      ].map((n) => n.textContent),
    );
    assert.deepEqual(chips, ['notes.txt', 'long.txt']);
    const { pwned, violations } = await page.evaluate(() => ({
      pwned: (window as unknown as { __pwned: number }).__pwned,
      violations: (window as unknown as { __violations: string[] }).__violations,
    }));
    assert.equal(pwned, 0);
    assert.deepEqual(violations, []);
    assert.deepEqual(h.errors, []);
    await page.context().close();
  });

  it('fetches chatbot-attachments.js only when attachments are on', async () => {
    const requested = async (address: string) => {
      const page = await h.newPage();
      const files: string[] = [];
      page.on('request', (request) => files.push(new URL(request.url()).pathname));
      const markdown = page.waitForResponse((response) =>
        response.url().endsWith('/chatbot-markdown.js'),
      );
      await page.goto(address);
      await markdown;
      // The chunk asks for attachments on the element's next update, once it has loaded.
      await page.waitForFunction(
        () =>
          !!document.querySelector('chatbot-chat')!.shadowRoot!.querySelector('form') &&
          document.readyState === 'complete',
      );
      await page.evaluate(() => document.querySelector('chatbot-chat')!.updateComplete);
      await page.waitForTimeout(300);
      await page.context().close();
      return files.filter((file) => file.endsWith('/chatbot-attachments.js'));
    };
    assert.deepEqual(await requested(offUrl), [], 'not fetched with attachments off');
    assert.deepEqual(await requested(url), ['/dist/chatbot-attachments.js'], 'fetched when on');
    assert.deepEqual(h.errors, []);
  });

  it('without chatbot-attachments.js, hides the Attach file button and keeps chatting', async () => {
    const page = await h.newPage();
    const warnings: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'warning') warnings.push(message.text());
    });
    await page.route('**/chatbot-attachments.js', (route) => route.fulfill({ status: 404 }));
    await page.goto(url);
    await ask(page, 'What are the opening hours of the bakery?', 1);
    assert.match(await lastAnswer(page), /7 am/);
    assert.equal(await page.getByRole('button', { name: 'Attach file' }).count(), 0);
    assert.equal(
      warnings.filter((text) => text.includes('chatbot-attachments.js')).length,
      1,
      'one warning says the file is missing',
    );
    assert.deepEqual(h.errors, []);
    await page.context().close();
  });
});
