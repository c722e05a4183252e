import type { ReactiveController } from 'lit';
import type { ChatbotClient } from '../api/client.js';
import { isApiError, isMissingRoute } from '../api/errors.js';
import { documentsApi } from '../api/resources/documents.js';
import { createTransport } from '../api/transport.js';
import type { SessionDocument } from '../api/types.js';
import { formatSize } from '../ui/format-size.js';
import { fill } from '../ui/i18n.js';
import { type AttachmentStrings, attachmentStrings } from '../ui/strings/chat.js';
import type { StringsController, StringsHost } from '../ui/strings-controller.js';
import { html, nothing, Strings } from './lazy-lit.js';
import type { SentDocument } from './transcript-store.js';

/**
 * The attach button's paperclip, drawn in the text's colour: the emoji it was is an empty box on
 * a system without an emoji font. Path from Lucide (lucide-static 1.62, ISC licence). Made when
 * drawn: `html` is the element's, handed over once the chunk has loaded (lazy-lit.ts).
 */
const paperclip = () =>
  html`<svg viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true" focusable="false"><path d="m16 6-8.414 8.586a2 2 0 0 0 2.829 2.829l8.414-8.586a4 4 0 1 0-5.657-5.657l-8.379 8.551a6 6 0 1 0 8.485 8.485l8.379-8.551" /></svg>`;

/** The types the reference server extracts text from (as for data sources). */
export const DEFAULT_ACCEPT = '.txt,.md,.csv,.html,.pdf,.docx';
/** The reference server's default limit (CHATBOT_DOCUMENT_MAX_BYTES). */
export const DEFAULT_MAX_SIZE = 10 * 1024 * 1024;

export type AttachmentsHost = StringsHost<AttachmentStrings> &
  HTMLElement & {
    attachments: 'on' | 'off';
    accept: string;
    maxAttachmentSize: number;
    baseUrl: string;
    apiKey: string;
    client?: ChatbotClient;
    readonly renderRoot: HTMLElement | DocumentFragment;
  };

interface Attachment {
  readonly id: number;
  readonly file: File;
  /** 0 to 1 while uploading. */
  progress: number;
  document?: SessionDocument;
  error?: string;
  readonly abort: AbortController;
}

const uploading = (item: Attachment) => !item.document && !item.error;

/**
 * Why an upload failed, in the chat's words and language: by its cause, with the server's own
 * words only where they tell what ours cannot (a file it could not read, a limit on uploads).
 */
export function refusal(error: unknown, strings: AttachmentStrings, language: string): string {
  if (!isApiError(error)) return strings.attachLost;
  const { status, serverMessage } = error;
  if (isMissingRoute(error)) return strings.attachUnavailable;
  if (status === 415) {
    // The reference server lists the extensions it takes, which need no translating.
    const types = /\(allowed: ([^)]+)\)/.exec(serverMessage)?.[1];
    return types ? fill(strings.attachType, { types: listed(types) }) : strings.attachTypeRefused;
  }
  if (status === 413) {
    // The reference server names its limit in these words: only the number is shown, in the
    // chat's language. Another service's words (a proxy's error page) are not for the visitor,
    // and the element's own limit is not the service's (the file was within it): no limit then.
    const max = /^the file is larger than (\d+) bytes$/.exec(serverMessage)?.[1];
    return max
      ? fill(strings.attachSize, { max: formatSize(+max, language) })
      : strings.attachTooLarge;
  }
  if (status === 408 || status >= 500) return fill(strings.attachServer, { status });
  return fill(strings.attachFailed, { detail: serverMessage });
}

/** An `accept` list as a reader reads a list: ".txt, .md, .csv". */
const listed = (types: string) =>
  types
    .split(',')
    .map((type) => type.trim())
    .filter(Boolean)
    .join(', ');

/** Once the service has answered an upload 404 or 405, attachments stay off for the page's life. */
let unavailable = false;
let counter = 0;

/** Whether `file` matches an `accept` list (extensions, `type/*`, `type/sub`), as the picker does. */
export function accepts(accept: string, file: File): boolean {
  const name = file.name.toLowerCase();
  const type = file.type.toLowerCase();
  return accept
    .split(',')
    .map((entry) => entry.trim().toLowerCase())
    .some((entry) =>
      entry.startsWith('.')
        ? name.endsWith(entry)
        : entry.endsWith('/*')
          ? type.startsWith(entry.slice(0, -1))
          : entry !== '' && type === entry,
    );
}

/**
 * The files a reader attaches to the next question (`attachments="on"`): picked with the
 * "Attach file" button, dropped onto the panel or pasted into it. Each is checked against
 * `accept` and `max-attachment-size`, uploaded at once with its progress on its chip, and sent
 * with the question as `session_document_uuids`. A refused file says why on its chip and never
 * touches the typed text. A lazily loaded file of its own (attachments-chunk.ts): a chat without
 * attachments never loads any of it.
 */
export class AttachmentsController implements ReactiveController {
  items: Attachment[] = [];
  /** The chips of the last question sent, until the next one. */
  #sent: Attachment[] = [];
  /** A question was sent while files uploaded: it goes out once they are in (see `settled`). */
  #waiting = false;
  /**
   * The failed files the reader was told would not go with the question: sent again, it goes
   * without them. A file that fails later is told of in its turn.
   */
  #told: Attachment[] = [];
  readonly #i18n: StringsController<AttachmentStrings>;

  readonly #host: AttachmentsHost;

  constructor(host: AttachmentsHost) {
    this.#host = host;
    this.#i18n = new Strings(host, attachmentStrings);
    host.addController(this);
  }

  get enabled(): boolean {
    return this.#host.attachments === 'on' && !unavailable;
  }

  hostConnected(): void {
    this.#host.addEventListener('dragover', this.#handleDragOver);
    this.#host.addEventListener('dragleave', this.#handleDragLeave);
    this.#host.addEventListener('drop', this.#handleDrop);
    this.#host.addEventListener('paste', this.#handlePaste);
  }

  hostDisconnected(): void {
    this.#host.removeEventListener('dragover', this.#handleDragOver);
    this.#host.removeEventListener('dragleave', this.#handleDragLeave);
    this.#host.removeEventListener('drop', this.#handleDrop);
    this.#host.removeEventListener('paste', this.#handlePaste);
  }

  /**
   * What goes with the next question: the uploaded documents (undefined when none), or `null`
   * to hold it back (the textbox keeps it): while an upload is still running (it goes by itself
   * once they are in), or when a file failed that the reader has not been told would stay
   * behind (a second Send sends without it).
   */
  documents(): SentDocument[] | null | undefined {
    if (!this.enabled) return undefined;
    if (this.items.some(uploading)) {
      this.#waiting = true;
      this.#host.requestUpdate();
      return null;
    }
    if (this.#tell()) return null;
    const sent = this.items.flatMap(({ document }) =>
      document ? [{ uuid: document.uuid, filename: document.filename, size: document.size }] : [],
    );
    return sent.length ? sent : undefined;
  }

  /**
   * Says which failed files would not go with the question, unless the reader has heard it
   * about each already; whether it had to.
   */
  #tell(): boolean {
    const failed = this.items.filter((item) => item.error);
    if (failed.every((item) => this.#told.includes(item))) return false;
    this.#told = failed;
    this.#host.requestUpdate();
    return true;
  }

  /** The question went out: its chips move to the message. */
  clear(): void {
    this.#told = [];
    if (!this.items.length) return;
    this.#sent = this.items;
    this.items = [];
    this.#host.requestUpdate();
  }

  /** The service refused the question they went with: its chips come back, unless new ones came. */
  restore(): void {
    this.#told = [];
    if (this.items.length || !this.#sent.length) return;
    this.items = this.#sent;
    this.#sent = [];
    this.#host.requestUpdate();
  }

  add(files: Iterable<File>): void {
    if (!this.enabled) return;
    const { accept, maxAttachmentSize } = this.#host;
    const strings = this.#i18n.value;
    for (const file of files) {
      const item: Attachment = {
        id: ++counter,
        file,
        progress: 0,
        abort: new AbortController(),
      };
      const types = accept || DEFAULT_ACCEPT;
      const max = maxAttachmentSize > 0 ? maxAttachmentSize : DEFAULT_MAX_SIZE;
      if (!accepts(types, file)) item.error = fill(strings.attachType, { types: listed(types) });
      else if (file.size > max) {
        item.error = fill(strings.attachSize, { max: formatSize(max, this.#i18n.language) });
      }
      this.items = [...this.items, item];
      if (!item.error) void this.#upload(item);
    }
    this.#host.requestUpdate();
  }

  async #upload(item: Attachment): Promise<void> {
    const host = this.#host;
    try {
      const upload =
        host.client?.sessions.uploadDocument ??
        documentsApi(createTransport({ baseUrl: host.baseUrl, apiKey: host.apiKey }))
          .uploadDocument;
      item.document = await upload(item.file, {
        signal: item.abort.signal,
        onProgress: ({ loaded, total }) => {
          item.progress = total ? loaded / total : 0;
          host.requestUpdate();
        },
      });
    } catch (error) {
      if (item.abort.signal.aborted) return;
      if (isMissingRoute(error)) unavailable = true;
      item.error = refusal(error, this.#i18n.value, this.#i18n.language);
    }
    host.requestUpdate();
    this.#settled();
  }

  /**
   * A question waiting for uploads goes out once none is left, through the composer, so it is
   * what the textbox holds then; not when one failed: the reader is told, and decides.
   */
  #settled(): void {
    if (!this.#waiting || this.items.some(uploading)) return;
    this.#waiting = false;
    this.#host.requestUpdate();
    if (!this.#tell()) {
      this.#host.renderRoot
        .querySelector<HTMLFormElement>('form[part="composer"]')
        ?.requestSubmit();
    }
  }

  #remove(item: Attachment): void {
    item.abort.abort();
    this.items = this.items.filter((other) => other !== item);
    this.#told = this.#told.filter((other) => other !== item);
    this.#host.requestUpdate();
    this.#host.renderRoot.querySelector<HTMLElement>('textarea')?.focus();
    this.#settled();
  }

  /**
   * The button and the chips, at the start of the composer. The button goes once the service
   * turned out to have no uploads; chips already there stay to say so.
   */
  render(): unknown {
    if (this.#host.attachments !== 'on') return nothing;
    const strings = this.#i18n.value;
    // The live regions are there, empty, before they have anything to say: a screen reader
    // announces text put into a region it already knows, not a region inserted with its text.
    // An alert for a Send that did not send, a status for one that will, once the files are in.
    return html`<div class="attach-notes" role="status">${
      this.#waiting
        ? html`<p class="attach-wait" part="attachments-wait">${strings.attachWait}</p>`
        : nothing
    }</div><div class="attach-notes" role="alert">${
      !this.#waiting && this.#told.length
        ? html`<p class="attach-wait" part="attachments-wait">${fill(strings.attachUnsent, { names: this.#told.map((item) => item.file.name).join(', ') })}</p>`
        : nothing
    }</div>${
      this.items.length
        ? html`<ul class="chips" part="attachments" aria-label=${strings.attachments}>
          ${this.items.map((item) => this.#renderChip(item, strings))}
        </ul>`
        : nothing
    }${
      unavailable
        ? nothing
        : html`<input type="file" multiple hidden accept=${this.#host.accept || DEFAULT_ACCEPT} @change=${this.#handleChange} />
          <button type="button" class="attach" part="attach-button" aria-label=${strings.attach} title=${strings.attach} @click=${this.#handleAttachClick}>${paperclip()}</button>`
    }`;
  }

  #renderChip(item: Attachment, strings: AttachmentStrings): unknown {
    const { name, size } = item.file;
    return html`<li class="chip" part="attachment">
      <span class="name">${name}</span>
      <span class="size">${formatSize(size, this.#i18n.language)}</span>
      ${
        uploading(item)
          ? html`<progress max="1" .value=${item.progress} aria-label=${fill(strings.uploading, { name })}></progress>`
          : nothing
      }
      <button type="button" part="remove-attachment" aria-label=${fill(strings.removeAttachment, { name })} @click=${() => this.#remove(item)}>✕</button>
      ${item.error ? html`<span class="chip-error" part="attachment-error" role="alert">${item.error}</span>` : nothing}
    </li>`;
  }

  // --- handlers ------------------------------------------------------------------------------

  #handleAttachClick = (event: Event): void => {
    const button = event.currentTarget as HTMLElement;
    button.parentElement?.querySelector<HTMLInputElement>('input[type="file"]')?.click();
  };

  #handleChange = (event: Event): void => {
    const input = event.currentTarget as HTMLInputElement;
    this.add(input.files ?? []);
    // The same file picked again after a remove is a change too.
    input.value = '';
  };

  #dragging(on: boolean): void {
    this.#host.renderRoot.querySelector('.panel')?.classList.toggle('dragging', on);
  }

  #handleDragOver = (event: DragEvent): void => {
    if (!this.enabled || !event.dataTransfer?.types.includes('Files')) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
    this.#dragging(true);
  };

  #handleDragLeave = (): void => this.#dragging(false);

  #handleDrop = (event: DragEvent): void => {
    this.#dragging(false);
    const files = event.dataTransfer?.files;
    if (!this.enabled || !files?.length) return;
    event.preventDefault();
    this.add(files);
  };

  /** A pasted file is attached; pasted text goes into the textbox as ever. */
  #handlePaste = (event: ClipboardEvent): void => {
    const files = event.clipboardData?.files;
    if (!this.enabled || !files?.length) return;
    event.preventDefault();
    this.add(files);
  };
}
