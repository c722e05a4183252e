import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { isAbortError } from '../api/errors.js';
import type { Page } from '../api/types.js';

export interface CursorPagesOptions<T> {
  /** One page: the first with no cursor, then each after the `next_cursor` of the one before. */
  readonly load: (cursor: string | undefined, signal: AbortSignal) => Promise<Page<T>>;
  /** What identifies an item, for `drop`, `restore` and `update`. */
  readonly key: (item: T) => string;
}

/**
 * A list read page by page from the server, by cursor: `reset()` asks for the first page again
 * (abandoning any page in flight, whose answer is dropped), `more()` for the next one. The items
 * loaded so far stay on screen while the first page of a new query loads, so the list does not
 * flash empty on every keystroke of a search.
 */
export class CursorPagesController<T> implements ReactiveController {
  /** Every item loaded so far, in the server's order. */
  items: readonly T[] = [];
  /** The failure of the last request, until the next one starts. */
  error: unknown;
  /** A request is in flight: the first page (`reset`) or a further one (`more`). */
  loading: 'first' | 'more' | false = false;
  /** Whether a first page has arrived since the list was created. */
  loaded = false;

  private cursor: string | null = null;
  /** The cursor of the request that failed (null: the first page's). */
  private failed?: string | null;
  private controller?: AbortController;
  private pending: Promise<void> = Promise.resolve();

  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly options: CursorPagesOptions<T>,
  ) {
    host.addController(this);
  }

  /** Whether the server has more pages after the loaded ones. */
  get hasMore(): boolean {
    return this.cursor !== null;
  }

  /** Settles when the request in flight (if any) has been applied. */
  get complete(): Promise<void> {
    return this.pending;
  }

  hostDisconnected(): void {
    this.controller?.abort();
    this.loading = false;
  }

  /** Loads the first page again: after a change of query, or to refresh. */
  reset(): Promise<void> {
    return this.fetch(undefined);
  }

  /** Loads the next page, unless one is loading or there is none. */
  more(): Promise<void> {
    if (this.loading || this.cursor === null || this.error) return this.pending;
    return this.fetch(this.cursor);
  }

  /** Asks again for the page whose request failed. */
  retry(): Promise<void> {
    return this.fetch(this.failed ?? undefined);
  }

  /**
   * Takes an item off the list at once, as it is being deleted. Pages asked for meanwhile must
   * not bring it back: `load` answers only once the deletion has landed (AdminPanel's `settled`).
   */
  drop(key: string): void {
    this.items = this.items.filter((item) => this.options.key(item) !== key);
    this.host.requestUpdate();
  }

  /** Puts back an item `drop` took off (its deletion failed), where it was, unless reloaded. */
  restore(item: T, index: number): void {
    const key = this.options.key(item);
    if (this.items.some((other) => this.options.key(other) === key)) return;
    this.items = [...this.items.slice(0, index), item, ...this.items.slice(index)];
    this.host.requestUpdate();
  }

  /** Replaces the item with key `key` by what `change` makes of it. */
  update(key: string, change: (item: T) => T): void {
    this.items = this.items.map((item) => (this.options.key(item) === key ? change(item) : item));
    this.host.requestUpdate();
  }

  private fetch(cursor: string | undefined): Promise<void> {
    this.controller?.abort();
    const controller = new AbortController();
    this.controller = controller;
    this.loading = cursor === undefined ? 'first' : 'more';
    this.error = undefined;
    this.failed = undefined;
    this.host.requestUpdate();
    this.pending = this.options.load(cursor, controller.signal).then(
      (page) => {
        if (controller.signal.aborted) return;
        this.items = cursor === undefined ? page.data : [...this.items, ...page.data];
        this.cursor = page.next_cursor;
        this.loaded = true;
        this.settle(controller);
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        if (!isAbortError(error)) {
          this.error = error;
          this.failed = cursor ?? null;
        }
        this.settle(controller);
      },
    );
    return this.pending;
  }

  private settle(controller: AbortController): void {
    if (this.controller === controller) this.controller = undefined;
    this.loading = false;
    this.host.requestUpdate();
  }
}
