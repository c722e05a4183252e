import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { sendMouse } from '@web/test-runner-commands';
import type { ChatbotChat } from '../../src/chat/chatbot-chat.js';
import '../../src/chat/index.js';
import { button, realChatbot, shadow, until } from './helpers.js';

/**
 * Where the Clipboard API is refused (a frame of another origin without
 * `allow="clipboard-write"`, a page on plain http), Copy answer copies the answer as a selection.
 */
describe('<chatbot-chat> Copy answer without the Clipboard API', () => {
  const writeText = navigator.clipboard.writeText;
  afterEach(() => {
    navigator.clipboard.writeText = writeText;
    localStorage.clear();
  });

  it('should copy the answer as a selection, say Copied, and give focus back', async () => {
    const bot = await realChatbot();
    const el = await fixture<ChatbotChat>(html`<chatbot-chat
      base-url=${bot.baseUrl}
      api-key=${bot.apiKey}
      chatbot-uuid=${bot.chatbotUuid}
      persist="none"
    ></chatbot-chat>`);
    const finished = oneEvent(el, 'chatbot-answer-finished');
    await el.send('When is the bakery open?');
    const { response } = (await finished).detail;
    await until(() => button(el, 'Helpful'), 'the answers’ chunk');
    navigator.clipboard.writeText = () =>
      Promise.reject(new DOMException('refused', 'NotAllowedError'));
    let copied: string | undefined;
    const onCopy = (event: Event) => {
      copied = (event.composedPath()[0] as HTMLTextAreaElement).value;
    };
    document.addEventListener('copy', onCopy);
    try {
      // A real click: a selection is copied only in answer to the reader's own gesture.
      const copy = button(el, 'Copy answer')!;
      const box = copy.getBoundingClientRect();
      await sendMouse({
        type: 'click',
        position: [Math.round(box.x + box.width / 2), Math.round(box.y + box.height / 2)],
      });
      const flash = shadow(el).querySelector<HTMLElement>('[role=status]')!;
      await until(() => flash.textContent?.trim(), 'the flash');
      expect(flash.textContent!.trim()).to.equal('Copied');
      expect(copied).to.equal(response);
      expect(shadow(el).activeElement === copy, 'focus back on Copy answer').to.equal(true);
      expect(shadow(el).querySelector('textarea[readonly]'), 'the helper gone').to.equal(null);
    } finally {
      document.removeEventListener('copy', onCopy);
    }
  });
});
