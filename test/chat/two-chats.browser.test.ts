import { expect, fixture, html } from '@open-wc/testing';
import type { ChatbotChat } from '../../src/chat/chatbot-chat.js';
import '../../src/chat/index.js';
import { answers, ask, realChatbot, until, userMessages } from './helpers.js';

type Bot = Awaited<ReturnType<typeof realChatbot>>;

/** Six in practice: each chat reads the list once per save of the other's that changed it. */
const MAX_READS = 10;

/**
 * Two chats of the same chatbot in one page (a launcher on every page, and the same chatbot
 * inline on the help page), one visitor: the browser's storage event tells other pages only, so
 * the page's own chats tell each other (real server).
 */
describe('<chatbot-chat> twice in one page', () => {
  const realFetch = window.fetch;
  let lists = 0;
  beforeEach(() => {
    lists = 0;
    // Counts the reads of a session's messages, which a chat makes when it takes up a stored
    // conversation.
    window.fetch = (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input), location.href);
      if (url.pathname.endsWith('/messages')) lists++;
      return realFetch(input, init);
    };
  });
  afterEach(() => {
    window.fetch = realFetch;
    localStorage.clear();
  });

  async function chats(bot: Bot, count: number): Promise<ChatbotChat[]> {
    const wrapper = await fixture<HTMLElement>(html`<div>
      ${Array.from(
        { length: count },
        () => html`<chatbot-chat
          base-url=${bot.baseUrl}
          api-key=${bot.apiKey}
          chatbot-uuid=${bot.chatbotUuid}
        ></chatbot-chat>`,
      )}
    </div>`);
    const all = [...wrapper.querySelectorAll('chatbot-chat')] as ChatbotChat[];
    await Promise.all(all.map((el) => el.updateComplete));
    return all;
  }

  it('should show a question asked in one in the other, and go on in one session', async () => {
    const bot = await realChatbot();
    const [inline, launcher] = await chats(bot, 2);
    await ask(inline!, 'When is the bakery open?');
    await until(
      () => userMessages(launcher!).join() === 'When is the bakery open?',
      'the question in the other chat',
    );
    expect(launcher!.sessionUuid).to.equal(inline!.sessionUuid);

    // Asked there, it joins the same session instead of starting one that would replace the
    // remembered conversation.
    await ask(launcher!, 'Is it open on Saturday?');
    expect(launcher!.sessionUuid).to.equal(inline!.sessionUuid);
    await until(() => userMessages(inline!).length === 2, 'the other chat’s question here');
    const records = await bot.client.messages.list(inline!.sessionUuid);
    expect(records.map((m) => m.query)).to.deep.equal([
      'When is the bakery open?',
      'Is it open on Saturday?',
    ]);

    // Once both show the conversation, neither takes up the other's saves again and again.
    await until(() => userMessages(launcher!).length === 2, 'both questions in both');
    // Each follow reads the list once; chats answering each other's saves would read it without
    // end. Waits for that, or for half a second without a read (a slow machine only ends this
    // sooner: the bound holds either way).
    let seen = lists;
    let quietSince = performance.now();
    await until(() => {
      if (lists !== seen) [seen, quietSince] = [lists, performance.now()];
      return lists > MAX_READS || performance.now() - quietSince > 500;
    }, 'the chats to stop reading the list');
    expect(lists, 'reads of the list in all').to.be.at.most(MAX_READS);
  });

  it('should keep the answers it shows as they are when it follows the other chat', async () => {
    const bot = await realChatbot();
    const [inline, launcher] = await chats(bot, 2);
    await ask(inline!, 'When is the bakery open?');
    await until(() => answers(launcher!)[0]?.textContent?.trim(), 'the answer in the other chat');
    const first = answers(launcher!)[0]!;
    first.dataset.marked = 'kept';
    first.querySelector<HTMLElement>('.markdown')!.dataset.marked = 'kept';
    await ask(inline!, 'Is it open on Saturday?');
    await until(() => answers(launcher!)[1]?.textContent?.trim(), 'the second answer there');
    // Drawn again, the first answer would be a new node: a reader's selection in it lost, and
    // its markdown rendered once more for every answer the other chat gets.
    const now = answers(launcher!)[0]!;
    expect(now.querySelector<HTMLElement>('.markdown')?.dataset.marked, 'its markdown').to.equal(
      'kept',
    );
    expect(now.dataset.marked, 'the exchange, not taken off the page and put back').to.equal(
      'kept',
    );
  });

  it('should forget the conversation in the other one too', async () => {
    const bot = await realChatbot();
    const [inline, launcher] = await chats(bot, 2);
    await ask(inline!, 'When is the bakery open?');
    await until(() => userMessages(launcher!).length === 1, 'the question in the other chat');
    launcher!.forget();
    await until(() => userMessages(inline!).length === 0, 'the other chat forgetting it');
    expect(inline!.sessionUuid).to.equal('');
  });

  it('should keep a session the page gave it when the other chat saves its own', async () => {
    const bot = await realChatbot();
    const given = (await bot.client.sessions.create(bot.chatbotUuid)).uuid;
    const wrapper = await fixture<HTMLElement>(html`<div>
      <chatbot-chat base-url=${bot.baseUrl} api-key=${bot.apiKey} chatbot-uuid=${bot.chatbotUuid}></chatbot-chat>
      <chatbot-chat
        base-url=${bot.baseUrl}
        api-key=${bot.apiKey}
        chatbot-uuid=${bot.chatbotUuid}
        session-uuid=${given}
      ></chatbot-chat>
    </div>`);
    const [launcher, support] = [...wrapper.querySelectorAll('chatbot-chat')] as ChatbotChat[];
    await ask(support!, 'Is it open on Saturday?');
    // The launcher takes up the conversation the support chat saved, as on a reload…
    await until(() => userMessages(launcher!).length === 1, 'the question in the launcher');
    expect(launcher!.sessionUuid).to.equal(given);
    // …but its forgetting it, and the conversation it starts then in a session of its own, leave
    // the given one where it is.
    launcher!.forget();
    await ask(launcher!, 'When is the bakery open?');
    expect(launcher!.sessionUuid).to.not.equal(given);
    expect(support!.sessionUuid).to.equal(given);
    expect(userMessages(support!)).to.deep.equal(['Is it open on Saturday?']);
  });

  it('should not take up its own saves when alone', async () => {
    const bot = await realChatbot();
    const [chat] = await chats(bot, 1);
    await ask(chat!, 'When is the bakery open?');
    await ask(chat!, 'Is it open on Saturday?');
    // A chat reading its own conversation back from the service after every answer would
    // redraw it and cost a request per answer.
    expect(lists).to.equal(0);
    expect(userMessages(chat!)).to.deep.equal([
      'When is the bakery open?',
      'Is it open on Saturday?',
    ]);
  });
});
