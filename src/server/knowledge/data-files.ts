/** The data files a source may be: CSV (papaparse) and JSON, each read into lines of text. */
import Papa from 'papaparse';
import type { Extracted } from './parse.js';
import { type TextBudget, UnreadableFileError } from './read-limits.js';

/** Each row becomes one line of `Header: value` pairs, so a row reads as a sentence. */
export function extractCsv(text: string, budget: TextBudget): Extracted {
  const parsed = Papa.parse<Record<string, string>>(text.trim(), {
    header: true,
    skipEmptyLines: true,
  });
  const headers = parsed.meta.fields ?? [];
  const lines = parsed.data.map((row) =>
    headers
      .map((h) => [h, String(row[h] ?? '').trim()] as const)
      .filter(([, v]) => v)
      .map(([h, v]) => budget.spend(`${h}: ${v}`))
      .join('; '),
  );
  return {
    text: lines
      .filter(Boolean)
      .map((l) => `${l}.`)
      .join('\n'),
    title: '',
  };
}

/**
 * How much of a JSON leaf's path its line repeats: the keys nearest the value, within this many
 * characters. A real file's paths are far shorter; a file nested thousands deep would otherwise
 * write its whole depth once per leaf (42 KB of it came to gigabytes).
 */
const JSON_PATH_CHARS = 200;

/**
 * A path of keys and 1-based indexes, cut from the left to `JSON_PATH_CHARS` (or 64 keys, which
 * empty keys could pass unmeasured) with an ellipsis.
 */
function jsonPath(keys: readonly string[]): string {
  let path = '';
  for (let i = keys.length - 1; i >= 0; i--) {
    const next = path ? `${keys[i]} ${path}` : keys[i]!;
    if (next.length > JSON_PATH_CHARS || keys.length - i > 64) {
      return path ? `… ${path}` : `…${next.slice(-JSON_PATH_CHARS)}`;
    }
    path = next;
  }
  return path;
}

/** Leaves become `path: value` lines; a top-level `title` or `name` names the source. */
export function extractJson(text: string, budget: TextBudget): Extracted {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new UnreadableFileError(`the file is not valid JSON: ${(error as Error).message}`);
  }
  const lines: string[] = [];
  // Depth first, in the file's order, with a stack of its own: nesting is the file's to choose,
  // and a recursive walk ran out of the thread's stack at about 10,000 levels.
  const keys: string[] = [];
  const stack: Array<{ value: unknown; depth: number; key?: string }> = [{ value: data, depth: 0 }];
  while (stack.length > 0) {
    const { value, depth, key } = stack.pop()!;
    keys.length = depth;
    if (key !== undefined) keys[depth - 1] = key;
    if (value === null || value === undefined) continue;
    if (typeof value !== 'object') {
      const path = jsonPath(keys);
      lines.push(budget.spend(path ? `${path}: ${String(value)}` : String(value)));
      continue;
    }
    const entries = Array.isArray(value)
      ? value.map((v, i) => [String(i + 1), v] as const)
      : Object.entries(value);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [k, v] = entries[i]!;
      stack.push({ value: v, depth: depth + 1, key: k });
    }
  }
  const record =
    typeof data === 'object' && data !== null && !Array.isArray(data)
      ? (data as Record<string, unknown>)
      : {};
  const title =
    typeof record.title === 'string'
      ? record.title
      : typeof record.name === 'string'
        ? record.name
        : '';
  return { text: lines.join('\n'), title };
}
