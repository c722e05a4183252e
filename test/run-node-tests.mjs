// Node's test runner on Node 20 does not expand globs or find .ts files by directory, and a run
// that finds no file passes silently. This finds the files, refuses an empty run, and hands them
// to `node --test`. Usage: node test/run-node-tests.mjs [dir…] (default: every Node suite but e2e).
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

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
const result = spawnSync(
  process.execPath,
  ['--import', 'tsx', '--test', '--test-reporter=spec', '--test-concurrency=1', ...files],
  { stdio: 'inherit' },
);
process.exit(result.status ?? 1);
