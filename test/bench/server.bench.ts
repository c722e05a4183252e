/**
 * `npm run bench:server`: the reference server under load, on this machine.
 *
 * - Ingestion: about 10,000 chunks of text uploaded as .txt files; MB/s from first upload to idle.
 * - Retrieval: BM25 searches over those chunks, straight against the index (no HTTP).
 * - 200 concurrent streams against each server: one instance on SQLite, one on PostgreSQL, and
 *   the CLI's `--workers 2` on PostgreSQL, beside a server that does no work (the floor: the same
 *   answer in the same pieces at the same pace), all measured in the same run, in turn:
 *   - sustained: 200 visitors chatting at once, each asking again as soon as its answer ends, so
 *     200 streams are always open; time to the first body byte and answers per second;
 *   - burst: rounds of all 200 questions in the same instant, the worst case.
 *   The load client shares the machine's cores with the servers, and its own cost shows in every
 *   figure (see MACHINE-NOTES.md): the floor measured the same way shows how much.
 * - PostgreSQL is a throwaway cluster (test/postgres-cluster.mjs) with a fresh database, removed
 *   at the end; without PostgreSQL installed, its columns are skipped with one line. Its own CPU
 *   per answer is printed too: it shares the machine's cores with the servers.
 *
 * BENCH_SERVER_STORES=sqlite skips PostgreSQL; BENCH_SERVER_SQLITE=file keeps SQLite in a file in
 * a temporary directory, as `npm start` does (in memory by default); BENCH_SERVER_AB=<checkout>[,<checkout>…] adds a
 * column per checkout, its server on SQLite, to compare versions in one run (named by the
 * folder; on PostgreSQL with BENCH_SERVER_AB_STORE=postgres); BENCH_SERVER_PASSES and BENCH_SERVER_ROUNDS set the sustained windows and the burst
 * rounds per server (default 2 and 3); BENCH_CPU_PROF=<dir> writes a CPU profile of each server
 * process but the workers. Budgets are printed beside the
 * figures; nothing here fails a build.
 */
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { createClient } from '../../src/api/client.js';
import { ms, percentile } from './figures.js';
import { freshPostgres } from './postgres.js';
import {
  type Child,
  CONCURRENCY,
  KEY,
  PIECE_DELAY_MS,
  query,
  spawnChild,
  spawnWorkers,
} from './server-children.js';
import { type Ask, bursts, newTarget, sustained, type Target } from './server-load.js';

const ROUNDS = Number(process.env.BENCH_SERVER_ROUNDS || 3);
/** Sustained windows per server, taken in turn with the others'. */
const PASSES = Number(process.env.BENCH_SERVER_PASSES || 2);
const WINDOW = { rampS: 1, settleS: 1, measureS: 4 };
const WORKERS = 2;
const FIRST_BYTE_MS = 100;

const row = (label: string, cells: string[], budget = '') =>
  console.log(`  ${label.padEnd(30)}${cells.map((c) => c.padStart(16)).join('')}   ${budget}`);

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

const asker = (url: string, sessions: string[]) => (i: number) => ({
  url: `${url}/api/v1/session/${sessions[i]}/message/stream`,
  body: JSON.stringify({ query: query() }),
});

/**
 * CPU time used so far by every PostgreSQL process on this machine (Linux's /proc; 0 elsewhere):
 * the backends' own, and that of the ended ones their postmaster collected. Taken around a
 * server's windows, it says what PostgreSQL spends per answer on the same two cores.
 */
function postgresCpuMs(): number {
  let ticks = 0;
  let pids: string[] = [];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return 0;
  }
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      if (stat.slice(stat.indexOf('(') + 1, close) !== 'postgres') continue;
      // Fields after the name: state is 3rd; utime, stime, cutime, cstime are the 14th–17th.
      const fields = stat.slice(close + 2).split(' ');
      ticks += fields.slice(11, 15).reduce((sum, n) => sum + Number(n), 0);
    } catch {
      // Ended between the listing and the read.
    }
  }
  // USER_HZ is 100 on every Linux this runs on.
  return ticks * 10;
}

const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;
const verdict = (ok: boolean) => (ok ? 'met' : 'NOT MET');

async function main() {
  const stores = process.env.BENCH_SERVER_STORES ?? 'sqlite,postgres';
  const load = () => loadavg()[0]!.toFixed(2);
  console.log(
    `reference server benchmark — Node ${process.version}; ${cpus().length} cores; load average ${load()}; servers and the load client in separate processes; ${CONCURRENCY} concurrent streams`,
  );
  const stops: Array<() => Promise<unknown>> = [];
  const cpu = new Map<Target, Promise<number | undefined>>();
  const targets: Target[] = [];
  const stopping = (target: Target, child: Child) =>
    stops.push(() => {
      const used = child.stop();
      cpu.set(target, used);
      return used;
    });
  const serving = async (name: string, child: Child) => {
    const target = newTarget(name, asker(child.report.url, child.report.sessions));
    targets.push(target);
    stopping(target, child);
  };

  const sqlite = await spawnChild('serve', { retrieval: true });
  await serving('SQLite', sqlite);
  const ingestion: Array<[string, Child]> = [['SQLite', sqlite]];
  let database: Awaited<ReturnType<typeof freshPostgres>> = 'BENCH_SERVER_STORES leaves it out';
  if (stores.includes('postgres')) database = await freshPostgres();
  const onPostgres =
    process.env.BENCH_SERVER_AB_STORE === 'postgres' && typeof database !== 'string';
  for (const other of (process.env.BENCH_SERVER_AB ?? '').split(',').filter(Boolean)) {
    const main = join(other, 'src/server/main.ts');
    const databaseUrl = onPostgres ? (database as { url: string }).url : undefined;
    await serving(basename(other).slice(0, 12), await spawnChild('serve', { main, databaseUrl }));
  }
  if (typeof database === 'string') {
    console.log(`PostgreSQL columns skipped: ${database}`);
  } else {
    const one = await spawnChild('serve', { databaseUrl: database.url });
    ingestion.push(['PostgreSQL', one]);
    await serving('PostgreSQL', one);
    // The same database, chatbot and sessions, through the CLI as an operator starts it.
    const workers = await spawnWorkers(WORKERS, database.url, await freePort());
    targets.push(newTarget(`PG ×${WORKERS}`, asker(workers.url, one.report.sessions)));
    stops.push(workers.stop);
  }

  // A round of the server's answers, for the floor to send: the same bytes on the wire.
  await bursts([targets[0]!], 0);
  const api = createClient({ baseUrl: sqlite.report.url, apiKey: KEY, retry: false });
  const answers: string[] = [];
  for (const session of sqlite.report.sessions) {
    answers.push((await api.messages.list(session)).at(-1)!.response);
  }
  const answersFile = join(tmpdir(), `bench-answers-${process.pid}.json`);
  writeFileSync(answersFile, JSON.stringify(answers));
  const base = await spawnChild('baseline', answersFile);
  rmSync(answersFile);
  const floor = newTarget('no-work', (i): Ask => ({ url: base.report.url, body: `{"i":${i}}` }));
  targets.unshift(floor);
  stopping(floor, base);

  const loadBefore = load();
  await bursts(targets, ROUNDS);
  const postgresCpu = new Map<Target, { ms: number; answers: number }>();
  for (let pass = 0; pass < PASSES; pass++) {
    for (const target of targets) {
      const [cpuBefore, givenBefore] = [postgresCpuMs(), target.given];
      await sustained(target, WINDOW);
      const used = postgresCpu.get(target) ?? { ms: 0, answers: 0 };
      used.ms += postgresCpuMs() - cpuBefore;
      used.answers += target.given - givenBefore;
      postgresCpu.set(target, used);
    }
  }
  const loadAfter = load();
  await Promise.all(stops.map((stop) => stop()));
  if (typeof database !== 'string') await database.drop();

  console.log('');
  for (const [name, child] of ingestion) {
    const { report } = child;
    console.log(
      `ingestion, ${name}: ${report.files} .txt files, ${(report.bytes / 1e6).toFixed(1)} MB, ${report.chunks} chunks, ${(report.bytes / 1e6 / report.ingestSeconds).toFixed(2)} MB/s`,
    );
  }
  const { retrieval } = sqlite.report;
  console.log(
    `retrieval: ${retrieval.length} BM25 searches of three topic words over ${sqlite.report.chunks} chunks`,
  );
  const r95 = percentile(retrieval, 95);
  row('retrieval p50 / p95 / p99', [
    `${ms(percentile(retrieval, 50))} / ${ms(r95)} / ${ms(percentile(retrieval, 99))}`,
  ]);
  console.log(`  budget: retrieval p95 ≤ 5 ms: ${verdict(r95 <= 5)}`);
  console.log(
    `\nstreams: the server's answers (${answers.length} of them, ${(answers.join('').length / answers.length).toFixed(0)} characters on average) in pieces ${PIECE_DELAY_MS} ms apart; load average ${loadBefore} before, ${loadAfter} after`,
  );
  row(
    '',
    targets.map((t) => t.name),
  );
  const f = (n: number) => n.toFixed(1);
  for (const mode of ['sustained', 'burst'] as const) {
    console.log(
      mode === 'sustained'
        ? `sustained: ${CONCURRENCY} visitors, each asking again as soon as its answer ends; ${PASSES} windows of ${WINDOW.measureS} s each, after a ${WINDOW.rampS} s ramp and ${WINDOW.settleS} s to settle`
        : `burst: all ${CONCURRENCY} questions in the same instant on open connections, ${ROUNDS} rounds after a warm-up, one server after the other`,
    );
    const of = (t: Target) => t[mode];
    row(
      'first byte p50 / p99, ms',
      targets.map(
        (t) => `${f(percentile(of(t).firstByte, 50))} / ${f(percentile(of(t).firstByte, 99))}`,
      ),
    );
    row(
      'p99 first byte ÷ no-work',
      targets.map((t) =>
        ratio(percentile(of(t).firstByte, 99), percentile(of(floor).firstByte, 99)),
      ),
    );
    row(
      'answers/s',
      targets.map((t) => (of(t).answers / of(t).seconds).toFixed(0)),
    );
    row(
      'characters per answer',
      targets.map((t) => (of(t).characters / of(t).answers).toFixed(0)),
    );
    row(
      'errors',
      targets.map((t) => String(of(t).errors)),
    );
  }
  row(
    'pause between pieces p99',
    targets.map((t) => `${percentile(t.sustained.pauses, 99).toFixed(0)} ms`),
    `(paced ${PIECE_DELAY_MS} ms apart)`,
  );
  const cpuMs = await Promise.all(targets.map((t) => cpu.get(t) ?? Promise.resolve(undefined)));
  row(
    'server CPU per answer',
    targets.map((t, i) => {
      const used = cpuMs[i];
      return used === undefined ? '–' : ms(used / t.given);
    }),
    '(all work, request to last byte)',
  );
  if (typeof database !== 'string') {
    row(
      'PostgreSQL CPU per answer',
      targets.map((t) => {
        const used = postgresCpu.get(t);
        return used && used.answers > 0 ? ms(used.ms / used.answers) : '–';
      }),
      '(sustained windows; every postgres process)',
    );
  }
  for (const t of targets) {
    const first = t.burst.error ?? t.sustained.error;
    if (first) console.log(`  ${t.name}: first error: ${first}`);
  }

  console.log('\nbudgets (issue 16 on PostgreSQL, issue 18 for every server), in both modes:');
  for (const t of targets.slice(1)) {
    const verdicts = (['sustained', 'burst'] as const).map((mode) => {
      const p99 = percentile(t[mode].firstByte, 99) / percentile(floor[mode].firstByte, 99);
      const rate = t[mode].answers / t[mode].seconds / (floor[mode].answers / floor[mode].seconds);
      const met = p99 <= 2 && t[mode].errors === 0 && rate >= 0.5;
      return `${mode} ${verdict(met)} (p99 ${p99.toFixed(2)}×, ${t[mode].errors} errors, answers/s ${rate.toFixed(2)}×)`;
    });
    console.log(
      `  ${t.name}: p99 first byte ≤ 2× no-work, 0 errors, answers/s ≥ 0.5× no-work: ${verdicts.join('; ')}`,
    );
    // The first round's budget, in milliseconds.
    const p99 = percentile(t.sustained.firstByte, 99);
    console.log(
      `  ${t.name}: p99 first byte ≤ ${FIRST_BYTE_MS} ms, sustained: ${verdict(p99 <= FIRST_BYTE_MS)} (${ms(p99)})`,
    );
  }
  const one = targets.find((t) => t.name === 'PostgreSQL');
  const many = targets.find((t) => t.name === `PG ×${WORKERS}`);
  if (one && many) {
    const rates = (['sustained', 'burst'] as const).map(
      (mode) =>
        `${mode} ${ratio(many[mode].answers / many[mode].seconds, one[mode].answers / one[mode].seconds)}`,
    );
    console.log(
      `  ${WORKERS} workers ≥ 1.6× the answers/s of one, where the cores allow: ${rates.join(', ')}; this machine has ${cpus().length} cores, shared with the load client, and the answers are paced, so answers/s stops at the no-work server's`,
    );
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
