import type { ReactiveController, ReactiveControllerHost } from 'lit';

/**
 * The strings mechanism both elements share. Each element has one table per language
 * (src/ui/strings/<element>.ts); English is complete, other languages may be partial and fall
 * back to English key by key. A page overrides any string through the element's `strings` property.
 */

export type Tables<T extends Record<string, string>> = { en: T } & Record<string, Partial<T>>;

/** Picks `lang` (or its base language: `de-CH` → `de`), over English, then the page's overrides. */
export function localize<T extends Record<string, string>>(
  tables: Tables<T>,
  lang: string | null | undefined,
  overrides?: Partial<T> | null,
): T {
  const wanted = (lang ?? '').toLowerCase();
  const base = wanted.split('-')[0] ?? '';
  const table = tables[wanted] ?? tables[base] ?? {};
  return { ...tables.en, ...table, ...(overrides ?? {}) } as T;
}

/** Fills `{name}` placeholders. */
export function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) =>
    key in values ? String(values[key]) : whole,
  );
}

/**
 * Keys of a table with plural forms: `{key}Other`, and `{key}One` (and `Few`, `Many`…) where a
 * language needs them.
 */
export type PluralKey<T> = {
  [K in keyof T & string]: K extends `${infer Key}Other` ? Key : never;
}[keyof T & string];

const pluralRules = new Map<string, Intl.PluralRules>();

/**
 * Fills the form of `key` that `count` takes in `lang`: `{key}One`, `{key}Few`… by the
 * language's plural category (Intl.PluralRules), `{key}Other` where the table has no form of its
 * own for that category. `{count}` is `count` unless `values` gives it (formatted, say).
 */
export function plural<T extends Record<string, string>>(
  strings: T,
  key: PluralKey<T>,
  count: number,
  lang: string,
  values: Record<string, string | number> = {},
): string {
  let rules = pluralRules.get(lang);
  if (!rules) {
    rules = new Intl.PluralRules(lang);
    pluralRules.set(lang, rules);
  }
  const category = rules.select(count);
  const form = `${key}${category[0]!.toUpperCase()}${category.slice(1)}`;
  return fill(strings[form] ?? strings[`${key}Other`]!, { count, ...values });
}

/**
 * The language in effect for an element: its own `lang`, the closest ancestor's, or the page's,
 * as a language tag every Intl formatter takes. A page's `lang` may be none at all (`en_US`),
 * which Intl refuses with a RangeError wherever it is given: English then.
 */
export function languageOf(element: Element): string {
  const owner = element.closest('[lang]');
  const lang = owner?.getAttribute('lang') || document.documentElement.lang || navigator.language;
  try {
    // One tag in, one out.
    return Intl.getCanonicalLocales(lang)[0]!;
  } catch {
    return 'en';
  }
}

/**
 * Calls `onChange` while its host is connected whenever a `lang` attribute changes anywhere in
 * the document, such as a language switcher setting `<html lang>`, so the host's strings follow
 * the page. One observer serves every host.
 */
export class LanguageObserver implements ReactiveController {
  private static readonly hosts = new Set<LanguageObserver>();
  private static observer?: MutationObserver;

  constructor(
    host: ReactiveControllerHost,
    private readonly onChange: () => void,
  ) {
    host.addController(this);
  }

  hostConnected(): void {
    LanguageObserver.hosts.add(this);
    if (!LanguageObserver.observer) {
      LanguageObserver.observer = new MutationObserver(() => {
        for (const observer of LanguageObserver.hosts) observer.onChange();
      });
      LanguageObserver.observer.observe(document.documentElement, {
        attributeFilter: ['lang'],
        subtree: true,
      });
    }
  }

  hostDisconnected(): void {
    LanguageObserver.hosts.delete(this);
    if (LanguageObserver.hosts.size === 0) {
      LanguageObserver.observer?.disconnect();
      LanguageObserver.observer = undefined;
    }
  }
}
