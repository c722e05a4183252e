import { html, nothing, type ReactiveController, type ReactiveControllerHost } from 'lit';
import type { AdminStrings } from '../ui/strings/admin.js';

interface Pending {
  message: string;
  action: string;
  resolve: (confirmed: boolean) => void;
}

/**
 * Asks before a destructive action through a modal <dialog> (focus trapped, Escape cancels,
 * announced by screen readers), which window.confirm cannot style or name.
 */
export class ConfirmController implements ReactiveController {
  private pending: Pending | undefined;

  constructor(
    private readonly host: ReactiveControllerHost & HTMLElement,
    private readonly strings: () => AdminStrings,
  ) {
    host.addController(this);
  }

  hostDisconnected(): void {
    this.settle(false);
  }

  /** Resolves true when the user presses the action button, false on Cancel or Escape. */
  ask(message: string, action = this.strings().delete): Promise<boolean> {
    this.settle(false);
    return new Promise((resolve) => {
      this.pending = { message, action, resolve };
      this.host.requestUpdate();
      void this.host.updateComplete.then(() => {
        const dialog = this.host.shadowRoot?.querySelector<HTMLDialogElement>('dialog.confirm');
        if (dialog && !dialog.open) dialog.showModal();
      });
    });
  }

  private settle(confirmed: boolean): void {
    const pending = this.pending;
    if (!pending) return;
    this.pending = undefined;
    this.host.shadowRoot?.querySelector<HTMLDialogElement>('dialog.confirm')?.close();
    this.host.requestUpdate();
    pending.resolve(confirmed);
  }

  render() {
    if (!this.pending) return nothing;
    const s = this.strings();
    return html`<dialog
      class="confirm"
      part="dialog"
      aria-labelledby="confirm-title"
      aria-describedby="confirm-message"
      @cancel=${(event: Event) => {
        event.preventDefault();
        this.settle(false);
      }}
    >
      <h2 id="confirm-title">${s.confirmTitle}</h2>
      <p id="confirm-message">${this.pending.message}</p>
      <div class="actions">
        <button type="button" part="button" autofocus @click=${() => this.settle(false)}>
          ${s.cancel}
        </button>
        <button type="button" part="button danger" class="danger" @click=${() => this.settle(true)}>
          ${this.pending.action}
        </button>
      </div>
    </dialog>`;
  }
}
