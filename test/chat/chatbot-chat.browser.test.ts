import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { emulateMedia, executeServerCommand } from '@web/test-runner-commands';
import { createClient } from '../../src/api/client.js';
import type { ChatbotChat } from '../../src/chat/chatbot-chat.js';
import '../../src/chat/index.js';
import { loadRenderer } from '../../src/chat/renderer.js';
import {
  alertText,
  answers,
  button,
  fakeService,
  firstInView,
  frames,
  gate,
  input,
  shadow,
  typeAndEnter,
  until,
  userMessages,
} from './helpers.js';

async function chat(service = fakeService(), extra = {}) {
  const el = await fixture<ChatbotChat>(html`<chatbot-chat
    chatbot-uuid="bot-1"
    persist="none"
    .client=${service.client}
  ></chatbot-chat>`);
  Object.assign(el, extra);
  await el.updateComplete;
  return el;
}

const streamCalls = (service: ReturnType<typeof fakeService>) =>
  service.calls.filter((c) => c.path.endsWith('/message/stream'));

describe('<chatbot-chat>', () => {
  afterEach(() => localStorage.clear());

  it('should have documented defaults', async () => {
    const el = document.createElement('chatbot-chat');
    expect(el.mode).to.equal('inline');
    expect(el.persist).to.equal('local');
    expect(el.open).to.equal(false);
    expect(el.baseUrl).to.equal('');
    expect(el.apiKey).to.equal('');
    expect(el.chatbotUuid).to.equal('');
    expect(el.sessionUuid).to.equal('');
    expect(el.greeting).to.equal('');
    expect(el.suggestions).to.deep.equal([]);
    expect(el.sessionData).to.equal(undefined);
    expect(el.client).to.equal(undefined);
    expect(el.theme).to.equal(undefined);
  });

  it('should render an accessible empty conversation with named controls', async () => {
    const el = await chat();
    const root = shadow(el);
    expect(root.querySelector('[role="log"]')).to.exist;
    expect(input(el).getAttribute('aria-label')).to.equal('Message');
    expect(button(el, 'Send')).to.exist;
    await expect(el).to.be.accessible();
  });

  it('should create no session until the first message, then reuse it', async () => {
    const service = fakeService([{ chunks: ['One.'] }, { chunks: ['Two.'] }]);
    const el = await chat(service);
    expect(service.calls).to.have.length(0);
    const created = oneEvent(el, 'chatbot-session-created');
    await el.send('first');
    const event = await created;
    expect(event.detail.sessionUuid).to.equal(el.sessionUuid);
    await el.send('second');
    expect(service.sessionsCreated).to.equal(1);
    const sessions = new Set(streamCalls(service).map((c) => c.path));
    expect(sessions.size).to.equal(1);
  });

  it('should stream markdown progressively with a typing indicator before the first text', async () => {
    const hold = gate();
    const service = fakeService([
      { chunks: ['# Hea', 'ding\n\n- a\n', '- b\n\nDone **now**.'], gate: hold.wait },
    ]);
    const el = await chat(service);
    const sent = el.send('hello');
    await until(() => shadow(el).querySelector('.typing'), 'typing indicator');
    await expect(el).to.be.accessible();
    expect(button(el, 'Stop')).to.exist;
    hold.release();
    await sent;
    const answer = answers(el)[0]!;
    expect(answer.querySelector('h1')?.textContent).to.equal('Heading');
    expect(answer.querySelectorAll('li')).to.have.length(2);
    expect(answer.querySelector('strong')?.textContent).to.equal('now');
    expect(shadow(el).querySelector('.typing')).to.equal(null);
    await expect(el).to.be.accessible();
  });

  it('should keep streaming when moved in the page, and stop when taken off it', async () => {
    const holds = [gate(), gate()];
    const service = fakeService([
      { chunks: ['Moved ', 'along.'], gate: holds[0]!.wait },
      { chunks: ['Never ', 'read.'], gate: holds[1]!.wait },
    ]);
    const el = await chat(service);
    const other = document.createElement('div');
    el.parentElement!.after(other);
    const first = oneEvent(el, 'chatbot-answer-finished');
    void el.send('one');
    await until(() => shadow(el).querySelector('.typing'), 'the first answer under way');
    // What a portal or a reorder does: out and back in within one task.
    other.append(el);
    holds[0]!.release();
    expect((await first).detail).to.include({ response: 'Moved along.', stopped: false });

    const second = oneEvent(el, 'chatbot-answer-finished');
    void el.send('two');
    await until(() => shadow(el).querySelector('.typing'), 'the second answer under way');
    el.remove();
    expect((await second).detail).to.include({ stopped: true });
    holds[1]!.release();
    other.remove();
  });

  it('should follow a growing answer only while the reader is at the bottom', async () => {
    const hold = gate();
    let released = 0;
    const lines = Array.from({ length: 80 }, (_, i) => `Line ${i} of a long answer.\n\n`);
    const service = fakeService([
      {
        chunks: lines,
        gate: async () => {
          released += 1;
          if (released > 40) await hold.wait();
        },
      },
    ]);
    const el = await chat(service);
    el.style.setProperty('--chatbot-height', '300px');
    const sent = el.send('long please');
    const log = shadow(el).querySelector<HTMLElement>('.log')!;
    await until(() => answers(el)[0]?.textContent?.includes('Line 39'), 'first half');
    await frames(3);
    expect(log.scrollHeight).to.be.greaterThan(log.clientHeight * 2);
    expect(log.scrollTop + log.clientHeight).to.be.closeTo(log.scrollHeight, 40);
    log.scrollTop = 0;
    await frames(3);
    hold.release();
    await sent;
    await frames(3);
    expect(answers(el)[0]!.textContent).to.contain('Line 79');
    expect(log.scrollTop).to.equal(0);
  });

  it('should send on Enter and insert a newline on Shift+Enter', async () => {
    const service = fakeService([{ chunks: ['ok'] }]);
    const el = await chat(service);
    const box = input(el);
    box.value = 'line one';
    const shifted = new KeyboardEvent('keydown', {
      key: 'Enter',
      shiftKey: true,
      cancelable: true,
    });
    box.dispatchEvent(shifted);
    expect(shifted.defaultPrevented).to.equal(false);
    expect(service.calls).to.have.length(0);
    const finished = oneEvent(el, 'chatbot-answer-finished');
    await typeAndEnter(el, 'hello there');
    await finished;
    expect(userMessages(el)).to.deep.equal(['hello there']);
    expect(box.value).to.equal('');
  });

  it('should show user text as text, never as HTML', async () => {
    const el = await chat(fakeService([{ chunks: ['ok'] }]));
    await el.send('<img src=x onerror="window.__pwned=1"><b>bold</b>');
    const user = shadow(el).querySelector('.exchange .user')!;
    expect(user.querySelector('img, b')).to.equal(null);
    expect(user.textContent).to.contain('<b>bold</b>');
  });

  it('should keep the partial answer when Stop is pressed', async () => {
    const hold = gate();
    let first = true;
    const service = fakeService([
      {
        chunks: ['Partial answer', ' that never ends'],
        gate: async () => {
          if (first) {
            first = false;
            return;
          }
          await hold.wait();
        },
      },
    ]);
    const el = await chat(service);
    const finished = oneEvent(el, 'chatbot-answer-finished');
    const sent = el.send('tell me');
    await until(() => answers(el)[0]?.textContent?.includes('Partial answer'), 'first chunk');
    button(el, 'Stop')!.click();
    const event = await finished;
    await sent;
    expect(event.detail.stopped).to.equal(true);
    expect(event.detail.response).to.equal('Partial answer');
    expect(answers(el)[0]!.textContent).to.contain('Partial answer');
    expect(answers(el)[0]!.textContent).to.contain('Stopped');
    // Said to be stopped where it is announced too, not as a whole answer.
    await until(
      () =>
        shadow(el).querySelector('[aria-live="polite"]')?.textContent?.trim() ===
        'Answer: Partial answer Stopped',
      'the announcement',
    );
    expect(button(el, 'Send')).to.exist;
    hold.release();
    await expect(el).to.be.accessible();
  });

  it('should leave a question stopped before any text unanswered, with its Retry', async () => {
    // Send tapped twice: the second tap lands on Stop before the answer's first word.
    const hold = gate();
    let first = true;
    const service = fakeService([
      {
        chunks: ['Never shown'],
        gate: async () => {
          if (first) {
            first = false;
            await hold.wait();
          }
        },
      },
      { chunks: ['The whole answer.'] },
    ]);
    const el = await chat(service);
    const sent = el.send('tell me');
    await until(() => button(el, 'Stop'), 'Stop');
    button(el, 'Stop')!.click();
    await sent;
    hold.release();
    expect(userMessages(el)).to.deep.equal(['tell me']);
    expect(answers(el)[0]?.textContent ?? '').to.not.contain('Stopped');
    const finished = oneEvent(el, 'chatbot-answer-finished');
    await until(() => button(el, 'Retry'), 'Retry');
    button(el, 'Retry')!.click();
    expect((await finished).detail.response).to.equal('The whole answer.');
    expect(userMessages(el)).to.deep.equal(['tell me']);
    await expect(el).to.be.accessible();
  });

  it('should keep what arrived of a dropped stream and retry the same text without a duplicate', async () => {
    const service = fakeService([
      { chunks: ['Half of the'], drop: true },
      { chunks: ['The whole answer.'] },
    ]);
    const el = await chat(service);
    const errored = oneEvent(el, 'chatbot-error');
    await el.send('question one');
    const error = await errored;
    expect(error.detail.kind).to.equal('network');
    expect(answers(el)[0]!.textContent).to.contain('Half of the');
    expect(alertText(el)).to.contain('The connection was lost. What arrived is kept');
    await expect(el).to.be.accessible();
    const finished = oneEvent(el, 'chatbot-answer-finished');
    button(el, 'Retry')!.click();
    const done = await finished;
    expect(done.detail.query).to.equal('question one');
    expect(userMessages(el)).to.deep.equal(['question one']);
    expect(answers(el)[0]!.textContent).to.contain('The whole answer.');
    expect(alertText(el)).to.equal('');
    expect(streamCalls(service).map((c) => (c.body as { query: string }).query)).to.deep.equal([
      'question one',
      'question one',
    ]);
  });

  it('should say only the question is kept when the answer failed before any of it arrived', async () => {
    const stalled = gate();
    let sentSome = false;
    const service = fakeService([
      // The connection lost after the headers, before the first word; then a stream that stalls
      // before any text, and one that stalls after some.
      { chunks: [], drop: true },
      { chunks: ['never'], gate: stalled.wait },
      {
        chunks: ['Half of the', 'rest'],
        gate: async () => {
          if (sentSome) await stalled.wait();
          sentSome = true;
        },
      },
    ]);
    const el = await chat(service);
    const errored = oneEvent(el, 'chatbot-error');
    await el.send('question one');
    expect((await errored).detail.kind).to.equal('network');
    expect(alertText(el)).to.contain('The connection was lost. Your question is kept');
    expect(alertText(el)).to.not.contain('What arrived');
    await expect(el).to.be.accessible();

    // A stall: the client gives up once nothing has come for its idle timeout.
    el.client = createClient({
      baseUrl: 'https://fake.test',
      apiKey: 'fake-key',
      fetch: service.fetch,
      retry: false,
      streamIdleTimeoutMs: 100,
    });
    await el.updateComplete;
    const timedOut = oneEvent(el, 'chatbot-error');
    button(el, 'Retry')!.click();
    expect((await timedOut).detail.kind).to.equal('timeout');
    expect(alertText(el)).to.contain('The answer took too long. Your question is kept');

    // Some text, then the stall: what arrived stays, and the alert says so.
    const partly = oneEvent(el, 'chatbot-error');
    button(el, 'Retry')!.click();
    expect((await partly).detail.kind).to.equal('timeout');
    expect(answers(el)[0]!.textContent).to.contain('Half of the');
    expect(alertText(el)).to.contain('The answer took too long. What arrived is kept');
    stalled.release();
  });

  it('should offer Retry for an answer cut off by a reload, in place', async () => {
    const service = fakeService([{ chunks: ['Whole answer.'] }]);
    // What a reload in the middle of an answer leaves in storage.
    localStorage.setItem(
      'chatbot-chat:v1:https://fake.test:bot-1',
      JSON.stringify({
        sessionUuid: 's-old',
        exchanges: [{ id: 'x1', query: 'cut off', response: 'Half', state: 'streaming' }],
      }),
    );
    const el = await fixture<ChatbotChat>(
      html`<chatbot-chat chatbot-uuid="bot-1" .client=${service.client}></chatbot-chat>`,
    );
    expect(userMessages(el)).to.deep.equal(['cut off']);
    expect(shadow(el).querySelector('.exchange')!.textContent).to.contain('Not answered.');
    await expect(el).to.be.accessible();
    const finished = oneEvent(el, 'chatbot-answer-finished');
    button(el, 'Retry')!.click();
    const done = await finished;
    expect(done.detail.response).to.equal('Whole answer.');
    expect(done.detail.sessionUuid).to.equal('s-old');
    expect(userMessages(el)).to.deep.equal(['cut off']);
    expect(shadow(el).querySelector('.exchange')!.textContent).to.not.contain('Not answered.');
  });

  /** A remembered conversation of `count` exchanges, each answer a little markdown. */
  async function rememberedConversation(count: number, service = fakeService()) {
    localStorage.setItem(
      'chatbot-chat:v1:https://fake.test:bot-1',
      JSON.stringify({
        sessionUuid: 's-long',
        exchanges: Array.from({ length: count }, (_, i) => ({
          id: `x${i}`,
          query: `question ${i}`,
          response: `## Answer ${i}\n\n- **one**\n- two\n\n\`\`\`\ncode ${i}\n\`\`\``,
          state: 'done',
          messageUuid: `m${i}`,
        })),
      }),
    );
    const el = await fixture<ChatbotChat>(
      html`<chatbot-chat chatbot-uuid="bot-1" .client=${service.client}></chatbot-chat>`,
    );
    return { el, log: shadow(el).querySelector<HTMLElement>('[role=log]')! };
  }
  const questions = (count: number) => Array.from({ length: count }, (_, i) => `question ${i}`);

  it('should show a long remembered conversation newest first, then all of it, in order', async () => {
    const { el, log } = await rememberedConversation(120);
    expect(userMessages(el).at(-1)).to.equal('question 119');
    await until(() => userMessages(el).length === 120, 'the whole conversation');
    expect(userMessages(el)).to.deep.equal(questions(120));
    expect(answers(el)[0]!.querySelector('h2')?.textContent).to.equal('Answer 0');
    await until(
      () => log.scrollTop + log.clientHeight >= log.scrollHeight - 2,
      'log at the bottom',
    );
  });

  it("should keep the reader's place while older exchanges appear above", async () => {
    // The reveal renders for 8 ms a task: read from a clock that moves 5 ms a reading, that is
    // two exchanges a task, so the reveal takes sixty tasks, at least 4 ms apart once nested
    // (the timers' own minimum), however fast this machine renders.
    const clock = performance.now.bind(performance);
    let skew = 0;
    performance.now = () => {
      skew += 5;
      return clock() + skew;
    };
    try {
      await keepsPlace();
    } finally {
      performance.now = clock;
    }
  });

  it('should not pull a reader down who scrolled up just before a render, unreported yet', async () => {
    const { el, log } = await rememberedConversation(120);
    await until(() => userMessages(el).length === 120, 'the whole conversation');
    await frames();
    expect(log.scrollTop + log.clientHeight).to.be.at.least(log.scrollHeight - 2);
    // The reader scrolls up, and a render comes before the browser's scroll event does (what a
    // busy machine did to the test above, once in a fresh-clone run).
    log.scrollTop = 0;
    el.requestUpdate();
    await el.updateComplete;
    expect(log.scrollTop, 'where the reader scrolled to').to.equal(0);
    await frames();
    expect(log.scrollTop).to.equal(0);
    expect(button(el, 'Latest messages'), 'offered the way back down').to.not.equal(null);
  });

  async function keepsPlace() {
    const { el, log } = await rememberedConversation(120);
    // Off-screen blocks skip layout (content-visibility) and take their real height only when
    // scrolled near, a shift the browser's own; laid out at once here, the test sees only
    // what the element does as exchanges appear.
    const sheet = new CSSStyleSheet();
    sheet.replaceSync('.markdown > .block, .exchange { content-visibility: visible !important; }');
    shadow(el).adoptedStyleSheets = [...shadow(el).adoptedStyleSheets, sheet];
    await frames();
    // Enough of it shown to scroll up through: on a busy machine the first frames may hold only
    // the newest exchange or two, barely taller than the log.
    await until(() => log.scrollHeight > log.clientHeight + 400, 'more than a screen shown');
    // The reader scrolls up; the browser reports it in its next frame.
    log.scrollTop = 0;
    await frames();
    expect(userMessages(el).length).to.be.below(120);
    expect(log.scrollTop + log.clientHeight, 'the reader is above the bottom').to.be.below(
      log.scrollHeight - 100,
    );
    const read = firstInView(el, log);
    const offset = () => read.getBoundingClientRect().top - log.getBoundingClientRect().top;
    const before = offset();
    await until(() => userMessages(el).length === 120, 'the whole conversation');
    // Within a few pixels: each of the many additions snaps the scroll position to a pixel.
    expect(Math.abs(offset() - before)).to.be.below(5);
  }

  it('should hold the text still for a reader scrolling up through answers that render as they come into view', async () => {
    const { el, log } = await rememberedConversation(120);
    await until(() => userMessages(el).length === 120, 'the whole conversation');
    await frames();
    const jumps: number[] = [];
    for (let step = 0; step < 20; step++) {
      const read = firstInView(el, log);
      const before = read.getBoundingClientRect().top;
      const top = log.scrollTop;
      log.scrollTop -= 300;
      const scrolled = top - log.scrollTop;
      await frames();
      // Off-screen blocks skip layout (content-visibility) until they come near: what the
      // reader was reading moves by the scroll alone, not by the blocks' growth above it.
      jumps.push(Math.round(read.getBoundingClientRect().top - before - scrolled));
    }
    expect(
      jumps.every((jump) => Math.abs(jump) <= 2),
      `jumps ${jumps}`,
    ).to.equal(true);
  });

  it('should lay out only the exchanges near the view when a long conversation opens, drawing older ones as the reader scrolls to them', async () => {
    const { el, log } = await rememberedConversation(120);
    await until(() => userMessages(el).length === 120, 'the whole conversation');
    await frames();
    const exchanges = [...shadow(el).querySelectorAll<HTMLElement>('.exchange')];
    // Skipped: its contents neither laid out nor painted (what opening 200 remembered exchanges
    // costs).
    const drawn = () =>
      exchanges.filter((exchange) =>
        exchange.firstElementChild!.checkVisibility({ contentVisibilityAuto: true }),
      );
    // Waited for, not read once: the exchanges of the reveal's last task are laid out until the
    // browser has seen where they are (one run in six, after a build had loaded the machine).
    await until(() => drawn().length < 20, 'only those near the bottom drawn');
    expect(drawn()).to.include(exchanges.at(-1));
    log.scrollTop = 0;
    // Drawn in the frames after the scroll, however busy the machine.
    await until(() => drawn().includes(exchanges[0]!), 'the oldest drawn at the top');
    expect(exchanges[0]!.textContent).to.contain('Answer 0');
  });

  it("should draw an older answer's action icons as it nears the view, its named buttons there all along", async () => {
    const { el, log } = await rememberedConversation(120);
    await until(() => userMessages(el).length === 120, 'the whole conversation');
    await frames();
    const exchanges = [...shadow(el).querySelectorAll<HTMLElement>('.exchange')];
    const [oldest, newest] = [exchanges[0]!, exchanges.at(-1)!];
    const buttons = (exchange: HTMLElement) => [...exchange.querySelectorAll('.actions button')];
    const names = (exchange: HTMLElement) => buttons(exchange).map((b) => b.textContent!.trim());
    const icons = (exchange: HTMLElement) => exchange.querySelectorAll('.actions svg').length;
    expect(names(newest)).to.deep.equal([
      'Copy answer',
      'Delete this exchange',
      'Helpful',
      'Not helpful',
    ]);
    expect(icons(newest)).to.equal(4);
    // Four SVGs an exchange were most of what opening a long conversation cost; far out of
    // view, its buttons are there for the keyboard and screen readers, named, without them.
    expect(names(oldest), 'the oldest, far out of view').to.deep.equal(names(newest));
    expect(icons(oldest), 'the oldest, far out of view').to.equal(0);
    log.scrollTop = 0;
    await until(() => icons(oldest) === 4, "the oldest's icons once scrolled to");
  });

  it('should print the whole conversation, without the controls', async () => {
    const { el, log } = await rememberedConversation(30);
    await until(() => userMessages(el).length === 30, 'the whole conversation');
    await frames();
    expect(log.scrollHeight, 'on screen, the log scrolls').to.be.greaterThan(log.clientHeight);
    await emulateMedia({ media: 'print' });
    try {
      await frames();
      // Paper does not scroll: every exchange is laid out in the page, none cut off by the log.
      expect(log.scrollHeight, 'printed, nothing scrolls').to.be.at.most(log.clientHeight + 1);
      const oldest = shadow(el).querySelector<HTMLElement>('.exchange')!;
      expect(oldest.firstElementChild!.checkVisibility({ contentVisibilityAuto: true })).to.equal(
        true,
      );
      expect(oldest.textContent).to.contain('Answer 0');
      for (const control of ['[part=composer]', '.actions', '[part=new-chat-button]']) {
        const node = shadow(el).querySelector<HTMLElement>(control)!;
        expect(node.checkVisibility(), `${control} on paper`).to.equal(false);
      }
    } finally {
      await emulateMedia({ media: 'screen' });
    }
  });

  it('should offer a way back to the newest message once the reader has scrolled up', async () => {
    const { el, log } = await rememberedConversation(40);
    await until(() => userMessages(el).length === 40, 'the whole conversation');
    const latest = () => shadow(el).querySelector<HTMLButtonElement>('[part=latest-button]');
    await until(() => log.scrollTop + log.clientHeight >= log.scrollHeight - 2, 'at the bottom');
    expect(latest(), 'not while following').to.equal(null);

    log.scrollTop = 0;
    await until(() => latest(), 'the button');
    expect(latest()!.textContent).to.contain('Latest messages');
    await expect(el).to.be.accessible();
    latest()!.click();
    await until(
      () => log.scrollTop + log.clientHeight >= log.scrollHeight - 2,
      'back at the bottom',
    );
    await el.updateComplete;
    expect(latest()).to.equal(null);
    expect(shadow(el).activeElement, 'focus where the reader writes').to.equal(input(el));
  });

  it('should give the way back down a target of at least 44×44 px on a touch screen', async () => {
    const { el, log } = await rememberedConversation(40);
    await executeServerCommand('emulate-touch', { enabled: true });
    try {
      await until(() => userMessages(el).length === 40, 'the whole conversation');
      log.scrollTop = 0;
      const latest = () => shadow(el).querySelector<HTMLButtonElement>('[part=latest-button]');
      await until(() => latest(), 'the button');
      const box = latest()!.getBoundingClientRect();
      expect(Math.round(Math.min(box.width, box.height))).to.be.at.least(44);
    } finally {
      await executeServerCommand('emulate-touch', { enabled: false });
    }
  });

  it("should not cover the last answer's buttons with the way back down, on a phone-sized chat", async () => {
    const { el, log } = await rememberedConversation(6);
    el.style.cssText = 'display: block; width: 390px; height: 640px';
    await until(() => userMessages(el).length === 6, 'the whole conversation');
    await loadRenderer();
    const last = () => [...shadow(el).querySelectorAll('.exchange')].at(-1)!;
    await until(() => last().querySelector('button'), "the last answer's buttons");
    const bottom = () => log.scrollHeight - log.clientHeight;
    await until(() => log.scrollTop >= bottom() - 2, 'at the bottom');
    const covered: string[] = [];
    const latest = () => shadow(el).querySelector('[part=latest-button]');
    log.scrollTop = bottom() - 400;
    await until(latest, 'the way back down, well above the newest');
    // Within 32 px of the bottom the log follows again.
    for (let up = 390; up >= 40; up -= 10) {
      log.scrollTop = bottom() - up;
      await frames();
      if (!latest()) continue;
      const view = log.getBoundingClientRect();
      for (const b of last().querySelectorAll<HTMLButtonElement>('button')) {
        const r = b.getBoundingClientRect();
        const [x, y] = [r.left + r.width / 2, r.top + r.height / 2];
        if (y < view.top || y > view.bottom) continue;
        const hit = shadow(el).elementFromPoint(x, y);
        if (!b.contains(hit)) covered.push(`${b.textContent?.trim() || b.ariaLabel} at ${up}px up`);
      }
    }
    expect(covered).to.deep.equal([]);
  });

  it('should keep the newest text in view as an answer grows with nothing re-rendered', async () => {
    const { el, log } = await rememberedConversation(6);
    await until(() => userMessages(el).length === 6, 'the whole conversation');
    await loadRenderer();
    const atBottom = () => log.scrollTop + log.clientHeight >= log.scrollHeight - 2;
    await until(atBottom, 'at the bottom');
    // Past the checks that follow a render.
    await frames(10);
    // As a block does that is laid out only once it nears the view (on a busy machine, frames
    // after the render), or raw HTML drawn again once its sanitizer has loaded.
    const block = () => answers(el).at(-1)!.querySelector<HTMLElement>('.block')!;
    block().style.paddingBottom = '300px';
    await until(atBottom, 'the grown answer still followed');
    // A reader who scrolled up stays where they are.
    log.scrollTop = 0;
    await until(() => shadow(el).querySelector('[part=latest-button]'), 'reading above');
    block().style.paddingBottom = '600px';
    await frames(3);
    expect(log.scrollTop).to.equal(0);
  });

  it('should take a reader who scrolled up to the question they send, and its answer', async () => {
    const service = fakeService([{ chunks: ['The newest answer.'], messageUuid: 'm-new' }]);
    const { el, log } = await rememberedConversation(10, service);
    await until(() => userMessages(el).length === 10, 'the whole conversation');
    const atBottom = () => log.scrollTop + log.clientHeight >= log.scrollHeight - 2;
    await until(atBottom, 'at the bottom');
    log.scrollTop = 0;
    await until(() => shadow(el).querySelector('[part=latest-button]'), 'reading above');
    await el.send('The newest question');
    await until(atBottom, 'the new exchange in view');
    expect(shadow(el).querySelector('[part=latest-button]')).to.equal(null);
    expect(answers(el).at(-1)!.textContent).to.contain('The newest answer.');
  });

  it('should let a keyboard reader scroll a wide code block or table', async () => {
    const wide = 'x'.repeat(400);
    const cells = Array.from({ length: 30 }, (_, i) => `column ${i}`);
    const table = `| ${cells.join(' | ')} |\n|${' --- |'.repeat(30)}\n| ${cells.join(' | ')} |`;
    const el = await chat(fakeService([{ chunks: [`\`\`\`\n${wide}\n\`\`\`\n\n${table}\n`] }]));
    await el.send('wide');
    for (const scroller of answers(el)[0]!.querySelectorAll<HTMLElement>('pre, .table')) {
      expect(scroller.scrollWidth, scroller.className).to.be.above(scroller.clientWidth);
      scroller.focus();
      expect(shadow(el).activeElement, `${scroller.className} takes focus`).to.equal(scroller);
    }
    await expect(el).to.be.accessible();
  });

  it('should keep a table’s words whole in a narrow chat, scrolling the table instead', async () => {
    const table = `| Variable | Default | Meaning |\n| --- | --- | --- |\n| CHATBOT_DOCUMENT_MAX_BYTES | 10485760 | Largest document a visitor attaches |\n`;
    const el = await chat(fakeService([{ chunks: [table] }]));
    el.style.width = '320px';
    await el.send('which settings?');
    const cells = [...answers(el)[0]!.querySelectorAll('th, td')];
    expect(cells).to.have.length(6);
    for (const cell of cells) {
      // Each word on one line: a word broken in two draws on two.
      for (const word of cell.textContent!.trim().split(/\s+/)) {
        const node = [...cell.childNodes].find((n) => n.textContent?.includes(word))!;
        const range = document.createRange();
        const start = node.textContent!.indexOf(word);
        range.setStart(node, start);
        range.setEnd(node, start + word.length);
        expect(range.getClientRects().length, `"${word}" whole`).to.equal(1);
      }
    }
    const scroller = answers(el)[0]!.querySelector<HTMLElement>('.table')!;
    expect(scroller.scrollWidth).to.be.above(scroller.clientWidth);
  });

  it('should offer Retry after a 5xx', async () => {
    const service = fakeService([{ status: 503, message: 'busy' }, { chunks: ['fine'] }]);
    const el = await chat(service);
    await el.send('q');
    expect(alertText(el)).to.contain('503');
    expect(userMessages(el)).to.deep.equal(['q']);
    button(el, 'Retry')!.click();
    await until(() => answers(el)[0]?.textContent?.includes('fine'), 'retried answer');
  });

  it('should say the key is wrong on 401 and 403, without Retry', async () => {
    for (const status of [401, 403]) {
      const el = await chat(fakeService([{ status, message: 'bad key' }]));
      await el.send('q');
      expect(alertText(el)).to.contain('key was refused');
      expect(button(el, 'Retry')).to.equal(undefined);
    }
  });

  it("should show the chatbot's rate-limit message and when sending is possible again", async () => {
    const service = fakeService([
      { status: 429, message: 'Slow down, please.', retryAfter: 1 },
      { chunks: ['ok'] },
    ]);
    const el = await chat(service);
    const errored = oneEvent(el, 'chatbot-error');
    await el.send('q');
    expect((await errored).detail.kind).to.equal('rate-limit');
    expect(alertText(el)).to.contain('Slow down, please.');
    expect(alertText(el)).to.match(/You can send again in \d+ s/);
    const send = button(el, 'Send')!;
    // Sending now sends nothing and keeps what was typed, and focus stays on the button.
    input(el).value = 'the next question';
    send.focus();
    send.click();
    await el.updateComplete;
    expect(streamCalls(service)).to.have.length(1);
    expect(input(el).value).to.equal('the next question');
    expect(shadow(el).activeElement === send, 'focus on Send').to.equal(true);
    expect(send.getAttribute('aria-disabled')).to.equal('true');
    await expect(el).to.be.accessible();
    await until(() => button(el, 'Retry'), 'retry after the wait');
    expect(alertText(el)).to.contain('You can send again now.');
    expect(send.getAttribute('aria-disabled')).to.equal('false');
  });

  it('should not make the page longer than the inline chat, however long the conversation', async () => {
    const el = await chat(fakeService(), { style: '--chatbot-height: 240px' });
    await el.updateComplete;
    const page = () => document.scrollingElement!.scrollHeight;
    const before = page();
    for (let i = 0; i < 8; i++) await el.send(`question ${i}`);
    await frames();
    // The log scrolls inside the chat; the page below it stays as it was.
    expect(shadow(el).querySelectorAll('.exchange')).to.have.length(8);
    expect(page()).to.equal(before);
  });

  it('should keep keyboard focus on Send while the first question starts a session', async () => {
    const service = fakeService([{ chunks: ['Open at 7.'] }]);
    const held = gate();
    const client = createClient({
      baseUrl: 'https://fake.test',
      apiKey: 'fake-key',
      retry: false,
      fetch: async (url, init) => {
        if (String(url).endsWith('/session/create')) await held.wait();
        return service.fetch(url, init);
      },
    });
    const el = await chat({ ...service, client });
    input(el).value = 'When do you open?';
    const send = button(el, 'Send')!;
    send.focus();
    send.click();
    await el.updateComplete;
    await frames();
    // A disabled button would have dropped focus to the page: the reader's place is lost.
    expect(shadow(el).activeElement === send, 'focus while the session is created').to.equal(true);
    expect(send.getAttribute('aria-disabled')).to.equal('true');
    const finished = oneEvent(el, 'chatbot-answer-finished');
    held.release();
    await finished;
    await el.updateComplete;
    expect(answers(el)[0]!.textContent).to.contain('Open at 7.');
    expect(shadow(el).activeElement === send, 'focus after the answer').to.equal(true);
  });

  it('should say when sending is possible again on a page whose lang is no language tag', async () => {
    const el = await chat(fakeService([{ status: 429, message: 'Slow down.', retryAfter: 30 }]));
    // Written as some sites do: Intl refuses it, and every formatter given it throws.
    el.lang = 'en_US';
    await el.send('q');
    await until(() => alertText(el).includes('Slow down.'), 'the rate limit');
    expect(alertText(el)).to.match(/You can send again in \d+ s \(at .+\)/);
  });

  it('should move to a new session once when the session has disappeared, keeping the conversation', async () => {
    const service = fakeService([{ chunks: ['first'] }, { chunks: ['second'] }, { chunks: ['x'] }]);
    const el = await chat(service);
    await el.send('one');
    const old = el.sessionUuid;
    service.goneSessions.add(old);
    await el.send('two');
    expect(el.sessionUuid).to.not.equal(old);
    expect(service.sessionsCreated).to.equal(2);
    expect(userMessages(el)).to.deep.equal(['one', 'two']);
    expect(answers(el).map((a) => a.querySelector('.markdown')?.textContent?.trim())).to.deep.equal(
      ['first', 'second'],
    );
    expect(alertText(el)).to.equal('');
  });

  it('should let a chatbot-message-send listener cancel the send, keeping the text', async () => {
    const service = fakeService();
    const el = await chat(service);
    el.addEventListener('chatbot-message-send', (event) => event.preventDefault(), { once: true });
    await typeAndEnter(el, 'keep me');
    expect(service.calls).to.have.length(0);
    expect(input(el).value).to.equal('keep me');
    expect(userMessages(el)).to.deep.equal([]);
  });

  it('should fire typed, composed events for send, answer and session', async () => {
    const service = fakeService([{ chunks: ['Hi', ' there'], messageUuid: 'm-1' }]);
    const el = await chat(service);
    const seen: string[] = [];
    const outer = document.createElement('div');
    for (const type of [
      'chatbot-session-created',
      'chatbot-message-send',
      'chatbot-answer-finished',
    ]) {
      el.parentElement!.addEventListener(type, (e) => {
        expect((e as CustomEvent).composed).to.equal(true);
        seen.push(type);
      });
    }
    outer.remove();
    const finished = oneEvent(el, 'chatbot-answer-finished');
    await el.send('hey');
    const event = await finished;
    expect(event.detail).to.include({
      query: 'hey',
      response: 'Hi there',
      messageUuid: 'm-1',
      stopped: false,
    });
    expect(seen).to.deep.equal([
      'chatbot-message-send',
      'chatbot-session-created',
      'chatbot-answer-finished',
    ]);
  });

  it('should announce each finished answer once in a polite live region', async () => {
    const el = await chat(fakeService([{ chunks: ['Alpha ', 'beta ', 'gamma.'] }]));
    const live = shadow(el).querySelector('[aria-live="polite"]')!;
    const changes: string[] = [];
    const observer = new MutationObserver(() => {
      const text = live.textContent?.trim();
      if (text) changes.push(text);
    });
    observer.observe(live, { childList: true, subtree: true, characterData: true });
    await el.send('q');
    await until(() => changes.length > 0, 'announcement');
    await new Promise((r) => setTimeout(r, 100));
    observer.disconnect();
    expect(changes).to.deep.equal(['Answer: Alpha beta gamma.']);
    expect(shadow(el).querySelector('[role="log"]')!.getAttribute('aria-live')).to.equal('off');
  });

  it('should leave nothing of the last answer in the live region once a new conversation starts', async () => {
    const el = await chat(fakeService([{ chunks: ['Alpha.'] }]));
    const live = shadow(el).querySelector('[aria-live="polite"]')!;
    await el.send('q');
    await until(() => live.textContent?.trim(), 'announcement');
    el.clear();
    await until(() => !live.textContent?.trim(), 'the live region emptied');
    await new Promise((r) => requestAnimationFrame(r));
    await el.updateComplete;
    expect(live.textContent!.trim()).to.equal('');
  });

  it('should announce what the answer says, not the labels of its buttons, with its blocks apart', async () => {
    const el = await chat(
      fakeService([
        { chunks: ['Add one tag:\n\n```html\n<script src="x.js"></script>\n```\n\nDone.'] },
      ]),
    );
    await loadRenderer();
    const live = shadow(el).querySelector('[aria-live="polite"]')!;
    await el.send('q');
    await until(() => live.textContent?.trim(), 'announcement');
    expect(live.textContent!.trim()).to.equal(
      'Answer: Add one tag: <script src="x.js"></script> Done.',
    );
  });

  it('should scroll a wide table sideways with a few words a line, not one', async () => {
    const long = 'The address of the service, without the api prefix, that every request goes to.';
    const table = `| Name | Type | Default | Required | Meaning |\n| --- | --- | --- | --- | --- |\n| base-url | string | none | yes | ${long} |\n`;
    const el = await chat(fakeService([{ chunks: [table] }]), { style: 'width: 320px' });
    await loadRenderer();
    await el.send('Which attributes?');
    await until(() => answers(el)[0]?.querySelector('td:last-child'), 'the table');
    const cell = answers(el)[0]!.querySelector<HTMLElement>('td:last-child')!;
    const box = cell.closest<HTMLElement>('.table')!;
    const lines =
      cell.getBoundingClientRect().height / Number.parseFloat(getComputedStyle(cell).lineHeight);
    // Wider than the bubble, so it scrolls; the long cell in a few lines (one word each: 14).
    expect(box.scrollWidth).to.be.greaterThan(box.clientWidth);
    expect(lines).to.be.below(5);
    expect(document.scrollingElement!.scrollWidth).to.equal(document.scrollingElement!.clientWidth);
  });

  it('should link citation markers and list the cited sources under the answer', async () => {
    const citations = [
      { n: 1, data_source_uuid: 'd1', title: 'Opening hours', type: 'qa' },
      {
        n: 2,
        data_source_uuid: 'd2',
        title: 'Website',
        type: 'link',
        url: 'https://bakery.example',
      },
    ];
    const el = await chat(fakeService([{ chunks: ['Open 7–18 [1]', ', see [2].'], citations }]));
    await el.send('hours?');
    const answer = answers(el)[0]!;
    const markers = [...answer.querySelectorAll('a.citation')];
    expect(markers).to.have.length(2);
    const items = [...answer.querySelectorAll('.sources li')].map((li) => li.textContent?.trim());
    expect(items).to.deep.equal(['[1] Opening hours', '[2] Website']);
    (markers[0] as HTMLAnchorElement).click();
    expect(shadow(el).activeElement?.textContent?.trim()).to.equal('[1] Opening hours');
    await expect(el).to.be.accessible();
    // The list's name, in the element's language or as the page overrides it.
    const label = () => answer.querySelector('.sources')?.getAttribute('aria-label');
    expect(label()).to.equal('Sources');
    el.lang = 'de';
    await until(() => label() === 'Quellen', 'the German name');
    el.strings = { sources: 'Belege' };
    await el.updateComplete;
    expect(label()).to.equal('Belege');
  });

  it('should copy an answer and delete an exchange whose message uuid is known', async () => {
    const service = fakeService([{ chunks: ['Copy me'], messageUuid: 'm-9' }]);
    const el = await chat(service);
    await el.send('q');
    let copied = '';
    const original = navigator.clipboard.writeText;
    navigator.clipboard.writeText = async (text: string) => {
      copied = text;
    };
    try {
      button(el, 'Copy answer')!.click();
      await until(() => copied, 'clipboard');
      expect(copied).to.equal('Copy me');
      // Said to the reader who pressed it, not only to a screen reader: over the log's foot.
      const flash = shadow(el).querySelector<HTMLElement>('[role=status]')!;
      await until(() => flash.textContent?.trim(), 'the flash');
      expect(flash.textContent!.trim()).to.equal('Copied');
      const shown = flash.getBoundingClientRect();
      const log = shadow(el).querySelector('[role=log]')!.getBoundingClientRect();
      expect(shown.width, 'drawn').to.be.above(30);
      expect(shown.height, 'drawn').to.be.above(10);
      expect(shown.top).to.be.at.least(log.top);
      expect(shown.bottom).to.be.at.most(log.bottom);
      expect(getComputedStyle(flash).color).to.not.equal(getComputedStyle(flash).backgroundColor);
    } finally {
      navigator.clipboard.writeText = original;
    }
    button(el, 'Delete this exchange')!.click();
    // Asked first (test/chat/delete-confirm.browser.test.ts), once the answers' chunk is here.
    await until(() => button(el, 'Delete'), 'the question');
    button(el, 'Delete')!.click();
    await until(() => userMessages(el).length === 0, 'exchange removed');
    expect(service.calls.some((c) => c.path === '/api/v1/message/m-9/delete')).to.equal(true);
  });

  it('should offer no delete when the message uuid is unknown', async () => {
    const el = await chat(fakeService([{ chunks: ['no uuid'] }]));
    await el.send('q');
    expect(button(el, 'Copy answer')).to.exist;
    expect(button(el, 'Delete this exchange')).to.equal(undefined);
  });

  it('should say a base-url without http(s) is not set up, instead of failing to render or to connect', async () => {
    const logged: unknown[][] = [];
    const saved = console.error;
    console.error = (...args: unknown[]) => logged.push(args);
    try {
      const el = await fixture<ChatbotChat>(html`<chatbot-chat
        base-url="localhost:8787"
        api-key="k"
        chatbot-uuid="bot-1"
        persist="none"
      ></chatbot-chat>`);
      const errored = oneEvent(el, 'chatbot-error');
      input(el).value = 'When are you open?';
      button(el, 'Send')!.click();
      const event = await errored;
      expect(event.detail.kind).to.equal('config');
      await el.updateComplete;
      expect(alertText(el)).to.contain('base-url (an http(s) address)');
      expect(input(el).value, 'what the reader typed stays').to.equal('When are you open?');
    } finally {
      console.error = saved;
    }
    // The developer's console names the address it could not use.
    expect(String(logged[0]?.[0])).to.contain('"localhost:8787"');
  });

  it("should not take the host page's text styles into its own text", async () => {
    const wrapper = await fixture<HTMLDivElement>(html`<div
      style="text-transform: uppercase; text-align: center; letter-spacing: 3px; word-spacing: 9px; font-style: italic; text-indent: 40px; font-weight: 700"
    >
      <chatbot-chat chatbot-uuid="bot-1" persist="none" .client=${fakeService([{ chunks: ['Plain text.'] }]).client}></chatbot-chat>
    </div>`);
    const el = wrapper.querySelector('chatbot-chat') as ChatbotChat;
    await el.send('q');
    await until(() => answers(el)[0]?.textContent?.includes('Plain text.'), 'the answer');
    const style = getComputedStyle(answers(el)[0]!);
    expect({
      textTransform: style.textTransform,
      textAlign: style.textAlign,
      letterSpacing: style.letterSpacing,
      wordSpacing: style.wordSpacing,
      fontStyle: style.fontStyle,
      textIndent: style.textIndent,
      fontWeight: style.fontWeight,
    }).to.deep.equal({
      textTransform: 'none',
      textAlign: 'start',
      letterSpacing: 'normal',
      wordSpacing: '0px',
      fontStyle: 'normal',
      textIndent: '0px',
      fontWeight: '400',
    });
  });

  it('should remove what it stored once persist turns to none (a visitor withdrawing consent), keeping the view', async () => {
    const el = await fixture<ChatbotChat>(html`<chatbot-chat
      chatbot-uuid="bot-1"
      .client=${fakeService([{ chunks: ['Kept on screen.'], messageUuid: 'm-1' }]).client}
    ></chatbot-chat>`);
    await el.send('q');
    const key = 'chatbot-chat:v1:https://fake.test:bot-1';
    expect(localStorage.getItem(key)).to.contain('Kept on screen.');
    el.persist = 'none';
    await el.updateComplete;
    expect(localStorage.getItem(key)).to.equal(null);
    expect(userMessages(el)).to.deep.equal(['q']);
  });

  it('should refuse nested session data with a clear error and create no session', async () => {
    const service = fakeService();
    const el = await chat(service);
    const errored = oneEvent(el, 'chatbot-error');
    el.sessionData = { user: { id: 1 } } as never;
    const event = await errored;
    expect(event.detail.kind).to.equal('config');
    expect(event.detail.message).to.contain('"user" holds an object');
    await el.send('q');
    expect(service.calls).to.have.length(0);
  });

  it('should send flat session data when creating the session', async () => {
    const service = fakeService([{ chunks: ['ok'] }]);
    const el = await fixture<ChatbotChat>(html`<chatbot-chat
      chatbot-uuid="bot-1"
      persist="none"
      session-data='{"page":"pricing","visits":3}'
      .client=${service.client}
    ></chatbot-chat>`);
    await el.send('q');
    expect(service.calls[0]!.body).to.deep.equal({ page: 'pricing', visits: 3 });
  });

  it('should show the greeting and suggestions, and send a suggestion when chosen', async () => {
    const service = fakeService([{ chunks: ['ok'] }]);
    const el = await fixture<ChatbotChat>(html`<chatbot-chat
      chatbot-uuid="bot-1"
      persist="none"
      greeting="Hello! Ask me anything."
      suggestions="Opening hours?|Prices?"
      .client=${service.client}
    ></chatbot-chat>`);
    expect(shadow(el).querySelector('.greeting')?.textContent).to.contain(
      'Hello! Ask me anything.',
    );
    await expect(el).to.be.accessible();
    const finished = oneEvent(el, 'chatbot-answer-finished');
    const chosen = button(el, 'Prices?')!;
    chosen.focus();
    chosen.click();
    await finished;
    expect(userMessages(el)).to.deep.equal(['Prices?']);
    expect(shadow(el).querySelector('.suggestions')).to.equal(null);
    // The chosen button is gone with the list: a keyboard reader goes on from the textbox.
    expect(shadow(el).activeElement, 'focus where the reader writes').to.equal(input(el));
  });

  it('should keep Send and Stop one width, so the textbox does not move as an answer starts and ends', async () => {
    for (const lang of ['en', 'de']) {
      const hold = gate();
      const service = fakeService([{ chunks: ['An answer.'], gate: hold.wait }]);
      const el = await chat(service);
      el.setAttribute('lang', lang);
      await el.updateComplete;
      const [send, stop] = lang === 'en' ? ['Send', 'Stop'] : ['Senden', 'Stopp'];
      await until(() => button(el, send), send);
      const idle = input(el).getBoundingClientRect().width;
      const sent = el.send('hello');
      await until(() => button(el, stop), stop);
      expect(input(el).getBoundingClientRect().width, `${lang}: while answering`).to.equal(idle);
      hold.release();
      await sent;
      expect(button(el, send), lang).to.exist;
      expect(input(el).getBoundingClientRect().width, `${lang}: after`).to.equal(idle);
      await expect(el).to.be.accessible();
    }
  });

  it("should centre Send's word in the button when the button is taller than it (48 px for a finger)", async () => {
    const el = await chat(fakeService([]));
    const send = button(el, 'Send')!;
    // As the coarse-pointer rule makes it on a phone.
    send.style.minHeight = '48px';
    const words = document.createRange();
    words.selectNodeContents(send);
    const box = send.getBoundingClientRect();
    const text = words.getBoundingClientRect();
    expect(box.height).to.equal(48);
    const middle = (r: DOMRect) => (r.top + r.bottom) / 2;
    expect(Math.abs(middle(text) - middle(box)), 'the word off the middle, px').to.be.below(1);
  });

  it('should use the German strings when lang is de, and take overrides', async () => {
    const el = await fixture<ChatbotChat>(
      html`<chatbot-chat lang="de" persist="none"></chatbot-chat>`,
    );
    expect(input(el).getAttribute('aria-label')).to.equal('Nachricht');
    expect(button(el, 'Senden')).to.exist;
    el.strings = { send: 'Los' };
    await el.updateComplete;
    expect(button(el, 'Los')).to.exist;
    el.strings = undefined;
    el.setAttribute('lang', 'en');
    await el.updateComplete;
    expect(button(el, 'Send')).to.exist;
  });

  it("should follow the page's language when <html lang> or an ancestor's lang changes", async () => {
    const page = document.documentElement;
    const before = page.lang;
    const wrapper = await fixture<HTMLDivElement>(
      html`<div><chatbot-chat persist="none"></chatbot-chat></div>`,
    );
    const el = wrapper.querySelector<ChatbotChat>('chatbot-chat')!;
    /** Lets the attribute change reach the element (a mutation record, then its update). */
    const settled = async () => {
      await new Promise((resolve) => setTimeout(resolve));
      await el.updateComplete;
    };
    try {
      page.lang = 'de';
      await settled();
      expect(input(el).getAttribute('aria-label')).to.equal('Nachricht');
      wrapper.lang = 'en';
      await settled();
      expect(input(el).getAttribute('aria-label')).to.equal('Message');
      wrapper.removeAttribute('lang');
      await settled();
      expect(input(el).getAttribute('aria-label')).to.equal('Nachricht');
    } finally {
      page.lang = before;
    }
  });

  it('should mark every message dir=auto for right-to-left text', async () => {
    const el = await chat(fakeService([{ chunks: ['مرحبا بك'] }]));
    await el.send('שלום');
    for (const message of shadow(el).querySelectorAll('.message')) {
      expect(message.getAttribute('dir')).to.equal('auto');
    }
  });

  it('should expose parts for host styling', async () => {
    const el = await chat(fakeService([{ chunks: ['ok'], messageUuid: 'm' }]));
    await el.send('q');
    const parts = new Set(
      [...shadow(el).querySelectorAll('[part]')].flatMap((n) => n.getAttribute('part')!.split(' ')),
    );
    for (const part of [
      'panel',
      'header',
      'log',
      'exchange',
      'user-message',
      'assistant-message',
      'composer',
      'input',
      'send-button',
      'error',
      'actions',
    ]) {
      expect(parts.has(part), part).to.equal(true);
    }
  });

  it('should use no inline style attributes', async () => {
    const el = await chat(fakeService([{ chunks: ['# x\n\n| a |\n|:-:|\n| 1 |'] }]));
    await el.send('q');
    expect(shadow(el).querySelectorAll('[style]')).to.have.length(0);
  });

  it('should keep a message sent right after the client is set, before the next render', async () => {
    const service = fakeService([{ chunks: ['kept'] }]);
    const el = await fixture<ChatbotChat>(
      html`<chatbot-chat chatbot-uuid="bot-1" persist="none"></chatbot-chat>`,
    );
    el.client = service.client;
    await el.send('right away');
    expect(userMessages(el)).to.deep.equal(['right away']);
    expect(answers(el)[0]!.textContent).to.contain('kept');
  });

  it('should say what is missing when it is not configured', async () => {
    const el = await fixture<ChatbotChat>(html`<chatbot-chat persist="none"></chatbot-chat>`);
    const errored = oneEvent(el, 'chatbot-error');
    await el.send('q');
    expect((await errored).detail.kind).to.equal('config');
    expect(alertText(el)).to.contain('base-url');
  });
});
