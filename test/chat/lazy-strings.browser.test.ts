import { expect, fixture, html } from '@open-wc/testing';
import type { ChatbotChat } from '../../src/chat/chatbot-chat.js';
import '../../src/chat/index.js';
import type { ChatStrings } from '../../src/ui/strings/chat.js';
import { chatLanguages } from '../../src/ui/strings/chat.js';
import { button, fakeService, until } from './helpers.js';

/**
 * The German table comes from a file of its own (chatbot-chat-de.js). Here its loader is one the
 * test holds, as a slow or stalled network would: the first paint waits for it only so long.
 */
describe('<chatbot-chat> strings loaded on demand', () => {
  it('should paint in English when the German file stalls, then switch once it arrives', async () => {
    let arrive!: (table: Partial<ChatStrings>) => void;
    const original = chatLanguages.de!;
    chatLanguages.de = () =>
      new Promise((resolve) => {
        arrive = resolve;
      });
    try {
      const el = await fixture<ChatbotChat>(html`<chatbot-chat
        lang="de"
        persist="none"
        .client=${fakeService().client}
        chatbot-uuid="bot-1"
      ></chatbot-chat>`);
      await until(() => button(el, 'Send'), 'the chat painted in English meanwhile');
      arrive({ send: 'Senden' });
      await until(() => button(el, 'Senden'), 'German once the file is here');
      // Later updates wait for nothing.
      el.greeting = 'Hallo';
      await el.updateComplete;
      expect(el.shadowRoot!.textContent).to.contain('Hallo');
    } finally {
      chatLanguages.de = original;
    }
  });
});
