import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import type { ChatbotChat } from '../../src/chat/chatbot-chat.js';
import '../../src/chat/index.js';
import { loadRenderer } from '../../src/chat/renderer.js';
import {
  answers,
  fakeService,
  frames,
  gate,
  realChatbot,
  shadow,
  until,
  userMessages,
} from './helpers.js';

type Bot = Awaited<ReturnType<typeof realChatbot>>;

/** A question the bakery's one Q&A source does not cover: the server refuses it honestly. */
const UNCOVERED = 'What does it cost?';
const OFFERED = 'What are the opening hours of the bakery?';

/** The topics offered under the exchange at `index`, with the group's accessible name. */
function offered(el: ChatbotChat, index = 0) {
  const exchange = shadow(el).querySelectorAll('.exchange')[index];
  const group = exchange?.querySelector('[part="suggestions"]');
  return {
    label: group?.getAttribute('aria-label'),
    buttons: [...(group?.querySelectorAll<HTMLButtonElement>('button') ?? [])],
  };
}
const texts = (buttons: HTMLButtonElement[]) => buttons.map((b) => b.textContent?.trim());
/**
 * How often `text` can be read in the exchange at `index`: its text nodes that a reader sees
 * (innerText would not do: a finished block off-screen skips its rendering, and its text).
 */
function seen(el: ChatbotChat, text = OFFERED, index = 0): number {
  const exchange = shadow(el).querySelectorAll('.exchange')[index]!;
  const walk = document.createTreeWalker(exchange, NodeFilter.SHOW_TEXT);
  let count = 0;
  for (let node = walk.nextNode(); node; node = walk.nextNode()) {
    if (node.nodeValue?.includes(text) && node.parentElement!.checkVisibility()) count += 1;
  }
  return count;
}

describe('<chatbot-chat> refusals', () => {
  afterEach(() => localStorage.clear());

  async function mount(bot: Bot, extra: { lang?: string; session?: string } = {}) {
    return fixture<ChatbotChat>(html`<chatbot-chat
      base-url=${bot.baseUrl}
      api-key=${bot.apiKey}
      chatbot-uuid=${bot.chatbotUuid}
      session-uuid=${extra.session ?? ''}
      lang=${extra.lang ?? 'en'}
    ></chatbot-chat>`);
  }

  it('should show the topics of a refusal once, as buttons under it, its text keeping the list', async () => {
    const el = await mount(await realChatbot());
    const finished = oneEvent(el, 'chatbot-answer-finished');
    await el.send(UNCOVERED);
    const { detail } = await finished;
    // The file's first answer can finish before the renderer has arrived: a reader waits for it.
    await until(() => seen(el, 'Here is what I can help with:'), 'the rendered answer');
    const { label, buttons } = offered(el);
    expect(label).to.equal('Ask instead');
    expect(texts(buttons)).to.deep.equal([OFFERED]);
    expect(buttons[0]!.getAttribute('part')).to.equal('suggestion');
    // Read once: as the button, not again as the answer's own list above it.
    expect(seen(el)).to.equal(1);
    // The stored text keeps its list, for Copy answer and for clients that read only the text.
    expect(detail.response).to.contain(`- ${OFFERED}`);
    await expect(el).to.be.accessible();
  });

  it('should ask an offered topic when it is chosen with the keyboard, as a starter suggestion does', async () => {
    const el = await mount(await realChatbot());
    await el.send(UNCOVERED);
    await el.updateComplete;
    const [topic] = offered(el).buttons;
    topic!.focus();
    const finished = oneEvent(el, 'chatbot-answer-finished');
    await sendKeys({ press: 'Enter' });
    const { detail } = await finished;
    expect(detail.query).to.equal(OFFERED);
    expect(detail.response).to.match(/7 am to 6 pm/);
    expect(userMessages(el)).to.deep.equal([UNCOVERED, OFFERED]);
    await el.updateComplete;
    expect(texts(offered(el, 0).buttons), 'the refusal keeps its offer').to.deep.equal([OFFERED]);
  });

  it('should show none under an answer the sources cover', async () => {
    const el = await mount(await realChatbot());
    const finished = oneEvent(el, 'chatbot-answer-finished');
    await el.send('When is the bakery open?');
    expect((await finished).detail.response).to.match(/7 am to 6 pm/);
    await el.updateComplete;
    expect(shadow(el).querySelector('.exchange [part="suggestions"]')).to.equal(null);
  });

  it('should keep the offer across a reload, from the remembered transcript and from the server', async () => {
    const bot = await realChatbot();
    const first = await mount(bot);
    await first.send(UNCOVERED);
    const session = first.sessionUuid;
    first.remove();

    const remembered = await mount(bot);
    await until(() => offered(remembered).buttons.length === 1, 'the remembered offer');
    expect(texts(offered(remembered).buttons)).to.deep.equal([OFFERED]);
    expect(seen(remembered), 'read once from the remembered transcript').to.equal(1);
    remembered.remove();

    // Nothing remembered in this browser: the offer comes from the record's meta_json.
    localStorage.clear();
    const restored = await mount(bot, { session });
    await until(() => offered(restored).buttons.length === 1, 'the offer from messages.list');
    expect(texts(offered(restored).buttons)).to.deep.equal([OFFERED]);
    expect(seen(restored), 'read once from the server').to.equal(1);
  });

  it('should name the offer in the language of the element', async () => {
    const el = await mount(await realChatbot(), { lang: 'de' });
    await el.send(UNCOVERED);
    await el.updateComplete;
    expect(offered(el).label).to.equal('Stattdessen fragen');
  });

  it('should keep the conversation from shrinking when the topics of a refusal become buttons', async () => {
    const topics = ['Opening hours', 'Prices of cakes'];
    const text = `I can't answer that.\n\nHere is what I can help with:\n\n- ${topics[0]}\n- ${topics[1]}\n`;
    // The list arrives in pieces, its last item in two; then the stream is held open.
    const pieces = [text.slice(0, 45), text.slice(45, -12), text.slice(-12)];
    const hold = gate();
    let pulled = 0;
    const service = fakeService([
      {
        chunks: pieces,
        suggestions: topics,
        messageUuid: 'm-1',
        gate: async () => {
          if (++pulled > pieces.length) await hold.wait();
        },
      },
    ]);
    const el = await fixture<ChatbotChat>(html`<chatbot-chat
      chatbot-uuid="bot"
      persist="none"
      .client=${service.client}
    ></chatbot-chat>`);
    await loadRenderer();
    const log = shadow(el).querySelector<HTMLElement>('[role="log"]')!;
    const list = () => answers(el)[0]?.querySelector<HTMLElement>('.markdown ul');
    // Each frame while the text streams: the list, once there, is never shown.
    const shownLists: string[] = [];
    let watching = true;
    const watch = () => {
      const items = list();
      if (items?.checkVisibility()) shownLists.push(items.textContent ?? '');
      if (watching) requestAnimationFrame(watch);
    };
    requestAnimationFrame(watch);
    const finished = oneEvent(el, 'chatbot-answer-finished');
    void el.send(UNCOVERED);
    await until(() => list()?.textContent?.includes(topics[1]!), 'the whole list streamed');
    await frames(2);
    const bubble = () => answers(el)[0]!.getBoundingClientRect().height;
    const before = { bubble: bubble(), scroll: log.scrollHeight };
    hold.release();
    await finished;
    await until(() => offered(el).buttons.length === 2, 'the topics as buttons');
    // A finished block takes its size once it has been seen on screen (content-visibility).
    await frames(2);
    watching = false;
    // The answer keeps its height; what is new (the buttons, its actions) comes below it.
    expect(bubble(), 'the answer did not shrink').to.equal(before.bubble);
    expect(log.scrollHeight).to.be.at.least(before.scroll);
    expect(shownLists, 'the list was never shown').to.deep.equal([]);
    expect(seen(el, topics[0])).to.equal(1);
    await expect(el).to.be.accessible();
  });

  it('should offer nothing against a server without X-Suggestions, the list in the text staying', async () => {
    const refusal = "I can't answer that.\n\nHere is what I can help with:\n\n- Opening hours\n";
    const service = fakeService([{ chunks: [refusal], messageUuid: 'm-1' }]);
    const el = await fixture<ChatbotChat>(html`<chatbot-chat
      chatbot-uuid="bot"
      persist="none"
      .client=${service.client}
    ></chatbot-chat>`);
    await el.send(UNCOVERED);
    await el.updateComplete;
    expect(shadow(el).querySelector('.exchange [part="suggestions"]')).to.equal(null);
    const item = answers(el)[0]!.querySelector<HTMLElement>('.markdown li');
    expect(item?.textContent).to.equal('Opening hours');
    expect(item!.checkVisibility(), 'the list is the only place to read them').to.equal(true);
  });

  it('should drop the offer of a failed answer that is retried', async () => {
    const service = fakeService([
      { chunks: ['Not covered.'], suggestions: ['Opening hours'], drop: true },
      { chunks: ['The bakery opens at 7 am.'], messageUuid: 'm-2' },
    ]);
    const el = await fixture<ChatbotChat>(html`<chatbot-chat
      chatbot-uuid="bot"
      persist="none"
      .client=${service.client}
    ></chatbot-chat>`);
    await el.send(UNCOVERED);
    await el.updateComplete;
    expect(offered(el).buttons, 'none under a failed answer').to.have.length(0);
    [...shadow(el).querySelectorAll<HTMLButtonElement>('[part="retry-button"]')].at(-1)!.click();
    await until(() => answers(el)[0]?.textContent?.includes('7 am'), 'the retried answer');
    await el.updateComplete;
    expect(offered(el).buttons).to.have.length(0);
  });
});
