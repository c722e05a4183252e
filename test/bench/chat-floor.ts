/**
 * Our chat against a floor, in the same page run: the cheapest thing that does the same job. The
 * floor is a bare incremental renderer, marked's lexer on the open last block, DOMPurify, appended
 * to a plain div, batched per animation frame, fed the same chunks through the same kind of
 * response body. Both are measured as a new user would: Chromium's `Performance.getMetrics`
 * `TaskDuration` from the Send click to the answer's last heading being in the DOM, on a freshly
 * loaded page (its first answer) and on a page that has answered before.
 */
import { build } from 'esbuild';
import type { CDPSession, Page } from 'playwright-core';
import { type Harness, root } from '../e2e/harness.js';
import {
  CHUNK,
  expectedShape,
  finalShape,
  markdownAnswer,
  openPage,
  page,
  visibleCounts,
} from './chat-pages.js';
import { median, percentile } from './figures.js';

const FLOOR = `
import { Lexer, Parser } from 'marked';
import DOMPurify from 'dompurify';
const out = document.getElementById('answers');
// ?follow: the div is a scroller kept at its newest text, as a chat's log is.
const follow = location.search === '?follow';
if (follow) out.style.cssText = 'height: 540px; overflow: auto';
const purify = DOMPurify(window);
const options = { gfm: true, async: false };
const fragment = (tokens) => purify.sanitize(Parser.parse(tokens, options), { RETURN_DOM_FRAGMENT: true });
let chunks = [];
let finished;
async function stream() {
  const answer = document.createElement('div');
  const open = document.createElement('div');
  answer.append(open);
  out.append(answer);
  const reader = new Response(window.__body(chunks)).body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let committed = 0;
  let frame = 0;
  const render = (final) => {
    frame = 0;
    const tokens = Lexer.lex(text.slice(committed), options);
    // Every block but the last is closed by the one after it.
    let last = tokens.length;
    if (!final) {
      last -= 1;
      while (last > 0 && tokens[last].type === 'space') last -= 1;
    }
    if (last > 0) {
      const block = document.createElement('div');
      block.append(fragment(tokens.slice(0, last)));
      answer.insertBefore(block, open);
      for (const token of tokens.slice(0, last)) committed += token.raw.length;
    }
    open.replaceChildren(fragment(tokens.slice(last)));
    if (follow) out.scrollTop = out.scrollHeight;
  };
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
    frame ||= requestAnimationFrame(() => render(false));
  }
  cancelAnimationFrame(frame);
  render(true);
}
window.__prepare = async (text, size, log) => {
  chunks = window.__chunks(text, size);
  out.replaceChildren();
  window.__watch(out, log);
  await window.__frames(2);
};
window.__send = () => {
  window.__sentAt = performance.now();
  finished = stream();
};
window.__finished = async () => {
  await finished;
  await window.__frames(2);
};
window.__answerRoot = () => out.lastElementChild;
window.__ready = true;
`;

/**
 * The floor's page: its script bundled with marked and DOMPurify as a page would ship them.
 * Its div grows down the page, so after the first screen it lays out text no one sees and paints
 * none; with `?follow` it is a scroller that shows the newest text, as a chat must.
 */
export async function floorPage(h: Harness): Promise<string> {
  const bundle = await build({
    stdin: { contents: FLOOR, resolveDir: root },
    bundle: true,
    minify: true,
    format: 'esm',
    write: false,
  });
  return page(h, 'bench-floor', '<div id="answers"></div>', bundle.outputFiles[0]!.text);
}

interface Answer {
  /** Main-thread time from the Send click to the last heading in the DOM. */
  taskMs: number;
  /** Tasks of 50 ms or more from Send until the answer is finished. */
  longTasks: number[];
  /** Tasks of 50 ms or more before Send (a fresh page: while it loads). */
  loadLongTasks: number[];
}

const taskSeconds = async (cdp: CDPSession) => {
  const { metrics } = await cdp.send('Performance.getMetrics');
  return metrics.find((m) => m.name === 'TaskDuration')!.value;
};

async function session(p: Page): Promise<CDPSession> {
  const cdp = await p.context().newCDPSession(p);
  await cdp.send('Performance.enable');
  await cdp.send('Runtime.enable');
  await cdp.send('Runtime.addBinding', { name: '__answered' });
  return cdp;
}

/** One answer, typed and sent in the page as a reader would; `log` records its arrival in the DOM. */
async function answer(p: Page, cdp: CDPSession, text: string, log = false): Promise<Answer> {
  await p.evaluate(
    ([t, size, l]) =>
      (
        window as unknown as { __prepare: (t: string, s: number, l: boolean) => Promise<void> }
      ).__prepare(t, size, l),
    [text, CHUNK, log] as const,
  );
  const ended = new Promise<number>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error('the answer did not end in 5 minutes')),
      300_000,
    );
    // Read at once: the page goes on finishing the answer (its extras, its announcement).
    const listener = (event: { name: string }) => {
      if (event.name !== '__answered') return;
      cdp.off('Runtime.bindingCalled', listener);
      clearTimeout(timer);
      resolve(taskSeconds(cdp));
    };
    cdp.on('Runtime.bindingCalled', listener);
  });
  const before = await taskSeconds(cdp);
  await p.evaluate('window.__send()');
  const after = await ended;
  await p.evaluate('window.__finished()');
  const [sentAt, tasks] = (await p.evaluate('[window.__sentAt, window.__longTasks]')) as [
    number,
    [number, number][],
  ];
  const taskMs = (after - before) * 1000;
  const longTasks = tasks.filter(([start, d]) => start + d > sentAt).map(([, d]) => d);
  if (process.env.BENCH_VERBOSE) {
    const long = longTasks.map((d) => d.toFixed(0)).join(', ');
    console.error(`  ${p.url()} ${text.length} B: ${taskMs.toFixed(1)} ms; long tasks: ${long}`);
  }
  return {
    taskMs,
    longTasks,
    loadLongTasks: tasks.filter(([start, d]) => start + d <= sentAt).map(([, d]) => d),
  };
}

export interface Streaming {
  /** The first answer of freshly loaded pages (median). */
  cold: number;
  /** Later answers on one page (median). */
  warm: number;
  /** The longest task from Send to the answer's end, over all answers; 0 if none was ≥ 50 ms. */
  longest: number;
  /** The longest task while a fresh page loaded; 0 if none was ≥ 50 ms. */
  longestLoading: number;
  shapeOk: boolean;
}

/**
 * `cold` fresh pages answer once; then one page answers `warm` more times, each after a garbage
 * collection (a major collection of the last answer must not land in this one).
 */
export async function streamAnswers(
  h: Harness,
  url: string,
  text: string,
  runs: { cold: number; warm: number },
): Promise<Streaming> {
  const cold: Answer[] = [];
  const warm: Answer[] = [];
  let shape = '';
  for (let i = 0; i <= runs.cold; i++) {
    const p = await openPage(h, url);
    const cdp = await session(p);
    if (i < runs.cold) cold.push(await answer(p, cdp, text));
    else {
      for (let j = 0; j < runs.warm; j++) {
        await cdp.send('HeapProfiler.collectGarbage');
        warm.push(await answer(p, cdp, text));
      }
      shape = JSON.stringify(await finalShape(p));
    }
    await p.context().close();
  }
  const all = [...cold, ...warm];
  return {
    cold: median(cold.map((a) => a.taskMs)),
    warm: median(warm.map((a) => a.taskMs)),
    longest: Math.max(0, ...all.flatMap((a) => a.longTasks)),
    longestLoading: Math.max(0, ...cold.flatMap((a) => a.loadLongTasks)),
    shapeOk: shape === JSON.stringify(expectedShape(text)),
  };
}

export interface ChunkLatency {
  p50: number;
  p95: number;
  /** Frames begun between a chunk's arrival and its text in the DOM, at p95 (1: the next). */
  framesP95: number;
  chunks: number;
  /** Chunks whose text was never seen to match a one-pass rendering of the text so far. */
  unmatched: number;
}

/**
 * From a chunk's bytes arriving to its text being in the DOM. The watcher logs, on every change
 * of the answer, the letters and digits shown; a change that shows as many as the one-pass
 * rendering of the first j chunks (the latest such j already received) shows those chunks. A
 * run of its own: counting the letters costs the page time the other figures must not include.
 */
export async function chunkLatency(h: Harness, url: string, text: string): Promise<ChunkLatency> {
  const counts = visibleCounts(text);
  const p = await openPage(h, url);
  const cdp = await session(p);
  await answer(p, cdp, markdownAnswer(2000));
  await cdp.send('HeapProfiler.collectGarbage');
  await answer(p, cdp, text, true);
  const [arrivals, log, frames] = (await p.evaluate(
    '[window.__arrivals, window.__log, window.__frameTimes]',
  )) as [number[], [number, number][], number[]];
  await p.context().close();
  const latencies: number[] = [];
  const late: number[] = [];
  let covered = 0;
  for (const [time, shown] of log) {
    let j = arrivals.filter((arrival) => arrival <= time).length;
    while (j > covered && counts[j] !== shown) j -= 1;
    for (let i = covered; i < j; i++) {
      latencies.push(time - arrivals[i]!);
      late.push(frames.filter((frame) => frame > arrivals[i]! && frame <= time).length);
    }
    covered = Math.max(covered, j);
  }
  return {
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    framesP95: percentile(late, 95),
    chunks: arrivals.length,
    unmatched: arrivals.length - covered,
  };
}
