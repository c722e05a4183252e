/**
 * The quality loop, end to end, with the built bundles against the real reference server: a
 * visitor rates an answer "Not helpful" with a reason → the owner finds it under the "Not helpful"
 * filter in Conversations → adds it as a Q&A with a corrected answer → the same question asked
 * again is answered from the new Q&A with a citation → Insights counts the rating and the gap,
 * leaving out the owner's asking in Try it. The steps share one admin page and run in order.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { axeViolations, type Harness, startHarness, testPage, writeGuard } from './harness.js';

const TIMEOUT = 20_000;
const QUESTION = 'Can I park my bicycle at the bakery?';
const CORRECTED = 'Yes: bicycle racks are in the courtyard behind the bakery, free of charge.';

let h: Harness;
let chatbotUuid: string;
let chatKey: string;
let admin: Page;

before(async () => {
  h = await startHarness({ builds: ['api', 'chat', 'admin'] });
  writeGuard(h);
  const chatbot = await h.client.chatbots.create({
    name: 'e2e review bakery',
    show_citations: true,
  });
  chatbotUuid = chatbot.uuid;
  await h.client.sources.createQa(chatbotUuid, {
    question: 'What are the opening hours of the bakery?',
    answer: 'The bakery is open 7 am to 6 pm, Monday to Saturday.',
  });
  await h.server.idle();
  chatKey = await h.server.createKey('e2e', { chatOnly: chatbotUuid });
});

after(async () => {
  await admin?.context().close();
  await h?.close();
});

describe('the review loop, from a visitor’s rating to a fixed answer', () => {
  it('a visitor rates an uncovered answer "Not helpful", with a reason and a comment', async () => {
    const page = await h.newPage();
    page.setDefaultTimeout(TIMEOUT);
    await page.goto(
      h.page(
        'review-visitor.html',
        testPage(
          h.url,
          `<main><h1>Bakery</h1>
<chatbot-chat base-url="${h.url}" api-key="${chatKey}" chatbot-uuid="${chatbotUuid}"></chatbot-chat></main>`,
          '<script type="module" src="/dist/chatbot-chat.js"></script>',
        ),
      ),
    );
    const chat = page.locator('chatbot-chat');
    await chat.getByRole('textbox', { name: 'Message' }).fill(QUESTION);
    await chat.getByRole('button', { name: 'Send' }).click();
    const answer = chat.locator('[part~=assistant-message]').last();
    await answer.getByText(/couldn't find anything about that/).waitFor();

    await chat.getByRole('button', { name: 'Not helpful' }).click();
    await chat.getByRole('radio', { name: 'Incomplete' }).check();
    await chat.getByRole('textbox', { name: 'Comment (optional)' }).fill('Nothing about bikes');
    await chat.getByRole('button', { name: 'Send feedback' }).click();
    assert.equal(
      await chat.getByRole('button', { name: 'Not helpful' }).getAttribute('aria-pressed'),
      'true',
    );
    assert.deepEqual(await axeViolations(page, 'chatbot-chat'), []);

    // The rating is on the server's record, where the owner will look for it.
    const deadline = Date.now() + TIMEOUT;
    let feedback: Record<string, unknown> = {};
    while (Date.now() < deadline) {
      const page1 = await h.client.review.messages(chatbotUuid, { rating: 'down' });
      const record = page1.data.find((m) => m.query === QUESTION);
      if (record?.feedback_json) {
        feedback = JSON.parse(record.feedback_json) as Record<string, unknown>;
        if (feedback.comment) break;
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.equal(feedback.rating, 'down');
    assert.equal(feedback.reason, 'incomplete');
    assert.equal(feedback.comment, 'Nothing about bikes');
    await page.context().close();
  });

  it('the owner finds it under "Not helpful" in Conversations and adds it as a Q&A', async () => {
    admin = await h.newPage({ viewport: { width: 1280, height: 900 } });
    admin.setDefaultTimeout(TIMEOUT);
    await admin.goto(
      h.page(
        'review-admin.html',
        testPage(
          h.url,
          `<main><h1>Dashboard</h1>
<chatbot-admin base-url="${h.url}" api-key="${h.apiKey}"></chatbot-admin></main>`,
          '<script type="module" src="/dist/chatbot-admin.js"></script>',
        ),
      ),
    );
    await admin
      .getByRole('button', { name: /e2e review bakery/ })
      .first()
      .click();
    await admin.getByRole('tab', { name: 'Conversations', exact: true }).click();
    const conversations = admin.locator('#panel-sessions');
    await conversations
      .getByRole('combobox', { name: 'Rating' })
      .selectOption({ label: 'Not helpful' });
    const open = conversations.getByRole('button', { name: `Open session: ${QUESTION}` });
    await open.waitFor();
    // The row's marks are drawn whole by the built bundle: its minified templates once put the
    // "not covered" mark's slash inside its circle, where it is not drawn.
    const shapes = await conversations.locator('.tbody .flag svg.icon').evaluateAll((icons) =>
      icons.flatMap((icon) =>
        [...icon.querySelectorAll('*')].map((shape) => {
          const box = (shape as SVGGraphicsElement).getBBox();
          return shape.parentElement === icon && box.width + box.height > 0;
        }),
      ),
    );
    assert.ok(shapes.length >= 4, `the not helpful and not covered marks' shapes: ${shapes}`);
    assert.ok(shapes.every(Boolean), `each shape drawn, in its icon: ${shapes}`);
    await open.click();

    const transcript = conversations.locator('[part=transcript]');
    await transcript.getByText(/Rated not helpful/).waitFor();
    await transcript.getByText(/Nothing about bikes/).waitFor();
    await transcript.getByRole('button', { name: `Add as Q&A: ${QUESTION}` }).click();
    const form = conversations.locator('form.qa-form');
    assert.equal(await form.locator('input[name=question]').inputValue(), QUESTION);
    await form.locator('textarea[name=answer]').fill(CORRECTED);
    await form.getByRole('button', { name: 'Add Q&A' }).click();
    await conversations.getByText('Added as a Q&A source.').waitFor();

    const sources = await h.client.sources.list(chatbotUuid);
    const added = sources.find((s) => s.title === QUESTION);
    assert.ok(added, 'the Q&A source exists');
  });

  it('the same question, asked again from Try it, is answered from the new Q&A with a citation', async () => {
    await h.server.idle();
    await admin
      .locator('#panel-sessions')
      .getByRole('button', { name: 'Ask again in Try it' })
      .click();
    const chat = admin.locator('#panel-try chatbot-chat');
    const answer = chat.locator('[part~=assistant-message]').last();
    await answer.getByText(/bicycle racks are in the courtyard/).waitFor();
    await chat.locator('[part~=sources]').last().getByText(QUESTION).waitFor();
  });

  it('Insights counts the rating and lists the question as a knowledge gap', async () => {
    await admin.getByRole('tab', { name: 'Insights', exact: true }).click();
    const insights = admin.locator('#panel-insights');
    const notHelpful = insights.locator('.stat').filter({ hasText: 'Not helpful' }).first();
    await notHelpful.locator('.value').getByText('1', { exact: true }).waitFor();
    const gaps = insights.locator('section[aria-labelledby=gaps-heading]');
    await gaps.getByText(QUESTION).waitFor();
    assert.deepEqual(await axeViolations(admin, 'chatbot-admin'), []);
    assert.deepEqual(h.errors, []);
  });

  it("the question asked in Try it is the owner's test: out of Insights and Conversations unless asked for", async () => {
    const insights = admin.locator('#panel-insights');
    // The visitor's question alone: the owner's asking in Try it is not counted.
    const messages = insights.locator('.stat').filter({ hasText: 'Messages' }).first();
    await messages.locator('.value').getByText('1', { exact: true }).waitFor();
    await insights.getByText("These figures leave out the owner's tests in Try it.").waitFor();
    const everyone = await h.client.review.insights(chatbotUuid, { test: 'include' });
    assert.equal(everyone.totals.messages, 2);

    await admin.getByRole('tab', { name: 'Conversations', exact: true }).click();
    const conversations = admin.locator('#panel-sessions');
    await conversations.getByRole('button', { name: 'Clear filters' }).click();
    // Both began with the same question: the visitor's alone is listed.
    const rows = conversations.getByRole('button', { name: `Open session: ${QUESTION}` });
    await conversations.getByText('1 shown').waitFor();
    assert.equal(await rows.count(), 1);
    const askedBy = conversations.getByRole('combobox', { name: 'Asked by' });
    await askedBy.selectOption({ label: "Visitors and the owner's tests" });
    await conversations.getByText('2 shown').waitFor();
    assert.equal(await rows.count(), 2);
    await askedBy.selectOption({ label: "The owner's tests (Try it)" });
    await conversations.getByText('1 shown').waitFor();
    const mark = conversations.locator('.tbody .flag.test');
    await mark.waitFor();
    assert.equal(await mark.getAttribute('title'), "The owner's test in Try it");
    await rows.click();
    await conversations.getByText(/^The owner's test in Try it: Insights leaves it out/).waitFor();
    assert.deepEqual(await axeViolations(admin, 'chatbot-admin'), []);
    assert.deepEqual(h.errors, []);
  });
});
