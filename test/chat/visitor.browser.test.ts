import { expect, fixture, html } from '@open-wc/testing';
import type { ChatbotChat } from '../../src/chat/chatbot-chat.js';
import '../../src/chat/index.js';
import { fakeService, until, userMessages } from './helpers.js';

type Service = ReturnType<typeof fakeService>;

/** Until no update is pending: loading a visitor's conversation asks for one more render. */
async function settled(el: ChatbotChat): Promise<ChatbotChat> {
  while (!(await el.updateComplete));
  return el;
}

async function chat(service: Service, userId: string) {
  return settled(
    await fixture<ChatbotChat>(html`<chatbot-chat
      chatbot-uuid="bot-1"
      user-id=${userId}
      .client=${service.client}
    ></chatbot-chat>`),
  );
}

async function become(el: ChatbotChat, userId: string) {
  el.userId = userId;
  await settled(el);
}

/** The questions shown, once they are (the log reveals a restored conversation in steps). */
async function shown(el: ChatbotChat, questions: string[]): Promise<void> {
  const expected = JSON.stringify(questions);
  await until(() => JSON.stringify(userMessages(el)) === expected, expected).catch(() => {});
  expect(userMessages(el)).to.deep.equal(questions);
}

const storedKeys = () => Object.keys(localStorage).filter((key) => key.startsWith('chatbot-chat:'));

describe('<chatbot-chat> user-id', () => {
  afterEach(() => localStorage.clear());

  it('should have no visitor by default', () => {
    expect(document.createElement('chatbot-chat').userId).to.equal('');
  });

  it("should swap two visitors' conversations and sessions without showing one to the other", async () => {
    const service = fakeService();
    const el = await chat(service, 'ada@example.com');
    await el.send('Ada asks');
    const adaSession = el.sessionUuid;
    expect(adaSession).to.not.equal('');

    await become(el, 'bob');
    await shown(el, []);
    expect(el.sessionUuid).to.equal('');
    await el.send('Bob asks');
    const bobSession = el.sessionUuid;
    expect(bobSession).to.not.equal(adaSession);
    await shown(el, ['Bob asks']);

    await become(el, 'ada@example.com');
    await shown(el, ['Ada asks']);
    expect(el.sessionUuid).to.equal(adaSession);
    await become(el, 'bob');
    await shown(el, ['Bob asks']);
    expect(el.sessionUuid).to.equal(bobSession);

    // The ids themselves never appear in a storage key.
    expect(storedKeys()).to.have.length(2);
    expect(storedKeys().join(' ')).to.not.match(/ada|bob/);
  });

  it("should empty the view on sign-out and keep the signed-out visitor's conversation stored", async () => {
    const service = fakeService();
    const el = await chat(service, 'ada');
    await el.send('Ada asks');
    await become(el, '');
    await shown(el, []);
    expect(el.sessionUuid).to.equal('');
    await el.send('Anonymous asks');
    await shown(el, ['Anonymous asks']);
    await become(el, 'ada');
    await shown(el, ['Ada asks']);
  });

  it("should restore the same visitor's conversation after a reload, and only theirs", async () => {
    const service = fakeService();
    const first = await chat(service, 'ada');
    await first.send('Ada asks');
    const session = first.sessionUuid;
    first.remove();
    const again = await chat(service, 'ada');
    await shown(again, ['Ada asks']);
    expect(again.sessionUuid).to.equal(session);
    const other = await chat(service, 'bob');
    await shown(other, []);
    expect(other.sessionUuid).to.equal('');
  });

  it("should remove the current visitor's stored conversation with forget(), and no other's", async () => {
    const service = fakeService();
    const el = await chat(service, 'ada');
    await el.send('Ada asks');
    await become(el, 'bob');
    await el.send('Bob asks');
    expect(storedKeys()).to.have.length(2);

    el.forget();
    await settled(el);
    await shown(el, []);
    expect(el.sessionUuid).to.equal('');
    expect(storedKeys()).to.have.length(1);
    await become(el, 'ada');
    await shown(el, ['Ada asks']);

    const reloaded = await chat(service, 'bob');
    await shown(reloaded, []);
  });

  it('should not give a session created for one visitor to the next', async () => {
    const service = fakeService();
    const el = await chat(service, 'ada');
    const sending = el.send('Ada asks');
    // The session is being created: another visitor comes before it is there.
    await become(el, 'bob');
    await sending;
    expect(el.sessionUuid).to.equal('');
    await shown(el, []);
    await el.send('Bob asks');
    await shown(el, ['Bob asks']);
    const streamed = service.calls.filter((c) => c.path.endsWith('/message/stream'));
    expect(streamed.map((c) => (c.body as { query?: string }).query)).to.deep.equal(['Bob asks']);
  });
});
