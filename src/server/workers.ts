/**
 * `--workers N`: N server processes on one machine through Node's cluster module, sharing the
 * port (the primary hands connections out) and, through PostgreSQL, everything else. The primary
 * serves nothing itself: it starts the workers, says once that they all listen, starts another
 * in place of one that dies, and stops them all on SIGTERM or SIGINT.
 */
import cluster, { type Worker } from 'node:cluster';

/** What a worker tells the primary once it listens. */
interface Listening {
  type: 'listening';
  url: string;
  /** What the start says after its line: how to make a key, when the store has none. */
  hint: string | null;
}

const isListening = (message: unknown): message is Listening =>
  typeof message === 'object' && message !== null && (message as Listening).type === 'listening';

/**
 * How long a process gives the answers in flight after a stop (SIGTERM, Ctrl-C) before it cuts
 * them and stores them as cut short; the primary kills a worker 2 s after that.
 */
export const STOP_GRACE_MS = 8_000;

/** In a worker: tells the primary this worker listens at `url`. */
export function reportListening(url: string, hint: string | null): void {
  process.send?.({ type: 'listening', url, hint } satisfies Listening);
}

/**
 * The line a start ends with, and the hint after it in the same write, so whoever reads the
 * output line by line finds both once it listens.
 */
export function startLine(url: string, hint: string | null, describe = ''): string {
  return `listening on ${url}${describe ? ` (${describe})` : ''}${hint ? `\n${hint}` : ''}`;
}

/**
 * In the primary: starts `count` workers and keeps that many running. `describe` is what the
 * start line says after the URL (`2 workers, PostgreSQL`). A worker that fails before every
 * worker listened ends the start (it has said why on stderr); later, one that dies is replaced.
 */
export function runPrimary(count: number, describe: string): void {
  let stopping = false;
  let started = false;
  const listening = new Set<Worker>();

  const fork = () => {
    const worker = cluster.fork();
    worker.on('message', (message: unknown) => {
      if (!isListening(message) || listening.has(worker)) return;
      listening.add(worker);
      if (!started && listening.size === count) {
        started = true;
        console.log(startLine(message.url, message.hint, describe));
      }
    });
  };

  const stopAll = (code: number) => {
    if (stopping) return;
    stopping = true;
    const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => !!w);
    if (workers.length === 0) process.exit(code);
    for (const worker of workers) worker.process.kill('SIGTERM');
    setTimeout(() => {
      for (const worker of workers) worker.process.kill('SIGKILL');
    }, STOP_GRACE_MS + 2_000).unref();
    cluster.on('exit', () => {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(code);
    });
  };

  cluster.on('exit', (worker, code, signal) => {
    const served = listening.delete(worker);
    if (stopping) return;
    if (!started) {
      stopAll(1);
      return;
    }
    console.error(
      `chatbot server: worker ${worker.process.pid} exited (${signal ?? `code ${code}`}); starting another`,
    );
    // One that died before it listened may die again at once: not in a tight loop.
    setTimeout(fork, served ? 0 : 1000);
  });

  // A second Ctrl-C reaches the workers too (the terminal's whole group), which then cut their
  // answers at once; the primary waits for them as before.
  process.on('SIGINT', () => stopAll(0));
  process.once('SIGTERM', () => stopAll(0));
  for (let i = 0; i < count; i++) fork();
}
