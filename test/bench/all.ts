/**
 * `npm run bench`: every bench in turn, each to its end whatever the one before found, then one
 * line per bench saying whether its budgets were met. Exits 1 when any bench missed one (or
 * failed), so the figures of all are printed before the verdict.
 */
import { spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';

const BENCHES = ['chat', 'admin', 'review', 'server', 'answers'];

const results = BENCHES.map((name) => {
  console.log(`\n=== npm run bench:${name} (load average ${loadavg()[0]!.toFixed(2)}) ===\n`);
  const run = spawnSync('npm', ['run', '-s', `bench:${name}`], { stdio: 'inherit' });
  return { name, ok: run.status === 0 };
});

console.log('\n=== Summary ===');
for (const { name, ok } of results) {
  console.log(
    `  bench:${name.padEnd(8)} ${ok ? 'all budgets met' : 'MISSED a budget (or failed): see its figures above'}`,
  );
}
process.exitCode = results.every((r) => r.ok) ? 0 : 1;
