import type { ReactiveElement } from 'lit';
import type { Message } from '../api/types.js';
import { lazyTab } from './lazy-tab.js';

let markdown: typeof import('./transcript-markdown.js') | undefined;

const loadMarkdown = lazyTab("the transcript's markdown", () =>
  import('./transcript-markdown.js').then((module) => {
    markdown = module;
  }),
);

/**
 * A transcript's answers as the visitor saw them, in markdown: what draws them is fetched the
 * first time a transcript shows an answer (transcript-markdown.ts), so a dashboard that never
 * opens one never loads it. Until it is here, and for good if it cannot be fetched, an answer
 * is its raw text.
 */
export class TranscriptAnswers {
  /** By record: a transcript loaded again is drawn again, a closed one is let go. */
  private readonly views = new WeakMap<Message, HTMLElement>();
  /** The quoted passages of each record's citations, by citation number. */
  private readonly passages = new WeakMap<Message, Map<string, HTMLElement>>();
  private asked = false;

  constructor(private readonly host: ReactiveElement) {}

  /** The answer of `message`: rendered once the renderer is here, its raw text until then. */
  render(message: Message): HTMLElement | string {
    if (!this.ready()) return message.response;
    let root = this.views.get(message);
    if (!root) {
      root = markdown!.renderAnswer(message);
      this.views.set(message, root);
    }
    return root;
  }

  /**
   * The passage citation `n` of `message` quoted from its source (`text`): a source's own
   * markdown, drawn as the answer is, or its raw text until the renderer is here.
   */
  passage(message: Message, n: string, text: string): HTMLElement | string {
    if (!this.ready()) return text;
    let drawn = this.passages.get(message);
    if (!drawn) {
      drawn = new Map();
      this.passages.set(message, drawn);
    }
    let root = drawn.get(n);
    if (!root) {
      root = markdown!.renderPassage(text);
      drawn.set(n, root);
    }
    return root;
  }

  /** Whether the renderer is here; asks for it, once, when it is not. */
  private ready(): boolean {
    if (!markdown) {
      if (!this.asked) {
        this.asked = true;
        // A chunk that does not arrive has been reported once: the raw text stays.
        loadMarkdown().then(
          () => this.host.requestUpdate(),
          () => {},
        );
      }
      return false;
    }
    markdown.adoptStyles(this.host.renderRoot as ShadowRoot);
    return true;
  }
}
