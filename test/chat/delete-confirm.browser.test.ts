import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import type { ChatbotChat } from '../../src/chat/chatbot-chat.js';
import '../../src/chat/index.js';
import { button, input, realChatbot, shadow, until, userMessages } from './helpers.js';

type Bot = Awaited<ReturnType<typeof realChatbot>>;

/** "Delete this exchange" asks first, among the exchange's actions (real server). */
describe('<chatbot-chat> Delete this exchange, confirmed', () => {
  afterEach(() => localStorage.clear());

  async function mount(bot: Bot, attrs: { lang?: string; mode?: string } = {}) {
    const el = await fixture<ChatbotChat>(html`<chatbot-chat
      base-url=${bot.baseUrl}
      api-key=${bot.apiKey}
      chatbot-uuid=${bot.chatbotUuid}
      lang=${attrs.lang ?? 'en'}
      mode=${attrs.mode ?? 'inline'}
      persist="none"
    ></chatbot-chat>`);
    if (attrs.mode === 'launcher') {
      el.open = true;
      await el.updateComplete;
    }
    return el;
  }

  /** Asks `question` and waits for its answer and the answers' chunk (it asks the question). */
  async function ask(el: ChatbotChat, question: string) {
    const finished = oneEvent(el, 'chatbot-answer-finished');
    await el.send(question);
    await finished;
    await until(() => button(el, 'Helpful'), 'the answers’ chunk');
  }

  const deleteButtons = (el: ChatbotChat) =>
    [...shadow(el).querySelectorAll<HTMLButtonElement>('.actions button')].filter(
      (b) => b.textContent?.trim() === 'Delete this exchange',
    );
  const questions = (el: ChatbotChat) => shadow(el).querySelectorAll('[part~=delete-confirm]');
  const focused = (el: ChatbotChat) => shadow(el).activeElement as HTMLElement | null;
  const stored = async (bot: Bot, el: ChatbotChat) =>
    (await bot.client.messages.list(el.sessionUuid)).map((m) => m.query);

  it('should ask before deleting, and delete on the server only once the reader says Delete', async () => {
    const bot = await realChatbot();
    const el = await mount(bot);
    await ask(el, 'When is the bakery open?');
    const remove = deleteButtons(el)[0]!;
    remove.focus();
    remove.click();
    await until(() => questions(el).length === 1, 'the question');
    const group = questions(el)[0]!;
    expect(group.closest('.exchange')?.textContent).to.contain('When is the bakery open?');
    expect(group.getAttribute('role')).to.equal('group');
    expect(group.textContent?.replace(/\s+/g, ' ').trim()).to.equal(
      'Delete this question and its answer? Delete Cancel',
    );
    await until(() => focused(el)?.textContent?.trim() === 'Cancel', 'focus on Cancel');
    await expect(el).to.be.accessible();
    expect(await stored(bot, el), 'nothing deleted yet').to.deep.equal([
      'When is the bakery open?',
    ]);

    const yes = [...group.querySelectorAll('button')].find(
      (b) => b.textContent?.trim() === 'Delete',
    )!;
    yes.click();
    await until(() => userMessages(el).length === 0, 'the exchange gone');
    expect(await stored(bot, el)).to.deep.equal([]);
    await until(() => focused(el) === input(el), 'focus in the textbox');
  });

  it('should keep the exchange on Cancel and on Escape, with focus back on its Delete button', async () => {
    const bot = await realChatbot();
    // In the launcher: Escape answers the question, and leaves the chat open.
    const el = await mount(bot, { mode: 'launcher' });
    await ask(el, 'When is the bakery open?');
    const remove = deleteButtons(el)[0]!;
    remove.focus();
    remove.click();
    await until(() => focused(el)?.textContent?.trim() === 'Cancel', 'focus on Cancel');
    focused(el)!.click();
    await until(() => questions(el).length === 0, 'the question gone');
    expect(focused(el) === remove, 'focus back on Delete this exchange').to.equal(true);

    remove.click();
    await until(() => focused(el)?.textContent?.trim() === 'Cancel', 'focus on Cancel');
    await sendKeys({ press: 'Escape' });
    await until(() => questions(el).length === 0, 'the question gone');
    expect(el.open, 'the chat stays open').to.equal(true);
    expect(focused(el) === remove, 'focus back on Delete this exchange').to.equal(true);
    expect(userMessages(el)).to.deep.equal(['When is the bakery open?']);
    expect(await stored(bot, el)).to.deep.equal(['When is the bakery open?']);
  });

  it('should ask about one exchange at a time', async () => {
    const bot = await realChatbot();
    const el = await mount(bot);
    await ask(el, 'When is the bakery open?');
    await ask(el, 'Is it open on Saturday?');
    deleteButtons(el)[0]!.click();
    await until(() => questions(el).length === 1, 'the first question');
    deleteButtons(el)[1]!.click();
    await until(
      () => questions(el)[0]?.closest('.exchange')?.textContent?.includes('Saturday'),
      'the question moved to the second exchange',
    );
    expect(questions(el).length).to.equal(1);
    expect(await stored(bot, el)).to.have.length(2);
  });

  it('should ask in the page’s language', async () => {
    const bot = await realChatbot();
    const el = await mount(bot, { lang: 'de' });
    const finished = oneEvent(el, 'chatbot-answer-finished');
    await el.send('When is the bakery open?');
    await finished;
    await until(() => button(el, 'Hilfreich'), 'the answers’ chunk');
    button(el, 'Diesen Austausch löschen')!.click();
    await until(() => questions(el).length === 1, 'the question');
    expect(questions(el)[0]!.textContent?.replace(/\s+/g, ' ').trim()).to.equal(
      'Diese Frage und ihre Antwort löschen? Löschen Abbrechen',
    );
  });
});
