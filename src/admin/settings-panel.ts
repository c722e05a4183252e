import { html, nothing, type PropertyValues } from 'lit';
import { state } from 'lit/decorators.js';
import { type Chatbot, DEFAULT_RATE_LIMIT } from '../api/types.js';
import { fill, plural } from '../ui/i18n.js';
import type { AdminStrings } from '../ui/strings/admin.js';
import { type FieldProblems, focusFirstInvalid, problemOf, tooLong } from './field-problems.js';
import { visibilityLabel } from './format.js';
import { AdminPanel, ariaDisabled } from './panel.js';
import { textField } from './text-field.js';

interface SettingsDraft {
  name: string;
  messages: string;
  seconds: string;
  rateLimitMessage: string;
  showCitations: boolean;
  visibility: string;
  /** The allowed origins as typed: one per line. */
  origins: string;
}

const VISIBILITIES = ['private', 'public'];

/**
 * Unsaved forms by chatbot, for the page's life, per admin element (the root this panel renders
 * in): the panel is rebuilt for each chatbot selected, and coming back must show what was typed,
 * not the stored record; another admin of the page shows the record.
 */
const unsavedByAdmin = new WeakMap<Node, Map<string, SettingsDraft>>();

function unsavedOf(panel: Element): Map<string, SettingsDraft> {
  const owner = panel.getRootNode();
  let drafts = unsavedByAdmin.get(owner);
  if (!drafts) {
    drafts = new Map();
    unsavedByAdmin.set(owner, drafts);
  }
  return drafts;
}

function draftOf(chatbot: Chatbot): SettingsDraft {
  const [messages, seconds] = chatbot.meta?.rate_limit ?? DEFAULT_RATE_LIMIT;
  return {
    name: chatbot.name,
    messages: String(messages),
    seconds: String(seconds),
    rateLimitMessage: chatbot.meta?.rate_limit_message ?? '',
    showCitations: Boolean(chatbot.meta?.show_citations),
    visibility: chatbot.meta?.visibility || 'private',
    origins: (chatbot.meta?.allowed_origins ?? []).join('\n'),
  };
}

/**
 * The longest name and rate-limit message the server takes (routes/chatbots.ts); the New chatbot
 * dialog checks the name against the same.
 */
export const NAME_MAX = 200;
const MESSAGE_MAX = 1000;

/** The problems of the text fields, each said beside its field: the name as sent (trimmed). */
function textProblems(d: SettingsDraft, s: AdminStrings, lang: string): FieldProblems {
  const problems: Record<string, string> = {};
  const name = d.name.trim();
  const longName = tooLong(name, NAME_MAX, s, lang);
  const longMessage = tooLong(d.rateLimitMessage, MESSAGE_MAX, s, lang);
  if (!name) problems.name = s.nameRequired;
  else if (longName) problems.name = longName;
  if (longMessage) problems['rate-limit-message'] = longMessage;
  return problems;
}

/** The server's largest rate limit: a million messages, a year (routes/chatbots.ts). */
const RATE_MAX = { messages: 1_000_000, seconds: 31_536_000 };

const wholeFromOne = (raw: string, max: number) =>
  /^\d+$/.test(raw.trim()) && Number(raw) >= 1 && Number(raw) <= max;

const rateValid = (d: SettingsDraft) =>
  wholeFromOne(d.messages, RATE_MAX.messages) && wholeFromOne(d.seconds, RATE_MAX.seconds);

/** `scheme://host[:port]`, nothing after it; the server checks the same, and answers 400 else. */
const ORIGIN = /^https?:\/\/[^/?#@*\s\\]+$/i;

/** A line that is not an origin, and what it should be if it is one with more after it. */
type BadLine = { line: number; entry: string; origin?: string };

/** The origins typed one per line (blank lines skipped), and every line that is not one. */
function originLines(text: string) {
  const origins: string[] = [];
  const bad: BadLine[] = [];
  text.split('\n').forEach((raw, i) => {
    const entry = raw.trim();
    if (!entry) return;
    if (ORIGIN.test(entry) && URL.canParse(entry)) origins.push(entry);
    else bad.push({ line: i + 1, entry, origin: originIn(entry) });
  });
  return { origins, bad };
}

/** The origin an address with a path (or query, or user) starts with, if it is http(s). */
function originIn(entry: string): string | undefined {
  if (!URL.canParse(entry)) return undefined;
  const url = new URL(entry);
  // A wildcard is no origin to suggest: origins are compared as text.
  return /^https?:$/.test(url.protocol) && !entry.includes('*') ? url.origin : undefined;
}

const badLineText = (bad: BadLine, s: AdminStrings) =>
  bad.origin
    ? fill(s.allowedOriginNotOnly, { line: bad.line, entry: bad.entry, origin: bad.origin })
    : fill(s.allowedOriginInvalid, bad);

const sameList = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((item, i) => item === b[i]);

/**
 * Settings of the selected chatbot: name, rate limit, citations, visibility, allowed origins; and
 * deleting it.
 */
export class AdminSettingsPanel extends AdminPanel {
  @state() private draft?: SettingsDraft;
  @state() private dirty = false;
  @state() private savedAt = 0;

  protected override willUpdate(changed: PropertyValues): void {
    super.willUpdate(changed);
    if (!changed.has('chatbot') || !this.chatbot) return;
    const previous = changed.get('chatbot') as Chatbot | undefined;
    if (previous?.uuid !== this.chatbot.uuid) {
      const unsaved = unsavedOf(this).get(this.chatbot.uuid);
      this.draft = unsaved ?? draftOf(this.chatbot);
      this.dirty = unsaved !== undefined;
      this.savedAt = 0;
    } else if (!this.dirty) {
      // A newer record from elsewhere refreshes the form, but never over unsaved typing.
      this.draft = draftOf(this.chatbot);
    }
  }

  private edit(patch: Partial<SettingsDraft>): void {
    this.draft = { ...this.draft!, ...patch };
    this.dirty = true;
    this.savedAt = 0;
    unsavedOf(this).set(this.chatbot!.uuid, this.draft);
    if (rateValid(this.draft)) this.clearError('rate');
  }

  private async handleSubmit(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const chatbot = this.chatbot;
    const draft = this.draft;
    if (!chatbot || !draft || !this.client) return;
    const s = this.strings;
    const { origins, bad } = originLines(draft.origins);
    const rateOk = rateValid(draft);
    if (!rateOk || bad.length > 0 || Object.keys(textProblems(draft, s, this.lang)).length) {
      // Each problem is said beside its field, which focus goes to and is read with; the rate
      // limit's whole rule is said beside Save too, until the numbers are corrected (`edit`).
      if (!rateOk) this.invalid('rate', s.rateLimitInvalid);
      this.clearError('settings');
      return focusFirstInvalid(this, event.target as HTMLFormElement);
    }
    // Sent only when changed: a service without allowed origins may refuse a member it lacks.
    const originsChanged = !sameList(origins, chatbot.meta?.allowed_origins ?? []);
    const client = this.client;
    const result = await this.run('settings', 'chatbots.update', () =>
      client.chatbots.update(chatbot.uuid, {
        name: draft.name.trim(),
        rate_limit: [Number(draft.messages), Number(draft.seconds)],
        rate_limit_message: draft.rateLimitMessage,
        show_citations: draft.showCitations,
        visibility: draft.visibility,
        ...(originsChanged ? { allowed_origins: origins } : {}),
      }),
    );
    if (!result.ok) return;
    // What was typed while the save was on its way is still unsaved.
    if (this.draft === draft) {
      this.dirty = false;
      unsavedOf(this).delete(chatbot.uuid);
    }
    this.savedAt = Date.now();
    this.changed({ kind: 'chatbot', action: 'update', uuids: [chatbot.uuid] });
  }

  private async handleDeleteClick(): Promise<void> {
    const chatbot = this.chatbot;
    const client = this.client;
    if (!chatbot || !client) return;
    const yes = await this.confirm.ask(
      fill(this.strings.confirmDeleteChatbot, { name: chatbot.name }),
    );
    if (!yes) return;
    const result = await this.run('delete', 'chatbots.delete', () =>
      client.chatbots.delete(chatbot.uuid),
    );
    if (!result.ok) return;
    unsavedOf(this).delete(chatbot.uuid);
    this.changed({ kind: 'chatbot', action: 'delete', uuids: [chatbot.uuid] });
  }

  override render() {
    const d = this.draft;
    const s = this.strings;
    if (!d || !this.chatbot) return this.renderPending();
    // Each field's own problem, beside it and read with it; Save's summary says the whole rule.
    const messagesOk = wholeFromOne(d.messages, RATE_MAX.messages);
    const secondsOk = wholeFromOne(d.seconds, RATE_MAX.seconds);
    const badOrigins = originLines(d.origins).bad;
    const badOrigin = badOrigins.length > 0;
    const problems = textProblems(d, s, this.lang);
    const visibilities = VISIBILITIES.includes(d.visibility)
      ? VISIBILITIES
      : [...VISIBILITIES, d.visibility];
    return html`
      <form part="form" class="card" @submit=${this.handleSubmit} novalidate>
        <h2>${s.tabSettings}</h2>
        ${textField({
          label: s.name,
          name: 'name',
          dir: 'auto',
          required: true,
          autocomplete: 'off',
          value: d.name,
          problem: problemOf('settings', 'name', problems),
          onInput: (name) => this.edit({ name }),
        })}
        <fieldset>
          <legend>${s.rateLimit}</legend>
          <p class="help" id="rate-help">${s.rateLimitHelp}</p>
          <div class="row">
            <label
              >${s.rateMessages}
              <input
                name="rate-messages"
                part="input"
                inputmode="numeric"
                autocomplete="off"
                aria-describedby=${messagesOk ? 'rate-help' : 'rate-help rate-messages-error'}
                aria-invalid=${messagesOk ? 'false' : 'true'}
                .value=${d.messages}
                @input=${(e: Event) =>
                  this.edit({ messages: (e.target as HTMLInputElement).value })}
            /></label>
            <label
              >${s.rateSeconds}
              <input
                name="rate-seconds"
                part="input"
                inputmode="numeric"
                autocomplete="off"
                aria-describedby=${secondsOk ? 'rate-help' : 'rate-help rate-seconds-error'}
                aria-invalid=${secondsOk ? 'false' : 'true'}
                .value=${d.seconds}
                @input=${(e: Event) => this.edit({ seconds: (e.target as HTMLInputElement).value })}
            /></label>
          </div>
          ${messagesOk ? '' : html`<p class="help error" id="rate-messages-error">${s.rateMessagesInvalid}</p>`}
          ${secondsOk ? '' : html`<p class="help error" id="rate-seconds-error">${s.rateSecondsInvalid}</p>`}
        </fieldset>
        ${textField({
          label: s.rateLimitMessage,
          name: 'rate-limit-message',
          rows: 2,
          dir: 'auto',
          value: d.rateLimitMessage,
          problem: problemOf('settings', 'rate-limit-message', problems),
          onInput: (rateLimitMessage) => this.edit({ rateLimitMessage }),
        })}
        <label class="inline"
          ><input
            type="checkbox"
            name="show-citations"
            .checked=${d.showCitations}
            @change=${(e: Event) =>
              this.edit({ showCitations: (e.target as HTMLInputElement).checked })}
          />${s.showCitations}</label
        >
        <label
          >${s.visibility}
          <select
            name="visibility"
            part="input"
            .value=${d.visibility}
            @change=${(e: Event) => this.edit({ visibility: (e.target as HTMLSelectElement).value })}
          >
            ${visibilities.map(
              (v) =>
                html`<option value=${v} ?selected=${v === d.visibility}>${visibilityLabel(v, s)}</option>`,
            )}
          </select>
        </label>
        <label
          >${s.allowedOrigins}
          <textarea
            name="allowed-origins"
            part="input"
            rows="3"
            spellcheck="false"
            autocomplete="off"
            placeholder="https://shop.example"
            aria-describedby=${badOrigin ? 'origins-help origins-error' : 'origins-help'}
            aria-invalid=${badOrigin ? 'true' : 'false'}
            .value=${d.origins}
            @input=${(e: Event) => this.edit({ origins: (e.target as HTMLTextAreaElement).value })}
          ></textarea>
        </label>
        <p class="help" id="origins-help">${s.allowedOriginsHelp}</p>
        ${badOrigin ? this.renderBadOrigins(badOrigins) : nothing}
        ${this.renderError('rate')} ${this.renderError('settings')}
        <div class="actions">
          <button
            type="submit"
            class="primary"
            part="button primary"
            aria-disabled=${ariaDisabled(this.busy.has('settings'))}
          >
            ${s.save}
          </button>
          <span role="status" class="ok">${this.savedAt ? s.saved : ''}</span>
          ${this.dirty ? html`<span class="muted unsaved">${s.unsavedChanges}</span>` : nothing}
          <span class="spacer"></span>
          <button
            type="button"
            class="danger"
            part="button danger"
            title=${s.deleteChatbot}
            aria-disabled=${ariaDisabled(this.busy.has('delete'))}
            @click=${this.handleDeleteClick}
          >
            ${s.delete}
          </button>
        </div>
        ${this.renderError('delete')}
      </form>
      ${this.confirm.render()}
    `;
  }

  /** Each line that is not an origin, named, so all are corrected in one pass. */
  private renderBadOrigins(bad: BadLine[]) {
    const s = this.strings;
    if (bad.length === 1) {
      return html`<p class="help error" id="origins-error">${badLineText(bad[0]!, s)}</p>`;
    }
    return html`<div class="help error" id="origins-error">
      <p>${plural(s, 'allowedOriginsInvalid', bad.length, this.lang)}</p>
      <ul>
        ${bad.map((line) => html`<li class="user-text">${badLineText(line, s)}</li>`)}
      </ul>
    </div>`;
  }
}
