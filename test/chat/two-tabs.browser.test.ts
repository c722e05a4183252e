import { expect, fixture, html } from '@open-wc/testing';
import type { ChatbotChat } from '../../src/chat/chatbot-chat.js';
import '../../src/chat/index.js';
import { ask, realChatbot, until, userMessages } from './helpers.js';

type Bot = Awaited<ReturnType<typeof realChatbot>>;

/**
 * One visitor, two tabs of the same site: a frame is a second document sharing this one's
 * localStorage, so it hears this one's saves as another tab would (real server).
 */
describe('<chatbot-chat> in two tabs of one visitor', () => {
  const frames: HTMLIFrameElement[] = [];
  afterEach(() => {
    for (const frame of frames.splice(0)) frame.remove();
    localStorage.clear();
  });

  const attrs = (bot: Bot) =>
    `base-url="${bot.baseUrl}" api-key="${bot.apiKey}" chatbot-uuid="${bot.chatbotUuid}"`;

  async function here(bot: Bot) {
    return fixture<ChatbotChat>(html`<chatbot-chat
      base-url=${bot.baseUrl}
      api-key=${bot.apiKey}
      chatbot-uuid=${bot.chatbotUuid}
    ></chatbot-chat>`);
  }

  /** The same chat in another document: the visitor's other tab. */
  async function otherTab(bot: Bot): Promise<ChatbotChat> {
    const frame = document.createElement('iframe');
    const element = new URL('../../src/chat/index.ts', import.meta.url).href;
    frame.srcdoc = `<!doctype html><html lang="en"><body>
      <script type="module" src="${element}"></script>
      <chatbot-chat ${attrs(bot)}></chatbot-chat></body></html>`;
    frames.push(frame);
    document.body.append(frame);
    await until(
      () =>
        frame.contentDocument?.querySelector('chatbot-chat')?.shadowRoot?.querySelector('textarea'),
      'the other tab’s chat',
    );
    return frame.contentDocument!.querySelector('chatbot-chat') as ChatbotChat;
  }

  it('should show a question asked in one tab in the other, and go on in one session', async () => {
    const bot = await realChatbot();
    const first = await here(bot);
    const second = await otherTab(bot);
    await ask(first, 'When is the bakery open?');
    await until(
      () => userMessages(second).join() === 'When is the bakery open?',
      'the question in the other tab',
    );
    expect(second.sessionUuid).to.equal(first.sessionUuid);

    // Asked there, it joins the same session, not one of its own.
    await ask(second, 'Is it open on Saturday?');
    expect(second.sessionUuid).to.equal(first.sessionUuid);
    await until(() => userMessages(first).length === 2, 'the other tab’s question here');
    expect(userMessages(first)).to.deep.equal([
      'When is the bakery open?',
      'Is it open on Saturday?',
    ]);
    const records = await bot.client.messages.list(first.sessionUuid);
    expect(records.map((m) => m.query)).to.deep.equal([
      'When is the bakery open?',
      'Is it open on Saturday?',
    ]);
  });

  it('should not bring back a conversation forgotten in one tab while the other was reading it again', async () => {
    const bot = await realChatbot();
    const first = await here(bot);
    const second = await otherTab(bot);
    // The other tab's reads of the messages list are held, then let go in the very task that
    // forgets: their answers are handled before the storage event that says so.
    const win = frames[0]!.contentWindow! as Window & typeof globalThis;
    const through = win.fetch.bind(win);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let held = 0;
    win.fetch = async (input, init) => {
      const response = await through(input, init);
      const url = new URL(input instanceof Request ? input.url : String(input));
      if (!url.pathname.endsWith('/messages')) return response;
      held++;
      const body = await response.text();
      await gate;
      return new Response(body, { status: response.status, headers: response.headers });
    };
    await ask(first, 'When is the bakery open?');
    await until(
      () => userMessages(second).length === 1 && held > 0,
      'the other tab showing it and reading the list',
    );
    first.forget();
    release();
    await until(() => userMessages(second).length === 0, 'the other tab forgetting it');
    expect(userMessages(first), 'not brought back here').to.deep.equal([]);
    const stored = Object.keys(localStorage).filter((key) => key.includes(bot.chatbotUuid));
    expect(stored, 'nothing stored again').to.deep.equal([]);
  });

  it('should forget the conversation in the other tab too when one forgets it', async () => {
    const bot = await realChatbot();
    const first = await here(bot);
    const second = await otherTab(bot);
    await ask(first, 'When is the bakery open?');
    await until(() => userMessages(second).length === 1, 'the question in the other tab');
    first.forget();
    await until(() => userMessages(second).length === 0, 'the other tab forgetting it');
    expect(second.sessionUuid).to.equal('');
  });
});
