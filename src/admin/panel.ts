import { Task } from '@lit/task';
import { type CSSResultGroup, html, LitElement, nothing, type PropertyValues } from 'lit';
import { property, state } from 'lit/decorators.js';
import type { ChatbotClient } from '../api/client.js';
import { isAbortError } from '../api/errors.js';
import type { Chatbot, DataSource, SourceTag } from '../api/types.js';
import { emit } from '../ui/events.js';
import { type AdminStrings, adminStrings } from '../ui/strings/admin.js';
import { ConfirmController } from './confirm-controller.js';
import type { AdminChangeDetail } from './events.js';
import { errorText } from './format.js';
import { panelStyles } from './styles.js';

/**
 * What every panel shares: the client and chatbot it works on, the strings, a confirmation
 * dialog, and one way to run a request that reports its failure without losing the user's input.
 */
export class AdminPanel extends LitElement {
  static override styles: CSSResultGroup = panelStyles;

  /** The API client of the enclosing <chatbot-admin>. */
  @property({ attribute: false }) client?: ChatbotClient;

  /** The selected chatbot. */
  @property({ attribute: false }) chatbot?: Chatbot;

  /** Strings in the element's language. */
  @property({ attribute: false }) strings: AdminStrings = adminStrings.en;

  /** BCP 47 tag used to format dates and numbers. */
  @property() override lang = 'en';

  /** Set while the panel's tab is shown; becoming active again calls `refresh()`. */
  @property({ type: Boolean }) active = false;

  /** Failure messages keyed by the form or row they belong to. */
  @state() protected errors: Record<string, string> = {};

  /** Names of requests in flight, so their buttons show it and cannot be pressed twice. */
  @state() protected busy = new Set<string>();

  protected readonly confirm = new ConfirmController(this, () => this.strings);

  constructor() {
    super();
    ignoreAriaDisabled(this);
  }

  /** Changes applied on screen before the server's lists show them: see `settled()`. */
  private localChanges = 0;
  /** Requests through `run()` still on their way: the server may not have applied them yet. */
  private readonly pendingChanges = new Set<Promise<unknown>>();

  /**
   * Marks a change the panel applied itself (every request through `run()` that succeeded
   * counts as one): a list that was loading meanwhile is asked for again instead of shown.
   */
  protected changedLocally(): void {
    this.localChanges++;
  }

  /**
   * What `load` answers, asked again if this panel changed something meanwhile, or still has a
   * change on its way: that answer may predate the change and would undo it on screen (a
   * deleted agent would come back, a new source vanish). A change on its way is waited for
   * first, so the next answer holds it.
   */
  protected async settled<T>(load: () => Promise<T>): Promise<T> {
    for (;;) {
      const before = this.localChanges;
      const value = await load();
      if (this.pendingChanges.size > 0) {
        await Promise.allSettled(this.pendingChanges);
        continue;
      }
      if (before === this.localChanges) return value;
    }
  }

  /**
   * A Task that loads one list of the selected chatbot: run again when the client or the chatbot
   * changes (and by `run()`), earlier runs aborted, empty while there is nothing to load.
   */
  protected chatbotList<T>(
    load: (client: ChatbotClient, chatbotUuid: string, signal: AbortSignal) => Promise<T[]>,
    onComplete: (list: T[]) => void,
    onError?: () => void,
  ): Task<readonly [ChatbotClient | undefined, string | undefined], T[]> {
    return new Task(this, {
      task: async ([client, uuid], { signal }) => {
        if (!client || !uuid) return [] as T[];
        return this.settled(() => load(client, uuid, signal));
      },
      args: () => [this.client, this.chatbot?.uuid] as const,
      onComplete,
      onError,
    });
  }

  /** The chatbot's data sources (listed, or chosen among by agents and tags). */
  protected sourceList(onComplete: (sources: DataSource[]) => void, onError?: () => void) {
    return this.chatbotList(
      (client, uuid, signal) => client.sources.list(uuid, { signal }),
      onComplete,
      onError,
    );
  }

  /** The chatbot's source tags (listed, or filtered by in the source table). */
  protected tagList(onComplete: (tags: SourceTag[]) => void) {
    return this.chatbotList(
      (client, uuid, signal) => client.tags.list(uuid, { signal }),
      onComplete,
    );
  }

  /** Reloads what the panel lists; called when its tab is shown again. */
  refresh(): void {}

  protected override willUpdate(changed: PropertyValues): void {
    if (changed.has('active') && this.active && changed.get('active') === false) this.refresh();
    if (
      changed.has('chatbot') &&
      (changed.get('chatbot') as Chatbot | undefined)?.uuid !== this.chatbot?.uuid
    ) {
      this.errors = {};
    }
  }

  /**
   * Runs one request for `key`: a change to the server, which lists loading meanwhile wait for
   * (see `settled()`). A failure is shown beside `key` and announced with `chatbot-admin-error`;
   * nothing the user typed is touched, so they can correct and retry.
   */
  protected async run<T>(key: string, operation: string, work: () => Promise<T>) {
    this.busy = new Set(this.busy).add(key);
    this.clearError(key);
    let request: Promise<T> | undefined;
    try {
      request = work();
      this.pendingChanges.add(request);
      const value = await request;
      this.changedLocally();
      return { ok: true as const, value };
    } catch (error) {
      if (!isAbortError(error)) this.fail(key, operation, error);
      return { ok: false as const, error };
    } finally {
      if (request) this.pendingChanges.delete(request);
      const busy = new Set(this.busy);
      busy.delete(key);
      this.busy = busy;
    }
  }

  /** Shows `message` beside `key`: input the panel refused before sending anything. */
  protected invalid(key: string, message: string): void {
    this.errors = { ...this.errors, [key]: message };
  }

  protected clearError(key: string): void {
    const { [key]: _previous, ...rest } = this.errors;
    this.errors = rest;
  }

  protected fail(key: string, operation: string, error: unknown): void {
    const message = errorText(error, this.strings);
    this.invalid(key, message);
    emit(this, 'chatbot-admin-error', { operation, error, message });
  }

  /**
   * Applies `remove`, which takes one of the rows `rows` selects off the screen, keeping a
   * keyboard user's place: if focus was in that row, it moves to the same control of the next row
   * that has one, else of the previous, else to `fallback`, rather than falling to <body>.
   */
  protected async removeRow(rows: string, fallback: string, remove: () => void): Promise<void> {
    const root = this.renderRoot as ShadowRoot;
    const active = root.activeElement;
    const list = [...root.querySelectorAll(rows)];
    const row = active ? list.find((r) => r.contains(active)) : undefined;
    remove();
    if (!row || !active) return;
    const control = [...row.querySelectorAll(ROW_CONTROLS)].indexOf(active);
    const at = list.indexOf(row);
    await this.updateComplete;
    if (row.isConnected) return;
    // The neighbour's control of the same kind (its Delete for a Delete): rows need not hold the
    // same controls (a transcript's answer may hold Copy code buttons, some in a closed passage),
    // so the position is only the last resort, among controls that can take focus.
    const kind = (c: Element) => `${c.tagName} ${c.className} ${c.textContent?.trim()}`;
    const wanted = kind(active);
    const neighbours = [...list.slice(at + 1), ...list.slice(0, at).reverse()];
    const target =
      neighbours
        .filter((r) => r.isConnected)
        .map((r) => {
          const controls = [...r.querySelectorAll<HTMLElement>(ROW_CONTROLS)].filter(
            (c) => c.getClientRects().length > 0,
          );
          return controls.find((c) => kind(c) === wanted) ?? controls[control];
        })
        .find((c) => c !== undefined) ?? root.querySelector<HTMLElement>(fallback);
    target?.focus();
  }

  protected changed(detail: AdminChangeDetail): void {
    emit(this, 'chatbot-admin-change', detail);
  }

  protected renderError(key: string) {
    const message = this.errors[key];
    return message ? html`<p class="error" part="error" role="alert">${message}</p>` : nothing;
  }

  /**
   * The visible state of a loading Task that failed: its message with a Retry button, and the
   * failure reported once with `chatbot-admin-error` as `operation` (e.g. `agents.list`).
   */
  protected renderLoadError(error: unknown, retry: () => void, operation: string) {
    return loadError(error, this.strings, retry, { host: this, operation });
  }

  protected renderPending() {
    return loading(this.strings);
  }
}

/** The controls of a row that may hold focus, in the order that identifies one. */
const ROW_CONTROLS = 'input, select, textarea, button';

/**
 * `aria-disabled` for a control that cannot be used now (its request is on its way, or there is
 * nothing for it to act on). Such controls are not `disabled`: a disabled control loses focus,
 * to <body>, and a keyboard or screen-reader user their place; see `ignoreAriaDisabled`.
 */
export const ariaDisabled = (unavailable: boolean) => (unavailable ? 'true' : 'false');

/**
 * Takes an Escape for the closest thing it closes: true, and taken (so an enclosing one stays
 * open), unless it ends an input method's composition or something inside took it first.
 */
export function takeEscape(event: KeyboardEvent): boolean {
  if (event.key !== 'Escape' || event.isComposing || event.defaultPrevented) return false;
  event.preventDefault();
  return true;
}

/**
 * Stops every activation of a control of `host` marked `aria-disabled="true"`: a click, Space or
 * Enter on it, and Enter in a field of its form (which clicks the form's submit button). Caught
 * on the host, before any handler inside it, so each handler needs no check of its own.
 */
export function ignoreAriaDisabled(host: HTMLElement): void {
  host.addEventListener(
    'click',
    (event) => {
      const target = event.composedPath()[0];
      if (target instanceof Element && target.closest('[aria-disabled="true"]')) {
        event.preventDefault();
        event.stopImmediatePropagation();
      }
    },
    { capture: true },
  );
}

/** Load failures already reported: a render shows the same failure many times. */
const reported = new WeakSet<object>();

/**
 * A list that failed to load, with a Retry button (the panels' lists and the chatbot list),
 * reported once with `chatbot-admin-error`: a host learns of a key that expired while a tab was
 * open as it does of a failed save. Sent after the render that shows it.
 */
export function loadError(
  error: unknown,
  strings: AdminStrings,
  retry: () => void,
  { host, operation }: { host: HTMLElement; operation: string },
) {
  if (typeof error === 'object' && error !== null && !reported.has(error)) {
    reported.add(error);
    const message = errorText(error, strings);
    queueMicrotask(() => emit(host, 'chatbot-admin-error', { operation, error, message }));
  }
  return html`<div class="error" part="error" role="alert">
    <p>${errorText(error, strings)}</p>
    <button type="button" part="button" @click=${retry}>${strings.retry}</button>
  </div>`;
}

/** A list loading for the first time. */
export const loading = (strings: AdminStrings) =>
  html`<p class="pending" role="status">${strings.loading}</p>`;
