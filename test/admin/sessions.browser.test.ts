import { expect, oneEvent } from '@open-wc/testing';
import type { ChatbotClient } from '../../src/api/client.js';
import {
  apiClient,
  button,
  confirmDialog,
  deep,
  deepAll,
  deepText,
  holdingClient,
  loaded,
  mountAdmin,
  newChatbot,
  slowListClient,
  until,
} from './helpers.js';

type Panel = HTMLElement & { updateComplete: Promise<unknown>; refresh(): void };

async function sessionWithExchanges(client?: ChatbotClient) {
  client ??= await apiClient();
  const bot = await newChatbot(client);
  await client.sources.createQa(bot.uuid, {
    question: 'When does the ferry leave?',
    answer: 'The ferry leaves at noon.',
  });
  const session = await client.sessions.create(bot.uuid, { customer: '<b>Ada</b>', plan: 'gold' });
  await client.messages.send(session.uuid, 'When does the ferry leave?');
  await client.messages.send(session.uuid, 'Is there a <script>late</script> ferry?');
  const el = await mountAdmin(client, bot, 'sessions');
  const panel = await until(() => deep<Panel>(el, 'chatbot-admin-sessions'));
  return { client, bot, session, el, panel };
}

/** An exchange's Delete button (Add as Q&A comes before it). */
const deleteButton = (exchange: Element) =>
  [...exchange.querySelectorAll<HTMLButtonElement>('button')].find((b) =>
    b.ariaLabel?.startsWith('Delete message'),
  )!;

async function openFirst(panel: Panel) {
  const open = await until(() =>
    deepAll<HTMLButtonElement>(panel, 'button').find((b) => b.textContent?.trim() === 'Open'),
  );
  open.click();
  return until(() => deep(panel, '[part=transcript]'));
}

/** The questions of the open transcript's exchanges, in order. */
const articles = (panel: Element) =>
  deepAll(deep(panel, '[part=transcript]')!, 'article').map((a) => a.ariaLabel);

/** A client whose deletes wait, once `hold()` is on, before they reach the server. */
async function heldDeletes() {
  const held = await holdingClient(
    (method, url) => method === 'POST' && url.endsWith('/delete'),
    'request',
  );
  return {
    ...held,
    /** Refreshes the panel, and waits until the server has answered a GET ending in `path`. */
    async answerWhileHeld(panel: Panel, path: string) {
      const answers = () =>
        held.answered.filter((r) => r.startsWith('GET') && r.endsWith(path)).length;
      const before = answers();
      panel.refresh();
      await until(() => answers() > before);
      // Time for an answer that is going to be shown to be drawn.
      await new Promise((resolve) => setTimeout(resolve, 50));
      await panel.updateComplete;
    },
  };
}

describe('<chatbot-admin> sessions', () => {
  afterEach(() => history.replaceState(null, '', location.pathname + location.search));

  it('should show a session’s stored data and transcript with citations, as text, accessibly', async () => {
    const { el, panel } = await sessionWithExchanges();
    const transcript = await openFirst(panel);
    await until(() => transcript.querySelectorAll('article').length === 2);
    const data = deep(panel, 'dl.data')!;
    expect(data.textContent)
      .to.contain('customer')
      .and.to.contain('<b>Ada</b>')
      .and.to.contain('gold');
    expect(data.querySelector('b')).to.equal(null);
    const text = deepText(transcript);
    expect(text).to.contain('When does the ferry leave?');
    expect(text).to.contain('The ferry leaves at noon.');
    expect(text).to.contain('Is there a <script>late</script> ferry?');
    expect(transcript.querySelector('script')).to.equal(null);
    const citations = transcript.querySelector('[part=sources]')!;
    expect(citations.textContent).to.contain('When does the ferry leave?');
    await expect(el).to.be.accessible();
  });

  it('should delete one exchange after a confirmation that names it', async () => {
    const { client, session, panel } = await sessionWithExchanges();
    const transcript = await openFirst(panel);
    const first = await until(() => transcript.querySelector('article'));
    const deleted = oneEvent(panel, 'chatbot-admin-change');
    deleteButton(first).click();
    expect(await confirmDialog(panel)).to.contain('When does the ferry leave?');
    await deleted;
    expect(transcript.querySelectorAll('article').length).to.equal(1);
    const left = await client.messages.list(session.uuid);
    expect(left.map((m) => m.query)).to.deep.equal(['Is there a <script>late</script> ferry?']);
  });

  it('should not bring a deleted exchange back when a transcript asked for before the delete answers after it', async () => {
    const slow = await slowListClient('/messages');
    const { client, session, panel } = await sessionWithExchanges(slow.client);
    const transcript = await openFirst(panel);
    const first = await until(() => transcript.querySelector('article'));
    const held = slow.hold();
    panel.refresh();
    await held;
    deleteButton(first).click();
    await confirmDialog(panel);
    await until(() => transcript.querySelectorAll('article').length === 1);

    slow.release();
    await loaded(panel, 'detailTask');
    const shown = deepAll(deep(panel, '[part=transcript]')!, 'article').map((a) => a.ariaLabel);
    expect(shown).to.deep.equal(['Is there a <script>late</script> ferry?']);
    const left = await client.messages.list(session.uuid);
    expect(left.map((m) => m.query)).to.deep.equal(shown);
  });

  it('should not bring a deleted exchange back when a transcript answers while the delete is on its way', async () => {
    const deletes = await heldDeletes();
    const { client, session, panel } = await sessionWithExchanges(deletes.client);
    const transcript = await openFirst(panel);
    const first = await until(() => transcript.querySelector('article'));
    deleteButton(first).click();
    const held = deletes.hold();
    const deleted = oneEvent(panel, 'chatbot-admin-change');
    await confirmDialog(panel);
    await held;
    await until(() => articles(panel).length === 1);

    // The server still has the exchange when it answers this transcript.
    await deletes.answerWhileHeld(panel, '/messages');
    expect(articles(panel)).to.deep.equal(['Is there a <script>late</script> ferry?']);

    deletes.release();
    await deleted;
    await loaded(panel, 'detailTask');
    expect(articles(panel)).to.deep.equal(['Is there a <script>late</script> ferry?']);
    const left = await client.messages.list(session.uuid);
    expect(left.map((m) => m.query)).to.deep.equal(articles(panel));
  });

  it('should not bring a deleted conversation back when the list answers while the delete is on its way', async () => {
    const deletes = await heldDeletes();
    const { client, bot, panel } = await sessionWithExchanges(deletes.client);
    await openFirst(panel);
    button(panel, 'Delete session')!.click();
    const held = deletes.hold();
    const deleted = oneEvent(panel, 'chatbot-admin-change');
    await confirmDialog(panel);
    await held;
    await until(() => deepAll(panel, '.tbody [role=row]').length === 0);

    await deletes.answerWhileHeld(panel, '/conversations?limit=50');
    expect(deepAll(panel, '.tbody [role=row]')).to.have.length(0);

    deletes.release();
    await deleted;
    await (panel as unknown as { pages: { complete: Promise<void> } }).pages.complete;
    expect(deepAll(panel, '.tbody [role=row]')).to.have.length(0);
    expect(deepText(panel)).to.contain('No sessions yet.');
    expect(await client.sessions.list(bot.uuid)).to.deep.equal([]);
  });

  it('should put an exchange back when deleting it fails', async () => {
    const { client, session, panel } = await sessionWithExchanges();
    const transcript = await openFirst(panel);
    const first = await until(() => transcript.querySelector('article'));
    await client.messages.deleteMany((await client.messages.list(session.uuid)).map((m) => m.uuid));
    deleteButton(first).click();
    await confirmDialog(panel);
    await until(() => deep(panel, '[role=alert]'));
    expect(transcript.querySelectorAll('article').length).to.equal(2);
  });

  it('should delete the session after a confirmation', async () => {
    const { client, bot, panel } = await sessionWithExchanges();
    await openFirst(panel);
    const deleted = oneEvent(panel, 'chatbot-admin-change');
    button(panel, 'Delete session')!.click();
    expect(await confirmDialog(panel)).to.contain('Delete the session');
    await deleted;
    expect(await client.sessions.list(bot.uuid)).to.deep.equal([]);
    expect(deep(panel, '[part=transcript]')).to.equal(null);
    expect(deepText(panel)).to.contain('No sessions yet.');
  });
});
