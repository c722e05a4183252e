import { expect, fixture, html } from '@open-wc/testing';
import { executeServerCommand, sendKeys, setViewport } from '@web/test-runner-commands';
import type {
  AdminChangeEvent,
  AdminErrorEvent,
  AdminNavigateEvent,
  ChatbotAdmin,
} from '../../src/admin/index.js';
import { createClient } from '../../src/api/index.js';
import type { Chatbot } from '../../src/api/types.js';
import {
  apiClient,
  button,
  confirmDialog,
  deep,
  deepAll,
  deepText,
  mountAdmin,
  newChatbot,
  slowListClient,
  testEnv,
  type,
  until,
} from './helpers.js';

describe('<chatbot-admin> chatbots and settings', () => {
  afterEach(() => history.replaceState(null, '', location.pathname + location.search));

  it('should say how to connect when it has neither client nor base-url and api-key', async () => {
    const el = await fixture(html`<chatbot-admin no-hash></chatbot-admin>`);
    expect(deepText(el)).to.contain('Set base-url and api-key');
  });

  it('should list the chatbots with their citations and visibility, and be accessible', async () => {
    const client = await apiClient();
    const bot = await newChatbot(client, 'Listed <b>bot</b>');
    const el = await mountAdmin(client);
    const item = await until(() =>
      deepAll(el, '.chatbot-list button').find((b) => b.textContent?.includes(bot.name)),
    );
    expect(item.textContent).to.contain('Citations on');
    expect(item.textContent).to.contain('Private');
    // The name is text, never markup.
    expect(item.querySelector('b')).to.equal(null);
    await expect(el).to.be.accessible();
    el.lang = 'de';
    await until(() => item.textContent?.includes('Quellenangaben an'));
    expect(item.querySelector('.badge:last-child')!.textContent).to.equal('Privat');
  });

  it('should keep the sidebar’s heading and New chatbot inside it, in English and German', async () => {
    const client = await apiClient();
    const el = await mountAdmin(client);
    const sidebar = await until(() => deep(el, 'nav.sidebar'));
    for (const lang of ['en', 'de']) {
      el.lang = lang;
      await until(() =>
        deepAll(el, 'nav.sidebar button.primary').some(
          (b) => b.textContent?.trim() === (lang === 'de' ? 'Neuer Chatbot' : 'New chatbot'),
        ),
      );
      await new Promise((resolve) => requestAnimationFrame(resolve));
      const inner =
        sidebar.getBoundingClientRect().right - parseFloat(getComputedStyle(sidebar).paddingRight);
      for (const part of sidebar.querySelectorAll<HTMLElement>('.header h2, .header button')) {
        const what = `${part.textContent?.trim()} (${lang})`;
        expect(part.getBoundingClientRect().right, what).to.be.at.most(inner + 0.5);
        expect(part.scrollWidth, what).to.be.at.most(part.clientWidth);
      }
    }
  });

  it("should name the visibility in the reader's language and send the API's value", async () => {
    const client = await apiClient();
    const bot = await newChatbot(client);
    const el = await mountAdmin(client, bot, 'settings');
    el.lang = 'de';
    const panel = await until(() => deep(el, 'chatbot-admin-settings'));
    const select = await until(() => deep<HTMLSelectElement>(panel, 'select[name=visibility]'));
    await until(() => select.options[0]?.textContent === 'Privat');
    expect([...select.options].map((o) => [o.value, o.textContent])).to.deep.equal([
      ['private', 'Privat'],
      ['public', 'Öffentlich'],
    ]);
    expect(deepText(panel)).to.contain(
      'Jede Sitzung darf höchstens so viele Nachrichten in so vielen Sekunden senden.',
    );
    select.value = 'public';
    select.dispatchEvent(new Event('change'));
    button(panel, 'Speichern')!.click();
    await until(() => deep(panel, '.ok')?.textContent?.includes('Gespeichert'));
    expect((await client.chatbots.get(bot.uuid)).meta.visibility).to.equal('public');
  });

  it('should say beside the name and the rate-limit message that they are too long, and focus the first', async () => {
    const client = await apiClient();
    const bot = await newChatbot(client);
    const el = await mountAdmin(client, bot, 'settings');
    const panel = await until(() => deep(el, 'chatbot-admin-settings'));
    const form = await until(() => deep<HTMLFormElement>(panel, 'form'));
    const name = form.querySelector<HTMLInputElement>('input[name=name]')!;
    const text = form.querySelector<HTMLTextAreaElement>('textarea[name=rate-limit-message]')!;
    const message = (field: Element) => {
      const id = field.getAttribute('aria-describedby');
      return id ? panel.shadowRoot!.getElementById(id)?.textContent?.trim() : undefined;
    };
    type(name, 'n'.repeat(201));
    type(text, 'm'.repeat(1001));
    await until(() => message(text));
    expect(message(name)).to.equal('At most 200 characters; this has 201.');
    expect(message(text)).to.equal('At most 1,000 characters; this has 1,001.');
    expect(name.getAttribute('aria-invalid')).to.equal('true');
    expect(text.getAttribute('aria-invalid')).to.equal('true');
    const save = button(panel, 'Save')!;
    save.focus();
    save.click();
    await until(() => panel.shadowRoot!.activeElement === name);
    expect((await client.chatbots.get(bot.uuid)).name).to.equal(bot.name);
    await expect(el).to.be.accessible();

    type(name, '');
    await until(() => message(name) === 'Name is required.');
    type(name, 'Short again');
    type(text, 'Slow down.');
    await until(() => form.querySelectorAll('[aria-invalid=true]').length === 0);
  });

  it('should keep focus on Save while the settings are saved', async () => {
    const client = await apiClient();
    const bot = await newChatbot(client);
    const el = await mountAdmin(client, bot, 'settings');
    const panel = await until(() => deep(el, 'chatbot-admin-settings'));
    const form = await until(() => deep<HTMLFormElement>(panel, 'form'));
    type(form.querySelector('input[name=name]')!, 'Saved by keyboard');
    const save = button(panel, 'Save')!;
    save.focus();
    save.click();
    await until(() => deep(panel, '.ok')?.textContent?.includes('Saved'));
    // The button that saved still has focus, for the next step by keyboard.
    expect(panel.shadowRoot!.activeElement === save).to.equal(true);
    expect((await client.chatbots.get(bot.uuid)).name).to.equal('Saved by keyboard');
  });

  it('should open the only chatbot at once, without a click on it', async () => {
    // The other test user's chatbots: no other test makes any, so this one is its only one.
    const { baseUrl, otherApiKey } = await testEnv();
    const client = createClient({ baseUrl, apiKey: otherApiKey, retry: false });
    const bot = await newChatbot(client, 'The only one');
    try {
      history.replaceState(null, '', location.pathname + location.search);
      const navigations: AdminNavigateEvent[] = [];
      const el = await fixture<ChatbotAdmin>(
        html`<chatbot-admin .client=${client} @chatbot-admin-navigate=${(e: AdminNavigateEvent) => navigations.push(e)}></chatbot-admin>`,
      );
      await until(() => deep(el, '#panel-agents chatbot-admin-agents'));
      expect(deepText(el)).to.not.contain('Select a chatbot');
      expect(deep(el, '.chatbot-list button')!.getAttribute('aria-current')).to.equal('true');
      expect(location.hash).to.contain(bot.uuid);
      // A host following the selection hears of it as of a click.
      expect(navigations.map((e) => e.detail)).to.deep.equal([
        { chatbotUuid: bot.uuid, tab: 'agents' },
      ]);
    } finally {
      await client.chatbots.delete(bot.uuid);
    }
  });

  it('should create a chatbot from the New chatbot dialog and open its settings', async () => {
    const client = await apiClient();
    const el = await mountAdmin(client);
    const changes: AdminChangeEvent[] = [];
    el.addEventListener('chatbot-admin-change', (e) => changes.push(e));
    button(el, 'New chatbot')!.click();
    const dialog = await until(() => deep<HTMLDialogElement>(el, 'dialog.create[open]'));
    const name = `Created ${Date.now()}`;
    type(dialog.querySelector('input[name=name]')!, name);
    dialog.querySelector<HTMLButtonElement>('button[type=submit]')!.click();
    await until(() => deep(el, 'chatbot-admin-settings'));
    expect(location.hash).to.match(/chatbot=[^&]+&tab=settings/);
    expect(changes[0]?.detail).to.include({ kind: 'chatbot', action: 'create' });
    // The dialog gave focus back to New chatbot; it goes on to the new chatbot's open tab, so a
    // keyboard or screen reader user is where the page now is, in its tabs (named after it).
    const tab = await until(() => {
      const focused = el.shadowRoot!.activeElement;
      return focused?.id === 'tab-settings' ? focused : undefined;
    });
    expect(tab.closest('[role=tablist]')!.getAttribute('aria-label')).to.include(name);
    const list = await client.chatbots.list();
    expect(list.some((c) => c.name === name)).to.equal(true);
  });

  it('should keep a chatbot created while the chatbot list was still loading', async () => {
    const slow = await slowListClient('/api/v1/chatbots');
    const holding = slow.hold();
    const el = await mountAdmin(slow.client);
    await holding;
    button(el, 'New chatbot')!.click();
    const dialog = await until(() => deep<HTMLDialogElement>(el, 'dialog.create[open]'));
    const name = `Early ${Date.now()}`;
    type(dialog.querySelector('input[name=name]')!, name);
    dialog.querySelector<HTMLButtonElement>('button[type=submit]')!.click();
    await until(() => deep(el, 'chatbot-admin-settings'));
    // The list asked for before the chatbot existed arrives last: it must not take it away.
    slow.release();
    // Once the held list is read, nothing says Refreshing any more.
    await until(() => !deepText(el).includes('Refreshing'));
    await el.updateComplete;
    const listed = deepAll(el, '.chatbot-list button').filter((b) => b.textContent?.includes(name));
    expect(listed.length).to.equal(1);
    expect(Boolean(deep(el, 'chatbot-admin-settings'))).to.equal(true);
  });

  it('should say a New chatbot name is too long before sending it', async () => {
    const client = await apiClient();
    const el = await mountAdmin(client);
    const created: Chatbot[] = [];
    el.client = {
      ...client,
      chatbots: {
        ...client.chatbots,
        create: async (...args) => {
          const chatbot = await client.chatbots.create(...args);
          created.push(chatbot);
          return chatbot;
        },
      },
    };
    button(el, 'New chatbot')!.click();
    const dialog = await until(() => deep<HTMLDialogElement>(el, 'dialog.create[open]'));
    const input = dialog.querySelector<HTMLInputElement>('input[name=name]')!;
    // Counted as the server counts it, after trimming: 201 characters.
    type(input, `  ${'n'.repeat(201)}  `);
    dialog.querySelector<HTMLButtonElement>('button[type=submit]')!.click();
    const alert = await until(() => dialog.querySelector('[role=alert]'));
    expect(alert.textContent).to.contain('At most 200 characters; this has 201.');
    expect(created).to.deep.equal([]);
    expect(dialog.open).to.equal(true);

    type(input, 'n'.repeat(200));
    dialog.querySelector<HTMLButtonElement>('button[type=submit]')!.click();
    await until(() => deep(el, 'chatbot-admin-settings'));
    expect(created).to.have.length(1);
    await client.chatbots.delete(created[0]!.uuid);
  });

  it('should mark the New chatbot name invalid, described by its message, while the message shows', async () => {
    const client = await apiClient();
    const el = await mountAdmin(client);
    button(el, 'New chatbot')!.click();
    const dialog = await until(() => deep<HTMLDialogElement>(el, 'dialog.create[open]'));
    const input = dialog.querySelector<HTMLInputElement>('input[name=name]')!;
    const typed = 'n'.repeat(250);
    type(input, typed);
    input.focus();
    await sendKeys({ press: 'Enter' });
    const message = await until(() => dialog.querySelector('[role=alert]'));
    expect(message.textContent?.trim()).to.equal('At most 200 characters; this has 250.');
    expect(input.getAttribute('aria-invalid')).to.equal('true');
    expect(message.id).to.not.equal('');
    expect(input.getAttribute('aria-describedby')).to.equal(message.id);
    expect(input.value).to.equal(typed);

    button(dialog, 'Cancel')!.click();
    button(el, 'New chatbot')!.click();
    await until(() => dialog.open);
    expect(dialog.textContent).not.to.contain('At most');
    expect(input.getAttribute('aria-invalid')).to.equal('false');
    expect(input.hasAttribute('aria-describedby')).to.equal(false);
  });

  it('should keep the typed name and show the server message when creating fails', async () => {
    const client = await apiClient();
    const el = await mountAdmin(client);
    // A client whose create is refused by the real server: an unknown key answers 401.
    const { createClient } = await import('../../src/api/index.js');
    const refused = createClient({ baseUrl: client.baseUrl, apiKey: 'not-a-key', retry: false });
    el.client = { ...client, chatbots: { ...client.chatbots, create: refused.chatbots.create } };
    const errors: AdminErrorEvent[] = [];
    el.addEventListener('chatbot-admin-error', (e) => errors.push(e));
    button(el, 'New chatbot')!.click();
    const dialog = await until(() => deep<HTMLDialogElement>(el, 'dialog.create[open]'));
    const input = dialog.querySelector<HTMLInputElement>('input[name=name]')!;
    type(input, 'Kept name');
    dialog.querySelector<HTMLButtonElement>('button[type=submit]')!.click();
    const alert = await until(() => dialog.querySelector('[role=alert]'));
    expect(alert.textContent).to.contain('401');
    expect(input.value).to.equal('Kept name');
    expect(errors[0]?.detail.operation).to.equal('chatbots.create');
  });

  it('should restore the selected chatbot and tab from the URL hash', async () => {
    const client = await apiClient();
    const bot = await newChatbot(client);
    const el = await mountAdmin(client, bot, 'tags');
    const tab = deep(el, '#tab-tags')!;
    expect(tab.getAttribute('aria-selected')).to.equal('true');
    expect(deep(el, '#panel-tags chatbot-admin-tags')).to.not.equal(null);
  });

  it('should name the tabs and move between them with the arrow keys', async () => {
    const client = await apiClient();
    const bot = await newChatbot(client);
    const el = await mountAdmin(client, bot, 'agents');
    const names = deepAll(el, '[role=tab]').map((t) => t.textContent?.trim());
    expect(names).to.deep.equal([
      'Agents',
      'Data sources',
      'Tags',
      'Conversations',
      'Insights',
      'Settings',
      'Try it',
    ]);
    deep(el, '#tab-agents')!.dispatchEvent(
      new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true, composed: true }),
    );
    await until(() => deep(el, '#tab-sources')?.getAttribute('aria-selected') === 'true');
    expect(location.hash).to.contain('tab=sources');
    expect(el.shadowRoot!.activeElement?.id).to.equal('tab-sources');
  });

  it('should keep the tabs in one row on a phone, scrolled to show the selected one without moving the page', async () => {
    const client = await apiClient();
    const bot = await newChatbot(client);
    // Short, so that the row of tabs is below the fold.
    await setViewport({ width: 390, height: 300 });
    try {
      await until(() => innerWidth === 390);
      const el = await mountAdmin(client, bot, 'try');
      await el.updateComplete;
      await new Promise((resolve) => requestAnimationFrame(resolve));
      const row = deep(el, '[role=tablist]')!;
      const tabs = deepAll(el, '[role=tab]');
      const whole = (tab: Element) => {
        const box = tab.getBoundingClientRect();
        const view = row.getBoundingClientRect();
        return box.left >= view.left - 0.5 && box.right <= view.right + 0.5;
      };
      expect(new Set(tabs.map((tab) => tab.getBoundingClientRect().top)).size, 'rows').to.equal(1);
      expect(row.getBoundingClientRect().right).to.be.at.most(innerWidth);
      expect(row.scrollWidth, 'the row scrolls').to.be.greaterThan(row.clientWidth);
      expect(whole(deep(el, '#tab-try')!), 'Try it, opened by a link').to.equal(true);
      expect(row.getBoundingClientRect().top, 'the row below the fold').to.be.greaterThan(
        innerHeight,
      );
      expect(scrollY, 'the page, not scrolled to the row').to.equal(0);

      // A key pressed on one tab, once the tab it selects is drawn.
      const press = async (on: string, key: string, selected: string) => {
        deep(el, `#tab-${on}`)!.dispatchEvent(
          new KeyboardEvent('keydown', { key, bubbles: true, composed: true }),
        );
        await until(() => deep(el, `#tab-${selected}`)?.getAttribute('aria-selected') === 'true');
        await el.updateComplete;
        await new Promise((resolve) => requestAnimationFrame(resolve));
      };
      await press('try', 'Home', 'agents');
      expect(whole(deep(el, '#tab-agents')!), 'Agents, after Home').to.equal(true);
      // A shadow at the edge with more tabs beyond it, none at an end reached (focus rings
      // aside: the keys moved focus).
      deep(el, '#tab-agents')!.blur();
      expect(row.scrollLeft).to.equal(0);
      const atStart = await edgeShades(row);
      expect(atStart.end, 'a shadow where more tabs are').to.be.below(atStart.middle - 20);
      expect(atStart.start, 'none at the start').to.be.at.least(atStart.middle - 5);
      row.scrollLeft = row.scrollWidth;
      await new Promise((resolve) => requestAnimationFrame(resolve));
      const atEnd = await edgeShades(row);
      expect(atEnd.start, 'a shadow where more tabs are').to.be.below(atEnd.middle - 20);
      expect(atEnd.end, 'none at the end').to.be.at.least(atEnd.middle - 5);
      // In the dark scheme a shadow too, darker than the row: not a glow.
      el.theme = 'dark';
      await el.updateComplete;
      await new Promise((resolve) => requestAnimationFrame(resolve));
      const dark = await edgeShades(row);
      // Darker by a fifth (a dark surface leaves a shadow little room): the shade of the
      // text it once was painted it lighter than the row.
      expect(dark.start, 'a shadow in the dark scheme').to.be.below(dark.middle * 0.8);
      expect(dark.end, 'none at the end, dark').to.be.at.least(dark.middle - 5);
      el.theme = undefined;
      row.scrollLeft = 0;

      // Right to left, Try it is the row's leftmost tab: a link to it shows it all the same.
      el.dir = 'rtl';
      deep(el, '#tab-try')!.click();
      await until(() => deep(el, '#tab-try')?.getAttribute('aria-selected') === 'true');
      await el.updateComplete;
      await new Promise((resolve) => requestAnimationFrame(resolve));
      expect(whole(deep(el, '#tab-try')!), 'Try it, right to left').to.equal(true);
      await press('try', 'Home', 'agents');
      expect(whole(deep(el, '#tab-agents')!), 'Agents, right to left').to.equal(true);
      // The selected chatbot's bar and the list's edge on the sides they face right to left.
      const chosen = deep(el, '.chatbot-list button[aria-current=true]')!;
      expect(getComputedStyle(chosen).boxShadow, 'the bar on the right').to.match(/-3px 0px 0px/);
      const sidebar = getComputedStyle(deep(el, 'nav.sidebar')!);
      expect([sidebar.borderLeftWidth, sidebar.borderRightWidth]).to.deep.equal(['1px', '0px']);
      // The next tab is drawn on the left: ArrowLeft goes to it.
      await press('agents', 'ArrowLeft', 'sources');
      const [agents, sources] = [deep(el, '#tab-agents')!, deep(el, '#tab-sources')!];
      expect(sources.getBoundingClientRect().right).to.be.at.most(
        agents.getBoundingClientRect().left + 1,
      );
    } finally {
      await setViewport({ width: 800, height: 600 });
    }
  });

  it("should bring a chosen chatbot's tabs into view on a phone, below the whole list, and leave a wide page still", async () => {
    const client = await apiClient();
    // Enough chatbots that the list stands taller than a phone's screen.
    const bots = await Promise.all(
      Array.from({ length: 8 }, (_, i) => newChatbot(client, `Quay bot ${i}`)),
    );
    await setViewport({ width: 390, height: 640 });
    try {
      await until(() => innerWidth === 390);
      const el = await mountAdmin(client);
      const card = (uuid: string) =>
        until(() =>
          deepAll<HTMLButtonElement>(el, '.chatbot-list button').find((b) =>
            b.textContent?.includes(bots.find((bot) => bot.uuid === uuid)!.name),
          ),
        );
      (await card(bots[0]!.uuid)).click();
      await until(() => deep(el, '[role=tablist]'));
      await el.updateComplete;
      const header = deep(el, '.main > .header')!.getBoundingClientRect();
      expect(header.top, "the chatbot's name, on screen").to.be.at.least(-1);
      expect(header.bottom).to.be.at.most(innerHeight + 1);

      await setViewport({ width: 1280, height: 800 });
      await until(() => innerWidth === 1280);
      scrollTo(0, 0);
      (await card(bots[1]!.uuid)).click();
      await until(() => deep(el, '.main > .header')?.textContent?.includes(bots[1]!.name));
      await el.updateComplete;
      expect(scrollY, 'beside the list: the page stays still').to.equal(0);
    } finally {
      await setViewport({ width: 800, height: 600 });
    }
  });

  it('should scroll a long chatbot list in a box of its own, a link to one showing its card there', async () => {
    const client = await apiClient();
    const chosen = await newChatbot(client, 'Chosen early');
    // Listed newest first: the chosen one a dozen cards down.
    for (let i = 0; i < 12; i++) await newChatbot(client, `Later bot ${i}`);
    for (const [width, height] of [
      [390, 640],
      [1280, 800],
    ] as const) {
      await setViewport({ width, height });
      try {
        await until(() => innerWidth === width);
        const el = await mountAdmin(client, chosen, 'agents');
        const list = deep(el, '.chatbot-list')!;
        const inList = () => {
          const card = deep(el, '.chatbot-list [aria-current=true]')?.getBoundingClientRect();
          const box = list.getBoundingClientRect();
          return card && card.top >= box.top - 1 && card.bottom <= box.bottom + 1;
        };
        await until(inList);
        expect(list.scrollHeight, 'the list scrolls').to.be.greaterThan(list.clientHeight);
        expect(list.getBoundingClientRect().height).to.be.at.most(innerHeight * 0.6 + 8);
        expect(scrollY, 'the page, not scrolled').to.equal(0);
        // Stacked on a phone: the chosen chatbot's tabs begin on the first screen.
        const tabs = deep(el, '[role=tablist]')!.getBoundingClientRect();
        expect(tabs.top, `the tabs at ${width}px`).to.be.below(innerHeight);
        el.remove();
      } finally {
        await setViewport({ width: 800, height: 600 });
      }
    }
  });

  it("should draw one line between the list and the main area, none along the element's own edge", async () => {
    const client = await apiClient();
    const bot = await newChatbot(client);
    for (const width of [390, 1280]) {
      await setViewport({ width, height: 800 });
      try {
        await until(() => innerWidth === width);
        const el = await mountAdmin(client, bot, 'tags');
        await until(() => deep(el, '[role=tablist]'));
        await new Promise((resolve) => requestAnimationFrame(resolve));
        // In the page's coordinates, as `painted` takes them.
        const page = (box: DOMRect) => ({
          top: box.top + scrollY,
          bottom: box.bottom + scrollY,
          left: box.left + scrollX,
          right: box.right + scrollX,
        });
        const host = page(el.getBoundingClientRect());
        const inner = { right: host.right - el.clientLeft, bottom: host.bottom - el.clientTop };
        const list = page(deep(el, 'nav.sidebar')!.getBoundingClientRect());
        const main = page(deep(el, '.main')!.getBoundingClientRect());
        if (width === 390) {
          expect(main.top, 'stacked').to.be.at.least(list.bottom - 1);
          // Along the element's right edge, beside the list (in its padding, beside its cards):
          // its background, not a line.
          const across = await painted(inner.right - 6, (list.top + list.bottom) / 2, 6);
          expect(across.at(-1), "the element's edge").to.equal(across[0]);
          // Between the list and the main area: a line.
          const [inside] = await painted(list.left + 4, list.bottom - 6, 1);
          const edge: number[] = [];
          for (let y = list.bottom - 3; y <= list.bottom + 2; y++) {
            edge.push((await painted(list.left + 4, y, 1))[0]!);
          }
          expect(Math.min(...edge), 'a line under the list').to.be.below(inside! - 20);
        } else {
          expect(main.left, 'beside').to.be.at.least(list.right - 1);
          // Along the element's bottom edge, under the list (in its padding): its background, not
          // a line.
          const x = (list.left + list.right) / 2;
          const [above] = await painted(x, inner.bottom - 5, 1);
          const [edge] = await painted(x, inner.bottom - 1, 1);
          expect(edge, "the element's edge").to.equal(above);
        }
      } finally {
        await setViewport({ width: 800, height: 600 });
      }
    }
  });

  it('should give only the selected tab a border for its bar, so forced colors draw it there alone', async () => {
    // Forced colors paint every border in the text colour, a transparent one too; the runner's
    // Chromium cannot emulate them, so the test reads which tabs have a border at all.
    const client = await apiClient();
    const bot = await newChatbot(client);
    const el = await mountAdmin(client, bot, 'tags');
    const tabs = deepAll(el, '[role=tab]');
    const heights = new Set(tabs.map((tab) => tab.getBoundingClientRect().height));
    for (const tab of tabs) {
      const { borderBottomStyle, borderBottomWidth } = getComputedStyle(tab);
      const bar = borderBottomStyle !== 'none' && borderBottomWidth !== '0px';
      expect(bar, tab.textContent!.trim()).to.equal(tab.getAttribute('aria-selected') === 'true');
    }
    // The bar takes no room the other tabs lack: nothing moves as the selection does.
    expect([...heights]).to.have.length(1);
    expect(getComputedStyle(deep(el, '#tab-tags')!).borderBottomWidth).to.equal('3px');
  });

  it('should set names written in Arabic right to left: chatbots, sources and tags', async () => {
    const client = await apiClient();
    const bot = await client.chatbots.create({ name: `روبوت المرفأ ${Date.now()}` });
    await client.sources.createQa(bot.uuid, { question: 'متى تغادر العبارة؟', answer: 'ظهرا' });
    await client.tags.create(bot.uuid, { name: 'الأسعار', color: '#123456' });
    const el = await mountAdmin(client, bot, 'sources');
    // Right to left, and lined up on the right, where a row of the language's own would start.
    const rtl = (node: Element | null | undefined, what: string) => {
      expect(node && getComputedStyle(node).direction, what).to.equal('rtl');
      expect(['start', 'right']).to.include(getComputedStyle(node!).textAlign, what);
    };
    rtl(
      deepAll(el, '.chatbot-list .name').find((n) => n.textContent === bot.name),
      'list',
    );
    rtl(deep(el, '.header h2.user-text'), 'heading');
    const sources = deep(el, 'chatbot-admin-sources')!;
    rtl(await until(() => deep(sources, '.tbody .title')), 'source title');
    location.hash = `chatbot=${bot.uuid}&tab=tags`;
    const tags = await until(() => deep(el, 'chatbot-admin-tags'));
    rtl(await until(() => deep(tags, 'li.card strong')), 'tag name');
  });

  it("should keep an open tab's panel when a tab to its left is opened", async () => {
    const client = await apiClient();
    const bot = await newChatbot(client);
    const el = await mountAdmin(client, bot, 'sources');
    const sources = await until(() => deep(el, '#panel-sources chatbot-admin-sources'));
    deep<HTMLButtonElement>(el, '#tab-agents')!.click();
    await until(() => deep(el, '#panel-agents chatbot-admin-agents'));
    // The same element, hidden: an upload or a draft in it carries on.
    expect(deep(el, '#panel-sources chatbot-admin-sources') === sources).to.equal(true);
    expect(sources.isConnected).to.equal(true);
  });

  it('should speak German inside a lang="de" page region, and take string overrides', async () => {
    const client = await apiClient();
    const bot = await newChatbot(client);
    location.hash = `chatbot=${bot.uuid}&tab=agents`;
    const { fixture, html } = await import('@open-wc/testing');
    const wrapper = await fixture(
      html`<div lang="de"><chatbot-admin .client=${client} .strings=${{ newChatbot: 'Bot anlegen' }}></chatbot-admin></div>`,
    );
    const el = wrapper.querySelector('chatbot-admin')!;
    await until(() => deep(el, '#tab-agents'));
    expect(deepAll(el, '[role=tab]').map((t) => t.textContent?.trim())).to.deep.equal([
      'Agenten',
      'Datenquellen',
      'Tags',
      'Gespräche',
      'Auswertung',
      'Einstellungen',
      'Ausprobieren',
    ]);
    expect(button(el, 'Bot anlegen')).to.not.equal(null);
  });

  it("should follow the page when a language switcher changes an ancestor's lang", async () => {
    const client = await apiClient();
    const bot = await newChatbot(client);
    location.hash = `chatbot=${bot.uuid}&tab=agents`;
    const { fixture, html } = await import('@open-wc/testing');
    const wrapper = await fixture(
      html`<div lang="en"><chatbot-admin .client=${client}></chatbot-admin></div>`,
    );
    const el = wrapper.querySelector('chatbot-admin')!;
    const firstTab = () => deep(el, '[role=tab]')?.textContent?.trim();
    await until(() => firstTab() === 'Agents');
    wrapper.setAttribute('lang', 'de');
    await until(() => firstTab() === 'Agenten');
    wrapper.setAttribute('lang', 'en');
    await until(() => firstTab() === 'Agents');
  });

  it('should save settings with the rate limit explained and validated', async () => {
    const client = await apiClient();
    const bot = await newChatbot(client);
    const el = await mountAdmin(client, bot, 'settings');
    const panel = await until(() => deep(el, 'chatbot-admin-settings'));
    const form = await until(() => deep<HTMLFormElement>(panel, 'form'));
    expect(deepText(form)).to.contain(
      'Each session may send at most this many messages in this many seconds.',
    );
    type(form.querySelector('input[name=rate-messages]')!, '0');
    button(panel, 'Save')!.click();
    await until(() => deep(panel, '[role=alert]'));
    expect(deep(panel, '[role=alert]')!.textContent).to.contain('whole numbers, at least 1');
    expect((await client.chatbots.get(bot.uuid)).meta.rate_limit).to.deep.equal([20, 240]);

    type(form.querySelector('input[name=name]')!, 'Renamed bot');
    type(form.querySelector('input[name=rate-messages]')!, '5');
    // Corrected: the rule goes with the numbers' own messages, before anything is saved.
    await until(() => !deep(panel, '[role=alert]'));
    type(form.querySelector('input[name=rate-seconds]')!, '60');
    type(form.querySelector('textarea[name=rate-limit-message]')!, 'Slow down <i>please</i>');
    const citations = form.querySelector<HTMLInputElement>('input[name=show-citations]')!;
    citations.click();
    button(panel, 'Save')!.click();
    await until(() => deep(panel, '.ok')?.textContent?.includes('Saved'));
    const saved = await client.chatbots.get(bot.uuid);
    expect(saved.name).to.equal('Renamed bot');
    expect(saved.meta.rate_limit).to.deep.equal([5, 60]);
    expect(saved.meta.rate_limit_message).to.equal('Slow down <i>please</i>');
    expect(saved.meta.show_citations).to.equal(false);
    // The list follows the saved record.
    await until(() =>
      deepAll(el, '.chatbot-list .name').some((n) => n.textContent === 'Renamed bot'),
    );
    await expect(el).to.be.accessible();
  });

  it("should say the rate limit's largest numbers before the server refuses them", async () => {
    const client = await apiClient();
    const bot = await newChatbot(client);
    const el = await mountAdmin(client, bot, 'settings');
    const panel = await until(() => deep(el, 'chatbot-admin-settings'));
    const form = await until(() => deep<HTMLFormElement>(panel, 'form'));
    const messages = form.querySelector<HTMLInputElement>('input[name=rate-messages]')!;
    type(messages, '2000000');
    await until(() => messages.getAttribute('aria-invalid') === 'true');
    button(panel, 'Save')!.click();
    await until(() => deep(panel, '[role=alert]'));
    expect(deep(panel, '[role=alert]')!.textContent).to.contain('1,000,000 messages');
    expect(messages.value).to.equal('2000000');
    // Beside the field, naming it, and read with it: not the fieldset's sentence alone.
    const described = (input: HTMLInputElement) =>
      (input.getAttribute('aria-describedby') ?? '')
        .split(/\s+/)
        .map((id) => form.querySelector(`#${id}`)?.textContent?.trim() ?? '')
        .join(' ');
    expect(described(messages)).to.contain('Messages: a whole number from 1 to 1,000,000.');
    const seconds = form.querySelector<HTMLInputElement>('input[name=rate-seconds]')!;
    expect(described(seconds)).not.to.contain('whole number');
    type(seconds, '-5');
    await until(() => described(seconds).includes('Seconds: a whole number from 1 to'));
    type(messages, '1000000');
    type(form.querySelector('input[name=rate-seconds]')!, '31536000');
    button(panel, 'Save')!.click();
    await until(() => deep(panel, '.ok')?.textContent?.includes('Saved'));
    expect((await client.chatbots.get(bot.uuid)).meta.rate_limit).to.deep.equal([
      1_000_000, 31_536_000,
    ]);
  });

  it("should write right-to-left text right to left in the settings' text fields", async () => {
    const client = await apiClient();
    const bot = await newChatbot(client);
    const el = await mountAdmin(client, bot, 'settings');
    const panel = await until(() => deep(el, 'chatbot-admin-settings'));
    const form = await until(() => deep<HTMLFormElement>(panel, 'form'));
    const fields = [
      ...form.querySelectorAll<HTMLInputElement>('[name=name], [name=rate-limit-message]'),
    ];
    expect(fields.length).to.equal(2);
    for (const field of fields) type(field, 'בוט החנות');
    await until(() => fields.every((f) => f.matches(':dir(rtl)')));
  });

  it('should keep the settings form as typed when saving fails', async () => {
    const client = await apiClient();
    const bot = await newChatbot(client);
    const el = await mountAdmin(client, bot, 'settings');
    const panel = await until(() => deep(el, 'chatbot-admin-settings'));
    const form = await until(() => deep<HTMLFormElement>(panel, 'form'));
    // Deleted behind the element's back: the real server answers 404 to the save.
    await client.chatbots.delete(bot.uuid);
    const name = form.querySelector<HTMLInputElement>('input[name=name]')!;
    type(name, 'Typed before failure');
    button(panel, 'Save')!.click();
    const alert = await until(() => deep(panel, '[role=alert]'));
    expect(alert.textContent).to.contain('404');
    expect(name.value).to.equal('Typed before failure');
  });

  it('should keep unsaved settings of each chatbot, marked unsaved, while another is shown', async () => {
    const client = await apiClient();
    const first = await newChatbot(client, 'Drafted');
    const second = await newChatbot(client, 'Other');
    const el = await mountAdmin(client, first, 'settings');
    const nameField = () =>
      until(() => deep<HTMLInputElement>(el, 'chatbot-admin-settings', 'input[name=name]'));
    const unsavedMark = () => deep(el, 'chatbot-admin-settings', '.unsaved');
    const pick = async (name: string) =>
      (
        await until(() =>
          deepAll(el, '.chatbot-list button').find(
            (b) => b.querySelector('.name')?.textContent === name,
          ),
        )
      ).click();
    await until(async () => (await nameField()).value === first.name);
    expect(unsavedMark()).to.equal(null);
    type(await nameField(), 'Typed, not saved');
    await until(() => unsavedMark()?.textContent?.trim() === 'Unsaved changes');

    await pick(second.name);
    await until(async () => (await nameField()).value === second.name);
    expect(unsavedMark()).to.equal(null);
    await pick(first.name);
    await until(async () => (await nameField()).value === 'Typed, not saved');
    expect(unsavedMark()?.textContent?.trim()).to.equal('Unsaved changes');
    expect((await client.chatbots.get(first.uuid)).name).to.equal(first.name);

    // Once saved, coming back shows the record, no longer a draft.
    button(deep(el, 'chatbot-admin-settings')!, 'Save')!.click();
    await until(() => deep(el, 'chatbot-admin-settings', '.ok')?.textContent?.includes('Saved'));
    expect(unsavedMark()).to.equal(null);
    await pick(second.name);
    await until(async () => (await nameField()).value === second.name);
    await pick('Typed, not saved');
    await until(async () => (await nameField()).value === 'Typed, not saved');
    expect(unsavedMark()).to.equal(null);
  });

  it("should keep one admin's unsaved settings to itself when a page has two", async () => {
    const client = await apiClient();
    const first = await newChatbot(client, 'Shared');
    const second = await newChatbot(client, 'Elsewhere');
    location.hash = `chatbot=${first.uuid}&tab=settings`;
    const wrapper = await fixture<HTMLDivElement>(html`<div>
      <chatbot-admin .client=${client}></chatbot-admin>
      <chatbot-admin .client=${client}></chatbot-admin>
    </div>`);
    const [a, b] = wrapper.querySelectorAll<HTMLElement>('chatbot-admin') as unknown as [
      HTMLElement,
      HTMLElement,
    ];
    const nameField = (el: HTMLElement) =>
      until(() => deep<HTMLInputElement>(el, 'chatbot-admin-settings', 'input[name=name]'));
    const pick = async (el: HTMLElement, name: string) =>
      (
        await until(() =>
          deepAll(el, '.chatbot-list button').find(
            (x) => x.querySelector('.name')?.textContent === name,
          ),
        )
      ).click();
    await until(async () => (await nameField(a)).value === first.name);
    await until(async () => (await nameField(b)).value === first.name);
    type(await nameField(a), 'Typed in the first admin');
    await until(() => deep(a, 'chatbot-admin-settings', '.unsaved'));
    // The second admin looks elsewhere and comes back: the stored record, not the other's draft.
    await pick(b, second.name);
    await until(async () => (await nameField(b)).value === second.name);
    await pick(b, first.name);
    await until(async () => (await nameField(b)).value !== second.name);
    expect((await nameField(b)).value).to.equal(first.name);
    expect(deep(b, 'chatbot-admin-settings', '.unsaved')).to.equal(null);
    expect((await nameField(a)).value).to.equal('Typed in the first admin');
  });

  it('should delete a chatbot only after a confirmation that names it', async () => {
    const client = await apiClient();
    const bot = await newChatbot(client, 'Doomed');
    const el = await mountAdmin(client, bot, 'settings');
    const panel = await until(() => deep(el, 'chatbot-admin-settings'));
    await until(() => deep(panel, 'form'));
    button(panel, 'Delete')!.click();
    const cancelled = await confirmDialog(panel, false);
    expect(cancelled).to.contain(bot.name);
    expect((await client.chatbots.list()).some((c) => c.uuid === bot.uuid)).to.equal(true);

    const remove = button(panel, 'Delete')!;
    remove.focus();
    remove.click();
    await confirmDialog(panel, true);
    await until(() => !deepAll(el, '.chatbot-list .name').some((n) => n.textContent === bot.name));
    expect((await client.chatbots.list()).some((c) => c.uuid === bot.uuid)).to.equal(false);
    expect(location.hash).to.not.contain(bot.uuid);
    // Its settings went with it: focus goes to the list of chatbots, not to the page.
    await until(() => el.shadowRoot!.activeElement?.id === 'chatbots-heading');
  });
});

/**
 * How light each pixel of a line of the page is painted (red + green + blue, 0–765), from `x`,
 * `y` in the page's coordinates (a box's `top + scrollY`): the page is scrolled to it if need be.
 */
async function painted(x: number, y: number, width: number): Promise<number[]> {
  if (y < scrollY || y >= scrollY + innerHeight) {
    scrollTo(0, y - innerHeight / 2);
    await new Promise((resolve) => requestAnimationFrame(resolve));
  }
  const png = (await executeServerCommand('pixels', {
    x: Math.round(x),
    y: Math.round(y),
    width: Math.round(width),
    height: 1,
  })) as string;
  const image = await createImageBitmap(await (await fetch(`data:image/png;base64,${png}`)).blob());
  const canvas = new OffscreenCanvas(image.width, 1);
  const context = canvas.getContext('2d')!;
  context.drawImage(image, 0, 0);
  const data = context.getImageData(0, 0, image.width, 1).data;
  return Array.from(
    { length: image.width },
    (_, i) => data[i * 4]! + data[i * 4 + 1]! + data[i * 4 + 2]!,
  );
}

/** How light the row is painted near its two edges and in its middle, under the tabs' words. */
async function edgeShades(row: HTMLElement) {
  const box = row.getBoundingClientRect();
  const line = await painted(box.left + scrollX, box.bottom - 9 + scrollY, box.width);
  return { start: line[2]!, middle: line[line.length >> 1]!, end: line[line.length - 3]! };
}
