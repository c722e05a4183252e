import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { LanguageObserver, languageOf, localize, type Tables } from './i18n.js';

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
  private memo?: { language: string; overrides?: Partial<T>; strings: T };

  constructor(
    private readonly host: StringsHost<T>,
    private readonly tables: Tables<T>,
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

  hostConnected(): void {
    this.language = languageOf(this.host);
  }

  hostUpdate(): void {
    this.language = languageOf(this.host);
  }
}
