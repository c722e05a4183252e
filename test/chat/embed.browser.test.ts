import { expect } from '@open-wc/testing';
import type { ChatbotChat } from '../../src/chat/chatbot-chat.js';

/**
 * The one-tag embed, from its source: it finds its own <script> by name (a module has no
 * currentScript), so the tag here is one the browser never runs. dist/chatbot-embed.js itself
 * is tested end to end in test/e2e/chat-embed.test.ts.
 */
describe('chatbot-embed', () => {
  it('should mount a launcher configured from its data attributes, every attribute of the element', async () => {
    const script = document.createElement('script');
    script.type = 'text/plain';
    script.src = new URL('chatbot-embed.js', location.href).href;
    // Each data-* name and the attribute of <chatbot-chat> it sets.
    const given: Record<string, [string, string]> = {
      baseUrl: ['base-url', 'https://chat.example'],
      apiKey: ['api-key', 'chat-key'],
      chatbotUuid: ['chatbot-uuid', 'bot-1'],
      sessionUuid: ['session-uuid', 'session-1'],
      userId: ['user-id', 'ada'],
      persist: ['persist', 'none'],
      theme: ['theme', 'dark'],
      lang: ['lang', 'fr'],
      greeting: ['greeting', 'Hello!'],
      suggestions: ['suggestions', '["Prices?"]'],
      sessionData: ['session-data', '{"plan":"pro"}'],
      feedback: ['feedback', 'off'],
      attachments: ['attachments', 'on'],
      accept: ['accept', '.txt'],
      maxAttachmentSize: ['max-attachment-size', '1000'],
      strings: ['strings', '{"heading":"Northwind Cycles"}'],
    };
    for (const [name, [, value]] of Object.entries(given)) script.dataset[name] = value;
    // "false" is no open attribute: the launcher stays closed.
    script.dataset.open = 'false';
    document.head.append(script);
    await import('../../src/embed.js');

    const el = document.querySelector<ChatbotChat>('chatbot-chat')!;
    await el.updateComplete;
    const attributes = Object.values(given).map(([attribute]) => attribute);
    expect(attributes.map((name) => el.getAttribute(name))).to.deep.equal(
      Object.values(given).map(([, value]) => value),
    );
    expect(el.getAttribute('mode')).to.equal('launcher');
    expect(el.hasAttribute('open')).to.equal(false);
    expect(el.maxAttachmentSize).to.equal(1000);
    expect(el.sessionData).to.deep.equal({ plan: 'pro' });
    expect(el.feedback).to.equal('off');
    expect(el.userId).to.equal('ada');
    expect(el.open).to.equal(false);
    // The title bar named as the site owner's page asks, which only a property could before.
    expect(el.shadowRoot!.querySelector('#heading')?.textContent).to.equal('Northwind Cycles');
    // Text that is no JSON object changes no string, and breaks nothing.
    el.setAttribute('strings', '{heading: Northwind');
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector('#heading')?.textContent).to.equal('Chat');
    expect(el.shadowRoot!.querySelector('[part~=input]')?.getAttribute('placeholder')).to.equal(
      'Ask a question…',
    );
    el.remove();
    script.remove();
  });
});
