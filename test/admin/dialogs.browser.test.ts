import { expect } from '@open-wc/testing';
import { setViewport } from '@web/test-runner-commands';
import type { ChatbotAdmin } from '../../src/admin/index.js';
import type { ChatbotClient } from '../../src/api/index.js';
import type { Chatbot } from '../../src/api/types.js';
import { apiClient, deep, deepAll, mountAdmin, until } from './helpers.js';

/** A name of one long word, as a pasted string or a test entry makes it: nowhere to wrap. */
const LONG = `Supercalifragilistic${'x'.repeat(160)}`;
const WIDTHS = [320, 390, 768, 1280];

let counter = 0;
async function longNamedBot(client: ChatbotClient): Promise<Chatbot> {
  counter += 1;
  return client.chatbots.create({ name: `${LONG}${counter}` });
}

/** Opens a panel's dialog in each language and checks it at each viewport width. */
async function checkDialog(
  el: ChatbotAdmin,
  panelTag: string,
  openIt: (panel: HTMLElement) => void | Promise<void>,
  dialogSelector = 'dialog.confirm[open]',
) {
  const panel = await until(() => deep<HTMLElement>(el, panelTag));
  for (const lang of ['en', 'de']) {
    el.lang = lang;
    await el.updateComplete;
    await openIt(panel);
    const dialog = await until(() => deep<HTMLDialogElement>(panel, dialogSelector));
    for (const width of WIDTHS) {
      await setViewport({ width, height: 640 });
      await until(() => innerWidth === width);
      await new Promise((resolve) => requestAnimationFrame(resolve));
      const what = `${panelTag} ${dialogSelector} at ${width}px (${lang})`;
      const box = dialog.getBoundingClientRect();
      expect(box.left, `left of ${what}`).to.be.at.least(0);
      expect(box.right, `right of ${what}`).to.be.at.most(innerWidth);
      // Nothing in it scrolls sideways or sticks out of it: the name wraps.
      expect(dialog.scrollWidth, what).to.be.at.most(dialog.clientWidth);
      for (const part of dialog.querySelectorAll<HTMLElement>('h2, p, input, button')) {
        const name = `${part.localName} "${part.textContent?.trim().slice(0, 30)}" of ${what}`;
        // A field scrolls its own text; any other part shows all of it.
        if (part.localName !== 'input') {
          expect(part.scrollWidth, name).to.be.at.most(part.clientWidth);
        }
        expect(part.getBoundingClientRect().right, name).to.be.at.most(box.right);
      }
    }
    dialog.close();
    await until(() => !deep(panel, dialogSelector));
  }
}

describe('<chatbot-admin> dialogs', () => {
  afterEach(async () => {
    history.replaceState(null, '', location.pathname + location.search);
    await setViewport({ width: 800, height: 600 });
  });

  it('should wrap a long chatbot name in the delete dialog, inside the viewport', async () => {
    const client = await apiClient();
    const bot = await longNamedBot(client);
    const el = await mountAdmin(client, bot, 'settings');
    await checkDialog(el, 'chatbot-admin-settings', (panel) =>
      deepAll<HTMLButtonElement>(panel, 'button.danger')[0]!.click(),
    );
  });

  it('should wrap a long source title in the delete and rename dialogs, inside the viewport', async () => {
    const client = await apiClient();
    const bot = await longNamedBot(client);
    await client.sources.createQa(bot.uuid, { question: LONG, answer: 'Yes.' });
    const el = await mountAdmin(client, bot, 'sources');
    const panel = await until(() => deep(el, 'chatbot-admin-sources'));
    const rowButton = (index: number) =>
      until(() => deepAll<HTMLButtonElement>(panel, '.tbody .row-actions button')[index]);
    await checkDialog(el, 'chatbot-admin-sources', async () => (await rowButton(1)).click());
    await checkDialog(
      el,
      'chatbot-admin-sources',
      async () => (await rowButton(0)).click(),
      'dialog.rename[open]',
    );
  });

  it('should wrap a long agent name in the delete dialog, inside the viewport', async () => {
    const client = await apiClient();
    const bot = await longNamedBot(client);
    await client.agents.create(bot.uuid, { name: LONG, type: 'background' });
    const el = await mountAdmin(client, bot, 'agents');
    // Not the default agent every new chatbot has.
    const card = (panel: HTMLElement) =>
      deepAll(panel, 'article.card').find((a) => a.querySelector('h3')?.textContent === LONG);
    await checkDialog(el, 'chatbot-admin-agents', async (panel) =>
      (await until(() => card(panel)))!.querySelector<HTMLButtonElement>('button.danger')!.click(),
    );
  });

  it('should wrap a long tag name in the delete dialog, inside the viewport', async () => {
    const client = await apiClient();
    const bot = await longNamedBot(client);
    await client.tags.create(bot.uuid, { name: LONG, color: '#123456' });
    const el = await mountAdmin(client, bot, 'tags');
    await checkDialog(el, 'chatbot-admin-tags', async (panel) =>
      (await until(() => deepAll<HTMLButtonElement>(panel, 'li.card button.danger')[0])).click(),
    );
  });

  it("should wrap a long first question in a conversation's delete dialog, inside the viewport", async () => {
    const client = await apiClient();
    const bot = await longNamedBot(client);
    const session = await client.sessions.create(bot.uuid);
    await client.messages.send(session.uuid, LONG);
    const el = await mountAdmin(client, bot, 'sessions');
    await checkDialog(el, 'chatbot-admin-sessions', async (panel) =>
      (await until(() => deepAll<HTMLButtonElement>(panel, '.tbody button.danger')[0])).click(),
    );
  });
});
