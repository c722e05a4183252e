import { expect, fixture, html } from '@open-wc/testing';
import type { ChatbotAdmin } from '../../src/admin/index.js';
import type { ChatbotClient } from '../../src/api/client.js';
import {
  listRequests,
  mountConversations,
  type Panel,
  QUESTIONS,
  recordingClient,
  seedConversations,
  shownQuestions,
} from './conversations-helpers.js';
import { button, deep, pickDate, type, until } from './helpers.js';

const all = [QUESTIONS.uncovered, QUESTIONS.escalated, QUESTIONS.covered].sort();

async function shows(panel: Element, questions: string[]) {
  await until(
    () => JSON.stringify(shownQuestions(panel)) === JSON.stringify([...questions].sort()),
  );
}

/** The reader's date `offset` days from today, as a date input holds it. */
const day = (offset: number) => {
  const t = new Date();
  t.setDate(t.getDate() + offset);
  return t.toLocaleDateString('en-CA');
};

const hashParams = () => Object.fromEntries(new URLSearchParams(location.hash.slice(1)));

/** The filter controls as the owner sees them. */
function controls(panel: Element) {
  const input = (selector: string) => deep<HTMLInputElement>(panel, selector)!;
  return {
    search: input('input[type=search]').value,
    from: input('input[name=from]').value,
    to: input('input[name=to]').value,
    rating: deep<HTMLSelectElement>(panel, 'select[name=rating]')!.value,
    notCovered: input('input[name=notCovered]').checked,
    escalated: input('input[name=escalated]').checked,
    error: input('input[name=error]').checked,
    test: deep<HTMLSelectElement>(panel, 'select[name=test]')!.value,
  };
}

const UNFILTERED = {
  search: '',
  from: '',
  to: '',
  rating: '',
  notCovered: false,
  escalated: false,
  error: false,
  test: 'exclude',
};

/** A new <chatbot-admin> reading the hash as it stands, as after a reload. */
async function reload(client: ChatbotClient) {
  const el = await fixture<ChatbotAdmin>(html`<chatbot-admin .client=${client}></chatbot-admin>`);
  const panel = await until(() => deep<Panel>(el, 'chatbot-admin-sessions'));
  await until(() => deep(panel, '[role=table]'));
  return { el, panel };
}

describe('<chatbot-admin> conversation filters in the hash', () => {
  afterEach(() => history.replaceState(null, '', location.pathname + location.search));

  it('should keep the search and filters in the hash and restore the list from it on a reload', async () => {
    const { client, bot } = await seedConversations();
    const first = await mountConversations(client, bot);
    await shows(first.panel, all);
    const search = deep<HTMLInputElement>(first.panel, 'input[type=search]')!;
    type(search, 'umbrellas');
    pickDate(deep<HTMLInputElement>(first.panel, 'input[name=from]')!, day(-1));
    pickDate(deep<HTMLInputElement>(first.panel, 'input[name=to]')!, day(0));
    const rating = deep<HTMLSelectElement>(first.panel, 'select[name=rating]')!;
    rating.value = 'down';
    rating.dispatchEvent(new Event('change', { bubbles: true }));
    const box = deep<HTMLInputElement>(first.panel, 'input[name=notCovered]')!;
    box.checked = true;
    box.dispatchEvent(new Event('change', { bubbles: true }));
    const askedBy = deep<HTMLSelectElement>(first.panel, 'select[name=test]')!;
    askedBy.value = 'include';
    askedBy.dispatchEvent(new Event('change', { bubbles: true }));
    await until(() => hashParams().search === 'umbrellas');
    await shows(first.panel, [QUESTIONS.uncovered]);
    expect(hashParams()).to.deep.equal({
      chatbot: bot.uuid,
      tab: 'sessions',
      search: 'umbrellas',
      from: day(-1),
      to: day(0),
      rating: 'down',
      flags: 'not-covered',
      test: 'include',
    });
    const entries = history.length;
    first.el.remove();

    const { client: recording, urls } = await recordingClient();
    const { panel } = await reload(recording);
    await shows(panel, [QUESTIONS.uncovered]);
    expect(controls(panel)).to.deep.equal({
      ...UNFILTERED,
      search: 'umbrellas',
      from: day(-1),
      to: day(0),
      rating: 'down',
      notCovered: true,
      test: 'include',
    });
    // Asked filtered from the first request: no unfiltered list flashes by first.
    const [request] = listRequests(urls);
    expect(request!.get('q')).to.equal('umbrellas');
    expect(request!.get('rating')).to.equal('down');
    expect(request!.get('covered')).to.equal('false');
    expect(request!.get('test')).to.equal('include');
    expect(history.length, 'no history entry per filter').to.equal(entries);
  });

  it('should follow Back to the filters the hash had before', async () => {
    const { client, bot } = await seedConversations();
    const { panel } = await mountConversations(client, bot);
    await shows(panel, all);
    const rating = deep<HTMLSelectElement>(panel, 'select[name=rating]')!;
    rating.value = 'up';
    rating.dispatchEvent(new Event('change', { bubbles: true }));
    await shows(panel, [QUESTIONS.covered]);
    // A link of the host page to the unfiltered list: a history entry of its own.
    location.hash = `chatbot=${bot.uuid}&tab=sessions`;
    await shows(panel, all);
    expect(controls(panel)).to.deep.equal(UNFILTERED);

    history.back();
    await shows(panel, [QUESTIONS.covered]);
    expect(controls(panel)).to.deep.equal({ ...UNFILTERED, rating: 'up' });
  });

  it('should ignore what it cannot read in a hand-edited hash, and show the list', async () => {
    const { client, bot } = await seedConversations();
    history.replaceState(
      null,
      '',
      `#chatbot=${bot.uuid}&tab=sessions&search=%25%25&from=2026-13-45&to=yesterday` +
        '&rating=bogus&flags=nonsense,escalated,escalated&page=2&search=%E0%A4%A&test=everyone',
    );
    const { panel } = await reload(client);
    await shows(panel, [QUESTIONS.escalated]);
    expect(controls(panel)).to.deep.equal({ ...UNFILTERED, escalated: true });
    // The next change writes the filters as they are, beside the page's own member.
    const box = deep<HTMLInputElement>(panel, 'input[name=error]')!;
    box.checked = true;
    box.dispatchEvent(new Event('change', { bubbles: true }));
    await until(() => hashParams().flags === 'escalated,error');
    expect(hashParams()).to.deep.equal({
      chatbot: bot.uuid,
      tab: 'sessions',
      page: '2',
      flags: 'escalated,error',
    });

    // Dates out of order, or a search the server would refuse, are no filter either.
    location.hash = `chatbot=${bot.uuid}&tab=sessions&from=${day(1)}&to=${day(-1)}&search=${'a'.repeat(501)}&page=2`;
    await shows(panel, all);
    expect(controls(panel)).to.deep.equal(UNFILTERED);
  });

  it('should clear every filter with Clear filters, shown only while one is set', async () => {
    const { client, bot } = await seedConversations();
    const { panel } = await mountConversations(client, bot);
    await shows(panel, all);
    expect(button(panel, 'Clear filters')).to.equal(null);
    const box = deep<HTMLInputElement>(panel, 'input[name=escalated]')!;
    box.checked = true;
    box.dispatchEvent(new Event('change', { bubbles: true }));
    type(deep<HTMLInputElement>(panel, 'input[type=search]')!, 'human');
    await until(() => hashParams().search === 'human');
    await shows(panel, [QUESTIONS.escalated]);

    const clear = button(panel, 'Clear filters')!;
    clear.focus();
    clear.click();
    await shows(panel, all);
    expect(controls(panel)).to.deep.equal(UNFILTERED);
    expect(hashParams()).to.deep.equal({ chatbot: bot.uuid, tab: 'sessions' });
    expect(button(panel, 'Clear filters')).to.equal(null);
    // Its button gone, focus goes to the search box, where a new search starts.
    await until(() => panel.shadowRoot!.activeElement?.matches('input[type=search]'));
  });

  it('should ask for the first page beside the chatbot list on a link to Conversations, and once', async () => {
    const { bot } = await seedConversations();
    let askedFirst = false;
    const { client, urls } = await recordingClient(async (url, response) => {
      if (new URL(url).pathname.endsWith('/chatbots')) {
        // The list's answer is held until the page is asked for: an admin that asks only once
        // the list is in never does, and after 2 s the list goes on, for the assertion to fail.
        const deadline = performance.now() + 2000;
        while (!listRequests(urls).length && performance.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
        askedFirst = listRequests(urls).length > 0;
      }
      return response;
    });
    location.hash = `chatbot=${bot.uuid}&tab=sessions&rating=down`;
    const { panel } = await reload(client);
    await shows(panel, [QUESTIONS.uncovered]);
    expect(askedFirst, 'the page was asked for before the list answered').to.be.true;
    const asked = listRequests(urls);
    expect(asked.length, 'one request for the first page').to.equal(1);
    expect(asked[0]!.get('rating')).to.equal('down');
  });
});
