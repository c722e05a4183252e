/**
 * `npm run bench:server`: the reference server under load, on this machine.
 *
 * - Ingestion: about 10,000 chunks of text uploaded as .txt files; MB/s from first upload to idle.
 * - Retrieval: BM25 searches over those chunks, straight against the index (no HTTP).
 * - Streams, sustained: 200 visitors chatting at once, each asking again as soon as its answer
 *   ends, so 200 streams are always open; time to the first body byte (the budget's figure) and
 *   answers per second, after a ramp-up.
 * - Streams, burst: rounds of all 200 questions in the same instant, the worst case, beside a
 *   server that does no work measured the same way, because the load client shares the machine's
 *   two cores with the server and its own cost shows in every figure (see MACHINE-NOTES.md).
 * - The client is node:http with keep-alive connections, as a browser keeps them, and a request's
 *   clock starts when its bytes are handed to the socket: building 199 other requests first is
 *   the load client's cost, not the server's.
 *
 * Budgets are printed beside the figures; nothing here fails a build.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { Agent, createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import { createClient } from '../../src/api/client.js';
import { createServerApp } from '../../src/server/main.js';

const TARGET_CHUNKS = 10_000;
const CONCURRENCY = 200;
const ROUNDS = 3;
const RAMP_S = 1;
const SETTLE_S = 1;
const SUSTAINED_S = 8;
const RETRIEVAL_QUERIES = 2_000;
const KEY = 'bench-key';
const HEADERS = { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' };

/** Deterministic pseudo-random numbers, so every run searches the same corpus. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const random = rng(42);
const SYLLABLES = [
  'ka',
  'lo',
  'mi',
  'ne',
  'ru',
  'sa',
  'to',
  'vi',
  'zu',
  'pe',
  'do',
  'ga',
  'bri',
  'sto',
  'fle',
];
/** 20,000 distinct made-up words, used with Zipf's law like the words of real prose. */
const VOCABULARY = (() => {
  const words = new Set<string>();
  while (words.size < 20_000) {
    const n = 3 + Math.floor(random() * 2);
    words.add(
      Array.from({ length: n }, () => SYLLABLES[Math.floor(random() * SYLLABLES.length)]).join(''),
    );
  }
  return [...words];
})();
const ZIPF = (() => {
  const cumulative = new Float64Array(VOCABULARY.length);
  let sum = 0;
  for (let r = 0; r < VOCABULARY.length; r++) {
    sum += 1 / (r + 1);
    cumulative[r] = sum;
  }
  return { cumulative, sum };
})();
function zipfWord(): string {
  const x = random() * ZIPF.sum;
  let lo = 0;
  let hi = ZIPF.cumulative.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (ZIPF.cumulative[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return VOCABULARY[lo]!;
}
const sentence = () => {
  const words = Array.from({ length: 8 + Math.floor(random() * 10) }, zipfWord);
  return `${words[0]![0]!.toUpperCase()}${words.join(' ').slice(1)}.`;
};
/** A visitor's question: three topic words, the kind that are neither everywhere nor nowhere. */
const topicWord = () => VOCABULARY[20 + Math.floor(random() * 4_000)]!;
const query = () => `What about ${topicWord()} ${topicWord()} and ${topicWord()}?`;

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

const ms = (n: number) => `${n.toFixed(1)} ms`;

function row(label: string, value: string, budget = '') {
  console.log(`  ${label.padEnd(34)} ${value.padStart(14)}   ${budget}`);
}

interface RoundResult {
  firstByte: number[];
  seconds: number;
  answers: number;
}

const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });

interface Ask {
  url: string;
  body: string;
}

/**
 * One POST through node:http, resolving at the end of the body with its first-byte time; the
 * time between one piece of the body and the next goes into `pauses`.
 */
function post({ url, body }: Ask, pauses?: number[]): Promise<number> {
  return new Promise((resolve, reject) => {
    let t0 = performance.now();
    let firstByte = -1;
    const request = httpRequest(
      url,
      { method: 'POST', agent, headers: { ...HEADERS, 'content-length': Buffer.byteLength(body) } },
      (response) => {
        if (response.statusCode !== 200) {
          reject(new Error(`stream answered ${response.statusCode}`));
          response.resume();
          return;
        }
        let last = 0;
        response.on('data', () => {
          const now = performance.now();
          if (firstByte < 0) firstByte = now - t0;
          else pauses?.push(now - last);
          last = now;
        });
        response.on('end', () => resolve(firstByte));
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(body, () => {
      t0 = performance.now();
    });
  });
}

/** One round of `CONCURRENCY` streams started together; returns each stream's first-byte time. */
async function round(start: (i: number) => Ask): Promise<RoundResult> {
  const began = performance.now();
  const firstByte = await Promise.all(
    Array.from({ length: CONCURRENCY }, (_, i) => post(start(i))),
  );
  return { firstByte, seconds: (performance.now() - began) / 1000, answers: firstByte.length };
}

interface Target {
  result: RoundResult;
  start: (i: number) => Ask;
}

interface SustainedResult {
  firstByte: number[];
  answersPerSecond: number;
  /** Answers given in all, ramp included. */
  given: number;
  /** Time between one piece of an answer and the next, as the visitor sees it. */
  pauses: number[];
  /** Streams open at once, sampled through the measured window. */
  open: { min: number; mean: number };
}

/**
 * `CONCURRENCY` visitors chatting at once, as a load test holds them: each one asks, reads its
 * whole answer and asks again at once, so that many streams are always open. They join over
 * RAMP_S, about one answer's length, so their questions keep arriving spread out instead of in
 * waves; the figures are taken over the following SUSTAINED_S only.
 */
async function sustained(ask: (i: number) => Ask): Promise<SustainedResult> {
  const began = performance.now();
  const from = began + (RAMP_S + SETTLE_S) * 1000;
  const until = from + SUSTAINED_S * 1000;
  const firstByte: number[] = [];
  const pauses: number[] = [];
  let answers = 0;
  let given = 0;
  let open = 0;
  const samples: number[] = [];
  const sampler = setInterval(() => {
    const now = performance.now();
    if (now >= from && now < until) samples.push(open);
  }, 25);
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async (_, i) => {
      await new Promise((resolve) => setTimeout(resolve, (i * RAMP_S * 1000) / CONCURRENCY));
      while (performance.now() < until) {
        const askedAt = performance.now();
        open++;
        const measured = askedAt >= from && askedAt < until;
        const first = await post(ask(i), measured ? pauses : undefined).finally(() => open--);
        const endedAt = performance.now();
        given++;
        if (measured) firstByte.push(first);
        if (endedAt >= from && endedAt < until) answers++;
      }
    }),
  );
  clearInterval(sampler);
  return {
    firstByte,
    answersPerSecond: answers / SUSTAINED_S,
    given,
    pauses,
    open: {
      min: Math.min(...samples),
      mean: samples.reduce((sum, n) => sum + n, 0) / samples.length,
    },
  };
}

/**
 * A discarded warm-up round for each, then their measured rounds in turn, so that load from
 * elsewhere on the machine, which comes and goes, falls on both alike.
 */
async function interleaved(targets: Array<Omit<Target, 'result'>>): Promise<RoundResult[]> {
  const all: Target[] = targets.map((t) => ({
    ...t,
    result: { firstByte: [], seconds: 0, answers: 0 },
  }));
  for (const target of all) await round(target.start); // warm-up, discarded
  for (let r = 0; r < ROUNDS; r++) {
    for (const target of all) {
      const result = await round(target.start);
      target.result.firstByte.push(...result.firstByte);
      target.result.seconds += result.seconds;
      target.result.answers += result.answers;
    }
  }
  return all.map((t) => t.result);
}

/** A server that does no work: headers and a fixed answer at once. */
async function baselineChild(answer: string) {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end(answer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  report({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
}

const report = (value: unknown) => process.stdout.write(`${JSON.stringify(value)}\n`);

/** The reference server in its own process: ingests the corpus, measures retrieval, then serves. */
async function serverChild() {
  const built = await createServerApp({ db: ':memory:', apiKeys: `bench:${KEY}`, log: false });
  const server = serve({ fetch: built.app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const api = createClient({ baseUrl: url, apiKey: KEY, retry: false });

  const bot = await api.chatbots.create({ name: 'Bench', rate_limit: [1_000_000, 1] });
  const FILES = 20;
  const perFile = Math.ceil((TARGET_CHUNKS * 720) / FILES);
  const files: string[] = [];
  for (let f = 0; f < FILES; f++) {
    let text = '';
    while (text.length < perFile) text += `${sentence()} ${random() < 0.15 ? '\n\n' : ''}`;
    files.push(text);
  }
  const bytes = files.reduce((sum, t) => sum + Buffer.byteLength(t), 0);
  const ingestStart = performance.now();
  for (let f = 0; f < FILES; f++) {
    await api.sources.upload(bot.uuid, new Blob([files[f]!]), { fileName: `corpus-${f}.txt` });
  }
  await built.ctx.knowledge.idle();
  const ingestSeconds = (performance.now() - ingestStart) / 1000;
  const chunks = (await built.ctx.store.listChunks(bot.uuid)).length;
  const statuses = new Set((await api.sources.list(bot.uuid)).map((s) => s.status));
  if (statuses.size !== 1 || !statuses.has('success'))
    throw new Error(`ingestion ended in ${[...statuses]}`);

  // Straight against the index: ingestion kept it in step, so nothing is built here.
  const index = built.ctx.knowledge.index;
  const retrieval: number[] = [];
  for (let i = 0; i < RETRIEVAL_QUERIES + 200; i++) {
    const q = query();
    const t0 = performance.now();
    await index.search(bot.uuid, q, { limit: 12 });
    if (i >= 200) retrieval.push(performance.now() - t0); // the first 200 warm the JIT up
  }
  // The searches held the event loop; let keep-alive sockets that expired meanwhile close.
  await new Promise((resolve) => setTimeout(resolve, 200));
  const sessions: string[] = [];
  for (let i = 0; i < CONCURRENCY; i++) sessions.push((await api.sessions.create(bot.uuid)).uuid);
  report({ url, bytes, ingestSeconds, chunks, files: FILES, retrieval, sessions });
  // CPU the server spends from here on (the streams), reported when the parent stops it: a
  // figure that other load on the machine does not distort.
  const cpuAtStart = process.cpuUsage();
  process.removeAllListeners('SIGTERM');
  process.once('SIGTERM', () => {
    const used = process.cpuUsage(cpuAtStart);
    process.stdout.write(`${JSON.stringify({ cpuMs: (used.user + used.system) / 1000 })}\n`, () =>
      process.exit(0),
    );
  });
}

interface ChildReport {
  url: string;
  bytes: number;
  ingestSeconds: number;
  chunks: number;
  files: number;
  retrieval: number[];
  sessions: string[];
}

function spawnChild(args: string[]): Promise<{ child: ChildProcess; report: ChildReport }> {
  // BENCH_CPU_PROF=dir writes a CPU profile of each child, to see where the server spends its time.
  const profile = process.env.BENCH_CPU_PROF
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`]
    : [];
  const child = spawn(process.execPath, [...profile, '--import', 'tsx', SELF, ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (data) => {
      out += data;
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve({ child, report: JSON.parse(line) });
    });
    child.once('exit', (code) => reject(new Error(`benchmark child exited with ${code}`)));
  });
}

async function main() {
  console.log(
    `reference server benchmark — Node ${process.version}; server and load client in separate processes; ${CONCURRENCY} concurrent streams`,
  );
  const { child, report: real } = await spawnChild(['--serve']);
  const cpu = new Promise<number>((resolve) => {
    let out = '';
    child.stdout!.on('data', (data) => {
      out += data;
      const line = out.split('\n').find((l) => l.startsWith('{"cpuMs"'));
      if (line) resolve(JSON.parse(line).cpuMs);
    });
  });
  const ask = (i: number): Ask => ({
    url: `${real.url}/api/v1/session/${real.sessions[i]}/message/stream`,
    body: JSON.stringify({ query: query() }),
  });
  // One answer of the server's, for the baseline to send: the same bytes on the wire.
  await round(ask);
  const api = createClient({ baseUrl: real.url, apiKey: KEY, retry: false });
  const sample = (await api.messages.list(real.sessions[0]!)).at(-1)!.response;
  const base = await spawnChild(['--baseline', sample]);
  const loadBefore = loadavg()[0]!;
  const [baseline, streams] = await interleaved([
    {
      start: () => ({
        url: `${base.report.url}/api/v1/session/x/message/stream`,
        body: '{"query":"x"}',
      }),
    },
    { start: ask },
  ]);
  const steady = await sustained(ask);
  const loadAfter = loadavg()[0]!;
  child.kill();
  base.child.kill();
  const serverCpuMs = await cpu;

  console.log('');
  console.log(
    `ingestion: ${real.files} .txt files, ${(real.bytes / 1e6).toFixed(1)} MB, ${real.chunks} chunks`,
  );
  row('ingestion throughput', `${(real.bytes / 1e6 / real.ingestSeconds).toFixed(2)} MB/s`);
  console.log(
    `retrieval: ${RETRIEVAL_QUERIES} BM25 searches of three topic words over ${real.chunks} chunks`,
  );
  const r95 = percentile(real.retrieval, 95);
  row('retrieval p50', ms(percentile(real.retrieval, 50)));
  row('retrieval p95', ms(r95), `budget ≤ 5 ms    ${r95 <= 5 ? 'OK' : 'OVER'}`);
  row('retrieval p99', ms(percentile(real.retrieval, 99)));
  // What a burst of questions pays, one after the other, before their first bytes.
  row(
    'retrieval mean',
    ms(real.retrieval.reduce((sum, t) => sum + t, 0) / real.retrieval.length),
    `× ${CONCURRENCY} streams = the serial part of a burst`,
  );
  console.log(
    `streams: ${sample.length}-character answers, 10 ms between streamed pieces, ${cpus().length} cores, load average ${loadBefore.toFixed(2)} before, ${loadAfter.toFixed(2)} after`,
  );
  const budget = 100;
  const p99 = percentile(steady.firstByte, 99);
  console.log(
    `sustained: ${CONCURRENCY} visitors, each asking again as soon as its answer ends; ${steady.firstByte.length} questions over ${SUSTAINED_S} s after a ${RAMP_S} s ramp and ${SETTLE_S} s to settle`,
  );
  row('streams open at once, min / mean', `${steady.open.min} / ${steady.open.mean.toFixed(0)}`);
  row('first byte p50', ms(percentile(steady.firstByte, 50)));
  row('first byte p95', ms(percentile(steady.firstByte, 95)));
  row('first byte p99', ms(p99), `budget ≤ ${budget} ms  ${p99 <= budget ? 'OK' : 'OVER'}`);
  row('answers/s', steady.answersPerSecond.toFixed(0));
  row(
    'pause between pieces p50/p99/max',
    `${percentile(steady.pauses, 50).toFixed(0)} / ${percentile(steady.pauses, 99).toFixed(0)} / ${Math.max(...steady.pauses).toFixed(0)} ms`,
    '(paced 10 ms apart)',
  );
  console.log(
    `burst: all ${CONCURRENCY} questions in the same instant, ${ROUNDS} rounds after a warm-up, the worst case; beside a server that does no work, measured the same way in turn`,
  );
  for (const p of [50, 95, 99]) {
    const b = percentile(baseline!.firstByte, p);
    const r = percentile(streams!.firstByte, p);
    row(`first byte p${p}, server / no-work`, `${ms(r)} / ${ms(b)}`);
  }
  row(
    'answers/s, server / no-work',
    `${(streams!.answers / streams!.seconds).toFixed(0)} / ${(baseline!.answers / baseline!.seconds).toFixed(0)}`,
  );
  // Warm-ups included: every answer the server gave since it reported.
  const given = CONCURRENCY * (ROUNDS + 2) + steady.given;
  row(
    'server CPU per streamed answer',
    ms(serverCpuMs / given),
    '(all work, request to last byte)',
  );
}

const SELF = fileURLToPath(import.meta.url);
// An orderly exit on kill, so a CPU profile gets written.
process.once('SIGTERM', () => process.exit(0));
const mode = process.argv[2];
const run =
  mode === '--serve'
    ? serverChild()
    : mode === '--baseline'
      ? baselineChild(process.argv[3] ?? '')
      : main();
run.catch((error) => {
  console.error(error);
  process.exit(1);
});
