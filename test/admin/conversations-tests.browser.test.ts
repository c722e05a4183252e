import { expect, fixture, html } from '@open-wc/testing';
import type { ChatbotAdmin } from '../../src/admin/index.js';
import type { ChatbotClient } from '../../src/api/client.js';
import { type ConversationSummary, OWNER_TEST_MEMBER, type Page } from '../../src/api/types.js';
import {
  capturedConsole,
  listRequests,
  mountConversations,
  type Panel,
  QUESTIONS,
  recordingClient,
  seedConversations,
  shownQuestions,
} from './conversations-helpers.js';
import { apiClient, deep, deepAll, deepText, until } from './helpers.js';

const TRIED = 'Do you ship to the moon?';
const visitors = [QUESTIONS.uncovered, QUESTIONS.escalated, QUESTIONS.covered].sort();

/** The seeded conversations, and one the owner tried in Try it (its session marked as such). */
async function seedWithTest(client?: ChatbotClient) {
  const seeded = await seedConversations(client);
  const tried = await seeded.client.sessions.create(seeded.bot.uuid, {
    [OWNER_TEST_MEMBER]: true,
  });
  await seeded.client.messages.send(tried.uuid, TRIED);
  return seeded;
}

async function shows(panel: Element, questions: string[]) {
  await until(
    () => JSON.stringify(shownQuestions(panel)) === JSON.stringify([...questions].sort()),
  );
}

const askedBy = (panel: Element) => deep<HTMLSelectElement>(panel, 'select[name=test]');

function choose(panel: Element, value: string) {
  const control = askedBy(panel)!;
  control.value = value;
  control.dispatchEvent(new Event('change', { bubbles: true }));
}

const rowOf = (panel: Element, question: string) =>
  deepAll(panel, '.tbody [role=row]').find(
    (row) => row.querySelector('.title')?.textContent?.trim() === question,
  );

const hashParams = () => Object.fromEntries(new URLSearchParams(location.hash.slice(1)));

/**
 * A client of a server from before the `test` parameter: it refuses it, naming it, as it does any
 * parameter it does not take, and lists every conversation, none said to be a test.
 */
async function clientBeforeTests() {
  const urls: string[] = [];
  const client = await apiClient(async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    urls.push(url.href);
    if (!url.pathname.endsWith('/conversations')) return fetch(input, init);
    if (url.searchParams.has('test')) {
      const message =
        'test is not a parameter of this endpoint (it takes q, rating, covered, escalated, error, from, to, session, cursor, limit)';
      return Response.json({ error: { code: 'invalid_input', message } }, { status: 400 });
    }
    url.searchParams.set('test', 'include');
    const page = (await (await fetch(url, init)).json()) as Page<ConversationSummary>;
    for (const row of page.data) delete row.test;
    return Response.json(page);
  });
  return { client, urls };
}

describe("<chatbot-admin> conversations and the owner's tests (Try it)", () => {
  const logged = capturedConsole();

  afterEach(() => history.replaceState(null, '', location.pathname + location.search));

  it("should list the visitors' conversations alone at first, and the owner's tests when Asked by says, marked as tests", async () => {
    const { bot } = await seedWithTest();
    const { urls, client: recording } = await recordingClient();
    const { el, panel } = await mountConversations(recording, bot);
    await shows(panel, visitors);
    // The server's default, not asked for: a server from before `test` is asked as it always was.
    expect(listRequests(urls)[0]!.has('test')).to.equal(false);
    expect(askedBy(panel)!.value).to.equal('exclude');
    expect([...askedBy(panel)!.options].map((o) => o.textContent?.trim())).to.deep.equal([
      'Visitors',
      "Visitors and the owner's tests",
      "The owner's tests (Try it)",
    ]);

    choose(panel, 'only');
    await shows(panel, [TRIED]);
    expect(listRequests(urls).at(-1)!.get('test')).to.equal('only');
    expect(hashParams().test).to.equal('only');
    const row = rowOf(panel, TRIED)!;
    expect(row.querySelector('.flag.test')!.textContent).to.contain('Test');
    expect(row.querySelector('.flag.test .visually-hidden')!.textContent).to.equal(
      "The owner's test in Try it",
    );
    await expect(el).to.be.accessible();

    // Its transcript says so too.
    row.querySelector('button')!.click();
    await until(() => deep(panel, '[part=transcript] article'));
    expect(deepText(deep(panel, '.detail')!)).to.contain(
      "The owner's test in Try it: Insights leaves it out",
    );

    choose(panel, 'include');
    await shows(panel, [...visitors, TRIED]);
    expect(rowOf(panel, QUESTIONS.covered)!.querySelector('.flag.test')).to.equal(null);
    // A visitor's transcript says nothing of tests.
    rowOf(panel, QUESTIONS.covered)!.querySelector('button')!.click();
    await until(() => deepText(deep(panel, '[part=transcript]') ?? panel).includes('noon'));
    expect(deepText(deep(panel, '.detail')!)).to.not.contain("owner's test");
    // Clear filters goes back to the visitors'.
    deepAll<HTMLButtonElement>(panel, 'button')
      .find((b) => b.textContent?.trim() === 'Clear filters')!
      .click();
    await shows(panel, visitors);
    expect(askedBy(panel)!.value).to.equal('exclude');
    expect(hashParams().test).to.equal(undefined);
    expect(logged).to.deep.equal([]);
  });

  it('should open the list of tests from the hash, as after a reload', async () => {
    const { client, bot } = await seedWithTest();
    location.hash = `chatbot=${bot.uuid}&tab=sessions&test=only`;
    const el = await fixture<ChatbotAdmin>(html`<chatbot-admin .client=${client}></chatbot-admin>`);
    const panel = await until(() => deep<Panel>(el, 'chatbot-admin-sessions'));
    await shows(panel, [TRIED]);
    expect(askedBy(panel)!.value).to.equal('only');
  });

  it('should offer no Asked by against a server from before it, and say nothing in the console', async () => {
    const { bot } = await seedWithTest();
    const { client, urls } = await clientBeforeTests();
    const { panel } = await mountConversations(client, bot);
    // That server lists every conversation, the test among them: as it always did.
    await shows(panel, [...visitors, TRIED]);
    await until(() => askedBy(panel) === null);
    expect(listRequests(urls).every((params) => !params.has('test'))).to.equal(true);
    expect(deep(panel, '[role=alert]')).to.equal(null);
    expect(logged).to.deep.equal([]);
  });

  it('should list every conversation, quietly, when a hash asks that server for the tests', async () => {
    const { bot } = await seedWithTest();
    const { client, urls } = await clientBeforeTests();
    location.hash = `chatbot=${bot.uuid}&tab=sessions&test=only`;
    const el = await fixture<ChatbotAdmin>(html`<chatbot-admin .client=${client}></chatbot-admin>`);
    const panel = await until(() => deep<Panel>(el, 'chatbot-admin-sessions'));
    await shows(panel, [...visitors, TRIED]);
    expect(listRequests(urls).map((params) => params.get('test'))).to.deep.equal(['only', null]);
    expect(askedBy(panel)).to.equal(null);
    // The hash no longer asks for what the list does not show.
    await until(() => hashParams().test === undefined);
    expect(hashParams().tab).to.equal('sessions');
    expect(deep(panel, '[role=alert]')).to.equal(null);
    expect(logged).to.deep.equal([]);
  });
});
