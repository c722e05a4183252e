import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { createClient } from '../../src/api/client.js';
import type { ChatbotChat } from '../../src/chat/chatbot-chat.js';
import '../../src/chat/index.js';
import { button, fakeService, input, shadow, userMessages } from './helpers.js';

/**
 * A chat whose requests note whether the question was already drawn when they left: the
 * request goes first, so that drawing the question overlaps the server's answering.
 */
async function chat() {
  const service = fakeService([{ chunks: ['One.'] }, { chunks: ['Two.'] }]);
  /** Each request's last path segment and the questions drawn when it left. */
  const sent: Array<{ request: string; drawn: string[] }> = [];
  let el: ChatbotChat | undefined;
  const client = createClient({
    baseUrl: 'https://fake.test',
    apiKey: 'fake-key',
    retry: false,
    fetch: (request, init) => {
      const path = new URL(String(request)).pathname;
      sent.push({ request: path.split('/').pop()!, drawn: userMessages(el!) });
      return service.fetch(request, init);
    },
  });
  el = await fixture<ChatbotChat>(html`<chatbot-chat
    chatbot-uuid="bot-1"
    persist="none"
    .client=${client}
  ></chatbot-chat>`);
  return { el, service, sent };
}

/** Clicks Send with `text` in the box; resolves once its render is done, before any other task. */
async function clickSend(el: ChatbotChat, text: string): Promise<{ sameTask: boolean }> {
  input(el).value = text;
  let sameTask = true;
  setTimeout(() => {
    sameTask = false;
  });
  button(el, 'Send')!.click();
  await el.updateComplete;
  return { sameTask };
}

describe('<chatbot-chat> sending', () => {
  it('should send the new session request and the message before drawing the question, which appears in the same task', async () => {
    const { el, sent } = await chat();
    let finished = oneEvent(el, 'chatbot-answer-finished');
    const first = await clickSend(el, 'first');
    expect(first.sameTask).to.equal(true);
    expect(userMessages(el)).to.deep.equal(['first']);
    expect(sent[0]).to.deep.equal({ request: 'create', drawn: [] });
    await finished;

    finished = oneEvent(el, 'chatbot-answer-finished');

    const second = await clickSend(el, 'second');
    expect(second.sameTask).to.equal(true);
    expect(userMessages(el)).to.deep.equal(['first', 'second']);
    expect(sent.slice(1).map((s) => s.request)).to.deep.equal(['stream', 'stream']);
    expect(sent[2]!.drawn).to.deep.equal(['first']);
    // Stop is drawn with the question, not an update later.
    expect(shadow(el).querySelector('[part~="stop-button"]')).to.exist;
    await finished;
  });

  it('should send nothing and draw nothing when the send event is cancelled', async () => {
    const { el, service } = await chat();
    el.addEventListener('chatbot-message-send', (event) => event.preventDefault(), { once: true });
    await clickSend(el, 'kept');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(service.calls).to.have.length(0);
    expect(userMessages(el)).to.deep.equal([]);
    expect(input(el).value).to.equal('kept');
  });
});
