import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { authenticate } from './auth.js';
import { drainUnread, JSON_LIMIT_BYTES, refuseDeclaredLength } from './body.js';
import type { AppEnv, ServerContext } from './context.js';
import { corsHeaders } from './cors.js';
import { errorBody, HttpError } from './http.js';
import { type DocumentSettings, documentSettings } from './knowledge/documents.js';
import { preflightOrigins } from './origins.js';
import { agentRoutes } from './routes/agents.js';
import { chatbotRoutes } from './routes/chatbots.js';
import { documentRoutes } from './routes/documents.js';
import { messageRoutes } from './routes/messages.js';
import { reviewRoutes } from './routes/review.js';
import { sessionRoutes } from './routes/sessions.js';
import { sourceRoutes } from './routes/sources.js';
import { tagRoutes } from './routes/tags.js';
import { type StaticDir, serveStatic } from './static.js';
import { storeUnavailable } from './store/unavailable.js';
import { type VisitorSettings, visitorSettings } from './visitors.js';

export { JSON_LIMIT_BYTES };

export interface AppOptions {
  allowPrivateUrls: boolean;
  /** `*` or a comma-separated list of origins. */
  corsOrigins: string;
  log: boolean;
  staticDirs: StaticDir[];
  /** Session documents' limits; by default from the environment (knowledge/documents.ts). */
  documents?: DocumentSettings;
  /** The limit on one visitor across sessions; by default from the environment (visitors.ts). */
  visitors?: VisitorSettings;
}

export function createApp(ctx: ServerContext, options: AppOptions) {
  const app = new Hono<AppEnv>();
  const documents = options.documents ?? documentSettings(process.env);
  const visitors = options.visitors ?? visitorSettings(process.env);
  // Outermost: every answer, error or not, waits until the request's body is read.
  app.use(drainUnread());
  // A stop waits for the request's handler (a streamed answer counts itself until it is stored).
  app.use(async (_c, next) => {
    const done = ctx.drain.enter();
    try {
      await next();
    } finally {
      done();
    }
  });

  if (options.log) {
    app.use(async (c, next) => {
      const start = performance.now();
      await next();
      const ms = (performance.now() - start).toFixed(1);
      console.log(`${c.req.method} ${loggable(c.req.path)} ${c.res.status} ${ms}ms`);
    });
  }

  // What a load balancer probes: no key, no CORS; 503 while the store does not answer.
  app.get('/healthz', async (c) => {
    const { kind } = ctx.store;
    try {
      await ctx.store.ping();
    } catch (error) {
      // The reason stays in the log: the probe is public, and may come from anywhere.
      // One line a probe, as every request's during an outage (app.onError): no stack.
      console.error(
        `GET /healthz: the ${kind} store does not answer (${(error as Error).message})`,
      );
      return c.json(errorBody('unavailable', `the ${kind} store does not answer`), 503);
    }
    return c.json({ status: 'ok', store: kind });
  });

  const origins = options.corsOrigins.trim();
  const allowed =
    origins === '*'
      ? '*'
      : origins
          .split(',')
          .map((o) => o.trim())
          .filter(Boolean);
  app.use(
    '/api/*',
    corsHeaders({
      origins: allowed,
      allowMethods: ['GET', 'POST', 'DELETE', 'OPTIONS'],
      allowHeaders: ['Authorization', 'Content-Type', 'Accept'],
      exposeHeaders: [
        'X-Message-Uuid',
        'X-Citations',
        'X-Suggestions',
        'Retry-After',
        'X-Total-Count',
        'Content-Disposition',
      ],
      maxAge: 600,
      chatbotOrigins: (c) => preflightOrigins(ctx.store, c.req.path),
    }),
  );

  // A declared length over the limit is refused from the headers, before the key is checked; a
  // chunked body is counted as it is read (body.ts).
  app.use('/api/*', async (c, next) => {
    if (!/\/(data-source|session-document)\/upload$/.test(c.req.path)) {
      refuseDeclaredLength(c, JSON_LIMIT_BYTES, 'the body');
    }
    return next();
  });
  app.use('/api/*', authenticate(ctx.store));

  app.route('/', chatbotRoutes(ctx));
  app.route('/', agentRoutes(ctx));
  app.route('/', sourceRoutes(ctx, { allowPrivateUrls: options.allowPrivateUrls }));
  app.route('/', tagRoutes(ctx));
  app.route('/', sessionRoutes(ctx, visitors));
  app.route('/', documentRoutes(ctx, documents));
  app.route('/', messageRoutes(ctx, { varyOrigin: allowed !== '*', documents, visitors }));
  app.route('/', reviewRoutes(ctx));

  if (options.staticDirs.length > 0) app.use('*', serveStatic(options.staticDirs));

  // A path the API has, asked with a method it does not take, is a 405 naming those it does
  // (`Allow`), not a 404 that reads as if the path were wrong.
  const methodsOf = apiMethods(app);
  app.notFound((c) => {
    const allow = methodsOf(c.req.path);
    if (allow.length > 0) {
      c.header('Allow', allow.join(', '));
      return c.json(
        errorBody(
          'method_not_allowed',
          `${c.req.path} does not take ${c.req.method}; it takes ${allow.join(', ')}`,
        ),
        405,
      );
    }
    return c.json(errorBody('not_found', `no endpoint ${c.req.method} ${c.req.path}`), 404);
  });

  app.onError((error, c) => {
    if (error instanceof HTTPException) {
      const { status, code, message, headers } = HttpError.from(error);
      for (const [name, value] of Object.entries(headers)) c.header(name, value);
      return c.json(errorBody(code, message), status);
    }
    if (storeUnavailable(error)) {
      // An outage, not a bug: one line per request, not a stack each.
      console.error(
        `${c.req.method} ${loggable(c.req.path)}: the ${ctx.store.kind} store does not answer (${(error as Error).message})`,
      );
      c.header('Retry-After', '5');
      return c.json(
        errorBody('unavailable', 'the database does not answer: try again in a few seconds'),
        503,
      );
    }
    console.error(`${c.req.method} ${loggable(c.req.path)} failed:`, error);
    return c.json(errorBody('internal', 'the server failed to handle this request'), 500);
  });

  return app;
}

/**
 * A request's path as a log line may hold it: decoded, "%0A" is a new line, and anyone could
 * write a line of their own into the log (or a terminal's colour codes); those go back to
 * percent-escapes.
 */
const loggable = (path: string) => path.replace(/\p{Cc}/gu, (ch) => encodeURIComponent(ch));

/**
 * The methods the API's routes take at a path (HEAD where GET is, OPTIONS for CORS), read from
 * the app's routes once, on the first request that needs them.
 */
function apiMethods(app: Hono<AppEnv>): (path: string) => string[] {
  let routes: Array<{ method: string; pattern: RegExp }> | undefined;
  return (path) => {
    routes ??= app.routes
      .filter((r) => r.path.startsWith('/api/') && r.method !== 'ALL')
      .map((r) => ({
        method: r.method,
        pattern: new RegExp(
          `^${r.path.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/:[^/]+/g, '[^/]+')}/?$`,
        ),
      }));
    const methods = new Set(routes.filter((r) => r.pattern.test(path)).map((r) => r.method));
    if (methods.size === 0) return [];
    if (methods.has('GET')) methods.add('HEAD');
    methods.add('OPTIONS');
    return [...methods].sort();
  };
}
