import { html, nothing, type ReactiveController, type ReactiveControllerHost } from 'lit';
import type { ChatbotClient } from '../api/client.js';
import type { Chatbot } from '../api/types.js';
import { emit } from '../ui/events.js';
import type { AdminStrings } from '../ui/strings/admin.js';
import { problemOf, tooLong } from './field-problems.js';
import { errorText } from './format.js';
import { ariaDisabled } from './panel.js';
import { NAME_MAX } from './settings-panel.js';
import { textField } from './text-field.js';

/** What the New chatbot dialog needs of the admin that shows it. */
export interface CreateChatbotHost extends ReactiveControllerHost, HTMLElement {
  readonly renderRoot: HTMLElement | DocumentFragment;
}

/**
 * The New chatbot dialog: the name checked as the server checks it, the request, and its
 * failure said inside the dialog, with the name kept. `created` takes the new chatbot.
 */
export class CreateChatbotController implements ReactiveController {
  /** The name as typed: kept when the dialog closes, until a chatbot is created. */
  private name = '';
  /** What is wrong with the name, said under it: refused before anything was sent. */
  private problem = '';
  /** Why the request failed. */
  private error = '';
  private creating = false;

  constructor(
    private readonly host: CreateChatbotHost,
    private readonly options: {
      api: () => ChatbotClient | undefined;
      strings: () => { t: AdminStrings; language: string };
      created: (chatbot: Chatbot) => void;
    },
  ) {
    host.addController(this);
  }

  hostConnected(): void {}

  private get dialog(): HTMLDialogElement | null {
    return this.host.renderRoot.querySelector('dialog.create');
  }

  private set(change: { problem?: string; error?: string; creating?: boolean }): void {
    Object.assign(this, change);
    this.host.requestUpdate();
  }

  /** Opens the dialog, without the last attempt's problem or error. */
  readonly open = (): void => {
    this.set({ problem: '', error: '' });
    this.dialog?.showModal();
  };

  private readonly submit = async (event: SubmitEvent): Promise<void> => {
    event.preventDefault();
    const name = this.name.trim();
    const api = this.options.api();
    if (!api || this.creating) return;
    const { t, language } = this.options.strings();
    const problem = name ? tooLong(name, NAME_MAX, t, language) : t.nameRequired;
    if (problem) {
      this.set({ problem, error: '' });
      return;
    }
    this.set({ creating: true, problem: '', error: '' });
    try {
      const chatbot = await api.chatbots.create({ name });
      this.name = '';
      this.dialog?.close();
      this.options.created(chatbot);
    } catch (error) {
      this.set({ error: errorText(error, t) });
      emit(this.host, 'chatbot-admin-error', {
        operation: 'chatbots.create',
        error,
        message: this.error,
      });
    } finally {
      this.set({ creating: false });
    }
  };

  render() {
    const { t } = this.options.strings();
    return html`<dialog class="create" part="dialog" aria-labelledby="create-title">
      <form part="form" @submit=${this.submit} novalidate>
        <h2 id="create-title">${t.newChatbot}</h2>
        ${textField({
          label: t.name,
          name: 'name',
          dir: 'auto',
          required: true,
          autocomplete: 'off',
          value: this.name,
          problem: problemOf('create', 'name', { name: this.problem }, true),
          onInput: (name) => {
            this.name = name;
          },
        })}
        ${this.error ? html`<p class="error" part="error" role="alert">${this.error}</p>` : nothing}
        <div class="actions">
          <button type="submit" class="primary" part="button primary" aria-disabled=${ariaDisabled(this.creating)}>
            ${t.create}
          </button>
          <button type="button" part="button" @click=${() => this.dialog?.close()}>
            ${t.cancel}
          </button>
        </div>
      </form>
    </dialog>`;
  }
}
