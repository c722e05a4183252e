import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';

/** How the tests start the real server: `npm run server`'s command. */
export const CLI = ['--import', 'tsx', 'src/server/cli.ts'];

/**
 * The CLI run to its end with `args` on this process's environment and `env`: its exit status and
 * output (30 s at most, which bounds a failure only).
 */
export function runCli(args: readonly string[], env: Record<string, string | undefined> = {}) {
  return spawnSync(process.execPath, [...CLI, ...args], {
    env: { ...process.env, ...env },
    encoding: 'utf8',
    timeout: 30_000,
  });
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/**
 * Starts the CLI and resolves with its first stdout line containing "listening on", and the
 * output up to it and what was written with it.
 */
export function startCli(
  env: Record<string, string>,
): Promise<{ child: ChildProcess; line: string; out: string }> {
  const child = spawn(process.execPath, CLI, {
    env: { ...process.env, CHATBOT_LOG: 'off', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stderr!.on('data', (d) => {
      err += d;
    });
    child.stdout!.on('data', (d) => {
      out += d;
      const line = out.split('\n').find((l) => l.includes('listening on'));
      if (line) resolve({ child, line, out });
    });
    child.once('exit', (code) => reject(new Error(`exited with ${code}: ${err}`)));
  });
}
