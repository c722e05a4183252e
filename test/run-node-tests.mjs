// Node's test runner on Node 20 does not expand globs or find .ts files by directory, and a run
// that finds no file passes silently. This finds the files, refuses an empty run, and hands them
// to `node --test`. Usage: node test/run-node-tests.mjs [dir…] (default: every Node suite but e2e).
// The server's suites then run a second time on PostgreSQL: on CHATBOT_TEST_DATABASE_URL when set,
// else on a throwaway cluster this starts (test/postgres-cluster.mjs) and removes at the end.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { findPostgresBin, INSTALL_HINT, startCluster, stopCluster } from './postgres-cluster.mjs';

const roots = process.argv.slice(2).filter((arg) => !arg.startsWith('-'));
const dirs = roots.length
  ? roots
  : readdirSync('test')
      .map((d) => join('test', d))
      .filter((d) => statSync(d).isDirectory() && !d.endsWith('e2e') && !d.endsWith('bench'));

function find(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return find(path);
    return /\.test\.ts$/.test(entry.name) && !entry.name.endsWith('.browser.test.ts') ? [path] : [];
  });
}

const files = dirs.flatMap(find).sort();
if (files.length === 0) {
  console.error(`No Node test files under ${dirs.join(', ')}`);
  process.exit(1);
}
// Only the reference server has a store to choose; the browser-free e2e run stays on SQLite.
const serverFiles = files.filter((file) => file.startsWith(join('test', 'server')));
const externalUrl = process.env.CHATBOT_TEST_DATABASE_URL;
// Said before the SQLite pass, not after minutes of it.
if (serverFiles.length && !externalUrl && !findPostgresBin()) {
  console.error(INSTALL_HINT);
  process.exit(1);
}

function runTests(list, env) {
  const result = spawnSync(
    process.execPath,
    ['--import', 'tsx', '--test', '--test-reporter=spec', '--test-concurrency=1', ...list],
    { stdio: 'inherit', env: { ...process.env, ...env } },
  );
  return result.status ?? 1;
}

const sqlite = runTests(files, { CHATBOT_TEST_STORE: 'sqlite' });
if (!serverFiles.length) process.exit(sqlite);

let cluster = null;
let postgres = 1;
try {
  if (!externalUrl) cluster = await startCluster();
  const url = externalUrl ?? cluster.url;
  console.log(`\nThe server's suites again, on PostgreSQL (${url})\n`);
  postgres = runTests(serverFiles, {
    CHATBOT_TEST_STORE: 'postgres',
    CHATBOT_TEST_DATABASE_URL: url,
  });
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
} finally {
  if (cluster) stopCluster(cluster);
}
process.exit(sqlite || postgres);
