import { expect, fixture, html } from '@open-wc/testing';
import type { ChatbotAdmin } from '../../src/admin/index.js';
import { deepText, until } from './helpers.js';

describe('<chatbot-admin> configuration', () => {
  it('should say it is not connected for a base-url without http(s), and name the address in the console', async () => {
    const logged: unknown[][] = [];
    const saved = console.error;
    console.error = (...args: unknown[]) => logged.push(args);
    let el: ChatbotAdmin;
    try {
      // "localhost:8787" reads as a URL of the scheme "localhost:": the client refuses it.
      el = await fixture<ChatbotAdmin>(
        html`<chatbot-admin base-url="localhost:8787" api-key="k"></chatbot-admin>`,
      );
      await until(() => deepText(el).includes('Set base-url and api-key'), 5_000);
    } finally {
      console.error = saved;
    }
    expect(String(logged[0]?.[0])).to.contain('"localhost:8787"');
  });
});
