import { html, nothing } from 'lit';
import { StringsController } from '../ui/strings-controller.js';
import type { AnswerExtras } from './answer-extras.js';
import type { MarkdownViewOptions } from './markdown.js';
import type { withListed } from './transcript-merge.js';

/** One answer on screen: `update(text)` takes the whole text so far, `finish()` closes it. */
export interface AnswerView {
  readonly root: HTMLElement;
  update(text: string): void;
  finish(): void;
  /** The start of the answer as plain text, for announcements. */
  readonly plainText: string;
}

export type CreateView = (options: MarkdownViewOptions) => AnswerView;

let created: CreateView | undefined;
let extras: typeof AnswerExtras | undefined;
let merge: typeof withListed | undefined;
let loading: Promise<CreateView> | undefined;
let address: string | undefined;

/** What makes answer views, once `loadRenderer()` has settled; undefined before. */
export function answerViews(): CreateView | undefined {
  return created;
}

/**
 * What makes an element's answer extras (sources, ratings…), once `loadRenderer()` has loaded
 * the chunk; undefined before, and for good when it could not be loaded.
 */
export function answerExtras(): typeof AnswerExtras | undefined {
  return extras;
}

/**
 * What merges the service's list of messages into the remembered exchanges, once
 * `loadRenderer()` has loaded the chunk; undefined before, and for good when it could not be
 * loaded (the remembered transcript then stays as it is).
 */
export function transcriptMerge(): typeof withListed | undefined {
  return merge;
}

/**
 * Loads the renderer from `url` instead of beside this module. The embed needs it: a classic
 * script from another origin resolves a relative `import()` against about:blank, so it passes
 * the absolute address beside its own.
 */
export function loadRendererFrom(url: string): void {
  address = url;
}

/**
 * Loads the markdown renderer: marked and DOMPurify are more than half of the chat's code, and
 * a page whose launcher is never opened never needs them, so they are a file of their own
 * (`chatbot-markdown.js`, beside the element's file in `dist/`), together with everything else
 * that shows only once an answer exists (answer-chunk.ts). Loaded once per page. If it cannot
 * be loaded (the file was not deployed beside the element, or a cross-origin host does not
 * allow it), answers show as plain text: readable, and still never HTML, but without their
 * sources list, rating controls, copy buttons for code or a refusal's topics as buttons (its
 * text lists them).
 */
export function loadRenderer(): Promise<CreateView> {
  loading ??= load().then((create) => {
    created = create;
    return create;
  });
  return loading;
}

async function load(): Promise<CreateView> {
  try {
    const chunk: typeof import('./answer-chunk.js') = address
      ? await import(/* @vite-ignore */ address)
      : await import('./answer-chunk.js');
    chunk.useLit({ html, nothing, Strings: StringsController });
    extras = chunk.AnswerExtras;
    merge = chunk.withListed;
    return (options) => new chunk.MarkdownView(options);
  } catch (error) {
    console.warn(
      'chatbot-chat: chatbot-markdown.js (beside the element) did not load; answers show as plain text.',
      error,
    );
    return () => new PlainView();
  }
}

class PlainView implements AnswerView {
  readonly root = document.createElement('div');

  constructor() {
    this.root.className = 'markdown plain';
  }

  update(text: string): void {
    this.root.textContent = text;
  }

  finish(): void {}

  get plainText(): string {
    return (this.root.textContent ?? '').slice(0, 240);
  }
}
