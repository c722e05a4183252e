import { expect } from '@open-wc/testing';
import { FollowController } from '../../src/chat/follow-controller.js';
import { frames, TestHost } from './helpers.js';

/** Exchanges 50 px high, for a log 100 px high. */
function exchanges(count: number, from = 0): HTMLElement[] {
  return Array.from({ length: count }, (_, i) => {
    const exchange = document.createElement('div');
    exchange.className = 'exchange';
    exchange.style.height = '50px';
    exchange.textContent = `exchange ${from + i}`;
    return exchange;
  });
}

describe('FollowController', () => {
  let log: HTMLElement;
  let host: TestHost;
  let follow: FollowController;
  const atBottom = () => log.scrollTop + log.clientHeight >= log.scrollHeight - 2;

  beforeEach(() => {
    log = document.createElement('div');
    // No scroll anchoring: what holds the reader's place here is the controller alone.
    log.style.cssText = 'height: 100px; overflow: auto; overflow-anchor: none';
    log.append(...exchanges(20));
    document.body.append(log);
    host = new TestHost();
    follow = new FollowController(host, () => log);
    host.connect();
  });

  afterEach(() => {
    host.disconnect();
    log.remove();
  });

  it('should keep the newest text in view after every update of its host', () => {
    host.update();
    expect(atBottom()).to.equal(true);
    log.append(...exchanges(5, 20));
    host.update();
    expect(atBottom()).to.equal(true);
    expect(follow.reading).to.equal(false);
  });

  it('should leave a reader who scrolled up where they are, until they are back at the bottom', () => {
    host.update();
    log.scrollTop = 0;
    follow.handleScroll();
    expect(follow.reading).to.equal(true);
    expect(host.updates, 'the host shows it').to.equal(1);
    log.append(...exchanges(5, 20));
    host.update();
    expect(log.scrollTop).to.equal(0);
    log.scrollTop = log.scrollHeight;
    follow.handleScroll();
    expect(follow.reading).to.equal(false);
    expect(host.updates).to.equal(2);
  });

  it('should keep following when the log shrinks for a moment as an answer lays out', () => {
    host.update();
    // The last exchanges shrink (an answer's blocks laid out anew): the browser pulls scrollTop
    // up with the bottom, and says so with a scroll event.
    const last = [...log.children].slice(-4) as HTMLElement[];
    for (const exchange of last) exchange.style.height = '10px';
    follow.handleScroll();
    expect(follow.reading).to.equal(false);
    // They grow again, past where the log was: still the newest text, followed.
    for (const exchange of last) exchange.style.height = '80px';
    host.update();
    expect(follow.reading).to.equal(false);
    expect(atBottom()).to.equal(true);
  });

  it('should notice a reader who scrolled up before the scroll was reported', async () => {
    host.update();
    log.scrollTop = 0;
    await frames(2);
    expect(follow.reading).to.equal(true);
  });

  it('should go back to the newest text and follow it on showLatest()', () => {
    host.update();
    log.scrollTop = 0;
    follow.handleScroll();
    follow.showLatest();
    expect(follow.reading).to.equal(false);
    expect(atBottom()).to.equal(true);
  });

  it('should cancel its animation frame when the host disconnects', async () => {
    host.update();
    log.scrollTop = 0;
    host.disconnect();
    await frames(3);
    // The frame would have found the reader scrolled up.
    expect(follow.reading).to.equal(false);
    expect(host.updates).to.equal(0);
  });

  it("should keep the reader's place as content appears above it", () => {
    host.update();
    log.scrollTop = 300;
    follow.handleScroll();
    expect(follow.reading).to.equal(true);
    const read = [...log.children].find((x) => x.textContent === 'exchange 6')!;
    const offset = () => read.getBoundingClientRect().top - log.getBoundingClientRect().top;
    const before = offset();
    const restore = follow.keepPlace();
    log.prepend(...exchanges(5, 100));
    expect(offset(), 'moved by what appeared').to.be.closeTo(before + 250, 1);
    restore();
    expect(offset()).to.be.closeTo(before, 1);
  });
});
