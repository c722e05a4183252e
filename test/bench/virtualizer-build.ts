/**
 * The admin bundle a second time, with Lit's `@lit-labs/virtualizer` in place of our
 * VirtualRowsController (test/bench/virtualizer-rows.ts stands in for the module), so the admin
 * benches measure both on the same rows in the same run. Built into a temporary folder the bench
 * serves beside `dist/`; nothing here touches `dist/`.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build, type Plugin } from 'vite';
import { root } from '../e2e/harness.js';

/** Where the benches serve the virtualizer's build. */
export const VIRTUALIZER_PREFIX = '/dist-virtualizer';

const swapRows: Plugin = {
  name: 'virtual-rows-from-lit-labs',
  enforce: 'pre',
  resolveId(source, importer) {
    if (source !== './virtual-rows-controller.js') return;
    if (!importer?.replaceAll('\\', '/').includes('/src/admin/')) return;
    return join(root, 'test/bench/virtualizer-rows.ts');
  },
};

/** One built variant of the admin: where its files are and its first load's size. */
export interface AdminBuild {
  readonly label: string;
  /** The URL path of its chatbot-admin.js. */
  readonly script: string;
  /** chatbot-admin.js and what it imports statically, min and min + gzip -9 (bytes). */
  readonly bytes: number;
  readonly gzip: number;
}

const sizeOf = (file: string) => {
  const code = readFileSync(file);
  return { bytes: code.length, gzip: gzipSync(code, { level: 9 }).length };
};

export const ours = (): AdminBuild => ({
  label: 'ours (VirtualRowsController)',
  script: '/dist/chatbot-admin.js',
  ...sizeOf(join(root, 'dist/chatbot-admin.js')),
});

/**
 * Builds the variant; `close()` removes it. The staticDir is for the harness's server options.
 */
export async function buildVirtualizerAdmin() {
  const dir = mkdtempSync(join(tmpdir(), 'bench-virtualizer-'));
  await build({
    configFile: join(root, 'vite.config.ts'),
    root,
    mode: 'admin',
    logLevel: 'warn',
    plugins: [swapRows],
    build: { outDir: dir },
  });
  const files = readdirSync(dir).filter((name) => name.endsWith('.js'));
  // A split-off chunk would be a second request of the first load: only the lazy pieces the
  // regular build has too (Insights, Try it's chat, the German strings…) are expected.
  const regular = new Set(
    readdirSync(join(root, 'dist')).filter((n) => n.startsWith('chatbot-admin')),
  );
  const extra = files.filter((name) => !regular.has(name));
  if (extra.length) throw new Error(`unexpected chunks in the virtualizer build: ${extra}`);
  const variant: AdminBuild = {
    label: '@lit-labs/virtualizer 2.1.1',
    script: `${VIRTUALIZER_PREFIX}/chatbot-admin.js`,
    ...sizeOf(join(dir, 'chatbot-admin.js')),
  };
  return {
    variant,
    staticDir: { prefix: VIRTUALIZER_PREFIX, dir },
    close: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * In-page script for both admin benches: `viewOffset(body)` is, when the rows in a table body
 * fill its view, how many rows the one at the top of the view is from the one its scroll
 * position says (rows all of one height; `aria-rowindex` 2 is the first item), whichever draws
 * them; null while they do not fill it. `viewMatches(body)`: they fill it, off by at most one
 * (a row cut by the view's top edge).
 */
export const VIEW_MATCHES = `const viewOffset = (body) => {
  const view = body.getBoundingClientRect();
  const rows = [...body.querySelectorAll('[role=row]')]
    .map((row) => ({ row, box: row.getBoundingClientRect() }))
    .filter(({ box }) => box.height > 0);
  if (rows.length === 0) return null;
  const atTop = rows.find(({ box }) => box.top <= view.top + 1 && box.bottom > view.top + 1);
  const bottom = Math.max(...rows.map(({ box }) => box.bottom));
  const atEnd = body.scrollTop + body.clientHeight >= body.scrollHeight - 1;
  if (!atTop || (bottom < view.bottom - 1 && !atEnd)) return null;
  const expected = Math.floor((body.scrollTop + 1) / atTop.box.height);
  return Number(atTop.row.getAttribute('aria-rowindex')) - 2 - expected;
};
const viewMatches = (body) => {
  const offset = viewOffset(body);
  return offset !== null && Math.abs(offset) <= 1;
};`;

/**
 * In-page script: `longFrames()` starts recording Chromium's long animation frames (over 50 ms)
 * and returns a function that stops and gives each one's duration and the time spent in script
 * and in style and layout: a long frame with little of either is the machine, not the page.
 */
export const LONG_FRAMES = `const longFrames = () => {
  const entries = [];
  const observer = new PerformanceObserver((list) => entries.push(...list.getEntries()));
  observer.observe({ type: 'long-animation-frame' });
  return () => {
    entries.push(...observer.takeRecords());
    observer.disconnect();
    return entries.map((e) => ({
      duration: e.duration,
      script: e.scripts.reduce((sum, s) => sum + s.duration, 0),
      layout: e.styleAndLayoutStart ? e.startTime + e.duration - e.styleAndLayoutStart : 0,
      top: e.scripts
        .toSorted((a, b) => b.duration - a.duration)
        .slice(0, 1)
        .map((t) => \`\${t.invoker} \${t.sourceFunctionName || ''} \${Math.round(t.duration)} ms\`)
        .join(''),
    }));
  };
};`;

/** A long animation frame as `longFrames()` gives it. */
export interface LongFrame {
  readonly duration: number;
  readonly script: number;
  readonly layout: number;
  /** The longest script in it: what ran it, its function and its duration. */
  readonly top: string;
}

/** The count of long frames over all runs and what the longest was made of. */
export function describeLongFrames(runs: readonly (readonly LongFrame[])[]): string {
  const all = runs.flat();
  const longest = all.reduce<LongFrame | undefined>(
    (a, b) => (a && a.duration >= b.duration ? a : b),
    undefined,
  );
  if (!longest) return 'none';
  const f = (value: number) => value.toFixed(0);
  return `${all.length}; longest ${f(longest.duration)} ms: script ${f(longest.script)}, style+layout ${f(longest.layout)}${longest.top ? ` (${longest.top})` : ''}`;
}
