import { expect, fixture, html } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import type { ChatbotChat } from '../../src/chat/chatbot-chat.js';
import '../../src/chat/index.js';
import { button, fakeService, frames, input, shadow, until, userMessages } from './helpers.js';

describe('<chatbot-chat mode="launcher">', () => {
  async function launcher() {
    const service = fakeService([{ chunks: ['ok'] }]);
    return fixture<ChatbotChat>(html`<chatbot-chat
      mode="launcher"
      chatbot-uuid="bot-1"
      persist="none"
      .client=${service.client}
    ></chatbot-chat>`);
  }

  const panel = (el: ChatbotChat) => shadow(el).querySelector<HTMLElement>('[part="panel"]')!;

  it('should show only an "Open chat" button while closed', async () => {
    const el = await launcher();
    const open = button(el, 'Open chat')!;
    expect(open.getAttribute('aria-expanded')).to.equal('false');
    expect(getComputedStyle(panel(el)).display).to.equal('none');
    await expect(el).to.be.accessible();
  });

  it('should open with the textbox focused, and close on Escape with focus back on the launcher', async () => {
    const el = await launcher();
    const open = button(el, 'Open chat')!;
    open.click();
    await el.updateComplete;
    await frames(1);
    expect(el.open).to.equal(true);
    expect(open.getAttribute('aria-expanded')).to.equal('true');
    expect(shadow(el).activeElement).to.equal(input(el));
    expect(panel(el).getAttribute('role')).to.equal('dialog');
    await expect(el).to.be.accessible();
    input(el).dispatchEvent(
      new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, composed: true }),
    );
    await el.updateComplete;
    await frames(1);
    expect(el.open).to.equal(false);
    expect(shadow(el).activeElement).to.equal(open);
  });

  it('should take focus in when the page opens it from script, so Escape closes it, but not when it starts open', async () => {
    const el = await launcher();
    // A page's own "Chat with us" button.
    el.open = true;
    await el.updateComplete;
    await frames(1);
    // Compared as a boolean: a failing comparison of two elements prints them whole.
    expect(shadow(el).activeElement === input(el), 'focus in the textbox').to.equal(true);
    input(el).dispatchEvent(
      new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, composed: true }),
    );
    await el.updateComplete;
    expect(el.open).to.equal(false);

    const service = fakeService();
    const start = document.createElement('button');
    document.body.append(start);
    start.focus();
    const opened = await fixture<ChatbotChat>(html`<chatbot-chat
      mode="launcher"
      open
      chatbot-uuid="bot-1"
      persist="none"
      .client=${service.client}
    ></chatbot-chat>`);
    await frames(1);
    expect(opened.open).to.equal(true);
    expect(document.activeElement === start, 'the page keeps its focus').to.equal(true);
    start.remove();
  });

  it('should close on Escape while focus is on the launcher', async () => {
    const el = await launcher();
    const open = button(el, 'Open chat')!;
    open.click();
    await el.updateComplete;
    open.focus();
    open.dispatchEvent(
      new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, composed: true }),
    );
    await el.updateComplete;
    expect(el.open).to.equal(false);
  });

  it('should close from its close button', async () => {
    const el = await launcher();
    el.open = true;
    await el.updateComplete;
    button(el, 'Close chat')!.click();
    await el.updateComplete;
    await frames(1);
    expect(el.open).to.equal(false);
  });

  it('should paint its icon as SVG, closed and open', async () => {
    const el = await launcher();
    const icon = () => button(el, 'Open chat')!.querySelector('svg path') as SVGPathElement;
    for (const open of [false, true]) {
      el.open = open;
      await el.updateComplete;
      const path = icon();
      expect(path.namespaceURI, `open=${open}`).to.equal('http://www.w3.org/2000/svg');
      const box = path.getBBox();
      expect(box.width * box.height, `open=${open}`).to.be.greaterThan(0);
    }
  });

  it('should show the newest exchange on its first open with a long remembered conversation', async () => {
    const long = Array.from({ length: 12 }, (_, j) => `Paragraph ${j} ${'words '.repeat(40)}`);
    localStorage.setItem(
      'chatbot-chat:v1:https://fake.test:bot-1',
      JSON.stringify({
        sessionUuid: 's-long',
        exchanges: Array.from({ length: 30 }, (_, i) => ({
          id: `x${i}`,
          query: `question ${i}`,
          response: `## Answer ${i}\n\n${long.join('\n\n')}`,
          state: 'done',
          messageUuid: `m${i}`,
        })),
      }),
    );
    const service = fakeService();
    const el = await fixture<ChatbotChat>(html`<chatbot-chat
      mode="launcher"
      chatbot-uuid="bot-1"
      .client=${service.client}
    ></chatbot-chat>`);
    try {
      // The launcher hovered: the renderer loads and the conversation is shown, still closed.
      button(el, 'Open chat')!.dispatchEvent(new PointerEvent('pointerenter'));
      await until(() => userMessages(el).length === 30, 'the whole conversation');
      await frames(2);
      el.open = true;
      await el.updateComplete;
      const log = shadow(el).querySelector<HTMLElement>('[role=log]')!;
      let height = -1;
      // Settled: the height has stayed the same for a frame.
      while (log.scrollHeight !== height) {
        height = log.scrollHeight;
        await frames(2);
      }
      expect(log.scrollTop + log.clientHeight).to.be.closeTo(log.scrollHeight, 2);
    } finally {
      localStorage.clear();
    }
  });

  it('should float in the corner above the page', async () => {
    const el = await launcher();
    expect(getComputedStyle(el).position).to.equal('fixed');
  });

  it('should keep the launcher clear of the notch and the home indicator', async () => {
    const el = await launcher();
    const open = button(el, 'Open chat')!;
    const gaps = () => {
      const box = open.getBoundingClientRect();
      return [innerWidth - box.right, innerHeight - box.bottom].map(Math.round);
    };
    const [right, bottom] = gaps();
    await executeServerCommand('safe-area', { right: 47, bottom: 34 });
    try {
      await frames();
      // As far from the insets' edges as it was from the screen's.
      expect(gaps()).to.deep.equal([right! + 47, bottom! + 34]);
    } finally {
      await executeServerCommand('safe-area', {});
    }
  });
});

describe('<chatbot-chat> theming', () => {
  it('should follow a forced theme attribute and the --chatbot-* properties', async () => {
    const el = await fixture<ChatbotChat>(
      html`<chatbot-chat theme="dark" persist="none"></chatbot-chat>`,
    );
    const panelNode = shadow(el).querySelector<HTMLElement>('.panel')!;
    expect(getComputedStyle(panelNode).backgroundColor).to.equal('rgb(17, 24, 39)');
    await expect(el).to.be.accessible();
    el.theme = 'light';
    await el.updateComplete;
    expect(getComputedStyle(panelNode).backgroundColor).to.equal('rgb(255, 255, 255)');
    await expect(el).to.be.accessible();
    el.style.setProperty('--chatbot-surface', 'rgb(1, 2, 3)');
    expect(getComputedStyle(panelNode).backgroundColor).to.equal('rgb(1, 2, 3)');
  });
});
