import type { ReactiveController, ReactiveControllerHost } from 'lit';

/**
 * Where the panel covers the screen (the stylesheet's full-screen rule says the same): a phone,
 * held either way (sideways, it is low rather than narrow).
 */
const NARROW = '(max-width: 480px), (max-height: 480px) and (pointer: coarse)';

const FOCUSABLE = 'button,textarea,input,select,a[href],[tabindex]:not([tabindex="-1"])';

export interface FullScreenHost extends ReactiveControllerHost, HTMLElement {
  readonly mode: string;
  readonly open: boolean;
}

export interface FullScreenOptions {
  /** The visible area changed size: keep the newest text in view if the reader was there. */
  resized(): void;
}

/**
 * What the open launcher panel does while it covers a narrow screen (a phone): the page behind
 * stops scrolling (and is put back where it was on close), Tab stays inside the panel, and the
 * panel follows `visualViewport`, so an on-screen keyboard shrinks it from below and the
 * composer stays visible above the keyboard. It comes with the lazily loaded chunk, which the
 * launcher fetches as soon as a finger touches it; until then (or if the chunk cannot load) the
 * panel is still full screen through the stylesheet alone.
 */
export class FullScreenController implements ReactiveController {
  readonly #narrow = matchMedia(NARROW);
  #release?: () => void;

  readonly #host: FullScreenHost;
  readonly #options: FullScreenOptions;

  constructor(host: FullScreenHost, options: FullScreenOptions) {
    this.#host = host;
    this.#options = options;
    host.addController(this);
    this.#narrow.addEventListener('change', () => host.requestUpdate());
  }

  hostConnected(): void {
    // Put back on the page still open (a framework's re-render): held again at once, not at the
    // next update, which may never come.
    this.#host.requestUpdate();
  }

  hostUpdated(): void {
    const host = this.#host;
    const panel =
      host.mode === 'launcher' && host.open && this.#narrow.matches
        ? host.shadowRoot?.querySelector<HTMLElement>('.panel')
        : undefined;
    if (panel && !this.#release) this.#release = this.#hold(panel);
    else if (!panel && this.#release) this.hostDisconnected();
  }

  hostDisconnected(): void {
    this.#release?.();
    this.#release = undefined;
  }

  #hold(panel: HTMLElement): () => void {
    const host = this.#host;
    const { body, documentElement: root } = document;
    const viewport = window.visualViewport;
    const y = window.scrollY;
    const saved = [root.style.overflow, body.style.cssText];
    // overflow alone does not stop iOS Safari from scrolling the page under a finger; a fixed
    // body does, placed where the page was so nothing moves behind the panel.
    root.style.overflow = 'hidden';
    Object.assign(body.style, { position: 'fixed', top: `${-y}px`, left: '0', right: '0' });
    panel.setAttribute('aria-modal', 'true');

    const fit = (): void => {
      if (!viewport) return;
      panel.style.top = `${viewport.offsetTop}px`;
      panel.style.height = `${viewport.height}px`;
      this.#options.resized();
    };
    const trap = (event: KeyboardEvent): void => {
      if (event.key !== 'Tab') return;
      const stops = [...panel.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
        (node) => !(node as HTMLButtonElement).disabled && node.getClientRects().length > 0,
      );
      const active = host.shadowRoot?.activeElement;
      const last = stops.length - 1;
      const at = stops.indexOf(active as HTMLElement);
      const next = event.shiftKey ? (at <= 0 ? last : -1) : at === last || at < 0 ? 0 : -1;
      if (next < 0) return;
      event.preventDefault();
      stops[next]?.focus();
    };
    // Focus that leaves by other means than Tab (a screen reader, a click on the page's edge)
    // comes back to the panel.
    const recall = (event: FocusEvent): void => {
      if (event.target !== host) panel.querySelector<HTMLElement>('textarea')?.focus();
    };
    viewport?.addEventListener('resize', fit);
    viewport?.addEventListener('scroll', fit);
    host.addEventListener('keydown', trap);
    document.addEventListener('focusin', recall);
    fit();
    return () => {
      viewport?.removeEventListener('resize', fit);
      viewport?.removeEventListener('scroll', fit);
      host.removeEventListener('keydown', trap);
      document.removeEventListener('focusin', recall);
      panel.removeAttribute('aria-modal');
      panel.style.top = panel.style.height = '';
      [root.style.overflow, body.style.cssText] = saved;
      window.scrollTo(window.scrollX, y);
    };
  }
}
