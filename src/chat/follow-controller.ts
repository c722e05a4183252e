import type { ReactiveController, ReactiveControllerHost } from 'lit';

/** How many frames `follow()` checks again that the bottom held. */
const CORRECTIONS = 5;
/**
 * How far below the view the newest text must be before the way back down is offered: a floating
 * button covers what is under it, and nearer than this that is the last answer's own buttons
 * (copy, delete, ratings, sources), which a reader scrolled up a little is about to use.
 */
const FAR = 200;

/** The exchange at the top edge of the log's view. */
function readingAt(log: HTMLElement | undefined): HTMLElement | undefined {
  if (!log) return undefined;
  const edge = log.getBoundingClientRect().top;
  for (const exchange of log.querySelectorAll<HTMLElement>('.exchange')) {
    if (exchange.getBoundingClientRect().bottom > edge) return exchange;
  }
  return undefined;
}

/**
 * Whether the log follows the newest text or the reader has scrolled up to read: it keeps the
 * bottom in view after every update of its host while following, and holds the reader's place
 * while reading (the host shows a "Latest messages" button then).
 */
export class FollowController implements ReactiveController {
  #isReading = false;
  #isFar = false;
  /**
   * What the last place kept could not scroll by: the browser rounds scrollTop, and a long
   * conversation appears above the reader in dozens of steps, each rounding the same way (20 px
   * adrift over sixty steps). Carried to the next step instead.
   */
  #unscrolled = 0;
  #frame?: number;
  /** Where `follow()` last put the log; the reader scrolling above it stops the following. */
  #followTop = 0;

  readonly #host: ReactiveControllerHost;
  readonly #log: () => HTMLElement | undefined;

  constructor(host: ReactiveControllerHost, log: () => HTMLElement | undefined) {
    this.#host = host;
    this.#log = log;
    host.addController(this);
  }

  /**
   * The reader has scrolled up from the bottom of the log, so new text does not pull it down.
   * Answers that render as they come into view (content-visibility) would make the text jump by
   * their growth for a reader scrolling up; the browser's scroll anchoring holds it still, so the
   * host turns it on while reading, and off while following, as it would fight `follow()`.
   */
  get reading(): boolean {
    return this.#isReading;
  }

  set reading(value: boolean) {
    if (value === this.#isReading) return;
    this.#isReading = value;
    this.#host.requestUpdate();
  }

  /** Reading, with the newest text more than `FAR` below the view: offer the way back down. */
  get behind(): boolean {
    return this.#isReading && this.#isFar;
  }

  hostUpdated(): void {
    this.follow();
  }

  hostDisconnected(): void {
    if (this.#frame !== undefined) cancelAnimationFrame(this.#frame);
    this.#frame = undefined;
  }

  /**
   * Keeps the newest text in view while the reader is at the bottom. Off-screen blocks are laid
   * out lazily (content-visibility), so one jump can land short after a burst of text: check
   * again on the next frames until the bottom holds.
   */
  follow(corrections = CORRECTIONS): void {
    const log = this.#log();
    if (!log) return;
    // A reader who scrolled up since the last jump, not reported yet by a scroll event (a render
    // came first: on a busy machine, a step of a long conversation appearing), stays put.
    this.handleScroll();
    if (this.#isReading) return;
    log.scrollTop = log.scrollHeight;
    this.#followTop = log.scrollTop;
    if (corrections > 0 && this.#frame === undefined) {
      this.#frame = requestAnimationFrame(() => {
        this.#frame = undefined;
        // A reader who scrolled up since has not necessarily been reported by a scroll event yet.
        this.handleScroll();
        if (log.scrollTop + log.clientHeight < log.scrollHeight - 2) this.follow(corrections - 1);
      });
    }
  }

  /**
   * Back to the newest text, following it again: at once, or with `now` false at the host's
   * update, which follows anyway (a question just sent: laying the log out before its render
   * too would be a second layout in the Send click's task).
   */
  showLatest(now = true): void {
    this.reading = false;
    // The reader's own choice: where they scrolled is no sign of reading this time.
    this.#followTop = Number.NEGATIVE_INFINITY;
    if (now) this.follow();
  }

  /** The log's scroll listener: reading once the reader scrolls up, following at the bottom. */
  readonly handleScroll = (): void => {
    const log = this.#log();
    if (!log) return;
    const top = log.scrollTop;
    const below = log.scrollHeight - top - log.clientHeight;
    const { reading, behind } = this;
    this.#isFar = below > FAR;
    if (below <= 32) {
      this.#isReading = false;
      // The log shrinking for a moment as an answer lays out pulls scrollTop up with it: the
      // place to follow from, not the reader's doing, when the log grows again.
      this.#followTop = top;
    }
    // While following, layout settling never moves scrollTop (overflow-anchor is off) but that
    // way, so this is the reader.
    else if (top < this.#followTop - 4) this.#isReading = true;
    if (this.reading !== reading || this.behind !== behind) this.#host.requestUpdate();
  };

  /**
   * Notes what the reader is reading before content appears above it; the function it returns,
   * called once the content is in, puts that back where it was. At the bottom, `follow()` keeps
   * the log there. Scroll anchoring does this where the browser has it (see `reading`), this
   * where it has not (Safari).
   */
  keepPlace(): () => void {
    // The reader's last scroll may not have been reported yet.
    this.handleScroll();
    const log = this.#log();
    const read = this.#isReading ? readingAt(log) : undefined;
    const before = read?.getBoundingClientRect().top ?? 0;
    return () => {
      if (!log || !read?.isConnected) return;
      const target = log.scrollTop + read.getBoundingClientRect().top - before + this.#unscrolled;
      log.scrollTop = target;
      // Only a rounding's worth: at the top or bottom of the log the rest cannot be scrolled.
      const left = target - log.scrollTop;
      this.#unscrolled = Math.abs(left) < 1 ? left : 0;
    };
  }
}
