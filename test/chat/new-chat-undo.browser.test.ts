import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import type { ChatbotChat } from '../../src/chat/chatbot-chat.js';
import '../../src/chat/index.js';
import { button, input, realChatbot, shadow, until, userMessages } from './helpers.js';

type Bot = Awaited<ReturnType<typeof realChatbot>>;

/** New conversation forgets the conversation at once; Undo brings it back (real server). */
describe('<chatbot-chat> New conversation, undone', () => {
  afterEach(async () => {
    localStorage.clear();
    await executeServerCommand('emulate-touch', { enabled: false });
  });

  async function mount(bot: Bot, attrs: { lang?: string; userId?: string } = {}) {
    return fixture<ChatbotChat>(html`<chatbot-chat
      base-url=${bot.baseUrl}
      api-key=${bot.apiKey}
      chatbot-uuid=${bot.chatbotUuid}
      lang=${attrs.lang ?? 'en'}
      user-id=${attrs.userId ?? ''}
    ></chatbot-chat>`);
  }

  /** Whether Undo is offered (a boolean: chai's message for an element it did not expect is huge). */
  const offered = (el: ChatbotChat) => button(el, 'Undo') !== undefined;

  /** The status region's text, with the Undo button's. */
  const status = (el: ChatbotChat) =>
    (shadow(el).querySelector('[role=status]')?.textContent ?? '').replace(/\s+/g, ' ').trim();

  /** A conversation of one answered question, its answers' chunk loaded (it draws the offer). */
  async function answered(el: ChatbotChat): Promise<string> {
    const finished = oneEvent(el, 'chatbot-answer-finished');
    await el.send('When is the bakery open?');
    await finished;
    await until(() => shadow(el).querySelector('.assistant .markdown'), 'the renderer');
    await until(() => button(el, 'Helpful'), 'the answers’ chunk');
    return el.sessionUuid;
  }

  it('should bring the conversation and its session back with Undo, and go on in it', async () => {
    const bot = await realChatbot();
    const el = await mount(bot);
    const session = await answered(el);
    button(el, 'New conversation')!.click();
    await el.updateComplete;
    expect(userMessages(el)).to.deep.equal([]);
    expect(el.sessionUuid).to.equal('');
    expect(shadow(el).activeElement === input(el), 'focus in the textbox').to.equal(true);
    await until(() => button(el, 'Undo'), 'the Undo offer');
    expect(status(el)).to.equal('New conversation started. Undo');
    await expect(el).to.be.accessible();

    button(el, 'Undo')!.click();
    await until(() => userMessages(el).length === 1, 'the conversation back');
    expect(userMessages(el)).to.deep.equal(['When is the bakery open?']);
    expect(el.sessionUuid).to.equal(session);
    expect(offered(el)).to.equal(false);
    expect(status(el)).to.equal('');
    expect(shadow(el).activeElement === input(el), 'focus in the textbox').to.equal(true);
    await until(
      () => shadow(el).querySelector('.assistant')?.textContent?.includes('7 am'),
      'its answer',
    );

    await el.send('Is it open on Saturday?');
    expect(el.sessionUuid).to.equal(session);
    const records = await bot.client.messages.list(session);
    expect(records.map((m) => m.query)).to.deep.equal([
      'When is the bakery open?',
      'Is it open on Saturday?',
    ]);
    // Remembered again: a reload shows the whole conversation.
    el.remove();
    const again = await mount(bot);
    expect(again.sessionUuid).to.equal(session);
    await until(() => userMessages(again).length === 2, 'the remembered conversation');
  });

  it('should bring back a question the service never answered', async () => {
    // One message a minute: the second question is refused (429), so only this page has it.
    const bot = await realChatbot({ rate_limit: [1, 60], rate_limit_message: 'Slow down.' });
    const el = await mount(bot);
    await answered(el);
    const refused = oneEvent(el, 'chatbot-error');
    await el.send('Is it open on Saturday?');
    expect((await refused).detail.kind).to.equal('rate-limit');
    button(el, 'New conversation')!.click();
    await until(() => button(el, 'Undo'), 'the Undo offer');

    // Undo reads the session's list from the service again: note when the client has read it.
    const original = window.fetch;
    let listed = false;
    window.fetch = async (...args) => {
      const response = await original(...args);
      if (String(args[0] instanceof Request ? args[0].url : args[0]).endsWith('/messages')) {
        const read = response.text.bind(response);
        response.text = () =>
          read().finally(() => {
            listed = true;
          });
      }
      return response;
    };
    try {
      button(el, 'Undo')!.click();
      await until(() => listed, 'the list read again');
    } finally {
      window.fetch = original;
    }
    // What follows the read is promise reactions, all run before the next task.
    await new Promise((resolve) => setTimeout(resolve));
    await el.updateComplete;
    // The list holds the first question only; the refused one is this page's to give back.
    expect(userMessages(el)).to.deep.equal(['When is the bakery open?', 'Is it open on Saturday?']);
  });

  it('should stop offering Undo once the new conversation has a message', async () => {
    const bot = await realChatbot();
    const el = await mount(bot);
    const old = await answered(el);
    button(el, 'New conversation')!.click();
    await until(() => button(el, 'Undo'), 'the Undo offer');
    const created = oneEvent(el, 'chatbot-session-created');
    await el.send('Do you bake sourdough bread?');
    expect((await created).detail.sessionUuid).to.not.equal(old);
    expect(offered(el)).to.equal(false);
    expect(status(el)).to.equal('');
    expect(userMessages(el)).to.deep.equal(['Do you bake sourdough bread?']);
    expect((await bot.client.messages.list(old)).map((m) => m.query)).to.deep.equal([
      'When is the bakery open?',
    ]);
  });

  it("should never offer one visitor's conversation back to the next (user-id changes)", async () => {
    const bot = await realChatbot();
    const el = await mount(bot, { userId: 'alice' });
    await answered(el);
    button(el, 'New conversation')!.click();
    await until(() => button(el, 'Undo'), 'the Undo offer');
    el.userId = 'bob';
    await el.updateComplete;
    expect(offered(el)).to.equal(false);
    expect(status(el)).to.equal('');
    expect(userMessages(el)).to.deep.equal([]);
    expect(el.sessionUuid).to.equal('');
  });

  it('should take the Undo offer away with forget(), called at sign-out', async () => {
    const bot = await realChatbot();
    const el = await mount(bot);
    await answered(el);
    button(el, 'New conversation')!.click();
    await until(() => button(el, 'Undo'), 'the Undo offer');
    el.forget();
    await el.updateComplete;
    expect(offered(el)).to.equal(false);
    expect(status(el)).to.equal('');
  });

  it('should say it in German, and give Undo a finger’s target on a touch screen', async () => {
    const bot = await realChatbot();
    await executeServerCommand('emulate-touch', { enabled: true });
    const el = await mount(bot, { lang: 'de' });
    await el.send('Wann hat die Bäckerei geöffnet?');
    await until(() => button(el, 'Hilfreich'), 'the answers’ chunk');
    button(el, 'Neue Unterhaltung')!.click();
    await until(() => button(el, 'Rückgängig'), 'the Undo offer');
    expect(status(el)).to.equal('Neue Unterhaltung begonnen. Rückgängig');
    const undo = button(el, 'Rückgängig')!.getBoundingClientRect();
    expect(undo.width).to.be.at.least(44);
    expect(undo.height).to.be.at.least(44);
    // What is under its centre is the button: the pill lets clicks through everywhere else.
    const hit = shadow(el).elementFromPoint(undo.left + undo.width / 2, undo.top + undo.height / 2);
    expect(hit === button(el, 'Rückgängig'), hit?.outerHTML).to.equal(true);
  });
});
