/**
 * The traced half of `npm run bench:chat`: a Chromium trace of each run, whose main-thread
 * tasks between the page's `start` and `end` marks are summed, with the longest task and what it
 * spent its time on. Used for the comparison with deep-chat and for a remembered conversation.
 */
import type { Browser, Page } from 'playwright-core';
import type { Harness } from '../e2e/harness.js';
import { CHUNK, finalShape, openPage, page, RESTORE, rememberedExchanges } from './chat-pages.js';
import { median, ms } from './figures.js';

export async function benchRestore(h: Harness, runCount: number) {
  const p = await openPage(h, page(h, 'bench-restore', '', RESTORE));
  const exchanges = rememberedExchanges();
  const run = () =>
    measure(h.browser, p, () =>
      p.evaluate(
        async (x) => (window as unknown as { __run: (x: unknown) => Promise<void> }).__run(x),
        exchanges,
      ),
    );
  await run(); // warm-up, discarded
  const runs: Run[] = [];
  for (let i = 0; i < runCount; i++) runs.push(await run());
  await p.context().close();
  return summary(runs);
}

/** Medians of the runs, and the longest task of any; BENCH_VERBOSE says what each one's was. */
function summary(runs: Run[]) {
  if (process.env.BENCH_VERBOSE) {
    for (const r of runs) console.error(`  longest ${ms(r.longestTaskMs)}: ${r.longestTaskParts}`);
  }
  return {
    mainThreadMs: median(runs.map((r) => r.mainThreadMs)),
    longestTaskMs: Math.max(...runs.map((r) => r.longestTaskMs)),
    tasks: median(runs.map((r) => r.tasks)),
  };
}

interface Run {
  mainThreadMs: number;
  longestTaskMs: number;
  tasks: number;
  /** What the longest task spent its time on (trace events over 5 ms inside it). */
  longestTaskParts: string;
}

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  tid: number;
  pid: number;
  args?: { name?: string; data?: { name?: string } };
}

/** Sums the renderer main thread's top-level tasks between the page's `start` and `end` marks. */
function analyse(trace: Buffer): Run {
  const events = (JSON.parse(trace.toString('utf8')) as { traceEvents: TraceEvent[] }).traceEvents;
  const mains = new Set(
    events
      .filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
      .map((e) => `${e.pid}:${e.tid}`),
  );
  const mark = (name: string) =>
    events.find((e) => e.args?.data?.name === name || (e.name === name && e.ph !== 'X'))?.ts;
  const start = mark('start');
  const end = mark('end');
  if (start === undefined || end === undefined) throw new Error('trace has no start/end marks');
  let total = 0;
  let longest: TraceEvent | undefined;
  let tasks = 0;
  for (const e of events) {
    if (e.name !== 'RunTask' || e.ph !== 'X' || !mains.has(`${e.pid}:${e.tid}`)) continue;
    if (e.ts + (e.dur ?? 0) < start || e.ts > end) continue;
    total += (e.dur ?? 0) / 1000;
    if (!longest || (e.dur ?? 0) > (longest.dur ?? 0)) longest = e;
    tasks += 1;
  }
  const parts = longest
    ? events
        .filter(
          (e) =>
            e.ph === 'X' &&
            e.pid === longest.pid &&
            e.tid === longest.tid &&
            e.name !== 'RunTask' &&
            e.ts >= longest.ts &&
            e.ts + (e.dur ?? 0) <= longest.ts + (longest.dur ?? 0) &&
            (e.dur ?? 0) > 5000,
        )
        .map((e) => `${e.name} ${((e.dur ?? 0) / 1000).toFixed(0)}`)
        .slice(0, 6)
        .join(', ')
    : '';
  return {
    mainThreadMs: total,
    longestTaskMs: (longest?.dur ?? 0) / 1000,
    tasks,
    longestTaskParts: `${parts} (at ${(((longest?.ts ?? start) - start) / 1000).toFixed(0)} of ${((end - start) / 1000).toFixed(0)} ms)`,
  };
}

/**
 * Traces `work` in the page. Runs reuse one page, so each starts after a garbage collection:
 * a page that opens has none of the last run's answers to collect, and a major collection of
 * them (30-70 ms) would otherwise land in a measured task.
 */
async function measure(browser: Browser, p: Page, work: () => Promise<unknown>): Promise<Run> {
  const cdp = await p.context().newCDPSession(p);
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.detach();
  await browser.startTracing(p, {
    categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink.user_timing'],
  });
  await work();
  return analyse(await browser.stopTracing());
}

/** Streams `text` into the page's element in CHUNK-character pieces, traced. */
const measureStream = (browser: Browser, p: Page, text: string) =>
  measure(browser, p, () =>
    p.evaluate(
      async ([t, size]) =>
        (window as unknown as { __run: (t: string, s: number) => Promise<void> }).__run(t, size),
      [text, CHUNK] as const,
    ),
  );

export async function bench(h: Harness, url: string, text: string, runCount: number) {
  const p = await openPage(h, url);
  // A discarded warm-up run: the first run pays for compiling the bundle's code paths.
  await measureStream(h.browser, p, text.slice(0, 2000));
  const runs: Run[] = [];
  for (let i = 0; i < runCount; i++) runs.push(await measureStream(h.browser, p, text));
  const shape = await finalShape(p);
  await p.context().close();
  return { ...summary(runs), shape };
}
