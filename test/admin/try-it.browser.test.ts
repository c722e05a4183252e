import { expect, oneEvent } from '@open-wc/testing';
import { executeServerCommand } from '@web/test-runner-commands';
import { OWNER_TEST_MEMBER } from '../../src/api/types.js';
import { apiClient, deep, deepAll, deepText, mountAdmin, newChatbot, until } from './helpers.js';

describe('<chatbot-admin> Try it', () => {
  afterEach(() => history.replaceState(null, '', location.pathname + location.search));

  it("should chat with the selected chatbot beside its settings, as the owner's test: listed under Asked by, not with the visitors'", async () => {
    const client = await apiClient();
    const bot = await newChatbot(client, 'Ferry bot');
    await client.sources.createQa(bot.uuid, {
      question: 'When does the ferry leave?',
      answer: 'The ferry leaves at noon.',
    });
    const el = await mountAdmin(client, bot, 'try');
    const chat = await until(() => deep(el, '#panel-try chatbot-chat'));
    expect(chat.getAttribute('chatbot-uuid')).to.equal(bot.uuid);
    const summary = deepText(deep(el, '#panel-try')!);
    expect(summary).to.contain('Rate limit 20 messages in 240 seconds, per session');
    expect(summary).to.contain('Visibility Private');
    await expect(el).to.be.accessible();

    const box = await until(() => deep<HTMLTextAreaElement>(chat, 'textarea'));
    box.value = 'When does the ferry leave?';
    box.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
    const finished = oneEvent(chat, 'chatbot-answer-finished');
    deep<HTMLButtonElement>(chat, 'button[part=send-button]')!.click();
    const { detail } = (await finished) as CustomEvent<{ response: string }>;
    expect(detail.response).to.contain('noon');

    // The session was made as the owner's test.
    const [session] = await client.sessions.list(bot.uuid);
    expect((await client.sessions.get(session!.uuid)).meta).to.deep.equal({
      [OWNER_TEST_MEMBER]: true,
    });

    deep<HTMLButtonElement>(el, '#tab-sessions')!.click();
    const panel = await until(() => deep(el, 'chatbot-admin-sessions'));
    await until(() => deepText(panel).includes('0 shown'));
    const askedBy = deep<HTMLSelectElement>(panel, 'select[name=test]')!;
    askedBy.value = 'only';
    askedBy.dispatchEvent(new Event('change', { bubbles: true }));
    const open = await until(() =>
      deepAll<HTMLButtonElement>(panel, 'button').find((b) => b.textContent?.trim() === 'Open'),
    );
    open.click();
    await until(() =>
      deepText(deep(panel, '[part=transcript]') ?? panel).includes('The ferry leaves at noon.'),
    );
  });

  it('should ask again in the chat without raising the keyboard of a touch screen', async () => {
    const client = await apiClient();
    const bot = await newChatbot(client, 'Ferry bot');
    await executeServerCommand('emulate-touch', { enabled: true });
    try {
      const el = await mountAdmin(client, bot, 'sessions');
      const panel = await until(() => deep(el, 'chatbot-admin-sessions'));
      const finished = oneEvent(el, 'chatbot-answer-finished');
      // As a transcript's "Ask again in Try it" sends it.
      panel.dispatchEvent(
        new CustomEvent('admin-ask-again', {
          detail: 'When does the ferry leave?',
          bubbles: true,
          composed: true,
        }),
      );
      await finished;
      const chat = deep(el, '#panel-try chatbot-chat')!;
      // The part's name, not the element: chai's message for one of a shadow tree never ends.
      expect(chat.shadowRoot!.activeElement?.getAttribute('part')).to.equal('log');
    } finally {
      await executeServerCommand('emulate-touch', { enabled: false });
    }
  });

  it("should show the chat's whole panel, its message box and Send inside the admin, at every width", async () => {
    const client = await apiClient();
    const bot = await newChatbot(client, 'Pier bot');
    const el = await mountAdmin(client, bot, 'try');
    const chat = await until(() => deep(el, '#panel-try chatbot-chat'));
    const box = await until(() => deep<HTMLTextAreaElement>(chat, 'textarea'));
    const send = deep<HTMLButtonElement>(chat, 'button[part=send-button]')!;
    for (const width of [1366, 1024, 720, 400]) {
      el.style.width = `${width}px`;
      await el.updateComplete;
      await new Promise((resolve) => requestAnimationFrame(resolve));
      const admin = el.getBoundingClientRect();
      const panel = deep(chat, '.panel')!.getBoundingClientRect();
      const host = chat.getBoundingClientRect();
      // The panel fills the element, which the admin holds whole: nothing is clipped away.
      expect(panel.bottom, `panel at ${width}px`).to.be.at.most(host.bottom + 1);
      expect(host.bottom, `chat at ${width}px`).to.be.at.most(admin.bottom + 1);
      for (const part of [box, send]) {
        const r = part.getBoundingClientRect();
        expect(r.bottom, `${part.tagName} at ${width}px`).to.be.at.most(panel.bottom);
        expect(r.height).to.be.greaterThan(20);
      }
    }
    el.style.width = '';
  });

  it('should show the chat first, under its note, and the settings it uses beside it or, on a phone, below it', async () => {
    const client = await apiClient();
    const bot = await newChatbot(client, 'Spaced bot');
    const el = await mountAdmin(client, bot, 'try');
    const chat = await until(() => deep(el, '#panel-try chatbot-chat'));
    const card = deep(el, '#panel-try .card')!;
    expect(deepText(card)).to.contain('Settings in use');
    // The chat's empty state: what to do, not a blank box.
    await until(() => deepText(chat).includes('Ask what your visitors would ask'));
    for (const width of [1280, 560, 390]) {
      el.style.width = `${width}px`;
      await new Promise((resolve) => requestAnimationFrame(resolve));
      const note = deep(el, '#panel-try > .try > .help')!.getBoundingClientRect();
      const box = chat.getBoundingClientRect();
      const settings = card.getBoundingClientRect();
      expect(box.top - note.bottom, `the chat under its note at ${width}px`).to.be.within(6, 24);
      if (width === 1280) {
        expect(settings.left, 'beside the chat').to.be.greaterThan(box.right);
        expect(settings.top).to.be.closeTo(box.top, 1);
      } else {
        expect(settings.top, `below the chat at ${width}px`).to.be.greaterThan(box.bottom);
        expect(settings.left).to.be.closeTo(box.left, 1);
      }
      const heading = card.querySelector('h3')!.getBoundingClientRect();
      const summary = card.querySelector('dl.summary')!.getBoundingClientRect();
      expect(summary.top - heading.bottom, `at ${width}px`).to.be.at.least(6);
    }
    el.style.width = '';
  });

  it('should break the settings summary between words, and only a long token inside itself', async () => {
    const client = await apiClient();
    const token = `https://example.com/${'slow-down-'.repeat(12)}please`;
    const bot = await client.chatbots.create({
      name: `Harbour bot ${Date.now().toString(36)}`,
      rate_limit_message: `Too many messages at once: see ${token}`,
    });
    const el = await mountAdmin(client, bot, 'try');
    const card = await until(() => deep(el, '#panel-try .card'));
    for (const [lang, width] of ['en', 'de'].flatMap((l) =>
      [1280, 720, 560, 320].map((w) => [l, w] as const),
    )) {
      el.lang = lang;
      el.style.width = `${width}px`;
      await el.updateComplete;
      await new Promise((resolve) => requestAnimationFrame(resolve));
      const box = card.getBoundingClientRect();
      const texts = document.createTreeWalker(
        card.querySelector('dl.summary')!,
        NodeFilter.SHOW_TEXT,
      );
      while (texts.nextNode()) {
        const text = texts.currentNode;
        for (const match of (text.textContent ?? '').matchAll(/\S+/g)) {
          const range = document.createRange();
          range.setStart(text, match.index);
          range.setEnd(text, match.index + match[0].length);
          // A word split over two lines has a box on each ("messag" / "es").
          if (match[0] !== token) {
            expect(range.getClientRects().length, `"${match[0]}" at ${width}px (${lang})`).to.equal(
              1,
            );
          }
          expect(
            range.getBoundingClientRect().right,
            `"${match[0]}" at ${width}px (${lang})`,
          ).to.be.at.most(box.right);
        }
      }
    }
    el.style.width = '';
  });
});
