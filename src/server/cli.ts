/**
 * `npm run server` starts the reference server from the environment;
 * `npm run server -- --workers N` starts N of them sharing the port (PostgreSQL only);
 * `npm run server -- create-key <user> [--chat-only <chatbot-uuid>]` prints a new key;
 * `npm run server -- revoke-key <key>` deletes one.
 * Failures the operator can fix are one line on stderr and exit code 1.
 */
import cluster from 'node:cluster';
import { createKey, hashKey } from './auth.js';
import { digits, wholeNumber } from './env.js';
import { DEFAULT_DB, startServer } from './main.js';
import { parseOrigin } from './origins.js';
import { openStore } from './store/open.js';
import type { Store } from './store/types.js';
import { reportListening, runPrimary, STOP_GRACE_MS, startLine } from './workers.js';

const env = process.env;

const USAGE =
  'usage: npm run server [-- --workers <n>] | npm run server -- create-key <user> [--chat-only <chatbot-uuid>] | npm run server -- revoke-key <key>';

/** How to make a first key, for a store that holds none: every request would answer 401. */
async function keysHint(server: { hasKeys(): Promise<boolean> }): Promise<string | null> {
  if (await server.hasKeys().catch(() => true)) return null;
  return 'no API keys yet: create one with "npm run server -- create-key <user>" (or set CHATBOT_API_KEYS)';
}

function fail(message: string): never {
  console.error(`chatbot server: ${message}`);
  process.exit(1);
}

/** The URL without its password, fit to print. */
function shownUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'DATABASE_URL';
  }
}

function explain(error: unknown, store: { db: string; databaseUrl?: string }, port?: number) {
  const e = error as NodeJS.ErrnoException;
  if (e.code === 'EADDRINUSE') return `port ${port} is already in use; set PORT to a free port`;
  if (e.code === 'EACCES' && port !== undefined) return `no permission to listen on port ${port}`;
  if (e.code === 'EADDRNOTAVAIL') return `HOST ${env.HOST} is not an address of this machine`;
  // getaddrinfo names the host it could not find: HOST's, or the database's (below).
  if (/^(ENOTFOUND|EAI_AGAIN)$/.test(e.code ?? '') && env.HOST && hostOf(e) === env.HOST) {
    return `HOST ${env.HOST} cannot be found (${e.code}); set HOST to an address of this machine, such as 127.0.0.1 or 0.0.0.0`;
  }
  // Connection failures, and PostgreSQL's own (five-character SQLSTATE codes).
  if (
    store.databaseUrl &&
    (/^(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|ECONNRESET|EHOSTUNREACH)$/.test(e.code ?? '') ||
      /^[0-9A-Z]{5}$/.test(e.code ?? '') ||
      /connect|timeout/i.test(e.message ?? ''))
  ) {
    const reason = e.message || e.code || String(error);
    return `cannot use the PostgreSQL database ${shownUrl(store.databaseUrl)} (${reason}); check DATABASE_URL`;
  }
  if (
    /SQLITE_CANTOPEN|SQLITE_READONLY|EACCES|EROFS|ENOTDIR|EEXIST/.test(`${e.code} ${e.message}`)
  ) {
    return `cannot open the database ${store.db} for writing (${e.message}); set CHATBOT_DB to a writable path`;
  }
  return e.message || String(error);
}

function hostOf(error: NodeJS.ErrnoException): string | undefined {
  return (error as { hostname?: string }).hostname;
}

/** `on`/`off` and their usual spellings; `fallback` when unset. */
function onOff(name: string, value: string | undefined, fallback: boolean): boolean {
  if (!value?.trim()) return fallback;
  if (/^(on|1|true|yes)$/i.test(value.trim())) return true;
  if (/^(off|0|false|no)$/i.test(value.trim())) return false;
  return fail(`${name} must be on or off, not "${value.slice(0, 40)}"`);
}

/** The address of a PostgreSQL database, which any other scheme is not. */
function databaseUrl(value: string | undefined): string | undefined {
  if (!value) return undefined;
  if (!/^postgres(ql)?:\/\//i.test(value)) {
    fail(
      `DATABASE_URL must be a postgres:// or postgresql:// address (unset, the server uses the SQLite file CHATBOT_DB), not "${shownUrl(value).slice(0, 60)}"`,
    );
  }
  return value;
}

/** A positive whole number from the environment or a flag; `fallback` when unset. */
function count(name: string, value: string | undefined, fallback: number): number {
  try {
    return wholeNumber(name, value, fallback, 1);
  } catch (error) {
    return fail((error as Error).message);
  }
}

/**
 * Whole seconds from the environment, a day at most: a timer set past 24.8 days fires at once
 * (the ingestion queue would poll without pause, a socket close at once).
 */
function seconds(name: string, value: string | undefined, fallback: number): number {
  const n = count(name, value, fallback);
  return n <= 86_400 ? n : fail(`${name} must be a number of seconds from 1 to 86400, not "${n}"`);
}

/** Megabytes from the environment as bytes: any positive number ("0.5" is half a MB). */
function uploadLimit(value: string | undefined): number | undefined {
  if (!value?.trim()) return undefined;
  const mb = Number(value);
  if (!(Number.isFinite(mb) && mb > 0))
    fail(`CHATBOT_UPLOAD_LIMIT_MB must be a positive number of MB, not "${value.slice(0, 40)}"`);
  return Math.floor(mb * 1024 * 1024);
}

/**
 * `*`, or the origins listed, as browsers send them (`Origin` is compared as text): a typo
 * taken as given would refuse its site with no word why.
 */
function corsOrigins(value: string | undefined): string {
  const listed = value?.trim() || '*';
  if (listed === '*') return listed;
  return listed
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map(
      (entry) =>
        parseOrigin(entry) ??
        fail(
          `CHATBOT_CORS_ORIGINS: "${entry.slice(0, 80)}" is not an origin (scheme://host[:port], comma-separated), nor *`,
        ),
    )
    .join(',');
}

/** The LLM's address, which every answer would otherwise fail on, at once. */
function llmBaseUrl(value: string): string {
  if (!URL.canParse(value) || !/^https?:$/.test(new URL(value).protocol))
    fail(`LLM_BASE_URL must be an http(s) address, such as https://api.openai.com/v1`);
  return value;
}

/** Runs a command's work on the store, then closes it; a failure is one line and exit code 1. */
async function withStore(
  command: string,
  store: { db: string; databaseUrl?: string },
  use: (opened: Store) => Promise<void>,
) {
  if (!store.databaseUrl && store.db === ':memory:') {
    fail(`${command} needs a database file: CHATBOT_DB is :memory:`);
  }
  try {
    const opened = await openStore({ ...store, poolSize: 1 });
    try {
      await use(opened);
    } finally {
      await opened.close();
    }
  } catch (error) {
    fail(explain(error, store));
  }
}

async function createKeyCommand(args: string[], store: { db: string; databaseUrl?: string }) {
  const user = args[1];
  const flag = args.indexOf('--chat-only');
  const chatOnly = flag === -1 ? undefined : args[flag + 1];
  if (!user || user.startsWith('--') || (flag !== -1 && !chatOnly)) {
    fail('usage: npm run server -- create-key <user> [--chat-only <chatbot-uuid>]');
  }
  await withStore('create-key', store, async (opened) => {
    console.log(await createKey(opened, user, { chatOnly }));
  });
}

async function revokeKeyCommand(args: string[], store: { db: string; databaseUrl?: string }) {
  const key = args[1];
  if (!key || args.length > 2) fail('usage: npm run server -- revoke-key <key>');
  await withStore('revoke-key', store, async (opened) => {
    if (!(await opened.deleteKey(hashKey(key))))
      fail('no such key in this database: nothing revoked');
    console.log('revoked: running servers on this database refuse it within a second');
  });
  const listed = (env.CHATBOT_API_KEYS ?? '')
    .split(',')
    .some((entry) => entry.slice(entry.indexOf(':') + 1).trim() === key);
  if (listed) {
    console.error(
      'chatbot server: the key is also in CHATBOT_API_KEYS: take it out, or the next start adds it again',
    );
  }
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const store = { db: env.CHATBOT_DB || DEFAULT_DB, databaseUrl: databaseUrl(env.DATABASE_URL) };

  if (args[0] === 'create-key') return createKeyCommand(args, store);
  if (args[0] === 'revoke-key') return revokeKeyCommand(args, store);
  if (args[0] === '--help' || args[0] === '-h') {
    console.log(`${USAGE}\nSettings come from the environment: see the README, "Environment".`);
    return;
  }
  let workersFlag: string | undefined;
  if (args[0] === '--workers') {
    workersFlag = args[1];
    if (workersFlag === undefined) fail(USAGE);
    args.splice(0, 2);
  } else if (args[0]?.startsWith('--workers=')) {
    workersFlag = args[0].slice('--workers='.length);
    args.splice(0, 1);
  }
  if (args.length > 0) fail(`unknown command ${args[0]}; ${USAGE}`);

  const workers =
    workersFlag !== undefined
      ? count('--workers', workersFlag, 1)
      : count('CHATBOT_WORKERS', env.CHATBOT_WORKERS, 1);
  if (workers > 1 && !store.databaseUrl) {
    fail(
      `${workers} workers need PostgreSQL: set DATABASE_URL=postgres://… (one SQLite file serves one process)`,
    );
  }
  const port = env.PORT ? digits(env.PORT) : 8787;
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    fail(`PORT ${env.PORT} is not a port number (0 to 65535; 0 picks a free one)`);
  const host = env.HOST || '127.0.0.1';
  const leaseSeconds = seconds(
    'CHATBOT_INGEST_LEASE_SECONDS',
    env.CHATBOT_INGEST_LEASE_SECONDS,
    30,
  );
  const poolSize = count('CHATBOT_PG_POOL_SIZE', env.CHATBOT_PG_POOL_SIZE, 10);
  // How long, and in how large a heap, one PDF or .docx may be read (knowledge/isolated.ts).
  const extractSeconds = seconds('CHATBOT_EXTRACT_SECONDS', env.CHATBOT_EXTRACT_SECONDS, 60);
  const extractHeapMb = count('CHATBOT_EXTRACT_HEAP_MB', env.CHATBOT_EXTRACT_HEAP_MB, 512);
  // Loading pdfjs and mammoth alone takes about 100 MB: less would fail every PDF, quietly.
  if (extractHeapMb < 256) {
    fail(`CHATBOT_EXTRACT_HEAP_MB must be 256 or more (MB), not "${extractHeapMb}"`);
  }
  const keepAliveSeconds = seconds(
    'CHATBOT_KEEP_ALIVE_SECONDS',
    env.CHATBOT_KEEP_ALIVE_SECONDS,
    65,
  );
  // Checked before any worker starts: each would stop on it, and the primary start them again.
  const cors = corsOrigins(env.CHATBOT_CORS_ORIGINS);
  const llmUrl = env.LLM_BASE_URL ? llmBaseUrl(env.LLM_BASE_URL) : undefined;
  const uploadLimitBytes = uploadLimit(env.CHATBOT_UPLOAD_LIMIT_MB);
  const log = onOff('CHATBOT_LOG', env.CHATBOT_LOG, true);
  const allowPrivateUrls = onOff(
    'CHATBOT_ALLOW_PRIVATE_URLS',
    env.CHATBOT_ALLOW_PRIVATE_URLS,
    false,
  );
  if (workers > 1 && cluster.isPrimary) {
    runPrimary(workers, `${workers} workers, PostgreSQL`);
    return;
  }
  let server: Awaited<ReturnType<typeof startServer>>;
  try {
    server = await startServer({
      port,
      host,
      ...store,
      poolSize,
      keepAliveMs: keepAliveSeconds * 1000,
      apiKeys: env.CHATBOT_API_KEYS,
      allowPrivateUrls,
      corsOrigins: cors,
      llm: llmUrl
        ? {
            baseUrl: llmUrl,
            apiKey: env.LLM_API_KEY || undefined,
            model: env.LLM_MODEL || undefined,
          }
        : undefined,
      log,
      uploadLimitBytes,
      ingestLeaseMs: leaseSeconds * 1000,
      extractLimits: { timeMs: extractSeconds * 1000, memoryMb: extractHeapMb },
    });
  } catch (error) {
    fail(explain(error, store, port));
  }
  const shutdown = () => {
    // A second Ctrl-C does not wait: answers still streaming are cut (and stored) at once.
    process.on('SIGINT', () => void server.close());
    server.close({ graceMs: STOP_GRACE_MS }).then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGTERM', shutdown);
  if (cluster.isWorker) {
    // The primary says it once for all, and stops the workers itself (a terminal's Ctrl-C
    // reaches every process of the group: the primary's SIGTERM follows).
    process.once('SIGINT', () => {});
    reportListening(server.url, await keysHint(server));
    return;
  }
  process.once('SIGINT', shutdown);
  // SQLite, the default, keeps the line as it always was.
  console.log(startLine(server.url, await keysHint(server), store.databaseUrl ? 'PostgreSQL' : ''));
}

void main();
