import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { executeServerCommand, sendKeys, sendMouse, setViewport } from '@web/test-runner-commands';
import { createClient } from '../../src/api/client.js';
import type { ChatbotChat } from '../../src/chat/chatbot-chat.js';
import '../../src/chat/index.js';
import { button, frames, input, realChatbot, shadow, until } from './helpers.js';

type Bot = Awaited<ReturnType<typeof realChatbot>>;

/** The least target a finger gets (WCAG 2.5.5, and Apple's and Google's guidelines). */
const TOUCH = 44;

/** A source with code and a page of its own, so its answer has Copy code and linked markers. */
const ORDERING = `# Ordering a cake

To order a cake, e-mail the order line below to the bakery; it answers within a day.

\`\`\`
ORDER CAKE chocolate 12
\`\`\`
`;

/** A bot that answers "How do I order a cake?" from ORDERING, cited with a link to its page. */
async function orderingBot(): Promise<Bot> {
  const bot = await realChatbot();
  const file = new File([ORDERING], 'ordering.md', { type: 'text/markdown' });
  const created = await bot.client.sources.upload(bot.chatbotUuid, file, {
    referenceSourceLink: 'https://bakery.example/ordering',
  });
  let status = created.status;
  const end = performance.now() + 20_000;
  while (status !== 'success' && status !== 'error') {
    if (performance.now() > end) throw new Error(`the document still ${status}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const sources = await bot.client.sources.list(bot.chatbotUuid);
    status = sources.find((s) => s.uuid === created.uuid)?.status ?? 'gone';
  }
  expect(status).to.equal('success');
  return bot;
}

/**
 * Whether a finger on any point of the `size`×`size` square around `target`'s centre lands on
 * it: its box or an enlarged hit area, and nothing in front of it.
 */
function hitArea(el: ChatbotChat, target: HTMLElement, size = TOUCH): string[] {
  target.scrollIntoView({ block: 'center', inline: 'nearest' });
  const box = target.getBoundingClientRect();
  const x = box.left + box.width / 2;
  const y = box.top + box.height / 2;
  const reach = size / 2 - 1;
  const missed: string[] = [];
  for (const [dx, dy] of [
    [-reach, -reach],
    [reach, -reach],
    [-reach, reach],
    [reach, reach],
    [0, -reach],
    [0, reach],
    [-reach, 0],
    [reach, 0],
  ] as const) {
    const hit = shadow(el).elementFromPoint(x + dx, y + dy);
    if (!hit || !(hit === target || target.contains(hit))) {
      missed.push(`${dx},${dy}: ${hit?.outerHTML.slice(0, 60) ?? 'nothing'}`);
    }
  }
  return missed;
}

/** Per named target that a finger around its centre can miss, where it missed (see `hitArea`). */
function missedTargets(
  el: ChatbotChat,
  targets: Array<[string, HTMLElement | null | undefined]>,
): Record<string, string[]> {
  const missed: Record<string, string[]> = {};
  for (const [name, target] of targets) {
    expect(target, name).to.be.an.instanceOf(HTMLElement);
    const misses = hitArea(el, target!);
    if (misses.length) missed[name] = misses;
  }
  return missed;
}

/** A launcher chat of a real chatbot, on an emulated touch screen (undone after each test). */
async function touchLauncher(): Promise<ChatbotChat> {
  const bot = await realChatbot();
  await executeServerCommand('emulate-touch', { enabled: true });
  return fixture<ChatbotChat>(html`<chatbot-chat
    mode="launcher"
    chatbot-uuid=${bot.chatbotUuid}
    .client=${bot.client}
  ></chatbot-chat>`);
}

/** One question answered, which brings New conversation into the title bar. */
async function answerOnce(el: ChatbotChat): Promise<void> {
  const finished = oneEvent(el, 'chatbot-answer-finished');
  await el.send('When is the bakery open?');
  await finished;
  await until(() => shadow(el).querySelector('[part="new-chat-button"]'), 'New conversation');
}

describe('<chatbot-chat> on a touch screen', () => {
  afterEach(async () => {
    localStorage.clear();
    await executeServerCommand('emulate-touch', { enabled: false });
  });

  async function mount(bot: Bot, client = bot.client) {
    return fixture<ChatbotChat>(html`<chatbot-chat
      style="--chatbot-height: 560px"
      chatbot-uuid=${bot.chatbotUuid}
      .client=${client}
    ></chatbot-chat>`);
  }

  it('should give every control under and inside an answer a target of at least 44×44 px', async () => {
    const bot = await orderingBot();
    await executeServerCommand('emulate-touch', { enabled: true });
    expect(matchMedia('(pointer: coarse)').matches, 'touch emulated').to.equal(true);
    const el = await mount(bot);
    const finished = oneEvent(el, 'chatbot-answer-finished');
    await el.send('How do I order a cake?');
    expect((await finished).detail.response).to.contain('ORDER CAKE');
    await until(() => shadow(el).querySelector('.copy-code'), 'the rendered answer');
    await until(() => button(el, 'Helpful'), 'the rating controls');
    // A refusal offers topics to ask instead.
    const refused = oneEvent(el, 'chatbot-answer-finished');
    await el.send('What does it cost?');
    await refused;
    await until(() => shadow(el).querySelector('[part="suggestion"]'), 'the offered topics');
    button(el, 'Delete this exchange')!.click();
    await until(() => button(el, 'Cancel'), 'the question after Delete');
    await frames(2);

    const targets: Array<[string, HTMLElement | null | undefined]> = [
      ['Copy code', shadow(el).querySelector<HTMLElement>('.copy-code')],
      ['citation marker', shadow(el).querySelector<HTMLElement>('a.citation')],
      ['source link', shadow(el).querySelector<HTMLElement>('.sources a')],
      ['Copy answer', button(el, 'Copy answer')],
      ['Delete this exchange', button(el, 'Delete this exchange')],
      ['Delete, confirmed', button(el, 'Delete')],
      ['Cancel', button(el, 'Cancel')],
      ['Helpful', button(el, 'Helpful')],
      ['Not helpful', button(el, 'Not helpful')],
      ['offered topic', shadow(el).querySelector<HTMLElement>('[part="suggestion"]')],
    ];
    expect(missedTargets(el, targets)).to.deep.equal({});
    await expect(el).to.be.accessible();
  });

  it("should set an answer's four actions in one row of named icons on a phone, the focused one showing its name as a tip", async () => {
    const bot = await realChatbot();
    const names = ['Copy answer', 'Delete this exchange', 'Helpful', 'Not helpful'];
    await setViewport({ width: 360, height: 740 });
    await executeServerCommand('emulate-touch', { enabled: true });
    try {
      const el = await mount(bot);
      const finished = oneEvent(el, 'chatbot-answer-finished');
      await el.send('When is the bakery open?');
      await finished;
      await until(() => button(el, 'Helpful'), 'the rating controls');
      await frames(2);
      const buttons = names.map((name) => button(el, name)!);
      const boxes = buttons.map((b) => b.getBoundingClientRect());
      // As words they took two rows, Helpful and Not helpful under Copy and Delete.
      expect(new Set(boxes.map((box) => Math.round(box.top))).size, 'rows').to.equal(1);
      for (const [i, b] of buttons.entries()) {
        // The name is read, and drawn only as a glyph.
        expect(b.textContent?.trim()).to.equal(names[i]);
        expect(getComputedStyle(b.querySelector('span')!).clipPath, names[i]).to.equal(
          'inset(50%)',
        );
        const glyph = b.querySelector('svg')!;
        expect(glyph.getBoundingClientRect().width, names[i]).to.equal(18);
        expect(glyph.getAttribute('aria-hidden'), names[i]).to.equal('true');
      }
      expect(
        missedTargets(
          el,
          names.map((name) => [name, button(el, name)]),
        ),
      ).to.deep.equal({});
      await expect(el).to.be.accessible();
      // The hidden names make the log no wider, in German's longer words either.
      const log = shadow(el).querySelector<HTMLElement>('[role=log]')!;
      for (const lang of ['en', 'de']) {
        el.lang = lang;
        await until(() => button(el, lang === 'de' ? 'Nicht hilfreich' : 'Not helpful'), lang);
        await frames(1);
        expect(log.scrollWidth, lang).to.be.at.most(log.clientWidth);
      }
      el.lang = 'en';
      await until(() => button(el, 'Not helpful'), 'English again');

      // From the keyboard (and a mouse's hover, which this headless browser has not), the
      // focused action shows its name as a tip above it.
      input(el).focus();
      const notHelpful = button(el, 'Not helpful')!;
      await sendKeys({ down: 'Shift' });
      for (let i = 0; i < 6 && shadow(el).activeElement !== notHelpful; i++) {
        await sendKeys({ press: 'Tab' });
      }
      await sendKeys({ up: 'Shift' });
      expect(shadow(el).activeElement, 'Not helpful, focused').to.equal(notHelpful);
      await frames(1);
      const box = notHelpful.getBoundingClientRect();
      const tip = notHelpful.querySelector('span')!.getBoundingClientRect();
      expect(tip.width, 'the tip').to.be.greaterThan(40);
      expect(getComputedStyle(notHelpful.querySelector('span')!).clipPath, 'the tip').to.equal(
        'none',
      );
      expect(tip.bottom, 'above its button').to.be.at.most(box.top);
      expect(tip.left, 'from its start edge').to.be.closeTo(box.left, 1);
      // Right to left, its start edge is its right one.
      el.dir = 'rtl';
      await frames(1);
      const rtl = notHelpful.getBoundingClientRect();
      const rtlTip = notHelpful.querySelector('span')!.getBoundingClientRect();
      expect(rtlTip.right, 'from its start edge, right to left').to.be.closeTo(rtl.right, 1);
    } finally {
      await executeServerCommand('emulate-touch', { enabled: false });
      await setViewport({ width: 800, height: 600 });
    }
  });

  it('should give Retry, in the alert and under an earlier failed question, 44×44 px', async () => {
    const bot = await realChatbot();
    await executeServerCommand('emulate-touch', { enabled: true });
    // The first answer's stream is lost on the way, as on a dropped connection.
    let drop = true;
    const through: typeof fetch = async (input, init) => {
      const url = new URL(String(input));
      if (drop && url.pathname.endsWith('/message/stream')) {
        drop = false;
        throw new TypeError('Failed to fetch');
      }
      return fetch(`${bot.baseUrl}${url.pathname}${url.search}`, init);
    };
    const client = createClient({
      baseUrl: `https://touch-${Math.random().toString(36).slice(2)}.test`,
      apiKey: bot.apiKey,
      fetch: through,
      retry: false,
    });
    const el = await mount(bot, client);
    const errored = oneEvent(el, 'chatbot-error');
    void el.send('When is the bakery open?');
    await errored;
    await until(() => button(el, 'Retry'), 'Retry in the alert');
    expect(hitArea(el, button(el, 'Retry')!), 'the alert').to.deep.equal([]);
    // Another question answered: the failed one keeps a Retry of its own.
    const finished = oneEvent(el, 'chatbot-answer-finished');
    await el.send('Is the bakery open on Monday?');
    await finished;
    const own = () => shadow(el).querySelector<HTMLElement>('.exchange [part="retry-button"]');
    await until(own, 'Retry under the failed question');
    expect(hitArea(el, own()!), 'under the question').to.deep.equal([]);
    await expect(el).to.be.accessible();
  });

  it('should give the title bar’s and the composer’s buttons 44×44 px, the title bar keeping its height', async () => {
    const el = await touchLauncher();
    el.open = true;
    await el.updateComplete;
    const head = () => shadow(el).querySelector<HTMLElement>('[part="header"]')!;
    const before = head().getBoundingClientRect().height;
    await answerOnce(el);
    await frames(2);
    // New conversation appears with the first exchange: the log below must not jump.
    expect(head().getBoundingClientRect().height).to.equal(before);
    const targets: Array<[string, HTMLElement | null]> = [
      ['Close', shadow(el).querySelector<HTMLElement>('[part="close-button"]')],
      ['New conversation', shadow(el).querySelector<HTMLElement>('[part="new-chat-button"]')],
      ['Send', shadow(el).querySelector<HTMLElement>('[part="send-button"]')],
    ];
    expect(missedTargets(el, targets)).to.deep.equal({});
  });

  it('should not raise the on-screen keyboard by itself: opening and New conversation focus the conversation', async () => {
    const el = await touchLauncher();
    // Named, not compared as elements: chai's message for two shadow-root elements that differ
    // never finishes.
    const focused = () => shadow(el).activeElement?.getAttribute('part');
    shadow(el).querySelector<HTMLElement>('[part="launcher"]')!.click();
    await until(() => shadow(el).activeElement, 'focus inside the opened chat');
    // Focus in the textbox would bring a keyboard up over half the screen before the visitor
    // has read a word; the log is inside the dialog, where Escape and Tab work as ever.
    expect(focused(), 'opened: the conversation').to.equal('log');
    await answerOnce(el);
    shadow(el).querySelector<HTMLElement>('[part="new-chat-button"]')!.click();
    await el.updateComplete;
    expect(focused(), 'a new conversation: the log').to.equal('log');

    // With a fine pointer, and so a hardware keyboard, the visitor writes at once.
    await executeServerCommand('emulate-touch', { enabled: false });
    el.open = false;
    await el.updateComplete;
    shadow(el).querySelector<HTMLElement>('[part="launcher"]')!.click();
    await until(() => shadow(el).activeElement === input(el), 'the textbox, with a mouse');
  });

  it("should not shade an answer's action as hovered on a touch screen, where a tap leaves it hovered", async () => {
    const el = await touchLauncher();
    el.open = true;
    await answerOnce(el);
    // Drawn as icons once the answers' chunk is in, whose styles the rule is in.
    await until(() => button(el, 'Copy answer')?.querySelector('svg'), 'the answer actions');
    const copy = button(el, 'Copy answer')!;
    expect(matchMedia('(hover: none)').matches, 'no hover').to.equal(true);
    // A tap leaves the button it hit hovered until the next tap, and layout can slide another
    // under that place: a shade there would read as pressed.
    const box = copy.getBoundingClientRect();
    const [x, y] = [box.x + box.width / 2, box.y + box.height / 2].map(Math.round);
    await sendMouse({ type: 'move', position: [x!, y!] });
    await frames(1);
    expect(copy.matches(':hover'), 'the pointer over Copy answer').to.equal(true);
    expect(getComputedStyle(copy).backgroundColor).to.equal('rgba(0, 0, 0, 0)');
    // (Not checked: a mouse's shade. With touch emulation off again, this headless Chromium
    // still reported no hover.)
    await sendMouse({ type: 'move', position: [0, 0] });
  });

  it('should write at 16px or more in every text field, so iOS does not zoom into one', async () => {
    const bot = await realChatbot();
    await executeServerCommand('emulate-touch', { enabled: true });
    // A page whose text is smaller than iOS's threshold.
    const el = await fixture<ChatbotChat>(html`<chatbot-chat
      style="font-size: 13px"
      chatbot-uuid=${bot.chatbotUuid}
      .client=${bot.client}
    ></chatbot-chat>`);
    const finished = oneEvent(el, 'chatbot-answer-finished');
    await el.send('When is the bakery open?');
    await finished;
    await until(() => button(el, 'Not helpful'), 'the rating controls');
    button(el, 'Not helpful')!.click();
    await until(() => shadow(el).querySelector('[part="feedback-comment"]'), 'the reason form');
    const sizes = Object.fromEntries(
      [...shadow(el).querySelectorAll<HTMLElement>('textarea, input:not([type=radio])')].map(
        (field) => [
          field.getAttribute('part'),
          Number.parseFloat(getComputedStyle(field).fontSize),
        ],
      ),
    );
    expect(Object.keys(sizes).sort()).to.deep.equal(['feedback-comment', 'input']);
    for (const [part, size] of Object.entries(sizes)) expect(size, part!).to.be.at.least(16);
  });

  it('should keep the compact controls for a mouse', async () => {
    const bot = await orderingBot();
    expect(matchMedia('(pointer: coarse)').matches).to.equal(false);
    const el = await mount(bot);
    const finished = oneEvent(el, 'chatbot-answer-finished');
    await el.send('How do I order a cake?');
    await finished;
    await until(() => shadow(el).querySelector('.copy-code'), 'the rendered answer');
    await until(() => button(el, 'Helpful'), 'the rating controls');
    const height = (node: Element | null | undefined) => node!.getBoundingClientRect().height;
    expect(height(shadow(el).querySelector('.copy-code'))).to.be.below(TOUCH / 2 + 4);
    expect(height(button(el, 'Copy answer'))).to.be.below(TOUCH - 10);
    expect(height(shadow(el).querySelector('.sources a'))).to.be.below(TOUCH / 2);
    // The rating buttons keep their own 24px floor.
    expect(height(button(el, 'Helpful'))).to.be.below(TOUCH - 10);
  });
});
