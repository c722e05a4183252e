import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import { createClient } from '../../src/api/client.js';
import { ApiError } from '../../src/api/errors.js';
import type { ChatbotChat } from '../../src/chat/chatbot-chat.js';
import '../../src/chat/index.js';
import { input, realChatbot, shadow, until, userMessages } from './helpers.js';

/** Attachments (`attachments="on"`) against the real reference server's session documents. */
describe('<chatbot-chat attachments="on">', () => {
  afterEach(() => localStorage.clear());

  type Bot = Awaited<ReturnType<typeof realChatbot>>;

  async function mount(bot: Bot, attrs: { max?: number; session?: string } = {}) {
    const el = await fixture<ChatbotChat>(html`<chatbot-chat
      base-url=${bot.baseUrl}
      api-key=${bot.apiKey}
      chatbot-uuid=${bot.chatbotUuid}
      session-uuid=${attrs.session ?? ''}
      attachments="on"
      max-attachment-size=${attrs.max ?? 0}
    ></chatbot-chat>`);
    await until(() => attachButton(el), 'the attach button (lazily loaded)');
    return el;
  }

  const attachButton = (el: ChatbotChat) =>
    shadow(el).querySelector<HTMLButtonElement>('[part="attach-button"]');
  const chips = (el: ChatbotChat) => [
    ...shadow(el).querySelectorAll<HTMLElement>('form [part="attachment"]'),
  ];
  const chipErrors = (el: ChatbotChat) =>
    [...shadow(el).querySelectorAll('form [part="attachment-error"]')].map((n) =>
      n.textContent?.trim(),
    );
  const sentChips = (el: ChatbotChat) =>
    [...shadow(el).querySelectorAll('.user [part="attachment"] .name')].map((n) => n.textContent);
  const uploaded = (el: ChatbotChat) =>
    chips(el).length > 0 && !shadow(el).querySelector('form progress');

  function pick(el: ChatbotChat, ...files: File[]): void {
    const picker = shadow(el).querySelector<HTMLInputElement>('input[type="file"]')!;
    const transfer = new DataTransfer();
    for (const file of files) transfer.items.add(file);
    picker.files = transfer.files;
    picker.dispatchEvent(new Event('change'));
  }

  const notes = () =>
    new File(['The secret word of the bakery is marmalade.'], 'notes.txt', { type: 'text/plain' });

  it('should be off by default: no button, and a dropped file is not taken', async () => {
    const bot = await realChatbot();
    const el = await fixture<ChatbotChat>(html`<chatbot-chat
      base-url=${bot.baseUrl}
      api-key=${bot.apiKey}
      chatbot-uuid=${bot.chatbotUuid}
    ></chatbot-chat>`);
    await until(() => shadow(el).adoptedStyleSheets.length > 1, 'the lazily loaded chunk');
    expect(el.attachments).to.equal('off');
    expect(el.accept).to.equal('');
    expect(el.maxAttachmentSize).to.equal(0);
    expect(attachButton(el)).to.equal(null);
    const transfer = new DataTransfer();
    transfer.items.add(notes());
    const drop = new DragEvent('drop', {
      dataTransfer: transfer,
      bubbles: true,
      composed: true,
      cancelable: true,
    });
    shadow(el).querySelector('.log')!.dispatchEvent(drop);
    expect(drop.defaultPrevented).to.equal(false);
    expect(chips(el)).to.have.length(0);
  });

  it('should upload a picked file with a chip, send its uuid with the question and answer from it', async () => {
    const bot = await realChatbot();
    const el = await mount(bot);
    expect(attachButton(el)!.getAttribute('aria-label')).to.equal('Attach file');
    // A paperclip drawn in the text's colour, not an emoji some systems have no font for.
    const clip = attachButton(el)!.querySelector('svg');
    expect(clip?.getAttribute('stroke')).to.equal('currentColor');
    expect(clip!.getBoundingClientRect().width).to.be.greaterThan(10);
    expect(attachButton(el)!.textContent?.trim()).to.equal('');
    pick(el, notes());
    await el.updateComplete;
    expect(chips(el)[0]!.textContent).to.contain('notes.txt');
    expect(chips(el)[0]!.textContent).to.contain('43 B');
    await until(() => uploaded(el), 'upload finished');
    await expect(el).to.be.accessible();
    const finished = oneEvent(el, 'chatbot-answer-finished');
    await el.send('What is the secret word?');
    const { detail } = await finished;
    expect(detail.response).to.contain('marmalade');
    expect(chips(el), 'the chips went with the question').to.have.length(0);
    expect(sentChips(el)).to.deep.equal(['notes.txt']);
    const records = await bot.client.messages.list(el.sessionUuid);
    expect(records[0]!.session_documents).to.have.length(1);
    // A follow-up without re-attaching still reads the session's document.
    const again = oneEvent(el, 'chatbot-answer-finished');
    await el.send('Which word is the secret word?');
    expect((await again).detail.response).to.contain('marmalade');
  });

  it('should give the chips back with a question the server refuses (too long)', async () => {
    const bot = await realChatbot();
    const el = await mount(bot);
    pick(el, notes());
    await until(() => uploaded(el), 'upload finished');
    const errored = oneEvent(el, 'chatbot-error');
    void el.send(`${'word '.repeat(4001)}end`);
    await errored;
    await until(() => chips(el).length === 1, 'the chip back in the form');
    expect(chips(el)[0]!.textContent).to.contain('notes.txt');
    expect(userMessages(el)).to.deep.equal([]);
    const finished = oneEvent(el, 'chatbot-answer-finished');
    await el.send('What is the secret word?');
    expect((await finished).detail.response).to.contain('marmalade');
  });

  it('should show the sent chips again after a reload, from the transcript and from the service', async () => {
    const bot = await realChatbot();
    const first = await mount(bot);
    pick(first, notes());
    await until(() => uploaded(first), 'upload finished');
    await first.send('What is the secret word?');
    const session = first.sessionUuid;
    first.remove();
    const fromTranscript = await mount(bot);
    await until(() => sentChips(fromTranscript).length === 1, 'chips from the transcript');
    fromTranscript.remove();
    localStorage.clear();
    const fromService = await mount(bot, { session });
    await until(() => sentChips(fromService).length === 1, 'chips from the message records');
    expect(sentChips(fromService)).to.deep.equal(['notes.txt']);
  });

  it('should show the files a remembered question sent on a page that takes no attachments', async () => {
    const bot = await realChatbot();
    const first = await mount(bot);
    pick(first, notes());
    await until(() => uploaded(first), 'upload finished');
    await first.send('What is the secret word?');
    first.remove();
    // Another page of the same site, whose chat takes no attachments: same remembered conversation.
    const plain = await fixture<ChatbotChat>(html`<chatbot-chat
      base-url=${bot.baseUrl}
      api-key=${bot.apiKey}
      chatbot-uuid=${bot.chatbotUuid}
    ></chatbot-chat>`);
    await until(() => sentChips(plain).length === 1, 'the sent file under its question');
    expect(sentChips(plain)).to.deep.equal(['notes.txt']);
    expect(shadow(plain).querySelector('.user [part="attachments"]')?.ariaLabel).to.equal(
      'Attachments',
    );
    expect(attachButton(plain)).to.equal(null);
  });

  it('should refuse a file of another type or too large on its chip, keeping the typed text', async () => {
    const bot = await realChatbot();
    const el = await mount(bot, { max: 20 });
    input(el).value = 'my question';
    pick(el, new File(['MZ'], 'tool.exe', { type: 'application/x-msdownload' }), notes());
    await el.updateComplete;
    expect(chipErrors(el)).to.deep.equal([
      'This type of file cannot be attached (allowed: .txt, .md, .csv, .html, .pdf, .docx).',
      'This file is larger than 20 B.',
    ]);
    expect(input(el).value).to.equal('my question');
    await expect(el).to.be.accessible();
    // Removing a chip puts focus back in the textbox.
    shadow(el).querySelector<HTMLButtonElement>('[part="remove-attachment"]')!.click();
    await el.updateComplete;
    expect(chips(el)).to.have.length(1);
    expect(shadow(el).activeElement).to.equal(input(el));
  });

  it('should wrap a long file name beside its size and remove button on a narrow chat', async () => {
    const bot = await realChatbot();
    const el = await mount(bot);
    el.style.width = '320px';
    pick(el, new File(['MZ'], 'my-very-long-named-invoice-from-march-2026-final-v2.exe'));
    await el.updateComplete;
    const [chip] = chips(el);
    const box = (selector: string) => chip!.querySelector(selector)!.getBoundingClientRect();
    const name = box('.name');
    expect(name.height, 'the name takes more than one line').to.be.above(25);
    for (const part of ['.size', 'button']) {
      const { top, bottom } = box(part);
      expect((top + bottom) / 2, `${part} beside the name`).to.be.within(name.top, name.bottom);
    }
    expect(chip!.getBoundingClientRect().right).to.be.at.most(el.getBoundingClientRect().right);
  });

  it("should say in the chat's own words why the server refused a file, with its detail where it adds some", async () => {
    const bot = await realChatbot();
    const el = await mount(bot);
    el.accept = '.bin,.pdf';
    // The server takes no .bin: its words list what it takes, and only that list is kept.
    pick(el, new File(['\u0000\u0001'], 'data.bin', { type: 'application/octet-stream' }));
    await until(() => chipErrors(el).length === 1, 'the type refused');
    expect(chipErrors(el)[0]).to.match(
      /^This type of file cannot be attached \(allowed: \.txt, [.a-z, ]+\)\.$/,
    );
    // A file the server cannot read: its reason is the detail only it knows.
    pick(el, new File(['hello'], 'scan.pdf', { type: 'application/pdf' }));
    await until(() => chipErrors(el).length === 2, 'the unreadable file refused');
    expect(chipErrors(el)[1]).to.match(
      /^This file could not be uploaded: scan\.pdf could not be read/,
    );
    await expect(el).to.be.accessible();
  });

  it("should say the server's limit for a file it refused as too large", async () => {
    const bot = await realChatbot();
    // The element allows more than the reference server's default 10 MiB.
    const el = await mount(bot, { max: 20 * 1024 * 1024 });
    pick(el, new File([new Uint8Array(10 * 1024 * 1024 + 1)], 'big.txt', { type: 'text/plain' }));
    await until(() => chipErrors(el).length === 1, 'the refusal');
    expect(chipErrors(el)).to.deep.equal(['This file is larger than 10 MB.']);
    await expect(el).to.be.accessible();
  });

  for (const [status, serverMessage, english, german] of [
    [
      // The reference server's words: its limit, said in the chat's language.
      413,
      'the file is larger than 1572864 bytes',
      'This file is larger than 1.5 MB.',
      'Diese Datei ist größer als 1,5 MB.',
    ],
    [
      // Another service's (or a proxy's): no limit the chat can trust, nor raw words to show.
      413,
      'Request Entity Too Large',
      'This file is too large for the chat service.',
      'Diese Datei ist zu groß für den Chat-Dienst.',
    ],
    [
      503,
      'upstream unavailable',
      'The chat service had a problem with this file (503). Remove it and try again later.',
      'Der Chat-Dienst hatte ein Problem mit dieser Datei (503). Entfernen Sie sie und versuchen Sie es später erneut.',
    ],
  ] as const) {
    it(`should word a ${status} from the upload ("${serverMessage}") as the chat's own, in English and German`, async () => {
      const bot = await realChatbot();
      const el = await mount(bot);
      const full = createClient({ baseUrl: bot.baseUrl, apiKey: bot.apiKey });
      full.sessions.uploadDocument = async () => {
        throw new ApiError({
          request: { method: 'POST', path: '/api/v1/session-document/upload' },
          status,
          serverMessage,
        });
      };
      el.client = full;
      pick(el, notes());
      await until(() => chipErrors(el).length === 1, 'the refusal');
      expect(chipErrors(el)).to.deep.equal([english]);
      el.lang = 'de';
      pick(el, notes());
      await until(() => chipErrors(el).length === 2, 'the refusal in German');
      expect(chipErrors(el)[1]).to.equal(german);
    });
  }

  const note = (el: ChatbotChat) =>
    shadow(el).querySelector<HTMLElement>('[part="attachments-wait"]')?.textContent?.trim();
  const sendButton = (el: ChatbotChat) =>
    shadow(el).querySelector<HTMLButtonElement>('button[type="submit"]')!;

  it('should tell the reader a failed file will not go before sending without it, the text kept', async () => {
    const bot = await realChatbot();
    const el = await mount(bot);
    el.accept = '.bin,.txt';
    pick(el, new File(['\u0000\u0001'], 'data.bin', { type: 'application/octet-stream' }), notes());
    await until(() => chipErrors(el).length === 1 && uploaded(el), 'one refused, one uploaded');
    input(el).value = 'What is the secret word?';
    sendButton(el).click();
    await el.updateComplete;
    expect(userMessages(el), 'not sent yet').to.deep.equal([]);
    expect(input(el).value).to.equal('What is the secret word?');
    expect(note(el)).to.equal(
      'Your question would be sent without data.bin (not uploaded). Send again to send it anyway.',
    );
    const shown = shadow(el).querySelector<HTMLElement>('[part="attachments-wait"]')!;
    expect(shown.checkVisibility(), 'shown, not only announced').to.equal(true);
    expect(shown.parentElement!.getAttribute('role')).to.equal('alert');
    await expect(el).to.be.accessible();
    // Asked again: it goes, with the file that did upload.
    const finished = oneEvent(el, 'chatbot-answer-finished');
    sendButton(el).click();
    expect((await finished).detail.response).to.contain('marmalade');
    expect(userMessages(el)[0]).to.match(/^What is the secret word\?/);
    expect(sentChips(el)).to.deep.equal(['notes.txt']);
    expect(chips(el)).to.deep.equal([]);
    expect(note(el)).to.equal(undefined);
  });

  it('should send at once once the failed file is removed', async () => {
    const bot = await realChatbot();
    const el = await mount(bot);
    el.accept = '.bin';
    pick(el, new File(['\u0000\u0001'], 'data.bin', { type: 'application/octet-stream' }));
    await until(() => chipErrors(el).length === 1, 'the refusal');
    input(el).value = 'When is the bakery open?';
    sendButton(el).click();
    await el.updateComplete;
    expect(note(el)).to.contain('data.bin');
    shadow(el).querySelector<HTMLButtonElement>('[part="remove-attachment"]')!.click();
    await el.updateComplete;
    expect(note(el), 'nothing left to say').to.equal(undefined);
    const finished = oneEvent(el, 'chatbot-answer-finished');
    sendButton(el).click();
    await finished;
    expect(userMessages(el)).to.deep.equal(['When is the bakery open?']);
  });

  it('should hold the question back while a file uploads, say so beside the textbox, and send it once uploaded', async () => {
    const bot = await realChatbot();
    const el = await mount(bot);
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const full = createClient({ baseUrl: bot.baseUrl, apiKey: bot.apiKey });
    const upload = full.sessions.uploadDocument;
    full.sessions.uploadDocument = async (file, options) => {
      await held;
      return upload(file, options);
    };
    el.client = full;
    pick(el, notes());
    await el.updateComplete;
    // The region that will say it is there, empty, before it has to: a screen reader announces
    // text put into a live region it knows, not one inserted with its text.
    const region = shadow(el).querySelector<HTMLElement>('form [role="status"]')!;
    expect(region.textContent!.trim()).to.equal('');
    input(el).value = 'What is the secret word?';
    shadow(el).querySelector<HTMLButtonElement>('button[type="submit"]')!.click();
    await el.updateComplete;
    expect(userMessages(el)).to.deep.equal([]);
    expect(shadow(el).querySelector('form [role="status"]')).to.equal(region);
    const wait = region.querySelector<HTMLElement>('[part="attachments-wait"]');
    expect(wait?.textContent?.trim()).to.equal(
      'Your question will be sent once the files are uploaded.',
    );
    expect(wait!.checkVisibility(), 'shown, not only announced').to.equal(true);
    expect(input(el).value).to.equal('What is the secret word?');
    release();
    // Sent by itself once the file is there, with it.
    await until(() => userMessages(el).length === 1, 'the question sent');
    expect(userMessages(el)[0]).to.match(/^What is the secret word\?/);
    expect(sentChips(el)).to.deep.equal(['notes.txt']);
    expect(shadow(el).querySelector('[part="attachments-wait"]')).to.equal(null);
    await oneEvent(el, 'chatbot-answer-finished');
    // The status region still announces what it should afterwards.
    const copy = () =>
      [...shadow(el).querySelectorAll<HTMLButtonElement>('button')].find(
        (b) => (b.getAttribute('aria-label') ?? b.textContent)?.trim() === 'Copy answer',
      );
    await until(copy, 'Copy answer');
    copy()!.click();
    await until(
      () =>
        /Copied|Could not copy/.test(
          shadow(el).querySelector('.visually-hidden[role="status"]')!.textContent!,
        ),
      'the copy announced',
    );
  });

  it("should not send by itself when a file it waited for fails, and say so plainly in the reader's language", async () => {
    const bot = await realChatbot();
    const el = await mount(bot);
    el.lang = 'de';
    const full = createClient({ baseUrl: bot.baseUrl, apiKey: bot.apiKey, retry: false });
    let fail!: () => void;
    const failing = new Promise<void>((resolve) => {
      fail = resolve;
    });
    // Nothing listens on port 9 of this machine: the upload meets a refused connection.
    const unreachable = createClient({ baseUrl: 'http://127.0.0.1:9', apiKey: bot.apiKey });
    full.sessions.uploadDocument = async (file, options) => {
      await failing;
      return unreachable.sessions.uploadDocument(file, options);
    };
    el.client = full;
    pick(el, notes());
    await el.updateComplete;
    input(el).value = 'Was ist das geheime Wort?';
    shadow(el).querySelector<HTMLButtonElement>('button[type="submit"]')!.click();
    await until(() => shadow(el).querySelector('[part="attachments-wait"]'), 'waiting');
    fail();
    await until(() => chipErrors(el).length === 1, 'the failure on its chip');
    expect(chipErrors(el)).to.deep.equal([
      'Die Verbindung wurde beim Hochladen dieser Datei unterbrochen. Entfernen Sie sie und hängen Sie sie erneut an.',
    ]);
    expect(userMessages(el)).to.deep.equal([]);
    expect(input(el).value).to.equal('Was ist das geheime Wort?');
    // Told at once what a second Send would do, not left to wonder why nothing went.
    expect(note(el)).to.equal(
      'Ihre Frage würde ohne notes.txt gesendet (nicht hochgeladen). Senden Sie erneut, um sie trotzdem zu senden.',
    );
  });

  it('should take a dropped and a pasted file, and leave pasted text to the textbox', async () => {
    const bot = await realChatbot();
    const el = await mount(bot);
    const dropped = new DataTransfer();
    dropped.items.add(notes());
    const over = new DragEvent('dragover', {
      dataTransfer: dropped,
      bubbles: true,
      composed: true,
      cancelable: true,
    });
    shadow(el).querySelector('.log')!.dispatchEvent(over);
    expect(over.defaultPrevented, 'dragover accepted').to.equal(true);
    const drop = new DragEvent('drop', {
      dataTransfer: dropped,
      bubbles: true,
      composed: true,
      cancelable: true,
    });
    shadow(el).querySelector('.log')!.dispatchEvent(drop);
    expect(drop.defaultPrevented).to.equal(true);
    const pasted = new DataTransfer();
    pasted.items.add(new File(['# Cakes'], 'cakes.md', { type: 'text/markdown' }));
    const paste = new ClipboardEvent('paste', {
      clipboardData: pasted,
      bubbles: true,
      composed: true,
      cancelable: true,
    });
    input(el).dispatchEvent(paste);
    expect(paste.defaultPrevented).to.equal(true);
    const text = new DataTransfer();
    text.setData('text/plain', 'hello');
    const pasteText = new ClipboardEvent('paste', {
      clipboardData: text,
      bubbles: true,
      composed: true,
      cancelable: true,
    });
    input(el).dispatchEvent(pasteText);
    expect(pasteText.defaultPrevented).to.equal(false);
    await el.updateComplete;
    expect(chips(el).map((chip) => chip.querySelector('.name')!.textContent)).to.deep.equal([
      'notes.txt',
      'cakes.md',
    ]);
  });

  // Last: a service without the route turns attachments off for the page's life.
  it('should say attachments are not available and hide the button when the service answers 404', async () => {
    const bot = await realChatbot();
    const el = await mount(bot);
    const full = createClient({ baseUrl: bot.baseUrl, apiKey: bot.apiKey });
    full.sessions.uploadDocument = async () => {
      throw new ApiError({
        request: { method: 'POST', path: '/api/v1/session-document/upload' },
        status: 404,
        serverMessage: 'not found',
      });
    };
    el.client = full;
    input(el).value = 'kept';
    pick(el, notes());
    await until(() => chipErrors(el).length === 1, 'the refusal');
    expect(chipErrors(el)).to.deep.equal(['Attachments are not available here.']);
    expect(attachButton(el)).to.equal(null);
    expect(input(el).value).to.equal('kept');
  });
});
