import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { LanguageObserver, languageOf, localize, type Tables } from './i18n.js';

/** Tables on their way, by loader: every element of a page waits for the same one. */
const loading = new Map<() => Promise<unknown>, Promise<unknown>>();

/** An element with a `strings` property of overrides for its table. */
export interface StringsHost<T extends Record<string, string>>
  extends ReactiveControllerHost,
    Element {
  strings?: Partial<T>;
}

/**
 * An element's strings: the language resolved once per update (its own `lang`, the closest
 * ancestor's, or the page's, followed as a language switcher changes it), and one strings object
 * per language and overrides, so children given it re-render only when it really changes.
 */
export class StringsController<T extends Record<string, string>> implements ReactiveController {
  /** The BCP 47 tag in effect, as of the host's last update (or connection). */
  language = 'en';
  /** The table of the host's language on its way, if any: its first render waits for it. */
  pending?: Promise<void>;
  /** Languages whose table was asked for: waited for once, by the first paint only. */
  private readonly asked = new Set<string>();
  private memo?: { language: string; overrides?: Partial<T>; strings: T };

  constructor(
    private readonly host: StringsHost<T>,
    private readonly tables: Tables<T>,
    /** Tables loaded when first needed, by base language (`de`). */
    private readonly later: Record<string, () => Promise<Partial<T>>> = {},
  ) {
    host.addController(this);
    // The page's language may change under the element: `<html lang>` set by a language switcher.
    new LanguageObserver(host, () => host.requestUpdate());
  }

  /** The strings table in effect, with the host's overrides. */
  get value(): T {
    const language = this.language;
    const memo = this.memo;
    const overrides = this.host.strings;
    if (memo?.language === language && memo.overrides === overrides) return memo.strings;
    const strings = localize(this.tables, language, overrides);
    this.memo = { language, overrides, strings };
    return strings;
  }

  /**
   * The host's `scheduleUpdate`, put off while its table is on its way: an element shown in
   * another language paints in it, not first in English. Call from the host's override.
   */
  schedule(update: () => void): Promise<void> | undefined {
    if (this.pending) return this.pending.then(update);
    update();
    return undefined;
  }

  hostConnected(): void {
    this.follow();
  }

  hostUpdate(): void {
    this.follow();
  }

  /** Takes the host's language, and fetches its table when it comes later (shared by all hosts). */
  private follow(): void {
    this.language = languageOf(this.host);
    const base = this.language.toLowerCase().split('-')[0]!;
    const load = this.later[base];
    if (!load || this.tables[base] || this.asked.has(base)) return;
    this.asked.add(base);
    // Not loaded (a file missing beside the element): an empty table, English as for a language
    // without one, and not asked for again.
    let table = loading.get(load);
    if (!table) {
      table = load().catch(() => ({}));
      loading.set(load, table);
    }
    const applied = table.then((loaded) => {
      this.tables[base] = loaded as Partial<T>;
      this.memo = undefined;
      this.host.requestUpdate();
    });
    // A file that neither comes nor fails (a stalled request) holds the first paint a few
    // seconds at most: English until it is here.
    this.pending = Promise.race([applied, new Promise((go) => setTimeout(go, 3000))]).then(() => {
      this.pending = undefined;
    });
  }
}
