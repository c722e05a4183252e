import { expect, fixture, html } from '@open-wc/testing';
import { css, LitElement } from 'lit';
import { VirtualRowsController } from '../../src/admin/virtual-rows-controller.js';

/** Every ResizeObserver made while a test runs, to see that the controller lets its own go. */
const made: { disconnected: boolean }[] = [];
const RealResizeObserver = window.ResizeObserver;
class RecordedResizeObserver extends RealResizeObserver {
  disconnected = false;
  constructor(callback: ResizeObserverCallback) {
    super(callback);
    made.push(this);
  }
  override disconnect(): void {
    this.disconnected = true;
    super.disconnect();
  }
}

/** A bare host: a list of 1,000 items, rows 20 px high in a 200 px body, a header row above. */
class VirtualRowsHost extends LitElement {
  static override styles = css`
    .body {
      height: 200px;
      overflow: auto;
      overflow-anchor: none;
    }
    [role='row'] {
      height: 20px;
      box-sizing: border-box;
    }
  `;

  items = Array.from({ length: 1000 }, (_, i) => `item ${i}`);
  readonly rows = new VirtualRowsController<string>(this, {
    body: () => this.renderRoot.querySelector<HTMLElement>('.body'),
    key: (item) => item,
    firstRowIndex: 2,
  });

  override render() {
    return html`<div role="row" aria-rowindex="1">header</div>
      <div class="body" role="rowgroup" tabindex="-1">
        ${this.rows.render(
          this.items,
          (item, index) => html`<div role="row" aria-rowindex=${index + 2}>
            <input type="checkbox" aria-label="choose" /><button type="button">${item}</button>
          </div>`,
        )}
      </div>`;
  }
}
customElements.define('virtual-rows-host', VirtualRowsHost);

const frames = () =>
  new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));

async function mount() {
  const el = await fixture<VirtualRowsHost>(html`<virtual-rows-host></virtual-rows-host>`);
  // The first measurement (the ResizeObserver's first report) renders the rows at their size.
  await frames();
  await el.updateComplete;
  const body = el.shadowRoot!.querySelector<HTMLElement>('.body')!;
  const rows = () => [...body.querySelectorAll<HTMLElement>('[role=row]')];
  const texts = () => rows().map((r) => r.textContent!.trim());
  const scrollTo = async (row: number) => {
    body.scrollTop = row * 20;
    await frames();
    await el.updateComplete;
  };
  const active = () => el.shadowRoot!.activeElement as HTMLElement | null;
  return { el, body, rows, texts, scrollTo, active };
}

describe('VirtualRowsController', () => {
  beforeEach(() => {
    made.length = 0;
    window.ResizeObserver = RecordedResizeObserver;
  });
  afterEach(() => {
    window.ResizeObserver = RealResizeObserver;
  });

  it('should render the rows on screen and eight beyond, in a sizer as tall as all of them', async () => {
    const { body, texts, rows } = await mount();
    expect(texts()).to.have.length(10 + 8);
    expect(texts()[0]).to.equal('item 0');
    expect(rows()[0]!.getAttribute('aria-rowindex')).to.equal('2');
    expect(body.querySelector<HTMLElement>('.sizer')!.getBoundingClientRect().height).to.equal(
      20_000,
    );
  });

  it('should draw the rows that belong at the scrolled position, after a jump too', async () => {
    const { body, rows, texts, scrollTo } = await mount();
    for (const row of [500, 990, 37]) {
      await scrollTo(row);
      expect(texts()[0]).to.equal(`item ${Math.max(0, row - 8)}`);
      const top = body.getBoundingClientRect().top;
      const atTop = rows().find((r) => Math.abs(r.getBoundingClientRect().top - top) < 10);
      expect(atTop?.textContent?.trim()).to.equal(`item ${row}`);
    }
  });

  it('should reuse the row elements as it scrolls instead of building new ones', async () => {
    const { rows, scrollTo } = await mount();
    const before = rows()[3];
    await scrollTo(400);
    expect(rows().includes(before!)).to.equal(true);
  });

  it('should render more rows when the body grows', async () => {
    const { el, body, texts } = await mount();
    body.style.height = '400px';
    await frames();
    await el.updateComplete;
    expect(texts()).to.have.length(20 + 8);
  });

  it("should keep focus on the same item's control while the rows scroll", async () => {
    const { body, rows, scrollTo, active } = await mount();
    const button = rows()
      .find((r) => r.textContent?.trim() === 'item 12')!
      .querySelector('button')!;
    button.focus();
    await scrollTo(15);
    // The row element that held item 12 now shows another item; focus moved with item 12.
    expect(active()?.textContent).to.equal('item 12');
    const box = rows()
      .find((r) => r.textContent?.trim() === 'item 20')!
      .querySelector('input')!;
    box.focus();
    await scrollTo(16);
    expect(active()?.closest('[role=row]')?.textContent?.trim()).to.equal('item 20');
    expect(active()?.tagName).to.equal('INPUT');
    await scrollTo(600);
    // Its row is gone: focus waits on the body, never on another item's control.
    expect(active() === body).to.equal(true);
  });

  it('should follow the items when they change under a focused row', async () => {
    const { el, rows, active } = await mount();
    rows()[5]!.querySelector('button')!.focus();
    el.items = ['new first', ...el.items];
    el.requestUpdate();
    await el.updateComplete;
    expect(active()?.textContent).to.equal('item 5');
  });

  it('should move focus to the same control of the item taking its place when its item leaves the list', async () => {
    const { el, body, rows, active } = await mount();
    const focusIn = (item: string, control: string) =>
      rows()
        .find((r) => r.textContent?.trim() === item)!
        .querySelector<HTMLElement>(control)!
        .focus();
    const remove = async (item: string) => {
      el.items = el.items.filter((i) => i !== item);
      el.requestUpdate();
      await el.updateComplete;
    };
    focusIn('item 5', 'button');
    await remove('item 5');
    expect(active()?.textContent).to.equal('item 6');
    // The last one: the item before it, now last, takes focus.
    el.items = el.items.slice(0, 3);
    el.requestUpdate();
    await el.updateComplete;
    focusIn('item 2', 'input');
    await remove('item 2');
    expect(active()?.tagName).to.equal('INPUT');
    expect(active()?.closest('[role=row]')?.textContent?.trim()).to.equal('item 1');
    expect(body.contains(active())).to.equal(true);
  });

  it('should let go of its ResizeObserver and scrolling when the host disconnects', async () => {
    const { el, body, texts, scrollTo } = await mount();
    const parent = el.parentElement!;
    const removed: string[] = [];
    const remove = body.removeEventListener.bind(body);
    body.removeEventListener = (type: string, ...rest: [EventListener, unknown?]) => {
      removed.push(type);
      remove(type, ...(rest as [EventListener]));
    };
    expect(made).to.have.length(1);
    el.remove();
    expect(made[0]!.disconnected).to.equal(true);
    expect(removed).to.include('scroll');

    // Back on the page, it follows the same body again, with no update needed to find it.
    parent.append(el);
    await frames();
    await scrollTo(400);
    expect(texts()).to.include('item 400');
  });
});
