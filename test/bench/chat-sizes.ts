/**
 * The sizes half of `npm run bench:chat`: the first-load bundles, min + gzip -9, beside
 * deep-chat's; what a page that shows answers loads in all (the element and the markdown
 * renderer chunk); and each library's share of that set, read from the bundles' source maps.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { root } from '../e2e/harness.js';

/** The first-load budget of issue 18, and the target for the set that shows answers. */
export const FIRST_LOAD_BUDGET = 21.5 * 1024;
export const ANSWER_SET_TARGET = 40 * 1024;

export const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const gz = (bytes: Uint8Array | string) => gzipSync(bytes, { level: 9 }).length;

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/**
 * The generated text of `file` attributed to the sources its map names, segment by segment
 * (a segment runs to the next one on its line); text no segment covers is `(unmapped)`.
 */
function bySource(file: string): Map<string, string> {
  const code = readFileSync(join(root, file), 'utf8').split('\n');
  const map = JSON.parse(readFileSync(join(root, `${file}.map`), 'utf8')) as {
    sources: string[];
    mappings: string;
  };
  const parts = new Map<string, string>();
  const add = (source: string, text: string) => parts.set(source, (parts.get(source) ?? '') + text);
  let source = 0;
  map.mappings.split(';').forEach((line, row) => {
    const text = code[row] ?? '';
    let column = 0;
    let at = 0;
    let owner = '(unmapped)';
    for (const segment of line ? line.split(',') : []) {
      const values: number[] = [];
      let value = 0;
      let shift = 0;
      for (const char of segment) {
        const digit = BASE64.indexOf(char);
        value += (digit & 31) << shift;
        shift += 5;
        if (!(digit & 32)) {
          values.push(value & 1 ? -(value >>> 1) : value >>> 1);
          value = 0;
          shift = 0;
        }
      }
      column += values[0]!;
      add(owner, text.slice(at, column));
      at = column;
      if (values.length >= 4) {
        source += values[1]!;
        owner = map.sources[source]!;
      } else owner = '(unmapped)';
    }
    add(owner, `${text.slice(at)}\n`);
  });
  return parts;
}

const LIBRARIES: [string, RegExp][] = [
  ['lit', /node_modules\/(lit|lit-html|lit-element|@lit\/[\w-]+)\//],
  ['marked', /node_modules\/marked\//],
  ['DOMPurify', /node_modules\/dompurify\//],
  ['ours (src/)', /^\.\.\/src\//],
];

const libraryOf = (source: string) =>
  LIBRARIES.find(([, pattern]) => pattern.test(source))?.[0] ?? 'other (glue, unmapped)';

/** Prints the size tables; returns the budgets missed. */
export async function reportSizes(): Promise<string[]> {
  const missed: string[] = [];
  const read = (file: string) => readFileSync(join(root, file));
  console.log('\n(a) Bundle size, min + gzip -9\n');
  console.log('| bundle | min | min + gzip | budget |');
  console.log('|---|---:|---:|---|');
  for (const [file, label] of [
    ['dist/chatbot-chat.js', 'chatbot-chat (first load)'],
    ['dist/chatbot-embed.js', 'chatbot-embed (first load)'],
  ] as const) {
    const source = read(file);
    const ok = gz(source) <= FIRST_LOAD_BUDGET;
    if (!ok) missed.push(`${label} is ${gz(source)} B gzip (budget ${FIRST_LOAD_BUDGET} B)`);
    console.log(
      `| ${label} | ${kb(source.length)} | ${kb(gz(source))} (${gz(source)} B) | ≤ 21.5 KB: ${ok ? 'ok' : 'MISSED'} |`,
    );
  }
  const renderer = read('dist/chatbot-markdown.js');
  console.log(
    `| chatbot-markdown (loaded when an answer first needs it) | ${kb(renderer.length)} | ${kb(gz(renderer))} | — |`,
  );
  const rawHtml = read('dist/chatbot-raw-html.js');
  console.log(
    `| chatbot-raw-html (marked's HTML renderer and DOMPurify: loaded when an answer first has raw HTML) | ${kb(rawHtml.length)} | ${kb(gz(rawHtml))} | — |`,
  );
  const deep = read('node_modules/deep-chat/dist/deepChat.bundle.js');
  console.log(`| deep-chat 2.4.2 | ${kb(deep.length)} | ${kb(gz(deep))} | — |`);
  for (const element of ['chat', 'embed']) {
    const first = read(`dist/chatbot-${element}.js`);
    const set = gz(first) + gz(renderer);
    console.log(
      `| a page showing answers: chatbot-${element} + chatbot-markdown | ${kb(first.length + renderer.length)} | ${kb(set)} | towards ${kb(ANSWER_SET_TARGET)} |`,
    );
  }
  console.log(
    `| a page showing answers with raw HTML: chatbot-chat + chatbot-markdown + chatbot-raw-html | ${kb(read('dist/chatbot-chat.js').length + renderer.length + rawHtml.length)} | ${kb(gz(read('dist/chatbot-chat.js')) + gz(renderer) + gz(rawHtml))} | — |`,
  );
  // What the required libraries weigh alone, minified together: the floor under our bundles.
  const floor = await build({
    stdin: {
      contents: `import { LitElement, html, css, nothing } from 'lit';
        import { property, state, query } from 'lit/decorators.js';
        import { Lexer, Parser } from 'marked';
        import DOMPurify from 'dompurify';
        window.x = [LitElement, html, css, nothing, property, state, query, Lexer, Parser, DOMPurify];`,
      resolveDir: root,
    },
    bundle: true,
    minify: true,
    format: 'esm',
    write: false,
  });
  const floorBytes = floor.outputFiles[0]!.contents;
  console.log(
    `| (lit + marked + DOMPurify alone) | ${kb(floorBytes.length)} | ${kb(gz(floorBytes))} | — |`,
  );
  // The libraries the set that shows answers needs since raw HTML has a file of its own.
  const lexerOnly = await build({
    stdin: {
      contents: `import { LitElement, html, css, nothing } from 'lit';
        import { property, state, query } from 'lit/decorators.js';
        import { Lexer } from 'marked';
        window.x = [LitElement, html, css, nothing, property, state, query, Lexer];`,
      resolveDir: root,
    },
    bundle: true,
    minify: true,
    format: 'esm',
    write: false,
  });
  const lexerBytes = lexerOnly.outputFiles[0]!.contents;
  console.log(
    `| (lit + marked's Lexer alone) | ${kb(lexerBytes.length)} | ${kb(gz(lexerBytes))} | — |`,
  );

  // Each library's share of the set that shows answers. gzip is not additive: the share of the
  // set's gzip is in proportion to minified bytes, and each part gzipped alone is beside it.
  const parts = new Map<string, string>();
  for (const file of ['dist/chatbot-chat.js', 'dist/chatbot-markdown.js']) {
    for (const [source, text] of bySource(file)) {
      const library = libraryOf(source);
      parts.set(library, (parts.get(library) ?? '') + text);
    }
  }
  const chat = read('dist/chatbot-chat.js');
  const setMin = chat.length + renderer.length;
  const setGz = gz(chat) + gz(renderer);
  console.log(
    `\nEach library's share of the set a page needs to show answers (chatbot-chat.js + chatbot-markdown.js, ${kb(setGz)} gzip)\n`,
  );
  console.log('| part | min | share | ≈ share of the set gzip | gzip alone |');
  console.log('|---|---:|---:|---:|---:|');
  for (const [library, text] of [...parts].sort((a, b) => b[1].length - a[1].length)) {
    const min = Buffer.byteLength(text);
    console.log(
      `| ${library} | ${kb(min)} | ${((100 * min) / setMin).toFixed(0)} % | ${kb((setGz * min) / setMin)} | ${kb(gz(text))} |`,
    );
  }
  return missed;
}
