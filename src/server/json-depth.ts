/** How deep a JSON body may nest: the top-level object counts as the first level. */
export const JSON_DEPTH_LIMIT = 32;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COLON = 0x3a;
const COMMA = 0x2c;

/** How many members of a path a message names before it ends in "…". */
const NAMED_SEGMENTS = 3;

/**
 * Where a JSON text nests deeper than `limit`, as the member path a 400 names (`a.b[2]`, or
 * `body[0]` when the body is an array); null when it does not. One pass over the text, no
 * recursion, before JSON.parse: what the server does with a value afterwards (stores it, freezes
 * it, sends it back) recurses, and a few thousand levels overflowed the stack. Text that is not
 * JSON is left for JSON.parse to refuse.
 */
export function jsonTooDeep(text: string, limit: number): string | null {
  // Per open container: the member it is in (a key in an object, an index in an array).
  const path: Array<string | number> = [];
  const objects: boolean[] = [];
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === QUOTE) {
      const end = stringEnd(text, i);
      if (expectKey) path[path.length - 1] = keyOf(text.slice(i, end + 1));
      i = end;
    } else if (ch === OPEN_OBJECT || ch === OPEN_ARRAY) {
      if (objects.length >= limit) return describe(path);
      objects.push(ch === OPEN_OBJECT);
      path.push(ch === OPEN_OBJECT ? '' : 0);
      expectKey = ch === OPEN_OBJECT;
    } else if (ch === CLOSE_OBJECT || ch === CLOSE_ARRAY) {
      objects.pop();
      path.pop();
      expectKey = false;
    } else if (ch === COLON) {
      expectKey = false;
    } else if (ch === COMMA && objects.length > 0) {
      const top = objects.length - 1;
      if (objects[top]) expectKey = true;
      else path[top] = (path[top] as number) + 1;
    }
  }
  return null;
}

/** The index of the quote closing the string that opens at `start` (or the text's end). */
function stringEnd(text: string, start: number): number {
  let at = start;
  for (;;) {
    at = text.indexOf('"', at + 1);
    if (at === -1) return text.length;
    let slashes = 0;
    while (text.charCodeAt(at - 1 - slashes) === BACKSLASH) slashes++;
    if (slashes % 2 === 0) return at;
  }
}

function keyOf(quoted: string): string {
  try {
    return JSON.parse(quoted) as string;
  } catch {
    return quoted.slice(1, -1);
  }
}

function describe(path: Array<string | number>): string {
  let name = typeof path[0] === 'number' ? 'body' : '';
  path.slice(0, NAMED_SEGMENTS).forEach((segment, i) => {
    name += typeof segment === 'number' ? `[${segment}]` : i === 0 ? segment : `.${segment}`;
  });
  return path.length > NAMED_SEGMENTS ? `${name}…` : name || 'body';
}
