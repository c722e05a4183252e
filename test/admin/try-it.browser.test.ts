import { expect, oneEvent } from '@open-wc/testing';
import { apiClient, deep, deepAll, deepText, mountAdmin, newChatbot, until } from './helpers.js';

describe('<chatbot-admin> Try it', () => {
  afterEach(() => history.replaceState(null, '', location.pathname + location.search));

  it('should chat with the selected chatbot beside its settings, and list the conversation under Conversations', async () => {
    const client = await apiClient();
    const bot = await newChatbot(client, 'Ferry bot');
    await client.sources.createQa(bot.uuid, {
      question: 'When does the ferry leave?',
      answer: 'The ferry leaves at noon.',
    });
    const el = await mountAdmin(client, bot, 'try');
    const chat = await until(() => deep(el, '#panel-try chatbot-chat'));
    expect(chat.getAttribute('chatbot-uuid')).to.equal(bot.uuid);
    expect(deepText(deep(el, '#panel-try')!)).to.contain('messages per seconds, per session');
    await expect(el).to.be.accessible();

    const box = await until(() => deep<HTMLTextAreaElement>(chat, 'textarea'));
    box.value = 'When does the ferry leave?';
    box.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
    const finished = oneEvent(chat, 'chatbot-answer-finished');
    deep<HTMLButtonElement>(chat, 'button[part=send-button]')!.click();
    const { detail } = (await finished) as CustomEvent<{ response: string }>;
    expect(detail.response).to.contain('noon');

    deep<HTMLButtonElement>(el, '#tab-sessions')!.click();
    const panel = await until(() => deep(el, 'chatbot-admin-sessions'));
    const open = await until(() =>
      deepAll<HTMLButtonElement>(panel, 'button').find((b) => b.textContent?.trim() === 'Open'),
    );
    open.click();
    await until(() =>
      deepText(deep(panel, '[part=transcript]') ?? panel).includes('The ferry leaves at noon.'),
    );
  });
});
