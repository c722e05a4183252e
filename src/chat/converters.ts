/** Reads `suggestions` as a JSON array, or as `|`-separated text. */
export const listConverter = {
  fromAttribute(value: string | null): string[] {
    if (!value) return [];
    try {
      const parsed: unknown = JSON.parse(value);
      if (Array.isArray(parsed)) return parsed.map(String);
    } catch {
      // Not JSON: the simple form.
    }
    return value
      .split('|')
      .map((item) => item.trim())
      .filter(Boolean);
  },
};

/** Keeps unparsable JSON as the raw text, so the refusal can say what was wrong. */
export const jsonConverter = {
  fromAttribute(value: string | null): unknown {
    if (value === null || value === '') return undefined;
    try {
      return JSON.parse(value);
    } catch {
      return value;
    }
  },
};
