import { html, type ReactiveController, type ReactiveControllerHost } from 'lit';

export interface VirtualRowsOptions<T> {
  /**
   * The scrolling element `render()` is drawn in (focusable with `tabindex="-1"`: focus waits
   * there when the row that held it scrolls away), or nothing while there are no rows.
   */
  readonly body: () => HTMLElement | null | undefined;
  /** What focus follows: a row's element is reused for another item as the table scrolls. */
  readonly key: (item: T) => string;
  /** `aria-rowindex` of the first item's row; each row carries its own (rows above count too). */
  readonly firstRowIndex: number;
  /** Rows rendered beyond each edge of the view, so a small scroll finds them already there. */
  readonly overscan?: number;
  /** What takes focus when the last item goes from under it (the list's heading, say). */
  readonly fallback?: () => HTMLElement | null | undefined;
}

/** The controls of a row that may hold focus, in the order that identifies one. */
const CONTROLS = 'input, button';

/**
 * Renders only the rows on screen of a long list (and a few beyond), inside a sizer as tall as
 * all of them. Every row has the same height (set in CSS), so which rows are on screen is a
 * matter of arithmetic; the controller measures it, follows the body's scrolling and size (its
 * ResizeObserver, let go when the host disconnects), and places the rows after each render.
 * Rows are drawn by position, not keyed by item, so a scroll, even by a jump, changes the text of
 * rows that exist rather than building new ones; focus follows its item instead of its element,
 * and when its item leaves the list (deleted), stays at its place: on the same control of the item
 * now there, or of the new last one.
 */
export class VirtualRowsController<T> implements ReactiveController {
  private scrollTop = 0;
  private viewportHeight = 600;
  /**
   * A row's height as laid out, once a row has been measured. Fractional: a rounded height would
   * drift by pixels per thousand rows.
   */
  private measuredHeight?: number;
  /** The items as last rendered, which the rows in the DOM show. */
  private items: readonly T[] = [];
  /** The rows' total height and the offset of the first rendered row, applied after render. */
  private placement = { height: 0, top: 0 };
  /** The item whose row held focus before an update, where it was, and which of its controls. */
  private focused?: { key: string; index: number; control: number };
  private observed?: HTMLElement;
  private root?: DocumentOrShadowRoot;
  private readonly resizeObserver = new ResizeObserver(() => this.measure());

  /** The measured height, or a guess until a row is laid out. */
  private get rowHeight(): number {
    return this.measuredHeight ?? 44;
  }

  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly options: VirtualRowsOptions<T>,
  ) {
    host.addController(this);
  }

  /** The rows of `items` on screen, each drawn by `row` with its index in `items`. */
  render(items: readonly T[], row: (item: T, index: number) => unknown) {
    const overscan = this.options.overscan ?? 8;
    const height = this.rowHeight;
    const first = Math.max(0, Math.floor(this.scrollTop / height) - overscan);
    const end = Math.min(
      items.length,
      Math.ceil((this.scrollTop + this.viewportHeight) / height) + overscan,
    );
    this.items = items;
    this.placement = { height: items.length * height, top: first * height };
    return html`<div class="sizer">
      <div class="window">${items.slice(first, end).map((item, i) => row(item, first + i))}</div>
    </div>`;
  }

  hostConnected(): void {
    // Reconnected: the body rendered before is still there, and no update may come to find it.
    this.observe();
  }

  hostUpdate(): void {
    this.rememberFocus();
  }

  hostUpdated(): void {
    this.observe();
    // Set through the CSSOM, not a style attribute, which a strict Content-Security-Policy blocks.
    const sizer = this.observed?.querySelector<HTMLElement>(':scope > .sizer');
    // The body and the sizer are as tall as the rows from their count and the row height in CSS
    // (table.styles.ts) until a row is measured, a frame later: a first frame sized by the
    // guessed height showed a scrollbar under three rows. Measured, the sizer follows the rows'
    // laid-out height, which a long list's CSS total would pass by a pixel per 64 rows.
    this.observed?.style.setProperty('--_rows', String(this.items.length));
    if (sizer) {
      if (this.measuredHeight) sizer.style.height = `${this.placement.height}px`;
      (sizer.firstElementChild as HTMLElement).style.transform =
        `translateY(${this.placement.top}px)`;
    }
    this.restoreFocus();
  }

  hostDisconnected(): void {
    this.resizeObserver.disconnect();
    this.observed?.removeEventListener('scroll', this.handleScroll);
    this.observed = undefined;
  }

  private observe(): void {
    const body = this.options.body() ?? undefined;
    if (body === this.observed) return;
    if (this.observed) {
      this.resizeObserver.unobserve(this.observed);
      this.observed.removeEventListener('scroll', this.handleScroll);
    }
    if (body) {
      this.resizeObserver.observe(body);
      body.addEventListener('scroll', this.handleScroll, { passive: true });
    }
    this.observed = body;
  }

  private readonly handleScroll = (): void => {
    const top = this.observed?.scrollTop ?? 0;
    // Re-render only when the first rendered row changes, not on every scrolled pixel.
    const row = (px: number) => Math.floor(px / this.rowHeight);
    if (row(top) === row(this.scrollTop)) return;
    this.scrollTop = top;
    this.host.requestUpdate();
  };

  private measure(): void {
    const body = this.observed;
    if (!body) return;
    const row = body.querySelector(':scope > .sizer > .window > *');
    const rowHeight = row?.getBoundingClientRect().height || this.measuredHeight;
    const { clientHeight, scrollTop } = body;
    if (
      clientHeight === this.viewportHeight &&
      scrollTop === this.scrollTop &&
      rowHeight === this.measuredHeight
    ) {
      return;
    }
    this.viewportHeight = clientHeight;
    this.scrollTop = scrollTop;
    this.measuredHeight = rowHeight;
    this.host.requestUpdate();
  }

  /** Where focus is in the tree the rows are drawn in (kept when the list empties, as it goes). */
  private activeElement(): Element | null {
    this.root = (this.observed?.getRootNode() as DocumentOrShadowRoot | undefined) ?? this.root;
    return this.root?.activeElement ?? null;
  }

  private rememberFocus(): void {
    const active = this.activeElement();
    const row = active && this.observed?.contains(active) && active.closest('[aria-rowindex]');
    const index = row ? Number(row.getAttribute('aria-rowindex')) - this.options.firstRowIndex : -1;
    const item = row && this.items[index];
    this.focused = item
      ? {
          key: this.options.key(item),
          index,
          control: [...row.querySelectorAll(CONTROLS)].indexOf(active),
        }
      : undefined;
  }

  private restoreFocus(): void {
    const focused = this.focused;
    if (!focused) return;
    this.focused = undefined;
    const body = this.observed;
    const found = this.items.findIndex((item) => this.options.key(item) === focused.key);
    const index = found < 0 ? Math.min(focused.index, this.items.length - 1) : found;
    const row =
      index < 0
        ? null
        : body?.querySelector(`[aria-rowindex="${index + this.options.firstRowIndex}"]`);
    const control = row?.querySelectorAll<HTMLElement>(CONTROLS)[focused.control];
    const active = this.activeElement();
    if (control && control !== active) control.focus({ preventScroll: true });
    else if (!control && active && body?.contains(active)) body.focus({ preventScroll: true });
    // No row is left to hold it: focus fell to <body> with the table body.
    else if (!control && !active) this.options.fallback?.()?.focus({ preventScroll: true });
  }
}
