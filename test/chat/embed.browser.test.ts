import { expect } from '@open-wc/testing';
import type { ChatbotChat } from '../../src/chat/chatbot-chat.js';

/**
 * The one-tag embed, from its source: it finds its own <script> by name (a module has no
 * currentScript), so the tag here is one the browser never runs. dist/chatbot-embed.js itself
 * is tested end to end in test/e2e/chat-embed.test.ts.
 */
describe('chatbot-embed', () => {
  it('should mount a launcher configured from its data attributes, data-feedback and data-user-id among them', async () => {
    const script = document.createElement('script');
    script.type = 'text/plain';
    script.src = new URL('chatbot-embed.js', location.href).href;
    Object.assign(script.dataset, {
      baseUrl: 'https://chat.example',
      apiKey: 'chat-key',
      chatbotUuid: 'bot-1',
      persist: 'none',
      lang: 'fr',
      feedback: 'off',
      userId: 'ada',
    });
    document.head.append(script);
    await import('../../src/embed.js');

    const el = document.querySelector<ChatbotChat>('chatbot-chat')!;
    await el.updateComplete;
    const attributes = [
      'mode',
      'base-url',
      'api-key',
      'chatbot-uuid',
      'persist',
      'lang',
      'feedback',
      'user-id',
    ];
    expect(attributes.map((name) => el.getAttribute(name))).to.deep.equal([
      'launcher',
      'https://chat.example',
      'chat-key',
      'bot-1',
      'none',
      'fr',
      'off',
      'ada',
    ]);
    expect(el.feedback).to.equal('off');
    expect(el.userId).to.equal('ada');
    expect(el.open).to.equal(false);
    el.remove();
    script.remove();
  });
});
