/**
 * Bench-only: `VirtualRowsController`'s interface over Lit's own `@lit-labs/virtualizer`, so the
 * admin can be built with it in place of ours (test/bench/virtualizer-build.ts swaps the module)
 * and both measured on the same rows in the same run. Not part of any shipped bundle.
 *
 * The table's scrolling `.tbody` is the virtualizer's host and scroller (`scroller: true`, its
 * documented use for a scrolling box of fixed height). Rows are keyed by item, the virtualizer's
 * way: a row element belongs to one item, so focus needs no help while the row exists. The flow
 * layout is given, not left to the virtualizer's default, which it would load with a dynamic
 * `import()` (a second request before the first rows).
 */
import type { RangeChangedEvent } from '@lit-labs/virtualizer/events.js';
import { flow } from '@lit-labs/virtualizer/layouts/flow.js';
import { virtualize } from '@lit-labs/virtualizer/virtualize.js';
import {
  html,
  type ReactiveController,
  type ReactiveControllerHost,
  type TemplateResult,
} from 'lit';
import type { VirtualRowsOptions } from '../../src/admin/virtual-rows-controller.js';

/** More than the conversation list's own margin (10 rows), so its check always passes. */
const NEAR_END = 20;

export class VirtualRowsController<T> implements ReactiveController {
  private readonly layout = flow();
  private items: readonly T[] = [];
  private readonly followed = new WeakSet<HTMLElement>();

  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly options: VirtualRowsOptions<T>,
  ) {
    host.addController(this);
  }

  render(items: readonly T[], row: (item: T, index: number) => unknown) {
    this.items = items;
    // The sizer the virtualizer would append after the rows, given first instead, so the last
    // child is the last row, as the conversation list's "near the end" check expects.
    return html`<div virtualizer-sizer></div>${virtualize({
      items: items as T[],
      renderItem: row as (item: T, index: number) => TemplateResult,
      keyFunction: this.options.key,
      layout: this.layout,
      scroller: true,
    })}`;
  }

  /**
   * The virtualizer changes its rows without updating the host, and the conversation list asks
   * for its next page from `hostUpdated` (ours updates the host on every row scrolled), looking
   * for the rows in `.window`: the body gets that class and tells the host when the rows near
   * the end of the items.
   */
  hostUpdated(): void {
    const body = this.options.body();
    if (!body || this.followed.has(body)) return;
    this.followed.add(body);
    body.classList.add('window');
    body.addEventListener('rangeChanged', (e) => {
      if ((e as RangeChangedEvent).last >= this.items.length - NEAR_END) this.host.requestUpdate();
    });
  }
}
