import { expect, fixture, html } from '@open-wc/testing';
import type { AdminErrorEvent, ChatbotAdmin } from '../../src/admin/index.js';
import {
  apiClient,
  deep,
  deepAll,
  deepText,
  mountAdmin,
  newChatbot,
  testEnv,
  until,
} from './helpers.js';

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

describe('<chatbot-admin> in a page of its own sizes', () => {
  afterEach(() => {
    document.documentElement.style.fontSize = '';
    history.replaceState(null, '', location.pathname + location.search);
  });

  it("should lay out by its own font size, not the page's root one (html { font-size: 62.5% })", async () => {
    const client = await apiClient();
    const bot = await newChatbot(client, 'Sized');
    const el = await mountAdmin(client, bot, 'settings');
    el.style.width = '1100px';
    const measure = async () => {
      await new Promise((resolve) => requestAnimationFrame(resolve));
      return Math.round(deep(el, 'nav.sidebar')!.getBoundingClientRect().width);
    };
    await until(() => deep(el, 'nav.sidebar'), 20_000);
    const before = await measure();
    // A dashboard built on 10px rems: the admin's text stays its size, so its layout must too.
    document.documentElement.style.fontSize = '62.5%';
    const after = await measure();
    expect(after).to.deep.equal(before);
  });
});

describe('<chatbot-admin> navigation events', () => {
  afterEach(() => history.replaceState(null, '', location.pathname + location.search));

  it('should fire chatbot-admin-navigate when the tab changes, and not for the tab already shown', async () => {
    const client = await apiClient();
    const bot = await newChatbot(client, 'Navigated');
    const el = await mountAdmin(client, bot, 'agents');
    const seen: unknown[] = [];
    el.addEventListener('chatbot-admin-navigate', (e) => seen.push((e as CustomEvent).detail));
    const tab = (name: string) =>
      deepAll(el, '[role=tab]').find((t) => t.textContent?.trim() === name)!;
    tab('Settings').click();
    await until(() => deep(el, '#panel-settings'), 20_000);
    tab('Settings').click();
    tab('Settings').click();
    await el.updateComplete;
    expect(seen).to.deep.equal([{ chatbotUuid: bot.uuid, tab: 'settings' }]);
  });

  it('should fire chatbot-admin-navigate when the hash moves it (Back, a link), once', async () => {
    const client = await apiClient();
    const bot = await newChatbot(client, 'Linked');
    const el = await mountAdmin(client, bot, 'agents');
    const seen: unknown[] = [];
    el.addEventListener('chatbot-admin-navigate', (e) => seen.push((e as CustomEvent).detail));
    location.hash = `chatbot=${bot.uuid}&tab=tags`;
    await until(() => deep(el, '#panel-tags'), 20_000);
    // The page's own member changing is no navigation of the admin's.
    location.hash = `chatbot=${bot.uuid}&tab=tags&page=2`;
    await new Promise((resolve) => window.addEventListener('hashchange', resolve, { once: true }));
    await el.updateComplete;
    expect(seen).to.deep.equal([{ chatbotUuid: bot.uuid, tab: 'tags' }]);
  });
});

describe('<chatbot-admin> driven by a router of its host', () => {
  it('should show the chatbot and tab asked for with show(), and say what is shown', async () => {
    const client = await apiClient();
    const bot = await newChatbot(client, 'Routed');
    const before = location.hash;
    const seen: unknown[] = [];
    const el = await fixture<ChatbotAdmin>(
      html`<chatbot-admin no-hash .client=${client}
        @chatbot-admin-navigate=${(e: CustomEvent) => seen.push(e.detail)}></chatbot-admin>`,
    );
    el.show(bot.uuid, 'settings');
    await until(() => deep(el, 'chatbot-admin-settings'), 20_000);
    expect(el.shown).to.deep.equal({ chatbotUuid: bot.uuid, tab: 'settings' });
    expect(location.hash).to.equal(before);
    expect(seen).to.deep.equal([]);
    // The reader's own move is told, so the host's router can follow.
    deepAll(el, '[role=tab]')
      .find((t) => t.textContent?.trim() === 'Tags')!
      .click();
    await until(() => seen.length > 0, 5_000);
    expect(seen).to.deep.equal([{ chatbotUuid: bot.uuid, tab: 'tags' }]);
  });
});

describe('<chatbot-admin> failed loads', () => {
  afterEach(() => history.replaceState(null, '', location.pathname + location.search));

  it('should report a chatbot list the key cannot read with chatbot-admin-error, once', async () => {
    const { baseUrl } = await testEnv();
    const errors: AdminErrorEvent['detail'][] = [];
    const el = await fixture<ChatbotAdmin>(
      html`<chatbot-admin no-hash base-url=${baseUrl} api-key="not-a-key"
        @chatbot-admin-error=${(e: AdminErrorEvent) => errors.push(e.detail)}></chatbot-admin>`,
    );
    await until(() => deepText(el).includes('Retry'), 20_000);
    el.requestUpdate();
    await el.updateComplete;
    await until(() => errors.length > 0, 5_000);
    expect(errors.map((e) => e.operation)).to.deep.equal(['chatbots.list']);
    expect(errors[0]!.message).to.contain('401');
  });

  it("should report a panel's list that fails once the key no longer reads it", async () => {
    const bot = await newChatbot(await apiClient(), 'Expiring');
    // The server itself refuses the agents list: the key sent for it is not one it knows.
    const client = await apiClient((input, init) => {
      const url = input instanceof Request ? input.url : String(input);
      if (!url.endsWith('/agents')) return fetch(input, init);
      const headers = new Headers(init?.headers);
      headers.set('Authorization', 'Bearer expired-key');
      return fetch(input, { ...init, headers });
    });
    const errors: AdminErrorEvent['detail'][] = [];
    const el = await fixture<ChatbotAdmin>(
      html`<chatbot-admin no-hash .client=${client}
        @chatbot-admin-error=${(e: AdminErrorEvent) => errors.push(e.detail)}></chatbot-admin>`,
    );
    const item = await until(
      () => deepAll(el, '.chatbot-list button').find((b) => b.textContent?.includes(bot.name)),
      20_000,
    );
    (item as HTMLButtonElement).click();
    await until(() => errors.length > 0, 20_000);
    expect(errors.map((e) => e.operation)).to.deep.equal(['agents.list']);
  });
});

describe('<chatbot-admin> in a host page', () => {
  it("should not take the dashboard's text styles, and hide with the hidden attribute", async () => {
    const client = await apiClient();
    const wrapper = await fixture<HTMLDivElement>(html`<div
      style="text-transform: uppercase; text-align: center; letter-spacing: 3px; word-spacing: 9px; font-style: italic; text-indent: 40px; font-weight: 700; line-height: 3"
    >
      <chatbot-admin no-hash .client=${client}></chatbot-admin>
    </div>`);
    const el = wrapper.querySelector('chatbot-admin') as ChatbotAdmin;
    const heading = await until(() => deep(el, '#chatbots-heading'), 20_000);
    const style = getComputedStyle(heading!);
    expect({
      textTransform: style.textTransform,
      textAlign: style.textAlign,
      letterSpacing: style.letterSpacing,
      wordSpacing: style.wordSpacing,
      fontStyle: style.fontStyle,
      textIndent: style.textIndent,
    }).to.deep.equal({
      textTransform: 'none',
      textAlign: 'start',
      letterSpacing: 'normal',
      wordSpacing: '0px',
      fontStyle: 'normal',
      textIndent: '0px',
    });
    el.hidden = true;
    expect(getComputedStyle(el).display).to.equal('none');
  });
});
