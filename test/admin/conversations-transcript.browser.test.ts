import { expect, oneEvent } from '@open-wc/testing';
import { sendKeys, setViewport } from '@web/test-runner-commands';
import type { AdminChangeEvent } from '../../src/admin/index.js';
import {
  mountConversations,
  type Panel,
  QUESTIONS,
  seedConversations,
} from './conversations-helpers.js';
import {
  apiClient,
  button,
  confirmDialog,
  deep,
  deepAll,
  deepText,
  loaded,
  newChatbot,
  type,
  until,
} from './helpers.js';

async function open(panel: Panel, question: string) {
  button(panel, `Open session: ${question}`)!.click();
  return until(() => {
    const transcript = deep(panel, '[part=transcript]');
    return transcript?.querySelector('article')?.ariaLabel === question && transcript;
  });
}

/** The list's row whose first question is `question`, as its cells' text. */
const rowCells = (panel: Element, question: string) => {
  const row = deepAll(panel, '.tbody [role=row]').find(
    (r) => r.querySelector('.title')?.textContent?.trim() === question,
  );
  return row && [...row.querySelectorAll('[role=cell]')].map((c) => c.textContent?.trim() ?? '');
};

/**
 * Two conversations: one of two exchanges (first a question the sources do not cover, rated not
 * helpful, then one a Q&A answers), and one of a single uncovered question, rated not helpful.
 */
async function twoExchanges() {
  const client = await apiClient();
  const bot = await newChatbot(client, 'Review bot');
  await client.sources.createQa(bot.uuid, {
    question: QUESTIONS.covered,
    answer: 'The ferry leaves at noon.',
  });
  const rateFirstDown = async (session: string) => {
    const [first] = await client.messages.list(session);
    await client.messages.feedback(first!.uuid, { rating: 'down', reason: 'incomplete' });
  };
  const two = await client.sessions.create(bot.uuid);
  await client.messages.send(two.uuid, 'Do you rent bicycles?');
  await client.messages.send(two.uuid, QUESTIONS.covered);
  await rateFirstDown(two.uuid);
  const one = await client.sessions.create(bot.uuid);
  await client.messages.send(one.uuid, QUESTIONS.uncovered);
  await rateFirstDown(one.uuid);
  return { client, bot };
}

async function deleteExchange(panel: Panel, question: string) {
  const transcript = await open(panel, 'Do you rent bicycles?');
  const exchange = [...transcript.querySelectorAll('article')].find(
    (a) => a.ariaLabel === question,
  )!;
  const deleted = oneEvent(panel, 'chatbot-admin-change');
  [...exchange.querySelectorAll('button')]
    .find((b) => b.ariaLabel?.startsWith('Delete message'))!
    .click();
  await confirmDialog(panel);
  await deleted;
}

/**
 * Deletes the exchange asking `deleted` from its focused Delete, as a keyboard user does, and
 * waits for focus to land on the Delete of the exchange asking `next`.
 */
async function deleteFromKeyboard(
  panel: Panel,
  transcript: Element,
  deleted: string,
  next: string,
) {
  const remove = button(transcript, `Delete message: ${deleted}`)!;
  remove.focus();
  remove.click();
  await confirmDialog(panel);
  await until(
    () => panel.shadowRoot!.activeElement?.getAttribute('aria-label') === `Delete message: ${next}`,
  );
}

describe('<chatbot-admin> conversation transcript', () => {
  afterEach(() => history.replaceState(null, '', location.pathname + location.search));

  it('should show each exchange’s citations, rating with its reason and comment, and coverage', async () => {
    const { client, bot } = await seedConversations();
    const { el, panel } = await mountConversations(client, bot);
    await until(() => button(panel, `Open session: ${QUESTIONS.covered}`));

    let transcript = await open(panel, QUESTIONS.covered);
    expect(deepText(transcript))
      .to.contain('Rated helpful')
      .and.to.contain('Answered from the sources');
    expect(transcript.querySelector('[part=sources]')!.textContent).to.contain(QUESTIONS.covered);
    expect(panel.shadowRoot!.activeElement?.id).to.equal('detail-heading');
    await expect(el).to.be.accessible();

    transcript = await open(panel, QUESTIONS.uncovered);
    const text = deepText(transcript);
    expect(text).to.contain('Rated not helpful: wrong');
    const rated = transcript.querySelector('.rated-down')!;
    expect(rated.querySelector('svg.icon')?.getAttribute('aria-hidden')).to.equal('true');
    expect(text).to.contain('Comment: We do sell umbrellas, at the kiosk.');
    expect(text).to.contain('Not covered by the sources');
    expect(transcript.querySelector('[part=sources]')).to.equal(null);
    const row = deepAll(panel, '.tbody [role=row]').find(
      (r) => r.getAttribute('aria-current') === 'true',
    );
    expect(row!.textContent).to.contain(QUESTIONS.uncovered);

    transcript = await open(panel, QUESTIONS.escalated);
    // The escalation agent answered before the sources were asked: no gap in them.
    expect(deepText(transcript))
      .to.contain('Escalated to a human')
      .and.not.to.contain('Rated')
      .and.not.to.contain('Not covered by the sources');
  });

  it('should add an exchange as a Q&A with the answer the owner writes, then ask it again in Try it', async () => {
    const { client, bot } = await seedConversations();
    const { el, panel } = await mountConversations(client, bot);
    await until(() => button(panel, `Open session: ${QUESTIONS.uncovered}`));
    const transcript = await open(panel, QUESTIONS.uncovered);
    const add = button(transcript, `Add as Q&A: ${QUESTIONS.uncovered}`)!;
    add.click();
    const form = await until(() => transcript.querySelector<HTMLFormElement>('form.qa-form'));
    const question = form.querySelector<HTMLInputElement>('[name=question]')!;
    const answer = form.querySelector<HTMLTextAreaElement>('[name=answer]')!;
    expect(question.value).to.equal(QUESTIONS.uncovered);
    // The sources did not cover it: its answer was an apology, nothing to correct.
    expect(answer.value).to.equal('');
    expect(form.querySelector('#qa-form-help')!.textContent).to.contain(
      'Write the answer visitors should get to this question',
    );
    // Booleans: chai's message for two unequal elements of a shadow tree never finishes.
    expect(panel.shadowRoot!.activeElement === answer).to.equal(true);
    expect(add.getAttribute('aria-expanded')).to.equal('true');
    await expect(el).to.be.accessible();

    // Refused without a request when the answer is emptied: said beside the answer, which
    // takes focus back; the question is left as it was.
    type(answer, '  ');
    question.focus();
    form.requestSubmit();
    await until(() => answer.getAttribute('aria-invalid') === 'true');
    const message = panel.shadowRoot!.getElementById(answer.getAttribute('aria-describedby')!);
    expect(message?.textContent?.trim()).to.equal('Enter an answer.');
    expect(question.getAttribute('aria-invalid')).to.equal('false');
    expect(question.value).to.equal(QUESTIONS.uncovered);
    await until(() => panel.shadowRoot!.activeElement === answer);

    const corrected = 'Yes: umbrellas are sold at the kiosk by pier two.';
    type(answer, corrected);
    await until(() => answer.getAttribute('aria-invalid') === 'false');
    expect(answer.hasAttribute('aria-describedby')).to.equal(false);
    const created = oneEvent(panel, 'chatbot-admin-change') as Promise<AdminChangeEvent>;
    form.requestSubmit();
    const { detail } = await created;
    expect(detail.kind).to.equal('source');
    expect(detail.action).to.equal('create');
    const source = (await client.sources.list(bot.uuid)).find((s) => s.uuid === detail.uuids[0])!;
    expect(source.type).to.equal('qa');
    expect(JSON.parse(source.meta_json)).to.include({
      question: QUESTIONS.uncovered,
      answer: corrected,
    });

    const again = await until(() => button(transcript, 'Ask again in Try it'));
    expect(deepText(transcript)).to.contain('Added as a Q&A source.');
    await until(() => panel.shadowRoot!.activeElement === again);
    const answered = oneEvent(el, 'chatbot-answer-finished') as Promise<
      CustomEvent<{ query: string; response: string }>
    >;
    again.click();
    await until(() => deep(el, '#tab-try')?.getAttribute('aria-selected') === 'true');
    // Focus goes on into the chat, not to the page.
    const chat = await until(() => deep(el, '#panel-try chatbot-chat'));
    await until(() => chat.shadowRoot?.activeElement?.localName === 'textarea');
    const finished = await answered;
    expect(finished.detail.query).to.equal(QUESTIONS.uncovered);
    expect(finished.detail.response).to.contain('kiosk by pier two');
    expect(transcript.querySelector('.qa-form')).to.equal(null);
  });

  it('should say an exchange was added as a Q&A once its form closes, with no second Add to make a duplicate', async () => {
    const { client, bot, panel, transcript, form } = await qaFormOf(QUESTIONS.uncovered);
    type(form.querySelector('[name=answer]')!, 'At the kiosk by pier two.');
    form.requestSubmit();
    await until(() => button(transcript, 'Ask again in Try it'));
    button(transcript, 'Close')!.click();
    await until(() => !transcript.querySelector('.qa-form'));
    // Booleans: chai's message for an element of a shadow tree never finishes.
    expect(button(transcript, `Add as Q&A: ${QUESTIONS.uncovered}`) === null).to.equal(true);
    const note = transcript.querySelector('[data-qa-added]');
    expect(note?.textContent ?? '').to.contain('Added as a Q&A source.');
    // Focus stays in the transcript, on the note that replaced the button it came from.
    await until(() => panel.shadowRoot!.activeElement === note);
    const qas = (await client.sources.list(bot.uuid)).filter((x) => x.type === 'qa');
    expect(qas).to.have.length(2);
  });

  /** The Add as Q&A form of the exchange asking `question`, opened from its focused button. */
  async function qaFormOf(question: string) {
    const { client, bot } = await seedConversations();
    const { panel } = await mountConversations(client, bot);
    await until(() => button(panel, `Open session: ${question}`));
    const transcript = await open(panel, question);
    const add = button(transcript, `Add as Q&A: ${question}`)!;
    add.focus();
    add.click();
    const form = await until(() => transcript.querySelector<HTMLFormElement>('form.qa-form'));
    return { client, bot, panel, transcript, add, form };
  }

  it('should head the transcript once and close it with its Close button, focus back on Open', async () => {
    const { client, bot } = await seedConversations();
    const { panel } = await mountConversations(client, bot);
    await until(() => button(panel, `Open session: ${QUESTIONS.covered}`));
    await open(panel, QUESTIONS.covered);
    const detail = deep(panel, 'section.detail')!;
    const headings = [...detail.querySelectorAll('h2, h3')].map((h) => h.textContent?.trim());
    expect(headings).to.deep.equal(['Transcript', 'Stored data', 'Exchanges']);
    button(detail, 'Close')!.click();
    await until(() => deep(panel, 'section.detail') === null);
    await until(
      () =>
        panel.shadowRoot!.activeElement?.getAttribute('aria-label') ===
        `Open session: ${QUESTIONS.covered}`,
    );
  });

  it('should bring a transcript opened below the window into view, and leave one in view where it is', async () => {
    const { client, bot } = await seedConversations();
    const { el, panel } = await mountConversations(client, bot);
    await until(() => button(panel, `Open session: ${QUESTIONS.covered}`));
    // A dashboard's 768px column in a 1280x900 window, the page's own header above it.
    const header = document.createElement('div');
    const footer = document.createElement('div');
    header.style.height = '500px';
    footer.style.height = '2000px';
    el.before(header);
    el.style.width = '768px';
    /** Opens the conversation from the top of the page, and waits for its transcript drawn. */
    const openFromTop = async (question: string) => {
      scrollTo(0, 0);
      const transcript = await open(panel, question);
      await loaded(panel, 'detailTask');
      await new Promise((resolve) => requestAnimationFrame(resolve));
      expect(panel.shadowRoot!.activeElement?.id, question).to.equal('detail-heading');
      return {
        detail: deep(panel, 'section.detail')!.getBoundingClientRect(),
        first: transcript.querySelector('article')!.getBoundingClientRect(),
      };
    };
    try {
      await setViewport({ width: 1280, height: 900 });
      await until(() => innerHeight === 900);

      // More of the page below: the transcript's top goes to the top of the window.
      el.after(footer);
      let { detail, first } = await openFromTop(QUESTIONS.covered);
      expect(detail.top, 'the transcript starts at the top').to.be.within(0, 20);
      expect(first.top, 'its first exchange on screen').to.be.within(0, innerHeight - 40);

      // The admin ends the page: the page scrolls to its end, the whole transcript in view,
      // though only "Loading…" was there to show when it opened.
      footer.remove();
      ({ detail } = await openFromTop(QUESTIONS.escalated));
      expect(detail.top, 'the transcript starts in view').to.be.at.least(0);
      expect(detail.bottom, 'the transcript ends in view').to.be.at.most(innerHeight);

      // A window that shows the transcript whole already: the page does not move.
      header.remove();
      el.after(footer);
      el.style.width = '';
      await setViewport({ width: 1280, height: 1400 });
      await until(() => innerHeight === 1400);
      ({ detail } = await openFromTop(QUESTIONS.uncovered));
      expect(detail.bottom, 'the transcript is in view').to.be.at.most(innerHeight);
      expect(scrollY, 'the page has not moved').to.equal(0);
    } finally {
      header.remove();
      footer.remove();
      el.style.width = '';
      await setViewport({ width: 800, height: 600 });
    }
  });

  it('should prefill a quoted answer without its lead-ins and citation markers, its code as it is', async () => {
    const client = await apiClient();
    const bot = await newChatbot(client, 'Ferry guide');
    const guide = [
      '# Ferry guide',
      '',
      '## Departures',
      '',
      'The summer ferry departs from pier two at noon every day.',
      '',
      '```',
      'timetable[1] = "noon"',
      '```',
    ].join('\n');
    const source = await client.sources.upload(bot.uuid, new Blob([guide]), {
      fileName: 'ferry.md',
    });
    await until(async () =>
      (await client.sources.list(bot.uuid)).some(
        (s) => s.uuid === source.uuid && s.status === 'success',
      ),
    );
    const question = 'When does the summer ferry depart from the pier?';
    const session = await client.sessions.create(bot.uuid);
    await client.messages.send(session.uuid, question);
    const [message] = await client.messages.list(session.uuid);
    // The answer as the server composed it: a lead-in naming the section, a marker after it.
    expect(message!.response).to.match(/^From \*Ferry guide › Departures\*:\n\n/);
    expect(message!.response)
      .to.match(/\n\n\[1\]$/)
      .and.to.contain('timetable[1] = "noon"');
    const { panel } = await mountConversations(client, bot);
    await until(() => button(panel, `Open session: ${question}`));
    const transcript = await open(panel, question);
    button(transcript, `Add as Q&A: ${question}`)!.click();
    const field = await until(() =>
      transcript.querySelector<HTMLTextAreaElement>('form.qa-form [name=answer]'),
    );
    expect(field.value).to.equal(
      message!.response
        .replace(/^From \*Ferry guide › Departures\*:\n\n/, '')
        .replace(/ \[1\]/g, '')
        .replace(/\n\n\[1\]$/, ''),
    );
    expect(field.value).to.contain('The summer ferry departs from pier two at noon');
    expect(field.value).to.not.match(/From \*|\s\[1\]/);
    expect(field.value).to.contain('timetable[1] = "noon"');
  });

  it('should close the form unsaved, giving focus back to its button', async () => {
    const { client, bot, panel, transcript, add, form } = await qaFormOf(QUESTIONS.covered);
    // A covered answer is there to correct.
    expect(form.querySelector<HTMLTextAreaElement>('[name=answer]')!.value).to.equal(
      'The ferry leaves at noon.',
    );
    expect(form.querySelector('#qa-form-help')!.textContent).to.contain(
      'Correct the answer as visitors should get it',
    );
    button(form, 'Cancel')!.click();
    await until(() => !transcript.querySelector('form.qa-form'));
    await until(() => panel.shadowRoot!.activeElement === add);
    expect((await client.sources.list(bot.uuid)).length).to.equal(1);
  });

  it('should close the form on Escape as Cancel does, giving focus back to its button', async () => {
    const { client, bot, panel, transcript, add, form } = await qaFormOf(QUESTIONS.covered);
    // The answer takes focus: Escape is pressed where the owner types.
    await until(() => panel.shadowRoot!.activeElement === form.querySelector('[name=answer]'));
    await sendKeys({ press: 'Escape' });
    await until(() => !transcript.querySelector('form.qa-form'));
    await until(() => panel.shadowRoot!.activeElement === add);
    expect(add.getAttribute('aria-expanded')).to.equal('false');
    // The form took that Escape: the transcript stays; the next one closes it.
    expect(deep(panel, '[part=transcript]')).to.not.equal(null);
    await sendKeys({ press: 'Escape' });
    await until(() => deep(panel, '[part=transcript]') === null);
    await until(
      () =>
        panel.shadowRoot!.activeElement?.getAttribute('aria-label') ===
        `Open session: ${QUESTIONS.covered}`,
    );
    expect((await client.sources.list(bot.uuid)).length).to.equal(1);
  });

  it('should keep a draft its button puts away, or another form, and save what the form shows', async () => {
    const { client, bot } = await twoExchanges();
    const { panel } = await mountConversations(client, bot);
    const transcript = await open(panel, 'Do you rent bicycles?');
    const addFirst = button(transcript, 'Add as Q&A: Do you rent bicycles?')!;
    const addSecond = button(transcript, `Add as Q&A: ${QUESTIONS.covered}`)!;
    const answerField = () =>
      until(() => transcript.querySelector<HTMLTextAreaElement>('form.qa-form [name=answer]'));
    addFirst.click();
    const corrected = 'Yes: bicycles are rented at the kiosk by pier two.';
    type(await answerField(), corrected);

    // Its button again closes the form (it says it is expanded), keeping the draft.
    addFirst.click();
    await until(() => !transcript.querySelector('form.qa-form'));
    expect(addFirst.getAttribute('aria-expanded')).to.equal('false');
    addFirst.click();
    expect((await answerField()).value).to.equal(corrected);

    // Another exchange's form puts this one away, not out.
    addSecond.click();
    await until(() => addSecond.getAttribute('aria-expanded') === 'true');
    expect((await answerField()).value).to.equal('The ferry leaves at noon.');
    addFirst.click();
    await until(() => addFirst.getAttribute('aria-expanded') === 'true');
    const field = await answerField();
    expect(field.value).to.equal(corrected);

    const created = oneEvent(panel, 'chatbot-admin-change') as Promise<AdminChangeEvent>;
    field.closest('form')!.requestSubmit();
    const { detail } = await created;
    const source = (await client.sources.list(bot.uuid)).find((s) => s.uuid === detail.uuids[0])!;
    expect(JSON.parse(source.meta_json)).to.include({
      question: 'Do you rent bicycles?',
      answer: corrected,
    });
  });

  it('should say beside a field that it is longer than the server takes, and send nothing', async () => {
    const { client, bot, panel, transcript, form } = await qaFormOf(QUESTIONS.covered);
    const question = form.querySelector<HTMLInputElement>('[name=question]')!;
    const answer = form.querySelector<HTMLTextAreaElement>('[name=answer]')!;
    type(answer, 'a'.repeat(100_001));
    await until(() => answer.getAttribute('aria-invalid') === 'true');
    const message = () =>
      panel.shadowRoot!.getElementById(answer.getAttribute('aria-describedby')!)?.textContent;
    expect(message()?.trim()).to.equal('At most 100,000 characters; this has 100,001.');
    expect(question.getAttribute('aria-invalid')).to.equal('false');
    type(question, 'q'.repeat(10_001));
    await until(() => question.getAttribute('aria-invalid') === 'true');
    form.requestSubmit();
    await until(() => panel.shadowRoot!.activeElement === question);
    expect(transcript.querySelector('form.qa-form')).to.not.equal(null);
    expect((await client.sources.list(bot.uuid)).length).to.equal(1);
    // Nothing typed is lost: shortened, it is what is saved.
    type(question, QUESTIONS.covered);
    type(answer, 'a'.repeat(100_000));
    await until(() => answer.getAttribute('aria-invalid') === 'false');
    expect(message()).to.equal(undefined);
  });

  it('should set a question and answer in Arabic right to left, in the list and the transcript', async () => {
    const client = await apiClient();
    const bot = await newChatbot(client, 'Review bot');
    const question = 'متى تغادر العبارة؟';
    const session = await client.sessions.create(bot.uuid);
    await client.messages.send(session.uuid, question);
    const { panel } = await mountConversations(client, bot);
    const title = await until(() =>
      deepAll(panel, '.tbody [role=row] .title').find((t) => t.textContent?.trim() === question),
    );
    expect(getComputedStyle(title).direction, 'first question in the list').to.equal('rtl');
    const transcript = await open(panel, question);
    const asked = transcript.querySelector<HTMLElement>('[part~=user-message]')!;
    expect(asked.matches(':dir(rtl)'), 'question in the transcript').to.equal(true);
    expect(getComputedStyle(asked).direction).to.equal('rtl');
    // An English answer beside it stays left to right: each text takes its own direction.
    const answer = transcript.querySelector<HTMLElement>('[part~=assistant-message]')!;
    expect(/[a-z]/i.test(answer.textContent ?? '')).to.equal(true);
    expect(answer.matches(':dir(ltr)'), `answer "${answer.textContent}"`).to.equal(true);
    // The Q&A form opened from it writes the question right to left too.
    button(transcript, `Add as Q&A: ${question}`)!.click();
    const field = await until(() =>
      transcript.querySelector<HTMLInputElement>('form.qa-form [name=question]'),
    );
    expect(field.matches(':dir(rtl)')).to.equal(true);
  });

  it('should show a conversation’s row as the server lists it after one of its exchanges is deleted', async () => {
    const { client, bot } = await twoExchanges();
    const { panel } = await mountConversations(client, bot);
    const before = await until(() => rowCells(panel, 'Do you rent bicycles?'));
    expect(before[1]).to.equal('2');
    expect(before[3]).to.contain('1 rated not helpful').and.to.contain('1 not covered by sources');

    await deleteExchange(panel, 'Do you rent bicycles?');
    // The first question, the count and the flags are the remaining exchange's.
    const after = await until(() => rowCells(panel, QUESTIONS.covered));
    expect(after[1]).to.equal('1');
    expect(after[3]).to.not.contain('not helpful').and.not.to.contain('not covered');
    expect(rowCells(panel, 'Do you rent bicycles?')).to.equal(undefined);
    expect(deepAll(panel, '.tbody [role=row]')).to.have.length(2);
  });

  it("should move focus to the next exchange's Delete, then to the list when its conversation is deleted", async () => {
    const { client, bot } = await twoExchanges();
    const { panel } = await mountConversations(client, bot);
    const transcript = await open(panel, 'Do you rent bicycles?');
    const active = () => panel.shadowRoot!.activeElement;
    await deleteFromKeyboard(panel, transcript, 'Do you rent bicycles?', QUESTIONS.covered);

    const session = button(panel, 'Delete session')!;
    session.focus();
    session.click();
    await confirmDialog(panel);
    await until(() => !deep(panel, '[part=transcript]'));
    await until(() => active()?.id === 'sessions-heading');
  });

  it("should move focus to the previous exchange's Delete when that one's answer holds more buttons", async () => {
    const client = await apiClient();
    const bot = await newChatbot(client, 'Review bot');
    // A code block's Copy button and a citation's passage: more controls before its Delete.
    await client.sources.createQa(bot.uuid, {
      question: QUESTIONS.covered,
      answer: 'Run this:\n\n```sh\nferry --next\n```\n\nIt prints the next ferry.',
    });
    const session = await client.sessions.create(bot.uuid);
    await client.messages.send(session.uuid, QUESTIONS.covered);
    await client.messages.send(session.uuid, 'Do you rent bicycles?');
    const { panel } = await mountConversations(client, bot);
    const transcript = await open(panel, QUESTIONS.covered);
    await until(() => button(transcript, 'Copy code'));
    await deleteFromKeyboard(panel, transcript, 'Do you rent bicycles?', QUESTIONS.covered);
  });

  it('should take a conversation off a filtered list once none of its exchanges matches', async () => {
    const { client, bot } = await twoExchanges();
    const { panel } = await mountConversations(client, bot);
    const rating = deep<HTMLSelectElement>(panel, 'select[name=rating]')!;
    rating.value = 'down';
    rating.dispatchEvent(new Event('change', { bubbles: true }));
    await until(() => deepAll(panel, '.tbody [role=row]').length === 2);

    await deleteExchange(panel, 'Do you rent bicycles?');
    await until(() => deepAll(panel, '.tbody [role=row]').length === 1);
    expect(rowCells(panel, QUESTIONS.uncovered)).to.not.equal(undefined);
    // Its transcript stays open, with the exchange left.
    expect(deepText(deep(panel, '[part=transcript]')!)).to.contain(QUESTIONS.covered);
  });
});
