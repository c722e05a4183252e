// A throwaway PostgreSQL cluster for the tests: initdb in a temporary directory, started on a free
// port on 127.0.0.1 with trust authentication, stopped and removed at the end (also when the
// process exits or is interrupted). PostgreSQL refuses to run as root, so as root the directory
// belongs to the `postgres` user and its programs run through runuser.
//   node test/postgres-cluster.mjs --print   starts one, prints its URL, runs until killed.
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

export const INSTALL_HINT =
  'PostgreSQL is not installed: `apt-get install -y postgresql` (Debian/Ubuntu), or set CHATBOT_TEST_DATABASE_URL=postgres://… to a server the tests may create databases on';

/** The directory holding initdb and pg_ctl, or null when PostgreSQL is not installed. */
export function findPostgresBin() {
  const onPath = (process.env.PATH ?? '')
    .split(delimiter)
    .filter(Boolean)
    .find((dir) => existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl')));
  if (onPath) return onPath;
  // Debian keeps them off PATH, one directory per major version: take the newest.
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions.length ? join(root, versions[0], 'bin') : null;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

const asRoot = process.getuid?.() === 0;

/** Runs one PostgreSQL program, as `postgres` when we are root; throws with its output. */
function run(bin, program, args, cwd) {
  const [command, argv] = asRoot
    ? ['runuser', ['-u', 'postgres', '--', join(bin, program), ...args]]
    : [join(bin, program), args];
  const result = spawnSync(command, argv, { cwd, encoding: 'utf8' });
  if (result.status !== 0) {
    const output = `${result.stdout ?? ''}${result.stderr ?? ''}${result.error ?? ''}`.trim();
    throw new Error(`${program} ${args.join(' ')} failed: ${output}`);
  }
}

const running = new Set();

/** Stops a cluster (fast shutdown: open connections are cut) and removes its directory. */
export function stopCluster(cluster) {
  if (!running.delete(cluster)) return;
  try {
    run(cluster.bin, 'pg_ctl', ['-D', cluster.data, '-m', 'fast', '-w', 'stop'], cluster.dir);
  } catch (error) {
    console.error(String(error));
  }
  rmSync(cluster.dir, { recursive: true, force: true });
}

/** Stops the cluster's server, keeping its data, as an outage of the database would. */
export function pauseCluster(cluster) {
  run(cluster.bin, 'pg_ctl', ['-D', cluster.data, '-m', 'fast', '-w', 'stop'], cluster.dir);
}

/** Starts a paused cluster's server again, on the same port. */
export function resumeCluster(cluster) {
  run(
    cluster.bin,
    'pg_ctl',
    [
      '-D',
      cluster.data,
      '-l',
      join(cluster.dir, 'server.log'),
      '-w',
      '-t',
      '60',
      '-o',
      cluster.options,
      'start',
    ],
    cluster.dir,
  );
}

let hooked = false;
function stopAllAtExit() {
  if (hooked) return;
  hooked = true;
  process.on('exit', () => {
    for (const cluster of [...running]) stopCluster(cluster);
  });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.once(signal, () =>
      process.exit(128 + (signal === 'SIGHUP' ? 1 : signal === 'SIGINT' ? 2 : 15)),
    );
  }
}

/**
 * Starts a cluster; resolves with its URL (as the `postgres` superuser, database `postgres`) and
 * what `stopCluster` needs. Throws INSTALL_HINT's message when PostgreSQL is not installed.
 */
export async function startCluster() {
  const bin = findPostgresBin();
  if (!bin) throw new Error(INSTALL_HINT);
  const dir = mkdtempSync(join(tmpdir(), 'chatbot-pg-'));
  const data = join(dir, 'data');
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }));
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }));
    chownSync(dir, uid, gid);
  }
  stopAllAtExit();
  try {
    // The C locale sorts text by code point, as SQLite does, whatever the machine's locale.
    run(
      bin,
      'initdb',
      ['-D', data, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--locale=C', '--no-sync'],
      dir,
    );
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  // Another process may take the free port between the probe and the start: try a few.
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const options = [
      `-p ${port}`,
      `-k ${dir}`,
      '-c listen_addresses=127.0.0.1',
      // Nothing here outlives the run: durability only costs time.
      '-c fsync=off',
      '-c synchronous_commit=off',
      '-c full_page_writes=off',
      '-c max_connections=200',
    ].join(' ');
    const cluster = {
      bin,
      dir,
      data,
      port,
      options,
      url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    };
    try {
      run(
        bin,
        'pg_ctl',
        ['-D', data, '-l', join(dir, 'server.log'), '-w', '-t', '60', '-o', options, 'start'],
        dir,
      );
      running.add(cluster);
      return cluster;
    } catch (error) {
      const log = existsSync(join(dir, 'server.log'))
        ? readFileSync(join(dir, 'server.log'), 'utf8')
        : '';
      if (attempt >= 3 || !/could not bind|in use/i.test(log)) {
        rmSync(dir, { recursive: true, force: true });
        throw new Error(`${error.message}\n${log}`);
      }
    }
  }
}

const isMain = process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href;
if (isMain && process.argv.includes('--print')) {
  try {
    const cluster = await startCluster();
    console.log(cluster.url);
    // Keeps the process (and so the cluster) alive until a signal stops both.
    setInterval(() => {}, 1 << 30);
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
}

// `--check`: the first step of `npm test`, so a machine without PostgreSQL hears it in one line
// before minutes of type-checking, building and browser tests, not after.
if (isMain && process.argv.includes('--check')) {
  if (!process.env.CHATBOT_TEST_DATABASE_URL && !findPostgresBin()) {
    console.error(INSTALL_HINT);
    process.exit(1);
  }
}
