/** What the benches share: statistics over timings, their units, and the printed table. */

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

export const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};

export const ms = (value: number) => `${value.toFixed(1)} ms`;
export const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/**
 * In-page script for a bench page: `window.__idle()` resolves with the durations of 600 frames
 * of the page doing nothing, the machine's own noise measured in the same run.
 */
export const IDLE_FRAMES = `window.__idle = () => new Promise((resolve) => {
  const frames = [];
  let last;
  const step = (t) => {
    if (last !== undefined) frames.push(t - last);
    last = t;
    if (frames.length < 600) requestAnimationFrame(step);
    else resolve(frames);
  };
  requestAnimationFrame(step);
});`;

/** Prints `title`, then one line per row: the measure, its figure and its budget, in columns. */
export function printTable(title: string, rows: [string, string, string][]): void {
  const width = Math.max(...rows.map((r) => r[0].length));
  const width2 = Math.max(...rows.map((r) => r[1].length));
  console.log(`\n${title}\n`);
  console.log(`${'Measure'.padEnd(width)}  ${'Figure'.padEnd(width2)}  Budget`);
  for (const [name, figure, budget] of rows) {
    console.log(`${name.padEnd(width)}  ${figure.padEnd(width2)}  ${budget}`);
  }
}

/** Says which budgets were missed, if any, and makes the process exit 1 when one was. */
export function reportBudgets(missed: string[]): void {
  console.log(missed.length ? `\nMISSED: ${missed.join(', ')}` : '\nAll budgets met.');
  process.exitCode = missed.length ? 1 : 0;
}
