import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { type AnswerView, answerViews, loadRenderer } from './renderer.js';
import type { Exchange } from './transcript-store.js';

/**
 * How long one task may spend rendering a remembered conversation's markdown (the newest
 * exchanges when it loads, then older ones a task at a time): well under a long task.
 */
const REVEAL_BUDGET_MS = 8;
/**
 * Exchanges shown at once when a conversation loads, however long their markdown takes. One: a
 * long answer fills the log by itself, and short ones come several to the task's budget anyway.
 * Three made the mount task, the longest of a restore, about 10 ms longer.
 */
const FIRST_EXCHANGES = 1;
/**
 * Newer exchanges a replaced conversation may add below those shown, all drawn in one task (an
 * answer another chat got is one); past this, as many of the newest are shown as before.
 */
const NEWER_AT_ONCE = 4;

export interface AnswerViewsOptions {
  /** The conversation, oldest first. */
  exchanges(): readonly Exchange[];
  /** The label of a code block's copy button. */
  copyCodeLabel(): string;
  /** Whether the host shows the conversation now (inline, or an open launcher). */
  visible(): boolean;
  /**
   * Called before older exchanges appear above the shown ones; what it returns is called once
   * they are in (see `FollowController.keepPlace`).
   */
  keepPlace?(): () => void;
}

/**
 * The rendered answers: it loads the markdown renderer when the conversation is (or is about to
 * be) on screen, keeps one view per exchange, and shows a long remembered conversation newest
 * first, adding older exchanges a short task at a time so that loading it is never one long task.
 */
export class AnswerViewsController implements ReactiveController {
  readonly #views = new Map<string, AnswerView>();
  /** Exchanges before this index are not rendered yet (see `prepare`). */
  #from = 0;
  #revealTimer?: ReturnType<typeof setTimeout>;
  #idle?: () => void;
  /** `load()` is waiting for the renderer to show what waited for it. */
  #awaiting = false;
  #connected = false;

  readonly #host: ReactiveControllerHost;
  readonly #options: AnswerViewsOptions;

  constructor(host: ReactiveControllerHost, options: AnswerViewsOptions) {
    this.#host = host;
    this.#options = options;
    host.addController(this);
  }

  /** The exchanges to render: the newest, down to as far as the reveal has come. */
  get shown(): readonly Exchange[] {
    return this.#options.exchanges().slice(this.#from);
  }

  hostConnected(): void {
    this.#connected = true;
    // A launcher that is never opened never needs the renderer; an inline chat soon will.
    if (this.#options.visible()) this.load();
    this.#scheduleReveal();
  }

  hostUpdate(): void {
    if (this.#options.visible()) this.load();
  }

  hostDisconnected(): void {
    this.#connected = false;
    clearTimeout(this.#revealTimer);
    this.#revealTimer = undefined;
    this.#idle?.();
    this.#idle = undefined;
  }

  /**
   * Loads the markdown renderer unless it is there; then shows the remembered exchanges that
   * waited for it and the answers that came meanwhile. A handler: a launcher calls it on hover.
   */
  readonly load = (): void => {
    // Asked for again on every hover, focus and send while it loads: one wait is enough.
    if (answerViews() || this.#awaiting) return;
    this.#awaiting = true;
    void loadRenderer().then(() =>
      // A task of its own: the renderer's module has just run in this one.
      setTimeout(() => {
        this.showNewest(this.#from);
        this.#host.requestUpdate();
      }),
    );
  };

  /**
   * A remembered conversation is there: the renderer comes now if it shows, or while the page
   * idles if it is behind a closed launcher (a returning visitor's, likely to be opened, and then
   * it should show at once).
   */
  expect(): void {
    if (this.#options.visible()) {
      this.load();
      return;
    }
    if (this.#idle || answerViews()) return;
    const done = () => {
      this.#idle = undefined;
      this.load();
    };
    // Safari has no requestIdleCallback.
    if (typeof requestIdleCallback === 'function') {
      const id = requestIdleCallback(done, { timeout: 2_000 });
      this.#idle = () => cancelIdleCallback(id);
    } else {
      const id = setTimeout(done, 1_000);
      this.#idle = () => clearTimeout(id);
    }
  }

  /** The exchange's answer view; undefined while the renderer loads. */
  viewFor(exchange: Exchange): AnswerView | undefined {
    let view = this.#views.get(exchange.id);
    const create = answerViews();
    if (!view && create) {
      view = create({
        citations: () => exchange.citations,
        offered: () => exchange.suggestions,
        copyCodeLabel: () => this.#options.copyCodeLabel(),
        idPrefix: exchange.id,
      });
      if (exchange.response) {
        view.update(exchange.response);
        if (exchange.state !== 'pending' && exchange.state !== 'streaming') view.finish();
      }
      this.#views.set(exchange.id, view);
    }
    return view;
  }

  /** Drops the view of an exchange that has left the conversation. */
  forget(id: string): void {
    this.#views.delete(id);
  }

  /** Drops every view, for a conversation that starts over or is loaded anew. */
  clear(): void {
    this.#views.clear();
    this.#from = 0;
    clearTimeout(this.#revealTimer);
    this.#revealTimer = undefined;
  }

  /** Shows the newest exchanges before `from` that a short task allows; older ones follow. */
  showNewest(from = this.#options.exchanges().length): void {
    this.#from = this.#prepare(from, FIRST_EXCHANGES);
    this.#host.requestUpdate();
    this.#scheduleReveal();
  }

  /**
   * The conversation changed from `before` to the current one (the server's list replaced the
   * remembered one, or another chat's save was followed): answers whose text is the same keep
   * their rendered markdown, and the exchanges shown stay shown, newer ones below them; when
   * the first of them is gone, or too many came after them, as many of the newest.
   */
  replaced(before: readonly Exchange[]): void {
    const after = this.#options.exchanges();
    const was = new Map(before.map((e) => [e.id, e.response]));
    const now = new Map(after.map((e) => [e.id, e.response]));
    for (const id of [...this.#views.keys()]) {
      if (!now.has(id) || was.get(id) !== now.get(id)) this.#views.delete(id);
    }
    const shown = before.length - this.#from;
    const first = after.findIndex((e) => e.id === before[this.#from]?.id);
    this.#from =
      first >= 0 && after.length - first - shown <= NEWER_AT_ONCE
        ? first
        : Math.max(0, after.length - shown);
    this.#host.requestUpdate();
    this.#scheduleReveal();
  }

  /**
   * Renders the markdown of the exchanges before `from`, newest first, while a short task allows
   * (and at least `least` of them); returns the index of the oldest one ready.
   */
  #prepare(from: number, least = 1): number {
    if (!answerViews()) return from;
    const exchanges = this.#options.exchanges();
    const began = performance.now();
    const end = from;
    while (from > 0 && (end - from < least || performance.now() - began < REVEAL_BUDGET_MS)) {
      this.viewFor(exchanges[--from]!);
    }
    return from;
  }

  #scheduleReveal(): void {
    clearTimeout(this.#revealTimer);
    this.#revealTimer =
      this.#connected && this.#from > 0 && answerViews()
        ? setTimeout(this.#revealOlder)
        : undefined;
  }

  /** Adds as many older exchanges as a short task allows, keeping the reader's place. */
  readonly #revealOlder = (): void => {
    const from = this.#prepare(Math.min(this.#from, this.#options.exchanges().length));
    const restore = this.#options.keepPlace?.();
    this.#from = from;
    this.#host.requestUpdate();
    void this.#host.updateComplete.then(() => {
      restore?.();
      this.#scheduleReveal();
    });
  };
}
