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
  private asked = false;

  constructor(private readonly host: ReactiveElement) {}

  /** The answer of `message`: rendered once the renderer is here, its raw text until then. */
  render(message: Message): HTMLElement | string {
    if (!markdown) {
      if (!this.asked) {
        this.asked = true;
        // A chunk that does not arrive has been reported once: the raw text stays.
        loadMarkdown().then(
          () => this.host.requestUpdate(),
          () => {},
        );
      }
      return message.response;
    }
    markdown.adoptStyles(this.host.renderRoot as ShadowRoot);
    let root = this.views.get(message);
    if (!root) {
      root = markdown.renderAnswer(message);
      this.views.set(message, root);
    }
    return root;
  }
}
