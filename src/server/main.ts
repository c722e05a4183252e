import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type ServerType, serve } from '@hono/node-server';
import { createApp as buildApp } from './app.js';
import { createKey, seedKeys } from './auth.js';
import { answerExpectContinue } from './body.js';
import type { ServerContext } from './context.js';
import { Drain } from './drain.js';
import { answerParserErrors, KEEP_ALIVE_MS } from './http.js';
import type { FetchLimits } from './knowledge/fetch-url.js';
import type { ExtractLimits } from './knowledge/isolated.js';
import { Knowledge } from './knowledge/knowledge.js';
import type { LlmOptions } from './knowledge/llm.js';
import type { StaticDir } from './static.js';
import { cachedStore } from './store/cached.js';
import { DEFAULT_DB, openStore } from './store/open.js';
import type { Store } from './store/types.js';

export interface ServerOptions {
  /** 0 picks a free port. Default 8787. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** SQLite file, or `:memory:`. Default `data/chatbot.sqlite`. Unused with `databaseUrl`. */
  db?: string;
  /** `postgres://…`: the store is that PostgreSQL database, which several instances may share. */
  databaseUrl?: string;
  /** PostgreSQL connections this instance keeps open at most. Default 10. */
  poolSize?: number;
  /**
   * How long a PostgreSQL query may go unanswered (a database that hangs) before the request
   * answers 503: default 30 s.
   */
  queryTimeoutMs?: number;
  /** `user:key,user:key`: users and full-access keys created at start when missing. */
  apiKeys?: string;
  /** Let URL sources reach loopback and private addresses (local use and tests). Default false. */
  allowPrivateUrls?: boolean;
  /** `*` (default) or a comma-separated list of allowed origins. */
  corsOrigins?: string;
  /** An OpenAI-compatible chat-completions provider; without it answers are composed from sources. */
  llm?: LlmOptions;
  /** One log line per request, and what the store did at start (migrations). Default true. */
  log?: boolean;
  /** Directories served on the same origin; API routes take precedence. */
  staticDirs?: StaticDir[];
  /** Largest upload. Default 20 MiB. */
  uploadLimitBytes?: number;
  /** Pause between streamed pieces of a composed answer. Default 10 ms. */
  streamDelayMs?: number;
  /** Limits of URL fetching (timeout, size cap, pages). */
  fetchLimits?: Partial<FetchLimits>;
  /**
   * How long (default 60 s) and in how much heap (default 512 MB) one PDF or .docx, uploaded,
   * linked or attached, may be read, in a worker thread, before it fails as unreadable.
   */
  extractLimits?: Partial<ExtractLimits>;
  /**
   * How long an instance holds a claimed ingestion job without renewing it, before another may
   * take it over. Default 30 s.
   */
  ingestLeaseMs?: number;
  /**
   * How long an idle kept-alive connection stays open: longer than a load balancer in front keeps
   * its own. Default 65 s.
   */
  keepAliveMs?: number;
}

export interface RunningServer {
  url: string;
  port: number;
  /**
   * Stops taking connections, gives requests and answers in flight up to `graceMs` (default 0)
   * to finish, cuts the rest (a cut answer is stored as cut short) and closes the store.
   */
  close(options?: { graceMs?: number }): Promise<void>;
  /** Prints nothing: returns a new key for `user` (created if missing). */
  createKey(user: string, opts?: { chatOnly?: string }): Promise<string>;
  /** Resolves when background ingestion has nothing left to do. */
  idle(): Promise<void>;
  /** Whether the store holds any API key. */
  hasKeys(): Promise<boolean>;
}

export { DEFAULT_DB };

/** Everything but the socket: for `app.request()` tests and for embedding the server. */
export async function createServerApp(options: ServerOptions = {}) {
  const store: Store = cachedStore(
    await openStore({
      db: options.db,
      databaseUrl: options.databaseUrl,
      poolSize: options.poolSize,
      queryTimeoutMs: options.queryTimeoutMs,
      log: options.log === false ? undefined : (line) => console.log(line),
      serve: true,
    }),
  );
  try {
    await seedKeys(store, options.apiKeys);
  } catch (error) {
    await store.close();
    throw error;
  }
  const knowledge = new Knowledge(store, {
    allowPrivateUrls: options.allowPrivateUrls ?? false,
    llm: options.llm,
    fetchLimits: options.fetchLimits,
    extractLimits: options.extractLimits,
    streamDelayMs: options.streamDelayMs,
    leaseMs: options.ingestLeaseMs,
  });
  const ctx: ServerContext = {
    store,
    knowledge,
    uploadLimitBytes: options.uploadLimitBytes ?? 20 * 1024 * 1024,
    extractLimits: options.extractLimits ?? {},
    drain: new Drain(),
  };
  const app = buildApp(ctx, {
    allowPrivateUrls: options.allowPrivateUrls ?? false,
    corsOrigins: options.corsOrigins ?? '*',
    log: options.log ?? true,
    staticDirs: options.staticDirs ?? [],
  });
  try {
    await knowledge.recover();
  } catch (error) {
    await knowledge.close();
    await store.close();
    throw error;
  }
  knowledge.warm();
  return {
    app,
    ctx,
    createKey: (user: string, opts: { chatOnly?: string } = {}) => createKey(store, user, opts),
    async close() {
      await knowledge.close();
      await store.close();
    },
  };
}

export { createServerApp as createApp };

/** Starts the server and resolves once it is listening. */
export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  const built = await createServerApp(options);
  const host = options.host ?? '127.0.0.1';
  let server: ServerType;
  try {
    server = await new Promise<ServerType>((resolve, reject) => {
      const s = serve({ fetch: built.app.fetch, port: options.port ?? 8787, hostname: host }, () =>
        resolve(s),
      );
      s.once('error', reject);
    });
  } catch (error) {
    await built.close();
    throw error;
  }
  answerExpectContinue(server as Server);
  answerParserErrors(server as Server);
  (server as Server).keepAliveTimeout = options.keepAliveMs ?? KEEP_ALIVE_MS;
  const { port } = server.address() as AddressInfo;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  let closing: Promise<void> | undefined;
  let hurry = () => {};
  return {
    url: `http://${shownHost}:${port}`,
    port,
    createKey: built.createKey,
    idle: () => built.ctx.knowledge.idle(),
    hasKeys: () => built.ctx.store.hasKeys(),
    close({ graceMs = 0 } = {}) {
      // Asked again without a grace (a second Ctrl-C): the wait ends now.
      if (closing) {
        if (graceMs === 0) hurry();
        return closing;
      }
      closing = (async () => {
        const { drain } = built.ctx;
        // No new connections; idle keep-alive ones end now.
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        if (graceMs > 0) {
          let timer: ReturnType<typeof setTimeout> | undefined;
          await Promise.race([
            drain.idle(),
            new Promise<void>((resolve) => {
              hurry = resolve;
              timer = setTimeout(resolve, graceMs);
            }),
          ]);
          clearTimeout(timer);
        }
        // Answers still streaming are cut, and stored as cut short, before the store closes.
        (server as Server).closeAllConnections();
        await closed;
        await drain.idle();
        await built.close();
      })();
      return closing;
    },
  };
}
