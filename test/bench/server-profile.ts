/**
 * `node --import tsx test/bench/server-profile.ts <dir or .cpuprofile>…`: where a server spent its
 * CPU while serving, from the profiles `BENCH_CPU_PROF=<dir> npm run bench:server` writes: self
 * time by area (the README's table) and the functions that took the most.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
}

/** The first area whose test matches a frame's file (or, for V8's own entries, its name). */
const AREAS: Array<[string, (url: string, name: string) => boolean]> = [
  ['idle', (_url, name) => name === '(idle)'],
  ['garbage collection', (_url, name) => name === '(garbage collector)'],
  [
    'search (BM25 index, relevance)',
    (url) => /knowledge\/(search|postings|ranking|relevance|text)\.ts/.test(url),
  ],
  ['answer composition', (url) => /knowledge\//.test(url)],
  ['store: SQLite', (url) => /store\/sqlite|better-sqlite3/.test(url)],
  ['store: PostgreSQL', (url) => /store\/postgres|node_modules\/(pg|pg-[a-z-]+)\//.test(url)],
  ['store: cache', (url) => /store\/cached\.ts/.test(url)],
  [
    'auth and CORS',
    (url) => /server\/(auth|cors|origins)\.ts|node:crypto|internal\/crypto/.test(url),
  ],
  ['JSON', (url, name) => url === '' && /^(parse|stringify)$/.test(name)],
  ['Hono (routing, middleware, context)', (url) => /node_modules\/hono\//.test(url)],
  [
    'our HTTP layer (routes, body, streaming)',
    (url) => /src\/server\/(routes\/|body|http|streaming|app|context|records|json-depth)/.test(url),
  ],
  ['@hono/node-server', (url) => /@hono\/node-server/.test(url)],
  [
    "Node's HTTP, sockets and streams",
    (url) =>
      /node:(_http|http|net|stream|internal\/(streams|http|net|stream_base|js_stream))|node:events|internal\/(streams|http)/.test(
        url,
      ),
  ],
  [
    'timers and promises',
    (url, name) =>
      /timers|async_hooks|task_queues/.test(url) ||
      /^(processTicksAndRejections|runMicrotasks)$/.test(name),
  ],
  ['(program: V8 and native, unattributed)', (_url, name) => name === '(program)'],
];

function files(paths: string[]): string[] {
  return paths.flatMap((path) =>
    statSync(path).isDirectory()
      ? readdirSync(path)
          .filter((f) => f.endsWith('.cpuprofile'))
          .map((f) => join(path, f))
      : [path],
  );
}

function summarize(file: string) {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i]!;
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  }
  const parent = new Map<number, number>();
  for (const node of profile.nodes)
    for (const child of node.children ?? []) parent.set(child, node.id);
  // Native code and Node's internals count in the area of the nearest caller of ours or of a
  // package's: a socket's writev under the PostgreSQL client is the store's, under a response
  // Node's HTTP; a SQLite statement's run is SQLite's.
  const STORE = /better-sqlite3|node_modules\/(pg|pg-[a-z-]+)\//;
  const frameOf = (id: number) => {
    const own = byId.get(id)!.callFrame;
    const { functionName, url } = own;
    if (/^\(|^(parse|stringify)$/.test(functionName) && url === '') return own;
    if (url !== '' && !url.startsWith('node:')) return own;
    let outer: Node['callFrame'] | undefined;
    for (let up = parent.get(id); up !== undefined; up = parent.get(up)) {
      const frame = byId.get(up)!.callFrame;
      if (STORE.test(frame.url)) return { ...frame, functionName };
      if (url === '' && !outer && frame.url !== '') outer = { ...frame, functionName };
    }
    return outer ?? own;
  };
  const areas = new Map<string, number>();
  const functions = new Map<string, number>();
  let busy = 0;
  for (const [id, time] of self) {
    const { functionName, url, lineNumber } = frameOf(id);
    const name = functionName || '(anonymous)';
    const area = AREAS.find(([, test]) => test(url, name))?.[0] ?? 'other';
    areas.set(area, (areas.get(area) ?? 0) + time);
    if (area !== 'idle') busy += time;
    const where = `${name} ${url.replace(/^.*\/(node_modules|src)\//, '$1/')}:${lineNumber + 1}`;
    functions.set(where, (functions.get(where) ?? 0) + time);
  }
  console.log(
    `\n${file}: ${busy.toFixed(0)} ms busy (idle ${(areas.get('idle') ?? 0).toFixed(0)} ms)`,
  );
  console.log('| Area | Self time | Share of busy time |\n| --- | --- | --- |');
  for (const [area, time] of [...areas].sort((a, b) => b[1] - a[1])) {
    if (area === 'idle') continue;
    console.log(`| ${area} | ${time.toFixed(0)} ms | ${((100 * time) / busy).toFixed(1)} % |`);
  }
  console.log('\nfunctions by self time:');
  for (const [where, time] of [...functions].sort((a, b) => b[1] - a[1]).slice(0, 30)) {
    console.log(`  ${time.toFixed(0).padStart(6)} ms  ${where}`);
  }
}

for (const file of files(process.argv.slice(2))) summarize(file);
