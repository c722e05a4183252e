import { expect, fixture, html } from '@open-wc/testing';
import type { ChatbotChat } from '../../src/chat/chatbot-chat.js';
import '../../src/chat/index.js';
import { loadRendererFrom } from '../../src/chat/renderer.js';
import { answers, button, fakeService, shadow, until } from './helpers.js';

// Before anything loads it: the renderer's chunk is missing for this whole page, as when
// chatbot-markdown.js was not deployed beside the element.
loadRendererFrom(new URL('/missing/chatbot-markdown.js', location.href).href);

describe('<chatbot-chat> without the renderer chunk', () => {
  it('should show answers as plain text with their actions, the offered topics in the text only, no sources or ratings', async () => {
    const warned: unknown[][] = [];
    const warn = console.warn;
    console.warn = (...args: unknown[]) => warned.push(args);
    try {
      const service = fakeService([
        {
          chunks: ['Not in my sources [1].\n\n- Opening hours\n'],
          messageUuid: 'm-1',
          citations: [{ n: 1, data_source_uuid: 's', title: 'Hours', type: 'qa' }],
          suggestions: ['Opening hours'],
        },
      ]);
      const el = await fixture<ChatbotChat>(html`<chatbot-chat
        chatbot-uuid="bot"
        persist="none"
        .client=${service.client}
      ></chatbot-chat>`);
      await el.send('What does it cost?');
      await until(() => answers(el)[0]?.querySelector('.markdown.plain'), 'the plain answer');
      await el.updateComplete;
      const answer = answers(el)[0]!;
      expect(answer.querySelector('.markdown')!.children).to.have.length(0);
      expect(answer.textContent).to.contain('- Opening hours');
      expect(button(el, 'Copy answer'), 'the exchange keeps its actions').to.not.equal(undefined);
      expect(button(el, 'Delete this exchange')).to.not.equal(undefined);
      expect(shadow(el).querySelector('[part="sources"]')).to.equal(null);
      expect(shadow(el).querySelector('[part="feedback"]')).to.equal(null);
      // Read once, in the text: buttons come with the chunk, which hides the list they repeat.
      expect(shadow(el).querySelector('.exchange [part="suggestion"]')).to.equal(null);
      expect(
        warned.filter(([text]) => String(text).includes('chatbot-markdown.js')),
      ).to.have.length(1);
      await expect(el).to.be.accessible();
      // Nothing here can ask first (the question comes with the chunk): Delete deletes at once.
      button(el, 'Delete this exchange')!.click();
      await until(() => answers(el).length === 0, 'the exchange gone');
      expect(service.calls.some((c) => c.path === '/api/v1/message/m-1/delete')).to.equal(true);
    } finally {
      console.warn = warn;
    }
  });
});
