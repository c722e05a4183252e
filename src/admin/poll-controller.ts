import type { ReactiveController, ReactiveControllerHost } from 'lit';

export interface PollOptions {
  /** Whether there is anything to wait for; polling stops once this is false. */
  readonly pending: () => boolean;
  /** Asks again (its answer should end in `schedule()`, through a Task's completion). */
  readonly poll: () => void;
  /** The first delay, in ms; each poll doubles it. Default 1 s. */
  readonly first?: number;
  /** The longest delay, in ms. Default 15 s. */
  readonly max?: number;
}

/**
 * Polls with a growing delay while something is pending (1 s, 2 s, 4 s … up to 15 s), and stops
 * once nothing is; the delay starts over when the work settles or `schedule(true)` says new work
 * began. A disconnected host does not poll; it picks up again when reconnected.
 */
export class PollController implements ReactiveController {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private delay: number;
  private connected = false;
  private wasConnected = false;
  private readonly first: number;
  private readonly max: number;

  constructor(
    host: ReactiveControllerHost,
    private readonly options: PollOptions,
  ) {
    this.first = options.first ?? 1000;
    this.max = options.max ?? 15_000;
    this.delay = this.first;
    host.addController(this);
  }

  /** True while a poll is waiting to run. */
  get active(): boolean {
    return this.timer !== undefined;
  }

  hostConnected(): void {
    this.connected = true;
    // The first connection waits for the host's first load, which schedules.
    if (this.wasConnected) this.schedule();
    this.wasConnected = true;
  }

  hostDisconnected(): void {
    this.connected = false;
    this.stop();
  }

  /** Waits for the next poll if anything is pending; `restart` begins again at the first delay. */
  schedule(restart = false): void {
    this.stop();
    if (restart) this.delay = this.first;
    if (!this.connected || !this.options.pending()) {
      this.delay = this.first;
      return;
    }
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.options.poll();
    }, this.delay);
    this.delay = Math.min(this.delay * 2, this.max);
  }

  private stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}
