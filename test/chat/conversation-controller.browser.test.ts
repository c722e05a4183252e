import { expect, oneEvent } from '@open-wc/testing';
import { type ChatClient, createChatClient } from '../../src/api/client.js';
import type { SessionData } from '../../src/api/types.js';
import { AnswerViewsController } from '../../src/chat/answer-views-controller.js';
import {
  ConversationController,
  type ConversationHost,
} from '../../src/chat/conversation-controller.js';
import { NoticesController } from '../../src/chat/notices-controller.js';
import { chatStrings } from '../../src/ui/strings/chat.js';
import { fixtureBase } from '../api/fixture-url.js';
import { fakeService, TestHost, until } from './helpers.js';

class ChatHost extends TestHost implements ConversationHost {
  chatbotUuid = 'bot-1';
  sessionUuid = '';
  persist: 'local' | 'none' = 'none';
  sessionData?: SessionData;
  userId = '';
}

const strings = chatStrings.en;

/** A conversation on a bare host, with the notices and answer views it works with. */
function setup(client: () => ChatClient | undefined, init: Partial<ChatHost> = {}) {
  const host = Object.assign(new ChatHost(), init);
  const notices = new NoticesController(host, { value: strings, language: 'en' });
  const answers = new AnswerViewsController(host, {
    exchanges: () => conversation.exchanges,
    copyCodeLabel: () => strings.copyCode,
    visible: () => true,
  });
  const accepted: string[] = [];
  const conversation: ConversationController = new ConversationController(host, {
    client,
    strings: () => strings,
    answers,
    notices,
    onAccept: (query, retry) => accepted.push(`${query}${retry ? ' (retry)' : ''}`),
  });
  host.connect();
  host.update();
  return { host, conversation, notices, accepted };
}

/** A client whose message lists never answer: each waits until its request is aborted. */
function pendingLists() {
  const signals: AbortSignal[] = [];
  const client = createChatClient({
    baseUrl: 'https://pending.test',
    apiKey: 'k',
    retry: false,
    fetch: (_input, init) =>
      new Promise<Response>((_resolve, reject) => {
        const signal = init!.signal!;
        signals.push(signal);
        signal.addEventListener('abort', () => reject(signal.reason), { once: true });
      }),
  });
  return { client, signals };
}

const stored = (key = 'chatbot-chat:v1:https://fake.test:bot-1') =>
  JSON.parse(localStorage.getItem(key) ?? 'null');

describe('ConversationController', () => {
  const hosts: TestHost[] = [];
  const track = <T extends { host: TestHost }>(made: T): T => {
    hosts.push(made.host);
    return made;
  };
  afterEach(() => {
    for (const host of hosts.splice(0)) host.disconnect();
    localStorage.clear();
  });

  it('should create a session for the first message, stream the answer and remember it', async () => {
    const service = fakeService([{ chunks: ['Hello ', 'there.'], messageUuid: 'm-1' }]);
    const { host, conversation, accepted } = track(
      setup(() => service.client, { persist: 'local' }),
    );
    const fired: string[] = [];
    for (const type of [
      'chatbot-message-send',
      'chatbot-session-created',
      'chatbot-answer-finished',
    ])
      host.addEventListener(type, () => fired.push(type));
    const finished = oneEvent(host, 'chatbot-answer-finished');
    await conversation.send('hi');
    expect((await finished).detail).to.include({
      query: 'hi',
      response: 'Hello there.',
      messageUuid: 'm-1',
      sessionUuid: host.sessionUuid,
      stopped: false,
    });
    expect(fired).to.deep.equal([
      'chatbot-message-send',
      'chatbot-session-created',
      'chatbot-answer-finished',
    ]);
    expect(accepted).to.deep.equal(['hi']);
    expect(conversation.exchanges).to.have.length(1);
    expect(conversation.exchanges[0]).to.include({ state: 'done', response: 'Hello there.' });
    expect(stored()).to.include({ sessionUuid: host.sessionUuid });
    expect(stored().exchanges).to.have.length(1);
  });

  it('should leave a message unsent when chatbot-message-send is cancelled', async () => {
    const service = fakeService();
    const { host, conversation, accepted } = track(setup(() => service.client));
    host.addEventListener('chatbot-message-send', (event) => event.preventDefault());
    await conversation.send('keep me');
    expect(service.calls).to.have.length(0);
    expect(conversation.exchanges).to.deep.equal([]);
    expect(accepted).to.deep.equal([]);
  });

  it('should say what is missing without a client, and send nothing', async () => {
    const { host, conversation, notices } = track(setup(() => undefined));
    const errored = oneEvent(host, 'chatbot-error');
    await conversation.send('q');
    expect((await errored).detail.kind).to.equal('config');
    expect(notices.shownError!.message).to.contain('base-url');
    expect(conversation.exchanges).to.deep.equal([]);
  });

  it('should refuse nested session data as soon as it is set, and forget the refusal once fixed', async () => {
    const { host, notices } = track(setup(() => fakeService().client));
    const errored = oneEvent(host, 'chatbot-error');
    host.sessionData = { user: { id: 1 } } as never;
    host.update();
    expect((await errored).detail.message).to.contain('"user" holds an object');
    host.sessionData = { page: 'pricing' };
    host.update();
    expect(notices.shownError).to.equal(undefined);
  });

  it('should retry a failed exchange in place and offer its Retry until then', async () => {
    const service = fakeService([{ status: 503, message: 'busy' }, { chunks: ['Fine.'] }]);
    const { conversation, accepted } = track(setup(() => service.client));
    await conversation.send('q');
    const failed = conversation.failed!;
    expect(failed).to.include({ query: 'q', state: 'failed' });
    await conversation.send(failed.query, failed);
    expect(conversation.failed).to.equal(undefined);
    expect(conversation.exchanges).to.deep.equal([failed]);
    expect(failed).to.include({ state: 'done', response: 'Fine.' });
    expect(accepted).to.deep.equal(['q', 'q (retry)']);
  });

  it('should keep the last try and its Retry when a Retry is stopped before the service answers', async () => {
    const service = fakeService([
      { chunks: ['Half an ans'], drop: true, messageUuid: 'm-1' },
      { silent: true },
      { chunks: ['A whole answer.'], messageUuid: 'm-2' },
    ]);
    const { conversation } = track(setup(() => service.client));
    await conversation.send('q');
    const failed = conversation.failed!;
    expect(failed).to.include({ state: 'failed', response: 'Half an ans', messageUuid: 'm-1' });
    const retrying = conversation.send(failed.query, failed);
    await until(() => failed.state === 'pending', 'the retry sent');
    conversation.stop();
    await retrying;
    expect(failed).to.include({ state: 'failed', response: 'Half an ans', messageUuid: 'm-1' });
    expect(conversation.failed).to.equal(failed);
    // Nothing replaced it on the service, so nothing there was deleted.
    expect(service.calls.filter((c) => c.path.endsWith('/delete'))).to.deep.equal([]);
    await conversation.send(failed.query, failed);
    expect(failed).to.include({ state: 'done', response: 'A whole answer.', messageUuid: 'm-2' });
  });

  it("should show the server's transcript of the session, keeping what was not sent", async () => {
    const service = fakeService();
    service.records.set('s-1', [
      { uuid: 'm-1', query: 'one', response: 'First.' },
      { uuid: 'm-2', query: 'two', response: 'Second.' },
    ]);
    localStorage.setItem(
      'chatbot-chat:v1:https://fake.test:bot-1',
      JSON.stringify({
        sessionUuid: 's-1',
        exchanges: [{ id: 'x1', query: 'unsent', response: '', state: 'failed' }],
      }),
    );
    const { conversation } = track(setup(() => service.client, { persist: 'local' }));
    expect(conversation.exchanges.map((e) => e.query)).to.deep.equal(['unsent']);
    await until(() => conversation.exchanges.length === 3, 'the restored transcript');
    expect(conversation.exchanges.map((e) => e.query)).to.deep.equal(['one', 'two', 'unsent']);
    expect(conversation.exchanges[0]!.messageUuid).to.equal('m-1');
  });

  it('should abort a restore that a newer one supersedes', async () => {
    const { client, signals } = pendingLists();
    const { host } = track(setup(() => client, { sessionUuid: 's-1' }));
    await until(() => signals.length === 1, 'the first list request');
    host.sessionUuid = 's-2';
    host.update();
    await until(() => signals.length === 2, 'the second list request');
    expect(signals[0]!.aborted, 'the superseded request').to.equal(true);
    expect(signals[1]!.aborted).to.equal(false);
  });

  it('should cancel the network request of a superseded restore on a real server', async () => {
    // A server that takes its time to answer the list.
    const slow = fixtureBase(location.origin, 'slow', { ms: 5_000 });
    const requests: Array<{ settled?: string }> = [];
    const client = createChatClient({
      baseUrl: slow,
      apiKey: 'k',
      retry: false,
      fetch: (input, init) => {
        const request: { settled?: string } = {};
        requests.push(request);
        return fetch(input, init).then(
          (response) => {
            request.settled = 'answered';
            return response;
          },
          (error: Error) => {
            request.settled = error.name;
            throw error;
          },
        );
      },
    });
    const { host } = track(setup(() => client, { sessionUuid: 's-1' }));
    await until(() => requests.length === 1, 'the first list request');
    host.sessionUuid = 's-2';
    host.update();
    await until(() => requests[0]!.settled, 'the end of the first request');
    expect(requests[0]!.settled, 'the browser cancelled it').to.equal('AbortError');
    expect(requests[1]!.settled, 'the newer request goes on').to.equal(undefined);
  });

  it('should abort its restore when the host leaves, and restore again on return', async () => {
    const { client, signals } = pendingLists();
    const { host } = track(setup(() => client, { sessionUuid: 's-1' }));
    await until(() => signals.length === 1, 'the list request');
    host.disconnect();
    expect(signals[0]!.aborted).to.equal(true);
    host.connect();
    await until(() => signals.length === 2, 'the list again');
    expect(signals[1]!.aborted).to.equal(false);
  });

  /** The client, with a delete that fails with `error`. */
  const failingDelete = (client: ChatClient, error: unknown): ChatClient => ({
    ...client,
    messages: { ...client.messages, delete: () => Promise.reject(error) },
  });

  it('should delete an exchange on the server, and one already gone there', async () => {
    const service = fakeService([
      { chunks: ['a'], messageUuid: 'm-1' },
      { chunks: ['b'], messageUuid: 'm-2' },
    ]);
    let client: ChatClient = service.client;
    const { conversation, notices } = track(setup(() => client));
    await conversation.send('one');
    await conversation.send('two');
    const [one, two] = conversation.exchanges;
    expect(await conversation.remove(one!)).to.equal(true);
    expect(service.calls.at(-1)!.path).to.equal('/api/v1/message/m-1/delete');
    expect(notices.notice).to.equal(strings.deleted);
    expect(conversation.exchanges).to.deep.equal([two]);
    const gone = await service.client.messages.list('no-such-session').catch((e: unknown) => e);
    client = failingDelete(service.client, gone);
    expect(await conversation.remove(two!)).to.equal(true);
    expect(conversation.exchanges).to.deep.equal([]);
  });

  it('should keep an exchange the server could not delete, and say so', async () => {
    const service = fakeService([{ chunks: ['a'], messageUuid: 'm-1' }]);
    const failing = failingDelete(service.client, new TypeError('offline'));
    const { host, conversation } = track(setup(() => failing));
    await conversation.send('one');
    const errored = oneEvent(host, 'chatbot-error');
    expect(await conversation.remove(conversation.exchanges[0]!)).to.equal(false);
    expect((await errored).detail).to.include({ kind: 'delete', message: strings.deleteFailed });
    expect(conversation.exchanges).to.have.length(1);
  });

  it('should forget the conversation and its session on clear()', async () => {
    const service = fakeService([{ chunks: ['a'] }]);
    const { host, conversation } = track(setup(() => service.client, { persist: 'local' }));
    await conversation.send('one');
    expect(stored()).to.not.equal(null);
    conversation.clear();
    expect(conversation.exchanges).to.deep.equal([]);
    expect(host.sessionUuid).to.equal('');
    expect(stored()).to.equal(null);
  });
});
