/**
 * `npm run server` starts the reference server from the environment;
 * `npm run server -- create-key <user> [--chat-only <chatbot-uuid>]` prints a new key.
 * Failures the operator can fix are one line on stderr and exit code 1.
 */
import { createKey } from './auth.js';
import { DEFAULT_DB, startServer } from './main.js';
import { openStore } from './store/open.js';

const env = process.env;
const truthy = (value: string | undefined) => /^(1|true|yes|on)$/i.test(value ?? '');

function fail(message: string): never {
  console.error(`chatbot server: ${message}`);
  process.exit(1);
}

function explain(error: unknown, db: string, port?: number): string {
  const e = error as NodeJS.ErrnoException;
  if (e.code === 'EADDRINUSE') return `port ${port} is already in use; set PORT to a free port`;
  if (e.code === 'EACCES' && port !== undefined) return `no permission to listen on port ${port}`;
  if (e.code === 'EADDRNOTAVAIL') return `HOST ${env.HOST} is not an address of this machine`;
  if (/SQLITE_CANTOPEN|SQLITE_READONLY|EACCES|EROFS|ENOTDIR/.test(`${e.code} ${e.message}`)) {
    return `cannot open the database ${db} for writing (${e.message}); set CHATBOT_DB to a writable path`;
  }
  return e.message ?? String(error);
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const db = env.CHATBOT_DB || DEFAULT_DB;

  if (args[0] === 'create-key') {
    const user = args[1];
    const flag = args.indexOf('--chat-only');
    const chatOnly = flag === -1 ? undefined : args[flag + 1];
    if (!user || user.startsWith('--') || (flag !== -1 && !chatOnly)) {
      fail('usage: npm run server -- create-key <user> [--chat-only <chatbot-uuid>]');
    }
    if (db === ':memory:') fail('create-key needs a database file: CHATBOT_DB is :memory:');
    try {
      const store = await openStore({ db });
      try {
        console.log(await createKey(store, user, { chatOnly }));
      } finally {
        await store.close();
      }
    } catch (error) {
      fail(explain(error, db));
    }
    return;
  }
  if (args.length > 0) {
    fail(
      `unknown command ${args[0]}; usage: npm run server [-- create-key <user> [--chat-only <chatbot-uuid>]]`,
    );
  }

  const port = env.PORT ? Number(env.PORT) : 8787;
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    fail(`PORT ${env.PORT} is not a port number`);
  const host = env.HOST || '127.0.0.1';
  const leaseSeconds = Number(env.CHATBOT_INGEST_LEASE_SECONDS || 30);
  if (!(leaseSeconds > 0)) {
    fail(
      `CHATBOT_INGEST_LEASE_SECONDS ${env.CHATBOT_INGEST_LEASE_SECONDS} is not a positive number`,
    );
  }
  let server: Awaited<ReturnType<typeof startServer>>;
  try {
    server = await startServer({
      port,
      host,
      db,
      apiKeys: env.CHATBOT_API_KEYS,
      allowPrivateUrls: truthy(env.CHATBOT_ALLOW_PRIVATE_URLS),
      corsOrigins: env.CHATBOT_CORS_ORIGINS || '*',
      llm: env.LLM_BASE_URL
        ? {
            baseUrl: env.LLM_BASE_URL,
            apiKey: env.LLM_API_KEY || undefined,
            model: env.LLM_MODEL || undefined,
          }
        : undefined,
      log: !/^(off|0|false|no)$/i.test(env.CHATBOT_LOG ?? ''),
      uploadLimitBytes: env.CHATBOT_UPLOAD_LIMIT_MB
        ? Number(env.CHATBOT_UPLOAD_LIMIT_MB) * 1024 * 1024
        : undefined,
      ingestLeaseMs: leaseSeconds * 1000,
    });
  } catch (error) {
    fail(explain(error, db, port));
  }
  console.log(`listening on ${server.url}`);
  if (!env.CHATBOT_API_KEYS) {
    console.log('no CHATBOT_API_KEYS set: create a key with "npm run server -- create-key <user>"');
  }
  const shutdown = () => {
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}

void main();
