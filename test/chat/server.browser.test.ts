import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { createChatClient, createClient } from '../../src/api/client.js';
import type { ChatbotChat } from '../../src/chat/chatbot-chat.js';
import '../../src/chat/index.js';
import { alertText, answers, button, realChatbot, shadow, until, userMessages } from './helpers.js';

/** Behaviour against the real reference server (started by web-test-runner.config.mjs). */
describe('<chatbot-chat> with the reference server', () => {
  afterEach(() => localStorage.clear());

  async function mount(bot: Awaited<ReturnType<typeof realChatbot>>, persist = 'local') {
    return fixture<ChatbotChat>(html`<chatbot-chat
      base-url=${bot.baseUrl}
      api-key=${bot.apiKey}
      chatbot-uuid=${bot.chatbotUuid}
      persist=${persist}
    ></chatbot-chat>`);
  }

  it('should answer from a Q&A source with citations linked to the source list', async () => {
    const bot = await realChatbot();
    const el = await mount(bot);
    const finished = oneEvent(el, 'chatbot-answer-finished');
    await el.send('When is the bakery open?');
    const event = await finished;
    expect(event.detail.response).to.match(/7 am to 6 pm/);
    const answer = answers(el)[0]!;
    // Unbundled (the dev server), the renderer's chunk is some twenty modules and may still be
    // on its way when so short an answer has finished; the answer waits for it.
    await until(() => answer.querySelector('.markdown'), 'the renderer');
    expect(answer.textContent).to.contain('7 am to 6 pm');
    expect(event.detail.messageUuid).to.be.a('string');
    expect(event.detail.citations?.length).to.be.greaterThan(0);
    const listed = [...answer.querySelectorAll('.sources li')].map((li) => li.textContent?.trim());
    expect(listed).to.deep.equal(['[1] What are the opening hours of the bakery?']);
    // A Q&A answer may quote its source without markers; any marker it has is a link.
    const markers = event.detail.response.match(/\[\d+\]/g) ?? [];
    expect(answer.querySelectorAll('a.citation')).to.have.length(markers.length);
    await expect(el).to.be.accessible();
  });

  it('should continue the same session after a reload, restored from the messages list', async () => {
    const bot = await realChatbot();
    const first = await mount(bot);
    await first.send('When is the bakery open?');
    const session = first.sessionUuid;
    first.remove();
    const again = await mount(bot);
    expect(again.sessionUuid).to.equal(session);
    await until(() => userMessages(again).length === 1, 'restored transcript');
    await until(() => button(again, 'Delete this exchange'), 'message uuid from the list');
    await again.send('Is it open on Sunday?');
    expect(again.sessionUuid).to.equal(session);
    const records = await bot.client.messages.list(session);
    expect(records.map((m) => m.query)).to.deep.equal([
      'When is the bakery open?',
      'Is it open on Sunday?',
    ]);
  });

  it('should create a new session once when the remembered one was deleted, keeping the conversation', async () => {
    const bot = await realChatbot();
    const el = await mount(bot);
    await el.send('When is the bakery open?');
    const old = el.sessionUuid;
    await bot.client.sessions.delete(old);
    const created = oneEvent(el, 'chatbot-session-created');
    await el.send('And on Saturday?');
    expect((await created).detail.sessionUuid).to.not.equal(old);
    expect(userMessages(el)).to.deep.equal(['When is the bakery open?', 'And on Saturday?']);
    expect(alertText(el)).to.equal('');
    const records = await bot.client.messages.list(el.sessionUuid);
    expect(records.map((m) => m.query)).to.deep.equal(['And on Saturday?']);
  });

  it('should keep the conversation of a deleted session across a reload, its answers no longer rateable', async () => {
    const bot = await realChatbot();
    const el = await mount(bot);
    await el.send('When is the bakery open?');
    await bot.client.sessions.delete(el.sessionUuid);
    await el.send('And on Saturday?');
    await el.updateComplete;
    const rateable = (chat: ChatbotChat) =>
      [...shadow(chat).querySelectorAll('.exchange')].map((x) =>
        Boolean(x.querySelector('[part="feedback"]')),
      );
    // Its messages went with the session: nothing on the service to rate or delete.
    await until(() => rateable(el).join() === 'false,true', 'only the new answer rateable');
    el.remove();
    const again = await mount(bot);
    await until(() => button(again, 'Delete this exchange'), 'restored from the list');
    expect(userMessages(again)).to.deep.equal(['When is the bakery open?', 'And on Saturday?']);
    await until(() => rateable(again).join() === 'false,true', 'the same after a reload');
  });

  it("should start another chatbot's conversation in its own session when chatbot-uuid changes, and come back to the first", async () => {
    const first = await realChatbot();
    const second = await realChatbot();
    await second.client.sources.createQa(second.chatbotUuid, {
      question: 'Where is the ferry terminal?',
      answer: 'The ferry leaves from pier 4.',
    });
    const el = await mount(first);
    await el.send('When is the bakery open?');
    const firstSession = el.sessionUuid;
    el.chatbotUuid = second.chatbotUuid;
    await el.updateComplete;
    expect(userMessages(el), "the first chatbot's conversation is not the second's").to.deep.equal(
      [],
    );
    await el.send('Where is the ferry terminal?');
    expect(el.sessionUuid).to.not.equal(firstSession);
    expect((await second.client.sessions.list(second.chatbotUuid)).map((s) => s.uuid)).to.include(
      el.sessionUuid,
    );
    expect(answers(el)[0]!.textContent).to.contain('pier 4');
    // Back to the first chatbot: its own conversation and session, as stored.
    el.chatbotUuid = first.chatbotUuid;
    await el.updateComplete;
    expect(el.sessionUuid).to.equal(firstSession);
    await until(() => userMessages(el).join() === 'When is the bakery open?', 'its conversation');
  });

  it("should show the chatbot's rate-limit message on 429 and keep the text", async () => {
    const bot = await realChatbot({
      rate_limit: [1, 60],
      rate_limit_message: 'Easy there, one per minute.',
    });
    const el = await mount(bot, 'none');
    await el.send('When is the bakery open?');
    const errored = oneEvent(el, 'chatbot-error');
    await el.send('Once more?');
    expect((await errored).detail.kind).to.equal('rate-limit');
    expect(alertText(el)).to.contain('Easy there, one per minute.');
    expect(alertText(el)).to.match(/You can send again in \d+ s/);
    expect(userMessages(el)).to.deep.equal(['When is the bakery open?', 'Once more?']);
    expect(button(el, 'Send')!.getAttribute('aria-disabled')).to.equal('true');
    await expect(el).to.be.accessible();
  });

  it('should give a question the server refuses (too long) back to the reader, with no Retry', async () => {
    const bot = await realChatbot();
    const el = await mount(bot);
    await el.send('When is the bakery open?');
    // The renderer's chunk words the refusal; a visitor who wrote so much has long had it
    // (unbundled, the dev server's twenty modules take a moment).
    await until(() => answers(el)[0]!.querySelector('.markdown'), 'the renderer');
    // Over the reference server's 20,000 characters: a 400 naming `query`.
    const long = `${'word '.repeat(4001)}end`;
    const input = shadow(el).querySelector('textarea')!;
    input.value = long;
    const errored = oneEvent(el, 'chatbot-error');
    button(el, 'Send')!.click();
    expect((await errored).detail.kind).to.equal('unknown');
    await until(() => userMessages(el).length === 1, 'the refused question out of the log');
    expect(userMessages(el)).to.deep.equal(['When is the bakery open?']);
    // Not compared with to.equal: a failure would print 20,000 characters twice.
    expect(input.value === long, 'nothing typed is lost').to.equal(true);
    // In the chat's words, not the API's ("query must be at most 20000 characters").
    expect(alertText(el)).to.equal(
      'Your message is longer than the 20000 characters this chat takes. Shorten it and send it again.',
    );
    expect(button(el, 'Retry')).to.equal(undefined);
    await expect(el).to.be.accessible();

    // Nor is it remembered as a question to retry after a reload.
    el.remove();
    const again = await mount(bot);
    await until(() => userMessages(again).length === 1, 'restored transcript');
    expect(userMessages(again)).to.deep.equal(['When is the bakery open?']);
    expect(button(again, 'Retry')).to.equal(undefined);
  });

  it('should say the key is wrong when the server refuses it', async () => {
    const bot = await realChatbot();
    const el = await fixture<ChatbotChat>(html`<chatbot-chat
      base-url=${bot.baseUrl}
      api-key="not-a-key"
      chatbot-uuid=${bot.chatbotUuid}
      persist="none"
    ></chatbot-chat>`);
    await el.send('hello');
    expect(alertText(el)).to.contain('key was refused');
    expect(userMessages(el)).to.deep.equal(['hello']);
    await expect(el).to.be.accessible();
  });

  it('should delete an exchange on the server', async () => {
    const bot = await realChatbot();
    const el = await mount(bot, 'none');
    await el.send('When is the bakery open?');
    button(el, 'Delete this exchange')!.click();
    await until(() => button(el, 'Delete'), 'the question');
    button(el, 'Delete')!.click();
    await until(() => userMessages(el).length === 0, 'exchange removed');
    expect(await bot.client.messages.list(el.sessionUuid)).to.deep.equal([]);
  });

  it('should work with a ready client passed as a property', async () => {
    const bot = await realChatbot();
    const client = createClient({ baseUrl: bot.baseUrl, getToken: () => bot.apiKey });
    const el = await fixture<ChatbotChat>(html`<chatbot-chat
      chatbot-uuid=${bot.chatbotUuid}
      persist="none"
      .client=${client}
    ></chatbot-chat>`);
    await el.send('When is the bakery open?');
    expect(shadow(el).querySelector('.assistant')?.textContent).to.contain('7 am');
  });

  it('should run a whole conversation through the chat-only client the element builds', async () => {
    const bot = await realChatbot();
    const chat = createChatClient({ baseUrl: `${bot.baseUrl}/api/v1/`, apiKey: bot.apiKey });
    expect(chat.baseUrl).to.equal(bot.baseUrl);
    expect(Object.keys(chat).sort()).to.deep.equal(['baseUrl', 'messages', 'sessions']);
    const session = await chat.sessions.create(bot.chatbotUuid, { page: 'pricing' });
    // What the element calls, and nothing else: the rest stays out of its bundle.
    expect(Object.keys(chat.sessions)).to.deep.equal(['create']);
    expect(Object.keys(chat.messages).sort()).to.deep.equal([
      'delete',
      'feedback',
      'list',
      'stream',
    ]);
    const stream = await chat.messages.stream(session.uuid, 'When is the bakery open?');
    let text = '';
    for await (const delta of stream.text) text += delta;
    expect(text).to.match(/7 am to 6 pm/);
    const listed = await chat.messages.list(session.uuid);
    expect(listed).to.have.length(1);
    expect((await chat.messages.delete(listed[0]!.uuid)).success).to.equal(true);
    expect(await chat.messages.list(session.uuid)).to.have.length(0);
  });
});
