import { html, nothing, type ReactiveController, type ReactiveControllerHost } from 'lit';
import type { ChatbotClient } from '../api/client.js';
import { isAbortError } from '../api/errors.js';
import type { Chatbot } from '../api/types.js';
import { emit } from '../ui/events.js';
import type { AdminStrings } from '../ui/strings/admin.js';
import { focusFirstInvalid, problemOf, tooLong } from './field-problems.js';
import { errorText } from './format.js';
import { ariaDisabled, takeEscape } from './panel.js';
import { textField } from './text-field.js';

/**
 * An answer as a Q&A pair's answer should read, for the owner to correct: without the citation
 * markers (`[1]`: a Q&A answer cites nothing) and the composed answer's lead-ins ("From
 * *Timetable › Summer*:", the local server's), which the owner would otherwise delete by hand.
 * Code keeps what it holds (`items [1]`).
 */
export function answerToCorrect(response: string): string {
  return response
    .replace(/(^|\n\n)From \*[^\n]*\*:(?=\n\n|$)/g, '')
    .split(/(```[\s\S]*?(?:```|$)|`[^`\n]*`)/)
    .map((part, i) =>
      i % 2
        ? part
        : part
            .replace(/[ \t]+\[\d{1,3}\](?![[(:])/g, '')
            .replace(/(^|\n)\[\d{1,3}\](?![[(:])[ \t]*(?=\n|$)/g, '$1')
            .replace(/\n{3,}/g, '\n\n'),
    )
    .join('')
    .trim();
}

/** What the form needs of the panel it is drawn in: every AdminPanel has these. */
export interface QaFormHost extends ReactiveControllerHost, HTMLElement {
  readonly client?: ChatbotClient;
  readonly chatbot?: Chatbot;
  readonly strings: AdminStrings;
}

/**
 * What the form was opened for: an exchange, whose answer the owner corrects, or a knowledge gap
 * (a question the sources did not cover), whose answer the owner writes from nothing.
 */
export type QaFormOrigin = 'exchange' | 'gap';

type QaField = 'question' | 'answer';

/** The longest question and answer the server takes (routes/sources.ts). */
export const QA_QUESTION_MAX = 10_000;
export const QA_ANSWER_MAX = 100_000;

/**
 * The message beside each Q&A field: one too long at once, one left blank once `checked` (a
 * refused submit).
 */
export function qaProblems(
  question: string,
  answer: string,
  checked: boolean,
  s: AdminStrings,
  lang: string,
) {
  const problems: Partial<Record<QaField, string>> = {};
  const blank = (text: string, message: string) => (checked && !text.trim() ? message : undefined);
  const q = blank(question, s.questionRequired) ?? tooLong(question, QA_QUESTION_MAX, s, lang);
  const a = blank(answer, s.answerRequired) ?? tooLong(answer, QA_ANSWER_MAX, s, lang);
  if (q) problems.question = q;
  if (a) problems.answer = a;
  return problems;
}

/**
 * The question and answer fields of every Q&A form (Sources' "Add Q&A" and "Add as Q&A"), each
 * with its message beside it once `checked`: set by a refused submit, after which the messages
 * follow what the fields hold. `id` prefixes the messages' ids, unique in the host's shadow root.
 */
export function renderQaFields(fields: {
  id: string;
  question: string;
  answer: string;
  checked: boolean;
  rows: number;
  strings: AdminStrings;
  lang: string;
  onInput: (field: QaField, value: string) => void;
}) {
  const { id, question, answer, rows, strings: s, onInput } = fields;
  const problems = qaProblems(question, answer, fields.checked, s, fields.lang);
  return html`${textField({
    label: s.question,
    name: 'question',
    dir: 'auto',
    autocomplete: 'off',
    value: question,
    problem: problemOf(id, 'question', problems),
    onInput: (text) => onInput('question', text),
  })}
  ${textField({
    label: s.answer,
    name: 'answer',
    rows,
    dir: 'auto',
    value: answer,
    problem: problemOf(id, 'answer', problems),
    onInput: (text) => onInput('answer', text),
  })}`;
}

interface QaDraft {
  /** Which exchange (or gap) of the host the form belongs to. */
  readonly key: string;
  readonly origin: QaFormOrigin;
  question: string;
  answer: string;
  state: 'editing' | 'saving' | 'saved';
  /** Set by a refused submit: each blank field shows its message from then on. */
  checked: boolean;
  error: string;
}

/**
 * "Add as Q&A": a form prefilled with a question and the answer it got, for the owner to
 * correct. Saving creates a Q&A source (as the source panel's Q&A form does) and then offers to
 * ask the question again in Try it. One form is open per host, drawn where the host calls
 * `render(key)` with the key it was opened for: under its exchange, or its knowledge gap.
 *
 * Reusable by any panel: `qa = new QaFormController(this)`, `qa.open(key, {question, answer})`
 * from the panel's button (`qa.open(key, {question, answer: ''}, 'gap')` for a question never
 * answered, so the help asks for an answer rather than a correction), `${qa.render(key)}` in
 * its template. From the host it fires
 * `chatbot-admin-change` (the created source), `chatbot-admin-error` (a failed save) and
 * `admin-ask-again` (the question), which <chatbot-admin> answers by opening Try it and sending it.
 */
export class QaFormController implements ReactiveController {
  private draft?: QaDraft;
  /**
   * Drafts put away unsaved by their button or by opening another form: opening theirs again
   * brings them back as they were. Cancel and Escape discard a draft.
   */
  private readonly kept = new Map<string, QaDraft>();
  private controller?: AbortController;
  /** The control that opened the form: focus goes back to it when the form closes. */
  private opener?: HTMLElement;
  /** Keys whose Q&A this form saved: their button gives way to `renderAdded`. */
  private readonly saved = new Set<string>();

  constructor(private readonly host: QaFormHost) {
    host.addController(this);
  }

  hostDisconnected(): void {
    this.controller?.abort();
  }

  /** The key the form is open for, if it is. */
  get openKey(): string | undefined {
    return this.draft?.key;
  }

  /**
   * Whether `key`'s Q&A was saved here and its form has closed: the host shows `renderAdded()`
   * in place of its button, so the same answer is not added twice.
   */
  added(key: string): boolean {
    return this.saved.has(key) && this.draft?.key !== key;
  }

  /** What stands in for the button of a key whose Q&A was saved (focus lands on it on close). */
  renderAdded(key: string) {
    return html`<span class="ok" tabindex="-1" data-qa-added=${key}>${this.host.strings.qaAdded}</span>`;
  }

  /**
   * The button of `key`'s form: opens it, prefilled (or as it was left), putting away one open
   * for another key; closes it, keeping its draft, when it is open.
   */
  toggle(
    key: string,
    prefill: { question: string; answer: string },
    origin: QaFormOrigin = 'exchange',
  ): void {
    if (this.draft?.key === key) this.close({ keep: true });
    else this.open(key, prefill, origin);
  }

  /** Opens the form for `key`, prefilled or as it was left; one open for another key is kept. */
  open(
    key: string,
    prefill: { question: string; answer: string },
    origin: QaFormOrigin = 'exchange',
  ): void {
    if (this.draft?.key === key) return;
    this.putAway();
    const root = this.host.shadowRoot;
    this.opener = (root?.activeElement as HTMLElement | null) ?? undefined;
    this.draft = this.kept.get(key) ?? {
      key,
      origin,
      ...prefill,
      state: 'editing',
      checked: false,
      error: '',
    };
    this.kept.delete(key);
    this.host.requestUpdate();
    // The answer is what the owner came to correct (or to write).
    void this.host.updateComplete.then(() => this.field('answer')?.focus());
  }

  /** Closes the form; `keep` puts its draft away for the next time it opens. */
  close({ keep = false } = {}): void {
    if (keep) this.putAway();
    this.controller?.abort();
    const key = this.draft?.key;
    this.draft = undefined;
    this.host.requestUpdate();
    const opener = this.opener;
    this.opener = undefined;
    void this.host.updateComplete.then(() => {
      if (opener?.isConnected) opener.focus();
      // Its button gave way to the note that the Q&A was added.
      else if (key !== undefined) {
        this.host.shadowRoot
          ?.querySelector<HTMLElement>(`[data-qa-added="${CSS.escape(key)}"]`)
          ?.focus();
      }
    });
  }

  /** Keeps the open form's draft, unless it was saved (or is being saved: that goes on). */
  private putAway(): void {
    const draft = this.draft;
    if (draft?.state === 'editing') this.kept.set(draft.key, draft);
  }

  /** Escape leaves the form as Cancel does, as the chat's feedback form does. */
  private handleKeydown(event: KeyboardEvent): void {
    if (takeEscape(event)) this.close();
  }

  private field(name: string) {
    return this.host.shadowRoot?.querySelector<HTMLInputElement | HTMLTextAreaElement>(
      `form.qa-form [name=${name}]`,
    );
  }

  private async handleSubmit(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const draft = this.draft;
    const { client, chatbot, strings: s } = this.host;
    if (!draft || !client || !chatbot || draft.state !== 'editing') return;
    const question = draft.question.trim();
    const answer = draft.answer.trim();
    if (Object.keys(qaProblems(question, answer, true, s, this.host.lang)).length > 0) {
      draft.checked = true;
      this.host.requestUpdate();
      return focusFirstInvalid(this.host, event.target as HTMLFormElement);
    }
    const controller = new AbortController();
    this.controller = controller;
    draft.state = 'saving';
    draft.error = '';
    this.host.requestUpdate();
    try {
      const source = await client.sources.createQa(
        chatbot.uuid,
        { question, answer },
        { signal: controller.signal },
      );
      draft.state = 'saved';
      draft.question = question;
      this.saved.add(draft.key);
      emit(this.host, 'chatbot-admin-change', {
        kind: 'source',
        action: 'create',
        uuids: [source.uuid],
      });
      // The form that held focus is gone: the next step takes it once drawn.
      this.host.requestUpdate();
      void this.host.updateComplete.then(() =>
        this.host.shadowRoot?.querySelector<HTMLElement>('.qa-form .ask-again')?.focus(),
      );
    } catch (error) {
      if (isAbortError(error)) return;
      draft.state = 'editing';
      draft.error = errorText(error, s);
      emit(this.host, 'chatbot-admin-error', {
        operation: 'sources.createQa',
        error,
        message: draft.error,
      });
    } finally {
      if (this.controller === controller) this.controller = undefined;
      this.host.requestUpdate();
    }
  }

  private handleAskAgain(question: string): void {
    this.close();
    emit(this.host, 'admin-ask-again', question);
  }

  /** The form, if it is open for `key`. */
  render(key: string) {
    const draft = this.draft;
    if (!draft || draft.key !== key) return nothing;
    const s = this.host.strings;
    if (draft.state === 'saved') {
      return html`<div class="card qa-form" part="card" @keydown=${(e: KeyboardEvent) => this.handleKeydown(e)}>
        <p class="ok" role="status">${s.qaAdded}</p>
        <div class="actions">
          <button
            type="button"
            class="primary ask-again"
            part="button primary"
            @click=${() => this.handleAskAgain(draft.question)}
          >
            ${s.askAgain}
          </button>
          <button type="button" part="button" @click=${() => this.close()}>${s.close}</button>
        </div>
      </div>`;
    }
    return html`<form
      class="card qa-form"
      part="form card"
      aria-labelledby="qa-form-heading"
      aria-describedby="qa-form-help"
      novalidate
      @submit=${(event: SubmitEvent) => this.handleSubmit(event)}
      @keydown=${(e: KeyboardEvent) => this.handleKeydown(e)}
    >
      <h4 id="qa-form-heading">${s.addAsQa}</h4>
      <p class="help" id="qa-form-help">
        ${draft.origin === 'gap' ? s.qaFormGapHelp : s.qaFormHelp}
      </p>
      ${renderQaFields({
        id: 'qa-form',
        question: draft.question,
        answer: draft.answer,
        checked: draft.checked,
        rows: 5,
        strings: s,
        lang: this.host.lang,
        onInput: (field, value) => {
          draft[field] = value;
          // The messages follow what is typed: one goes once its field is filled or short enough.
          this.host.requestUpdate();
        },
      })}
      ${draft.error ? html`<p class="error" part="error" role="alert">${draft.error}</p>` : nothing}
      <div class="actions">
        <button
          type="submit"
          class="primary"
          part="button primary"
          aria-disabled=${ariaDisabled(draft.state === 'saving')}
        >
          ${s.addQa}
        </button>
        <button type="button" part="button" @click=${() => this.close()}>${s.cancel}</button>
      </div>
    </form>`;
  }
}
