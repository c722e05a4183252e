import { expect, oneEvent } from '@open-wc/testing';
import { ChatConfigError } from '../../src/chat/errors.js';
import { NoticesController } from '../../src/chat/notices-controller.js';
import { emit } from '../../src/ui/events.js';
import { chatStrings } from '../../src/ui/strings/chat.js';
import { fakeService, frames, TestHost, until } from './helpers.js';

/** The error the client throws for a 429 that says to wait `retryAfter` seconds. */
async function rateLimit(retryAfter: number): Promise<unknown> {
  const service = fakeService([{ status: 429, message: 'Slow down.', retryAfter }]);
  return service.client.messages.stream('s-1', 'q').catch((error: unknown) => error);
}

describe('NoticesController', () => {
  let host: TestHost;
  let notices: NoticesController;

  beforeEach(() => {
    host = new TestHost();
    notices = new NoticesController(host, { value: chatStrings.en, language: 'en' });
    host.connect();
  });

  afterEach(() => host.disconnect());

  it('should show a failure in the alert and fire chatbot-error from its host', async () => {
    const error = new ChatConfigError('set chatbot-uuid');
    const fired = oneEvent(host, 'chatbot-error');
    notices.showError(error);
    const event = await fired;
    expect(event.detail).to.deep.equal({
      kind: 'config',
      message: notices.shownError!.message,
      error,
    });
    expect(event.bubbles && event.composed).to.equal(true);
    expect(notices.shownError!.message).to.contain('set chatbot-uuid');
    expect(host.updates).to.be.above(0);
    notices.clearError();
    expect(notices.shownError).to.equal(undefined);
  });

  it('should word a failure as it is told to', async () => {
    const fired = oneEvent(host, 'chatbot-error');
    notices.showError(new Error('boom'), { kind: 'delete', message: 'Not deleted.' });
    expect((await fired).detail).to.include({ kind: 'delete', message: 'Not deleted.' });
  });

  it('should hold sending through a rate limit and count down to its end', async () => {
    notices.showError(await rateLimit(1));
    expect(notices.shownError!.message).to.equal('Slow down.');
    expect(notices.rateLimited).to.equal(true);
    expect(notices.waiting).to.equal(true);
    expect(notices.countdown()).to.match(/You can send again in 1 s/);
    const updates = host.updates;
    await until(() => !notices.rateLimited, 'the end of the wait');
    await until(() => host.updates > updates, 'an update at the end of the wait');
    expect(notices.countdown()).to.equal('You can send again now.');
  });

  it('should stop its countdown when the host leaves, and take it up again on return', async () => {
    notices.showError(await rateLimit(1));
    host.disconnect();
    host.connect();
    const updates = host.updates;
    await until(() => host.updates > updates, 'an update at the end of the wait');
    expect(notices.rateLimited).to.equal(false);

    notices.showError(await rateLimit(1));
    host.disconnect();
    const left = host.updates;
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(host.updates, 'no timer runs for a host off the page').to.equal(left);
  });

  it('should announce a text once, as a change even when it is the same again', async () => {
    notices.announce('Answer: one');
    expect(notices.announcement).to.equal('');
    await frames(1);
    expect(notices.announcement).to.equal('Answer: one');
    notices.announce('Answer: one');
    expect(notices.announcement).to.equal('');
    await frames(1);
    expect(notices.announcement).to.equal('Answer: one');
  });

  it('should drop an announcement still waiting for its frame when the host leaves', async () => {
    notices.announce('Answer: two');
    host.disconnect();
    await frames(2);
    expect(notices.announcement).to.equal('');
  });

  it('should flash a short notice in the status region', () => {
    notices.flash('Copied.');
    expect(notices.notice).to.equal('Copied.');
    expect(host.updates).to.equal(1);
  });

  it("should type the chat's events by name", () => {
    // A misspelt name or a wrong detail does not compile.
    const never = () => {
      // @ts-expect-error: no such event
      emit(host, 'chatbot-eror', { kind: 'config', message: '', error: null });
      // @ts-expect-error: the detail of chatbot-session-created has no query
      emit(host, 'chatbot-session-created', { query: 'q' });
    };
    expect(never).to.be.a('function');
  });
});
