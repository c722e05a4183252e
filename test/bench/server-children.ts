/**
 * The processes `npm run bench:server` measures, each started by server.bench.ts through
 * `spawnChild`: the reference server in one process (`--serve`), a server that does no work
 * (`--baseline`), and the CLI's `--workers N` (`spawnWorkers`). Also the corpus and the visitors'
 * questions, the same in every process (seeded).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { Session } from 'node:inspector';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { serve } from '@hono/node-server';
import { createClient } from '../../src/api/client.js';
import { pieces } from '../../src/server/knowledge/answer.js';
import { mulberry32 } from '../random.js';

export const KEY = 'bench-key';
export const CONCURRENCY = 200;
const TARGET_CHUNKS = 10_000;
const RETRIEVAL_QUERIES = 2_000;
/** The server's own pause between streamed pieces (ServerOptions.streamDelayMs's default). */
export const PIECE_DELAY_MS = 10;

const random = mulberry32(42);
const SYLLABLES = 'ka lo mi ne ru sa to vi zu pe do ga bri sto fle'.split(' ');
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
export const query = () => `What about ${topicWord()} ${topicWord()} and ${topicWord()}?`;

const report = (value: unknown) => process.stdout.write(`${JSON.stringify(value)}\n`);

/**
 * A server that does no work, the floor: the answers in `file` (the real server's, as a JSON
 * array), the i-th to the body's `{"i": i}`, in the server's own pieces, as far apart as the
 * server's, with the same headers.
 */
async function baselineChild(file: string) {
  const answers = (JSON.parse(readFileSync(file, 'utf8')) as string[]).map(pieces);
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (data) => {
      body += data;
    });
    req.on('end', () => {
      const parts = answers[(JSON.parse(body) as { i: number }).i % answers.length]!;
      res.writeHead(200, {
        'content-type': 'text/plain; charset=utf-8',
        'cache-control': 'no-store',
        'x-content-type-options': 'nosniff',
      });
      let i = 0;
      const next = () => {
        if (res.destroyed) return;
        res.write(parts[i++]!);
        if (i < parts.length) setTimeout(next, PIECE_DELAY_MS);
        else res.end();
      };
      next();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  report({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
  reportCpuOnStop();
}

export interface ServeOptions {
  /** PostgreSQL; SQLite in memory when absent. */
  databaseUrl?: string;
  /** The main.ts whose createServerApp runs: another checkout's, to compare two versions. */
  main?: string;
  /** Time 2,000 searches straight against the index first. */
  retrieval?: boolean;
}

/** The reference server in its own process: ingests the corpus, measures retrieval, then serves. */
async function serverChild(options: ServeOptions) {
  const main = options.main ?? fileURLToPath(new URL('../../src/server/main.js', import.meta.url));
  const { createServerApp } = (await import(
    pathToFileURL(main).href
  )) as typeof import('../../src/server/main.js');
  // A file, as `npm start` keeps it, with BENCH_SERVER_SQLITE=file: its writes go through the WAL.
  const file = process.env.BENCH_SERVER_SQLITE === 'file';
  const dir = file ? mkdtempSync(join(tmpdir(), 'bench-sqlite-')) : '';
  if (file) process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  const built = await createServerApp({
    db: file ? join(dir, 'chatbot.sqlite') : ':memory:',
    databaseUrl: options.databaseUrl,
    // As the CLI reads it, which the workers' column runs.
    poolSize: Number(process.env.CHATBOT_PG_POOL_SIZE) || undefined,
    apiKeys: `bench:${KEY}`,
    log: false,
  });
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

  // Built before anything is measured or profiled: the first question would build it.
  const index = built.ctx.knowledge.index;
  await index.ready(bot.uuid);
  const retrieval: number[] = [];
  for (let i = 0; options.retrieval && i < RETRIEVAL_QUERIES + 200; i++) {
    const q = query();
    const t0 = performance.now();
    await index.search(bot.uuid, q, { limit: 12 });
    if (i >= 200) retrieval.push(performance.now() - t0); // the first 200 warm the JIT up
  }
  // The searches held the event loop; let keep-alive sockets that expired meanwhile close.
  await new Promise((resolve) => setTimeout(resolve, 200));
  const sessions: string[] = [];
  for (let i = 0; i < CONCURRENCY; i++) sessions.push((await api.sessions.create(bot.uuid)).uuid);
  const profiled = await profileFromHere();
  report({ url, bytes, ingestSeconds, chunks, files: FILES, retrieval, sessions });
  reportCpuOnStop(profiled);
}

/**
 * The CPU this process spends from here on (the streams), reported when the parent stops it: a
 * figure that other load on the machine distorts less than latency.
 */
function reportCpuOnStop(profiled?: () => Promise<void>) {
  const cpuAtStart = process.cpuUsage();
  process.removeAllListeners('SIGTERM');
  process.once('SIGTERM', async () => {
    const used = process.cpuUsage(cpuAtStart);
    await profiled?.();
    process.stdout.write(`${JSON.stringify({ cpuMs: (used.user + used.system) / 1000 })}\n`, () =>
      process.exit(0),
    );
  });
}

/**
 * BENCH_CPU_PROF=dir: a CPU profile of the serving only (not of the ingestion and searches
 * before it), written to dir when the returned function is called. server-profile.ts reads it.
 */
async function profileFromHere(): Promise<(() => Promise<void>) | undefined> {
  const dir = process.env.BENCH_CPU_PROF;
  if (!dir) return undefined;
  const session = new Session();
  session.connect();
  const post = (method: string, params?: object) =>
    new Promise<unknown>((resolve, reject) =>
      session.post(method, params, (error, result) => (error ? reject(error) : resolve(result))),
    );
  await post('Profiler.enable');
  await post('Profiler.setSamplingInterval', { interval: 200 });
  await post('Profiler.start');
  return async () => {
    const { profile } = (await post('Profiler.stop')) as { profile: object };
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `serve-${process.pid}.cpuprofile`), JSON.stringify(profile));
  };
}

export interface ChildReport {
  url: string;
  bytes: number;
  ingestSeconds: number;
  chunks: number;
  files: number;
  retrieval: number[];
  sessions: string[];
}

export interface Child {
  child: ChildProcess;
  report: ChildReport;
  /** The CPU time the server spent serving, once it is stopped (`stop()`). */
  stop(): Promise<number | undefined>;
}

/** The first line of `child`'s output that `pick` returns something for. */
function firstLine<T>(child: ChildProcess, pick: (line: string) => T | undefined): Promise<T> {
  return new Promise((resolve, reject) => {
    let out = '';
    const onData = (data: Buffer) => {
      out += data;
      for (const line of out.split('\n')) {
        const found = pick(line);
        if (found === undefined) continue;
        child.stdout!.off('data', onData);
        resolve(found);
        return;
      }
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`benchmark child exited with ${code}`)));
  });
}

const json =
  <T>(prefix: string) =>
  (line: string) =>
    line.startsWith(prefix) ? (JSON.parse(line) as T) : undefined;

export async function spawnChild(
  mode: 'serve' | 'baseline',
  argument: ServeOptions | string,
): Promise<Child> {
  const args = [`--${mode}`, typeof argument === 'string' ? argument : JSON.stringify(argument)];
  const child = spawn(process.execPath, ['--import', 'tsx', SELF, ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const report = await firstLine(child, json<ChildReport>('{"url"'));
  const cpu = firstLine(child, json<{ cpuMs: number }>('{"cpuMs"')).then(
    (r) => r.cpuMs,
    () => undefined,
  );
  return {
    child,
    report,
    stop: () => {
      child.kill();
      return cpu;
    },
  };
}

/**
 * `npm run server -- --workers <count>` on the PostgreSQL database at `databaseUrl`, through the
 * CLI as an operator starts it; resolves with its URL once every worker listens.
 */
export async function spawnWorkers(
  count: number,
  databaseUrl: string,
  port: number,
): Promise<{ child: ChildProcess; url: string; stop(): Promise<void> }> {
  const cli = fileURLToPath(new URL('../../src/server/cli.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', cli, '--workers', String(count)], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      HOST: '127.0.0.1',
      CHATBOT_API_KEYS: `bench:${KEY}`,
      CHATBOT_LOG: 'off',
    },
  });
  const url = await firstLine(child, (line) => /^listening on (\S+)/.exec(line)?.[1]);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    child,
    url,
    stop: () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

const SELF = fileURLToPath(import.meta.url);
if (process.argv[1] === SELF) {
  process.once('SIGTERM', () => process.exit(0));
  const [mode, argument = ''] = process.argv.slice(2);
  const run =
    mode === '--serve'
      ? serverChild(JSON.parse(argument) as ServeOptions)
      : mode === '--baseline'
        ? baselineChild(argument)
        : Promise.reject(new Error(`unknown mode ${mode}`));
  run.catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
