/**
 * `npm run bench:soak`: the reference server kept busy for minutes, on 127.0.0.1 only.
 *
 * - A chatbot with about 10,000 chunks (uploaded as .txt files), rate limit RATE_LIMIT.
 * - N visitors (default 300), each in its own session, asking, reading the whole streamed
 *   answer, thinking 1–3 s and asking again, for M minutes (default 5). A 429 is expected when
 *   the visitor has had RATE_LIMIT[0] answers in the window, and the visitor then waits its
 *   Retry-After; every other failure (a 429 within the limit, another status, a broken stream,
 *   a network error) counts as an error beyond the configured rate limits: budget 0.
 * - Meanwhile a source is added every 2 s and the oldest added one deleted.
 * - The server runs in a child process of its own (after a GC) RSS is read at the start, the
 *   middle and the end of the chatting: budget end ≤ 1.2 × middle, i.e. no steady growth.
 * - Time to the first body byte, p50 and p99, per minute of the run.
 *
 * Bounded: at most 1,000 visitors and 30 minutes; the run is stopped a minute past its time
 * whatever happens. Short forms: `--sessions 20 --minutes 0.2 --chunks 500` (or SOAK_SESSIONS,
 * SOAK_MINUTES, SOAK_CHUNKS); test/server/soak-short.test.ts runs one in the Node suite.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import { createClient } from '../../src/api/client.js';
import { createServerApp } from '../../src/server/main.js';
import { mulberry32 } from '../random.js';
import { mb, ms, percentile, printTable, reportBudgets } from './figures.js';

const KEY = 'soak-key';
/** The chatbot's rate limit unless the run names another: [answers, seconds] per session. */
const RATE_LIMIT: [number, number] = [25, 60];
const THINK_MS: [number, number] = [1000, 3000];
const CHURN_MS = 2000;
const CHURN_KEEP = 5;
const CHARS_PER_CHUNK = 720;
const FILES = 20;
const SELF = fileURLToPath(import.meta.url);

export interface SoakOptions {
  sessions: number;
  minutes: number;
  chunks: number;
  rateLimit?: [number, number];
}

export interface SoakResult {
  chunks: number;
  answers: number;
  /** 429s answered to visitors over their rate limit: expected. */
  limited: number;
  /** Every other failure, described. */
  unexpected: string[];
  /** Visitors that got no answer at all. */
  unanswered: number;
  churn: { added: number; deleted: number };
  rss: { start: number; middle: number; end: number };
  /** First-byte times of each minute of the run, in ms. */
  minutes: number[][];
}

const random = mulberry32(7);
const SYLLABLES = ['ka', 'lo', 'mi', 'ne', 'ru', 'sa', 'to', 'vi', 'zu', 'pe', 'do', 'ga'];
const VOCABULARY = Array.from({ length: 5000 }, (_, i) => {
  let word = '';
  for (let n = i + 1; n > 0; n = Math.floor(n / SYLLABLES.length)) {
    word += SYLLABLES[n % SYLLABLES.length];
  }
  return word;
});
const word = () => VOCABULARY[Math.floor(random() ** 2 * VOCABULARY.length)]!;
const sentence = () => `${Array.from({ length: 8 + Math.floor(random() * 10) }, word).join(' ')}.`;
const question = () => `What about ${word()} ${word()} and ${word()}?`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

// ---------------------------------------------------------------------------------------------
// The server's process

type ToParent = { ready: { url: string; bot: string; chunks: number } } | { rss: number };

async function serverChild(chunks: number, rateLimit: [number, number]): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'chatbot-soak-'));
  const built = await createServerApp({
    db: join(dir, 'soak.sqlite'),
    apiKeys: `soak:${KEY}`,
    log: false,
  });
  const server = serve({ fetch: built.app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const api = createClient({ baseUrl: url, apiKey: KEY, retry: false });
  const bot = await api.chatbots.create({ name: 'Soak', rate_limit: rateLimit });
  const perFile = Math.ceil((chunks * CHARS_PER_CHUNK) / FILES);
  for (let f = 0; f < FILES; f++) {
    let text = '';
    while (text.length < perFile) text += `${sentence()}${random() < 0.15 ? '\n\n' : ' '}`;
    await api.sources.upload(bot.uuid, new Blob([text]), { fileName: `corpus-${f}.txt` });
  }
  await built.ctx.knowledge.idle();
  const send = (message: ToParent) => process.send!(message);
  const count = (await built.ctx.store.listChunks(bot.uuid)).length;
  process.on('message', (message) => {
    if (message === 'rss') {
      (globalThis as { gc?: () => void }).gc?.();
      send({ rss: process.memoryUsage().rss });
    } else if (message === 'stop') {
      server.close();
      (server as { closeAllConnections?: () => void }).closeAllConnections?.();
      void built.close().finally(() => {
        rmSync(dir, { recursive: true, force: true });
        process.exit(0);
      });
    }
  });
  send({ ready: { url, bot: bot.uuid, chunks: count } });
}

// ---------------------------------------------------------------------------------------------
// The visitors

interface Reply {
  status: number;
  firstByteMs: number;
  retryAfter: number;
  /** The stream ended as HTTP says it should (not cut off). */
  complete: boolean;
}

/** One question through node:http; the clock starts when its bytes are handed to the socket. */
function ask(agent: Agent, url: string, body: string): Promise<Reply> {
  return new Promise((resolve, reject) => {
    let t0 = performance.now();
    const req = request(
      url,
      {
        method: 'POST',
        agent,
        headers: {
          Authorization: `Bearer ${KEY}`,
          'Content-Type': 'application/json',
          'Content-Length': Buffer.byteLength(body),
        },
      },
      (res) => {
        let firstByteMs = -1;
        res.on('data', () => {
          if (firstByteMs < 0) firstByteMs = performance.now() - t0;
        });
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            firstByteMs,
            retryAfter: Number(res.headers['retry-after'] ?? 0),
            complete: res.complete,
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body, () => {
      t0 = performance.now();
    });
  });
}

/** Starts the server's process and resolves once it has its chunks. */
function startServer(chunks: number, rateLimit: [number, number]) {
  const child = spawn(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', SELF, '--serve', String(chunks), rateLimit.join(',')],
    {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    },
  );
  const ready = new Promise<{ url: string; bot: string; chunks: number }>((resolve, reject) => {
    child.on('message', (m: ToParent) => {
      if ('ready' in m) resolve(m.ready);
    });
    child.once('exit', (code) => reject(new Error(`the server's process exited with ${code}`)));
  });
  const rss = () =>
    new Promise<number>((resolve) => {
      const listen = (m: ToParent) => {
        if ('rss' in m) {
          child.off('message', listen);
          resolve(m.rss);
        }
      };
      child.on('message', listen);
      child.send('rss');
    });
  return { child, ready, rss };
}

export async function runSoak(options: SoakOptions): Promise<SoakResult> {
  const { sessions, minutes, chunks, rateLimit = RATE_LIMIT } = options;
  if (!(sessions >= 1 && sessions <= 1000)) throw new Error('sessions must be 1 to 1000');
  if (!(minutes > 0 && minutes <= 30)) throw new Error('minutes must be more than 0, at most 30');
  const server = startServer(chunks, rateLimit);
  const stop = (child: ChildProcess) => {
    if (child.exitCode === null) child.send('stop');
  };
  // Whatever happens, the server's process does not outlive the run by more than a minute (nor
  // its setup, ingesting the chunks, ten).
  const kill = () => server.child.kill('SIGKILL');
  let guard = setTimeout(kill, 600_000);
  try {
    const { url, bot, chunks: count } = await server.ready;
    clearTimeout(guard);
    guard = setTimeout(kill, (minutes * 60 + 60) * 1000);
    const api = createClient({ baseUrl: url, apiKey: KEY, retry: false });
    const agent = new Agent({ keepAlive: true, maxSockets: sessions + 8 });
    const result: SoakResult = {
      chunks: count,
      answers: 0,
      limited: 0,
      unexpected: [],
      unanswered: 0,
      churn: { added: 0, deleted: 0 },
      rss: { start: 0, middle: 0, end: 0 },
      minutes: [],
    };
    const fail = (what: string) => {
      if (result.unexpected.length < 1000) result.unexpected.push(what);
    };
    const sessionUuids: string[] = [];
    for (let i = 0; i < sessions; i++) sessionUuids.push((await api.sessions.create(bot)).uuid);
    result.rss.start = await server.rss();

    const began = performance.now();
    const until = began + minutes * 60_000;
    const middle = sleep(minutes * 30_000).then(async () => {
      result.rss.middle = await server.rss();
    });
    const visitor = async (session: string, i: number) => {
      // Joining over the first seconds, as visitors arrive, not all in one instant.
      await sleep(Math.min(5000, minutes * 6000) * (i / sessions));
      const accepted: number[] = [];
      let answered = 0;
      const [limit, window] = rateLimit;
      while (performance.now() < until) {
        const askedAt = performance.now();
        let reply: Reply;
        try {
          reply = await ask(
            agent,
            `${url}/api/v1/session/${session}/message/stream`,
            JSON.stringify({ query: question() }),
          );
        } catch (error) {
          fail(`session ${i}: ${(error as Error).message}`);
          await sleep(1000);
          continue;
        }
        if (reply.status === 429) {
          // Expected only when this visitor has had `limit` answers within the window (with a
          // second's slack for the time between the client's clock and the server's).
          const recent = accepted.filter((t) => askedAt - t < (window + 1) * 1000).length;
          if (recent >= limit) result.limited++;
          else fail(`session ${i}: 429 after ${recent} answers in ${window} s`);
          await sleep(Math.min(reply.retryAfter * 1000, until - performance.now()));
          continue;
        }
        if (reply.status !== 200 || !reply.complete || reply.firstByteMs < 0) {
          fail(`session ${i}: ${reply.status}${reply.complete ? '' : ', cut off'}`);
        } else {
          accepted.push(askedAt);
          answered++;
          result.answers++;
          const minute = Math.floor((askedAt - began) / 60_000);
          result.minutes[minute] ??= [];
          result.minutes[minute].push(reply.firstByteMs);
        }
        await sleep(THINK_MS[0] + random() * (THINK_MS[1] - THINK_MS[0]));
      }
      if (answered === 0) result.unanswered++;
    };
    const churn = async () => {
      const added: string[] = [];
      while (performance.now() < until) {
        try {
          const text = Array.from({ length: 20 }, sentence).join(' ');
          const source = await api.sources.upload(bot, new Blob([text]), {
            fileName: `churn-${result.churn.added}.txt`,
          });
          added.push(source.uuid);
          result.churn.added++;
          if (added.length > CHURN_KEEP) {
            await api.sources.delete(added.shift()!);
            result.churn.deleted++;
          }
        } catch (error) {
          fail(`source churn: ${(error as Error).message}`);
        }
        await sleep(CHURN_MS);
      }
    };
    await Promise.all([...sessionUuids.map(visitor), churn(), middle]);
    result.rss.end = await server.rss();
    agent.destroy();
    return result;
  } finally {
    clearTimeout(guard);
    stop(server.child);
  }
}

function printSoak(options: SoakOptions, r: SoakResult): void {
  const [limit, window] = options.rateLimit ?? RATE_LIMIT;
  const rows: [string, string, string][] = [
    ['chunks', String(r.chunks), `about ${options.chunks}`],
    ['answers', String(r.answers), ''],
    ['rate-limited (429 over the limit)', String(r.limited), 'expected'],
    ['errors beyond the rate limits', String(r.unexpected.length), '0'],
    ['visitors never answered', String(r.unanswered), '0'],
    ['sources added / deleted', `${r.churn.added} / ${r.churn.deleted}`, ''],
    ['RSS at start', mb(r.rss.start), ''],
    ['RSS in the middle', mb(r.rss.middle), ''],
    ['RSS at the end', mb(r.rss.end), `≤ 1.2 × middle (${mb(r.rss.middle * 1.2)})`],
  ];
  r.minutes.forEach((times, i) => {
    const first = `p50 ${ms(percentile(times, 50))}, p99 ${ms(percentile(times, 99))}`;
    rows.push([`first byte, minute ${i + 1}`, first, `${times.length} answers`]);
  });
  printTable(
    `Soak: ${options.sessions} visitors for ${options.minutes} min, rate limit ${limit} per ${window} s, sources added and deleted every ${CHURN_MS / 1000} s (load ${loadavg()[0]!.toFixed(2)})`,
    rows,
  );
  for (const line of r.unexpected.slice(0, 20)) console.log(`  ${line}`);
  const missed: string[] = [];
  if (r.unexpected.length > 0) missed.push('errors beyond the rate limits');
  if (r.unanswered > 0) missed.push('visitors never answered');
  if (r.rss.end > r.rss.middle * 1.2) missed.push('RSS growth');
  reportBudgets(missed);
}

/** `--name value` or SOAK_NAME, else the default. */
function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  const raw = at >= 0 ? process.argv[at + 1] : process.env[`SOAK_${name.toUpperCase()}`];
  const value = raw === undefined ? fallback : Number(raw);
  if (!Number.isFinite(value)) throw new Error(`--${name} must be a number`);
  return value;
}

if (process.argv[1] === SELF) {
  if (process.argv[2] === '--serve') {
    const [limit, window] = (process.argv[4] ?? '').split(',').map(Number);
    await serverChild(Number(process.argv[3]), [limit!, window!]);
  } else {
    const options = {
      sessions: option('sessions', 300),
      minutes: option('minutes', 5),
      chunks: option('chunks', 10_000),
    };
    console.log(
      `load before: ${loadavg()
        .map((n) => n.toFixed(2))
        .join(' ')}`,
    );
    printSoak(options, await runSoak(options));
  }
}
