import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { executeServerCommand, sendKeys, setViewport } from '@web/test-runner-commands';
import { type ChatbotClient, createClient } from '../../src/api/client.js';
import type { Feedback } from '../../src/api/types.js';
import type { ChatbotChat } from '../../src/chat/chatbot-chat.js';
import type { ChatFeedbackDetail } from '../../src/chat/events.js';
import '../../src/chat/index.js';
import { loadRenderer } from '../../src/chat/renderer.js';
import {
  alertText,
  button,
  fakeService,
  frames,
  gate,
  realChatbot,
  shadow,
  until,
  userMessages,
} from './helpers.js';

type Bot = Awaited<ReturnType<typeof realChatbot>>;

const QUESTION = 'When is the bakery open?';

/** The rating the server keeps for the session's first message ('' when unrated). */
async function stored(bot: Bot, session: string): Promise<Partial<Feedback>> {
  const [record] = await bot.client.messages.list(session);
  return record?.feedback_json ? (JSON.parse(record.feedback_json) as Feedback) : {};
}

const pressed = (el: ChatbotChat) =>
  [...shadow(el).querySelectorAll('[part="feedback-button"][aria-pressed="true"]')].map((b) =>
    b.textContent?.trim(),
  );
const form = (el: ChatbotChat) => shadow(el).querySelector<HTMLFormElement>('.feedback-form');
const controls = (el: ChatbotChat) => shadow(el).querySelectorAll('[part="feedback"]').length;

/**
 * A client of the real server under another base URL (the page remembers per base URL that a
 * service has no feedback route) whose feedback route answers `status`, as a server without it
 * or a failing one would.
 */
function feedbackAnswering(bot: Bot, status: number): ChatbotClient {
  const through: typeof fetch = async (input, init) => {
    const url = new URL(String(input));
    if (url.pathname.endsWith('/feedback')) {
      const error = { code: status === 500 ? 'internal' : 'not_found', message: 'no' };
      return new Response(JSON.stringify({ error }), {
        status,
        headers: { 'content-type': 'application/json' },
      });
    }
    return fetch(`${bot.baseUrl}${url.pathname}${url.search}`, init);
  };
  const baseUrl = `https://feedback-${status}-${Math.random().toString(36).slice(2)}.test`;
  return createClient({ baseUrl, apiKey: bot.apiKey, fetch: through, retry: false });
}

/** A chat that has answered QUESTION, whose service refuses every rating with a 500. */
async function answeredRefusingRatings(): Promise<ChatbotChat> {
  const bot = await realChatbot();
  const el = await fixture<ChatbotChat>(html`<chatbot-chat
    chatbot-uuid=${bot.chatbotUuid}
    persist="none"
    .client=${feedbackAnswering(bot, 500)}
  ></chatbot-chat>`);
  await el.send(QUESTION);
  return el;
}

describe('<chatbot-chat> feedback', () => {
  afterEach(() => localStorage.clear());

  async function mount(bot: Bot, attributes: { mode?: string; feedback?: string } = {}) {
    return fixture<ChatbotChat>(html`<chatbot-chat
      base-url=${bot.baseUrl}
      api-key=${bot.apiKey}
      chatbot-uuid=${bot.chatbotUuid}
      mode=${attributes.mode ?? 'inline'}
      feedback=${attributes.feedback ?? 'on'}
      ?open=${attributes.mode === 'launcher'}
    ></chatbot-chat>`);
  }

  async function answered(bot: Bot, attributes?: { mode?: string; feedback?: string }) {
    const el = await mount(bot, attributes);
    await el.send(QUESTION);
    // The rating controls come with the answers' chunk; the file's first answer can finish before
    // that chunk has arrived, so wait for it as a reader's page would.
    await loadRenderer();
    await el.updateComplete;
    return el;
  }

  it('should offer "Helpful" and "Not helpful" under a finished answer, neither pressed', async () => {
    const el = await answered(await realChatbot());
    await until(() => controls(el) > 0, 'the rating controls');
    const group = shadow(el).querySelector('[part="feedback"]')!;
    expect(group.getAttribute('role')).to.equal('group');
    expect(group.getAttribute('aria-label')).to.equal('Rate this answer');
    for (const name of ['Helpful', 'Not helpful']) {
      expect(button(el, name)!.getAttribute('aria-pressed'), name).to.equal('false');
    }
    await expect(el).to.be.accessible();
  });

  it('should rate up, store it on the server and fire chatbot-feedback once it was accepted', async () => {
    const bot = await realChatbot();
    const el = await answered(bot);
    const messageUuid = (await bot.client.messages.list(el.sessionUuid))[0]!.uuid;
    const fired = oneEvent(el, 'chatbot-feedback');
    button(el, 'Helpful')!.click();
    await el.updateComplete;
    // Pressed at once, before the server answers.
    expect(pressed(el)).to.deep.equal(['Helpful']);
    const event = await fired;
    expect(event.detail).to.deep.equal({ messageUuid, rating: 'up' });
    expect(event.bubbles && event.composed).to.equal(true);
    expect(await stored(bot, el.sessionUuid)).to.include({ rating: 'up' });
    expect(form(el)).to.equal(null);
    await expect(el).to.be.accessible();
  });

  it('should change to "Not helpful" with a reason and a comment sent with Enter, then withdraw it', async () => {
    const bot = await realChatbot();
    const el = await answered(bot);
    button(el, 'Helpful')!.click();
    await oneEvent(el, 'chatbot-feedback');

    const down = oneEvent(el, 'chatbot-feedback');
    button(el, 'Not helpful')!.click();
    await el.updateComplete;
    await frames(1);
    expect(pressed(el)).to.deep.equal(['Not helpful']);
    expect((await down).detail.rating).to.equal('down');
    // The form opens with focus on its first choice.
    const choices = [...form(el)!.querySelectorAll<HTMLInputElement>('input[type="radio"]')];
    expect(choices.map((c) => [c.value, c.parentElement!.textContent!.trim()])).to.deep.equal([
      ['wrong', 'Wrong'],
      ['incomplete', 'Incomplete'],
      ['not-asked', 'Not what I asked'],
      ['other', 'Other'],
    ]);
    expect(shadow(el).activeElement).to.equal(choices[0]);
    await expect(el).to.be.accessible();

    choices[1]!.click();
    const comment = form(el)!.querySelector<HTMLInputElement>('[part="feedback-comment"]')!;
    expect(comment.maxLength).to.equal(1000);
    comment.focus();
    await sendKeys({ type: 'It leaves out Sunday' });
    const explained = oneEvent(el, 'chatbot-feedback');
    await sendKeys({ press: 'Enter' });
    expect((await explained).detail).to.include({
      rating: 'down',
      reason: 'incomplete',
      comment: 'It leaves out Sunday',
    });
    await el.updateComplete;
    await frames(1);
    expect(form(el)).to.equal(null);
    expect(shadow(el).activeElement).to.equal(button(el, 'Not helpful'));
    expect(await stored(bot, el.sessionUuid)).to.include({
      rating: 'down',
      reason: 'incomplete',
      comment: 'It leaves out Sunday',
    });

    const withdrawn = oneEvent(el, 'chatbot-feedback');
    button(el, 'Not helpful')!.click();
    expect((await withdrawn).detail.rating).to.equal(null);
    expect(pressed(el)).to.deep.equal([]);
    const [record] = await bot.client.messages.list(el.sessionUuid);
    expect(record!.feedback_json).to.equal('');
  });

  /** The reason form of a real answer, measured with a mouse and then on a touch screen. */
  async function onBothScreens(measure: (form: HTMLFormElement, touch: boolean) => void) {
    const bot = await realChatbot();
    const el = await answered(bot);
    button(el, 'Not helpful')!.click();
    await until(() => form(el), 'the reason form');
    try {
      for (const touch of [false, true]) {
        await executeServerCommand('emulate-touch', { enabled: touch });
        await frames(2);
        measure(form(el)!, touch);
      }
    } finally {
      await executeServerCommand('emulate-touch', { enabled: false });
    }
  }

  /** The middle of the text of `node`, not of its box. */
  function wordsMiddle(node: Node): number {
    const words = document.createRange();
    words.selectNodeContents(node);
    return middle(words.getBoundingClientRect());
  }
  const middle = (box: DOMRect) => box.top + box.height / 2;

  it("should centre each reason's circle on its word, with a mouse and on a touch screen", async () => {
    await onBothScreens((reasons, touch) => {
      for (const label of reasons.querySelectorAll('label:has(input[type=radio])')) {
        const circle = label.querySelector('input')!.getBoundingClientRect();
        expect(middle(circle), `${label.textContent} (touch: ${touch})`).to.be.closeTo(
          wordsMiddle(label.lastChild!),
          1,
        );
      }
    });
  });

  it("should set the reason form's close button on its question's line, with a mouse and on a touch screen", async () => {
    await onBothScreens((reasons, touch) => {
      const close = reasons.querySelector('.icon-button')!.getBoundingClientRect();
      expect(middle(close), `touch: ${touch}`).to.be.closeTo(
        wordsMiddle(reasons.querySelector('legend')!),
        1.5,
      );
    });
  });

  it('should send the form with its button, and send nothing more when it is empty', async () => {
    const bot = await realChatbot();
    const el = await answered(bot);
    const events: ChatFeedbackDetail[] = [];
    el.addEventListener('chatbot-feedback', (e) => events.push(e.detail));
    button(el, 'Not helpful')!.click();
    await until(() => events.length === 1, 'the rating accepted');
    await el.updateComplete;
    button(el, 'Send feedback')!.click();
    await el.updateComplete;
    expect(form(el)).to.equal(null);
    await frames(2);
    expect(events).to.have.length(1);

    button(el, 'Not helpful')!.click(); // withdraw
    button(el, 'Not helpful')!.click(); // and again, while the first is in flight
    await el.updateComplete;
    form(el)!.querySelector<HTMLInputElement>('input[value="not-asked"]')!.click();
    button(el, 'Send feedback')!.click();
    // The second "Not helpful" may still wait when the reason follows it: then only the last goes.
    await until(() => events.at(-1)?.reason === 'not-asked', 'the reason accepted');
    expect(events[1]!.rating).to.equal(null);
    expect(events.at(-1)).to.deep.include({ rating: 'down', reason: 'not-asked' });
    expect(await stored(bot, el.sessionUuid)).to.include({ rating: 'down', reason: 'not-asked' });
  });

  it('should close the form on Escape (not the launcher) and with its close button, focus back on "Not helpful"', async () => {
    const el = await answered(await realChatbot(), { mode: 'launcher' });
    button(el, 'Not helpful')!.click();
    await el.updateComplete;
    await frames(1);
    expect(form(el)).to.not.equal(null);
    await expect(el).to.be.accessible();
    await sendKeys({ press: 'Escape' });
    await el.updateComplete;
    await frames(1);
    expect(form(el)).to.equal(null);
    expect(el.open).to.equal(true);
    expect(shadow(el).activeElement).to.equal(button(el, 'Not helpful'));
    expect(pressed(el)).to.deep.equal(['Not helpful']);

    button(el, 'Not helpful')!.click(); // withdraw
    await until(() => pressed(el).length === 0, 'withdrawn');
    button(el, 'Not helpful')!.click();
    await el.updateComplete;
    button(el, 'Close')!.click();
    await el.updateComplete;
    await frames(1);
    expect(form(el)).to.equal(null);
    expect(shadow(el).activeElement).to.equal(button(el, 'Not helpful'));
  });

  /** What the chat's polite live region says, each time it changes to something (not to empty). */
  function announcements(el: ChatbotChat): string[] {
    const region = shadow(el).querySelector('[aria-live="polite"]')!;
    const said: string[] = [];
    new MutationObserver(() => {
      const text = region.textContent?.trim();
      // The answer's own announcement may come after the controls: only what rating says.
      if (text && !text.startsWith('Answer:')) said.push(text);
    }).observe(region, { childList: true, subtree: true, characterData: true });
    return said;
  }
  const thanks = (el: ChatbotChat) =>
    [...shadow(el).querySelectorAll<HTMLElement>('.exchange *')]
      .filter((node) => node.childElementCount === 0 && node.checkVisibility())
      .map((node) => node.textContent?.trim())
      .filter((text) => text === 'Thanks for your feedback');

  it('should thank the reader for "Helpful" visibly and once aloud, buttons in place, not for a withdrawal', async () => {
    const el = await answered(await realChatbot());
    await until(() => controls(el) > 0, 'the rating controls');
    const said = announcements(el);
    // Where the buttons are in their exchange (the log may scroll to follow what grows).
    const place = () => {
      const top = shadow(el).querySelector('.exchange')!.getBoundingClientRect().top;
      return ['Helpful', 'Not helpful'].map((name) => {
        const box = button(el, name)!.getBoundingClientRect();
        return { name, top: box.top - top, left: box.left };
      });
    };
    // A finished block takes its size once it has been seen on screen (content-visibility).
    await frames(2);
    const before = place();
    button(el, 'Helpful')!.click();
    await oneEvent(el, 'chatbot-feedback');
    await el.updateComplete;
    expect(thanks(el)).to.deep.equal(['Thanks for your feedback']);
    // Said by the live region; the visible words are no live region of their own, and are
    // shown once: not again over the foot of the log, where this answer's buttons are.
    await frames(1);
    expect(said).to.deep.equal(['Thanks for your feedback']);
    const flash = shadow(el).querySelector<HTMLElement>('.flash')!;
    expect(flash.textContent!.trim() === '' || !flash.checkVisibility(), 'no second copy').to.equal(
      true,
    );
    expect(flash.getBoundingClientRect().width, 'no second copy').to.be.at.most(1);
    const shown = shadow(el).querySelector('[part="feedback-thanks"]')!;
    const live = shown.closest(
      '[aria-live]:not([aria-live="off"]), [role="status"], [role="alert"]',
    );
    expect(live === null, 'not inside a live region').to.equal(true);
    // In place: only "Not helpful" moves aside, as the pressed one is bold.
    const after = place();
    expect(after.map((b) => b.top)).to.deep.equal(before.map((b) => b.top));
    expect(after[0]!.left).to.equal(before[0]!.left);
    await expect(el).to.be.accessible();

    const withdrawn = oneEvent(el, 'chatbot-feedback');
    button(el, 'Helpful')!.click();
    expect((await withdrawn).detail.rating).to.equal(null);
    await el.updateComplete;
    expect(thanks(el)).to.deep.equal([]);
    expect(said).to.deep.equal(['Thanks for your feedback']);
  });

  it('should thank for "Not helpful" once its reason is sent, not when it is pressed or withdrawn', async () => {
    const el = await answered(await realChatbot());
    await until(() => controls(el) > 0, 'the rating controls');
    const said = announcements(el);
    button(el, 'Not helpful')!.click();
    await oneEvent(el, 'chatbot-feedback');
    await el.updateComplete;
    expect(thanks(el), 'not while the form asks why').to.deep.equal([]);
    button(el, 'Not helpful')!.click(); // withdrawn before a reason
    await oneEvent(el, 'chatbot-feedback');
    await el.updateComplete;
    expect(thanks(el)).to.deep.equal([]);
    expect(said).to.deep.equal([]);

    button(el, 'Not helpful')!.click();
    await oneEvent(el, 'chatbot-feedback');
    await el.updateComplete;
    form(el)!.querySelector<HTMLInputElement>('input[value="wrong"]')!.click();
    const explained = oneEvent(el, 'chatbot-feedback');
    button(el, 'Send feedback')!.click();
    expect((await explained).detail.reason).to.equal('wrong');
    await el.updateComplete;
    expect(thanks(el)).to.deep.equal(['Thanks for your feedback']);
    await frames(1);
    expect(said).to.deep.equal(['Thanks for your feedback']);
    await expect(el).to.be.accessible();
  });

  it('should give its controls hit targets of at least 24px', async () => {
    const el = await answered(await realChatbot());
    button(el, 'Not helpful')!.click();
    await el.updateComplete;
    const targets = shadow(el).querySelectorAll<HTMLElement>(
      '[part="feedback-button"], .feedback-form button, .feedback-form label, [part="feedback-comment"]',
    );
    expect(targets.length).to.equal(9);
    for (const target of targets) {
      const box = target.getBoundingClientRect();
      expect(Math.min(box.width, box.height), target.textContent ?? '').to.be.at.least(24);
    }
    // Close sits in the form's top corner, on the question's line, as a dialog's; it overlaps
    // nothing (it wrapped onto a last line of its own in a narrow chat).
    const close = button(el, 'Close')!.getBoundingClientRect();
    const legend = shadow(el).querySelector('.feedback-form legend')!.getBoundingClientRect();
    const formBox = form(el)!.getBoundingClientRect();
    expect(close.top).to.be.below(legend.bottom);
    expect(formBox.right - close.right).to.be.below(8);
    for (const other of shadow(el).querySelectorAll(
      '.feedback-form label, .feedback-form legend',
    )) {
      const box = other.getBoundingClientRect();
      const apart =
        box.right <= close.left ||
        box.left >= close.right ||
        box.bottom <= close.top ||
        box.top >= close.bottom;
      expect(apart, other.textContent ?? '').to.equal(true);
    }
  });

  it('should offer nothing with feedback="off"', async () => {
    const el = await answered(await realChatbot(), { feedback: 'off' });
    expect(button(el, 'Copy answer')).to.not.equal(undefined);
    expect(controls(el)).to.equal(0);
    el.feedback = 'on';
    await el.updateComplete;
    expect(controls(el)).to.equal(1);
  });

  it('should offer nothing while an answer streams, for a failed exchange or without a message uuid', async () => {
    const hold = gate();
    let chunks = 0;
    const second = async () => {
      chunks += 1;
      if (chunks > 1) await hold.wait();
    };
    const service = fakeService([
      { chunks: ['Part one, ', 'part two.'], gate: second, messageUuid: 'm-1' },
      { status: 500 },
      { chunks: ['No uuid.'] },
    ]);
    const el = await fixture<ChatbotChat>(html`<chatbot-chat
      chatbot-uuid="bot-1"
      persist="none"
      .client=${service.client}
    ></chatbot-chat>`);
    const first = el.send('one');
    await until(() => el.shadowRoot!.querySelector('.assistant')?.textContent?.includes('Part'));
    expect(controls(el)).to.equal(0);
    hold.release();
    await first;
    await el.updateComplete;
    expect(controls(el)).to.equal(1);
    await el.send('two');
    await el.send('three');
    await el.updateComplete;
    expect(userMessages(el)).to.deep.equal(['one', 'two', 'three']);
    expect(controls(el)).to.equal(1);
  });

  it('should take a refused rating back and say so beside the buttons', async () => {
    const el = await answeredRefusingRatings();
    await el.updateComplete;
    const events: unknown[] = [];
    el.addEventListener('chatbot-feedback', (e) => events.push(e));
    button(el, 'Helpful')!.click();
    await el.updateComplete;
    expect(pressed(el)).to.deep.equal(['Helpful']);
    const error = () => shadow(el).querySelector('[part="feedback-error"]');
    await until(error, 'the error beside the buttons');
    expect(error()!.textContent).to.equal('Your rating could not be saved. Please try again.');
    expect(error()!.getAttribute('role')).to.equal('alert');
    expect(pressed(el)).to.deep.equal([]);
    expect(events).to.deep.equal([]);
    await expect(el).to.be.accessible();
    // Trying again clears it.
    button(el, 'Helpful')!.click();
    await el.updateComplete;
    expect(error()).to.equal(null);
  });

  for (const [device, width, touch] of [
    ['a phone', 360, true],
    ['a desktop', 800, false],
  ] as const) {
    it(`should show a refused rating's error on its own line under the buttons, on ${device}`, async () => {
      await setViewport({ width, height: 740 });
      if (touch) await executeServerCommand('emulate-touch', { enabled: true });
      try {
        const el = await answeredRefusingRatings();
        await until(() => button(el, 'Helpful'), 'the rating controls');
        // A finished block takes its size once it has been seen on screen (content-visibility).
        await frames(2);
        const boxes = () =>
          ['Helpful', 'Not helpful'].map((name) => {
            const top = shadow(el).querySelector('.exchange')!.getBoundingClientRect().top;
            const { left, width, height, bottom } = button(el, name)!.getBoundingClientRect();
            return { name, top: bottom - height - top, left, width, height };
          });
        const before = boxes();
        button(el, 'Helpful')!.click();
        const error = () => shadow(el).querySelector<HTMLElement>('[part="feedback-error"]');
        await until(error, 'the error');
        await frames(2);
        // The buttons stay where the finger was, their labels on one line.
        expect(boxes()).to.deep.equal(before);
        // The error starts a line of its own below both, and wraps only its own words.
        const shown = error()!.getBoundingClientRect();
        const buttons = before.map((b) => button(el, b.name)!.getBoundingClientRect());
        expect(shown.top).to.be.at.least(Math.max(...buttons.map((b) => b.bottom)));
        const exchange = shadow(el).querySelector('.exchange')!.getBoundingClientRect();
        expect(shown.right).to.be.at.most(exchange.right);
        await expect(el).to.be.accessible();
      } finally {
        await executeServerCommand('emulate-touch', { enabled: false });
        await setViewport({ width: 800, height: 600 });
      }
    });
  }

  it("should keep every other answer's controls when one answer's message is gone from a service that has the route", async () => {
    const bot = await realChatbot();
    const el = await answered(bot);
    button(el, 'Helpful')!.click();
    await oneEvent(el, 'chatbot-feedback');
    await el.send('Is it open on Sunday?');
    await el.updateComplete;
    await until(() => controls(el) === 2, 'both answers rateable');
    // The owner deletes the second exchange in the admin while the visitor still sees it.
    const [, second] = await bot.client.messages.list(el.sessionUuid);
    await bot.client.messages.delete(second!.uuid);
    const group = () => shadow(el).querySelectorAll('[part="feedback"]')[1]!;
    const notHelpful = group().querySelector<HTMLButtonElement>('button[value=down]')!;
    notHelpful.focus();
    notHelpful.click();
    const error = () => shadow(el).querySelector('[part="feedback-error"]');
    await until(error, 'the error beside that answer');
    // Gone for good: said so, not "try again", and nothing left there to rate or explain.
    expect(error()!.textContent).to.contain('removed');
    expect(error()!.textContent).to.not.contain('try again');
    expect(form(el)).to.equal(null);
    await el.updateComplete;
    await frames(1);
    expect(shadow(el).activeElement?.textContent?.trim() ?? 'nothing').to.equal('Copy answer');
    // The route is there: a rating accepted before proves it, so the other answer keeps its own.
    expect(controls(el)).to.equal(1);
    expect(pressed(el)).to.deep.equal(['Helpful']);
    expect(shadow(el).querySelector('[part="error"]')!.textContent!.trim()).to.equal('');
  });

  it('should move focus from the reason form to the answer when a service without the route hides it', async () => {
    const bot = await realChatbot();
    const el = await fixture<ChatbotChat>(html`<chatbot-chat
      chatbot-uuid=${bot.chatbotUuid}
      persist="none"
      .client=${feedbackAnswering(bot, 404)}
    ></chatbot-chat>`);
    await el.send(QUESTION);
    await until(() => button(el, 'Not helpful'), 'the rating controls');
    const notHelpful = button(el, 'Not helpful')!;
    notHelpful.focus();
    notHelpful.click();
    await until(() => controls(el) === 0, 'the controls hidden');
    await el.updateComplete;
    await frames(1);
    // Its name, not the node: a failure's report of two elements took the browser down.
    expect(shadow(el).activeElement?.textContent?.trim() ?? 'nothing').to.equal('Copy answer');
  });

  for (const status of [404, 405]) {
    it(`should hide the controls for good, quietly, on every element of the page after a ${status}`, async () => {
      const bot = await realChatbot();
      const client = feedbackAnswering(bot, status);
      const logged: unknown[][] = [];
      const saved = { ...console };
      for (const level of ['log', 'info', 'warn', 'error', 'debug'] as const) {
        console[level] = (...args: unknown[]) => logged.push(args);
      }
      try {
        const el = await fixture<ChatbotChat>(html`<chatbot-chat
          chatbot-uuid=${bot.chatbotUuid}
          persist="none"
          .client=${client}
        ></chatbot-chat>`);
        await el.send(QUESTION);
        await el.updateComplete;
        const errors: unknown[] = [];
        el.addEventListener('chatbot-error', (e) => errors.push(e));
        const helpful = button(el, 'Helpful')!;
        helpful.focus();
        helpful.click();
        await until(() => controls(el) === 0, 'the controls hidden');
        await el.updateComplete;
        await frames(1);
        expect(shadow(el).activeElement).to.equal(button(el, 'Copy answer'));
        expect(alertText(el)).to.equal('');
        expect(errors).to.deep.equal([]);
        // The conversation carries on, still without them.
        await el.send('Is it open on Sunday?');
        await el.updateComplete;
        expect(userMessages(el)).to.have.length(2);
        expect(controls(el)).to.equal(0);
        // Another element of the page on the same service does not offer them either.
        const other = await fixture<ChatbotChat>(html`<chatbot-chat
          chatbot-uuid=${bot.chatbotUuid}
          persist="none"
          .client=${client}
        ></chatbot-chat>`);
        await other.send(QUESTION);
        await other.updateComplete;
        expect(button(other, 'Copy answer')).to.not.equal(undefined);
        expect(controls(other)).to.equal(0);
      } finally {
        Object.assign(console, saved);
      }
      expect(logged).to.deep.equal([]);
      // A service that has the route still gets them.
      expect(controls(await answered(bot))).to.equal(1);
    });
  }

  it('should remember the rating across a reload, from storage and from the server', async () => {
    const bot = await realChatbot();
    const first = await answered(bot);
    button(first, 'Not helpful')!.click();
    await oneEvent(first, 'chatbot-feedback');
    const session = first.sessionUuid;
    first.remove();

    const again = await mount(bot);
    await until(() => pressed(again).length === 1, 'the rating restored');
    expect(pressed(again)).to.deep.equal(['Not helpful']);
    // The reason form belongs to the moment of rating; it does not come back.
    expect(form(again)).to.equal(null);
    again.remove();

    // Another device: nothing remembered, the session's records say it.
    localStorage.clear();
    const elsewhere = await fixture<ChatbotChat>(html`<chatbot-chat
      base-url=${bot.baseUrl}
      api-key=${bot.apiKey}
      chatbot-uuid=${bot.chatbotUuid}
      session-uuid=${session}
    ></chatbot-chat>`);
    await until(() => pressed(elsewhere).length === 1, 'the rating from the server');
    expect(pressed(elsewhere)).to.deep.equal(['Not helpful']);
  });

  it('should read in German', async () => {
    const bot = await realChatbot();
    const el = await fixture<ChatbotChat>(html`<chatbot-chat
      lang="de"
      base-url=${bot.baseUrl}
      api-key=${bot.apiKey}
      chatbot-uuid=${bot.chatbotUuid}
      persist="none"
    ></chatbot-chat>`);
    await el.send(QUESTION);
    await el.updateComplete;
    button(el, 'Nicht hilfreich')!.click();
    await el.updateComplete;
    expect(form(el)!.querySelector('legend')!.textContent).to.equal('Was war falsch? (optional)');
    expect(button(el, 'Feedback senden')).to.not.equal(undefined);
    await expect(el).to.be.accessible();
    // Sent empty: "Nicht hilfreich" alone is the rating, thanked once the server has it.
    button(el, 'Feedback senden')!.click();
    await until(
      () =>
        shadow(el).querySelector('[part="feedback-thanks"]')?.textContent ===
        'Danke für Ihr Feedback',
      'the thanks in German',
    );
  });
});
