import type { Context, MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';
import type { AppEnv } from './context.js';
import { isAlreadySent, requestHeader } from './http.js';

export interface CorsOptions {
  /** `*`, or the origins allowed. */
  origins: '*' | string[];
  allowMethods: string[];
  allowHeaders: string[];
  exposeHeaders: string[];
  maxAge: number;
  /**
   * The allowed origins of the chatbot a request's path names (for the session-document upload,
   * which names none: any chatbot's; empty: none listed). A preflight
   * carries no key, so it cannot tell a chat-only key's request from an admin's: an origin a
   * chatbot lists passes the preflight even when the server-wide list leaves it out, and the
   * request itself is checked once its key is known (auth.ts).
   */
  chatbotOrigins(c: Context): Promise<readonly string[]>;
}

/**
 * CORS for the API. Preflights are Hono's `cors()`; every other request gets the headers it
 * would add, set with `c.header()` before the handler runs, so JSON and error responses carry
 * them, and kept as `c.get('corsHeaders')` for a route that writes its head itself (the chat
 * stream). `cors()` set them on `c.res`, which made each request build a web Response and its
 * Headers before its handler ran, and the stream route then read them back out of it.
 */
export function corsHeaders(options: CorsOptions): MiddlewareHandler<AppEnv> {
  const { origins } = options;
  const preflight = cors({
    origin: async (origin, c) => {
      if (origins === '*') return '*';
      if (origins.includes(origin) || (await options.chatbotOrigins(c)).includes(origin)) {
        return origin;
      }
      return null;
    },
    allowMethods: options.allowMethods,
    allowHeaders: options.allowHeaders,
    exposeHeaders: options.exposeHeaders,
    maxAge: options.maxAge,
  });
  const expose = options.exposeHeaders.join(',');
  return async (c, next) => {
    if (c.req.method === 'OPTIONS') return preflight(c, next);
    const headers: Record<string, string> = {};
    const origin = requestHeader(c, 'origin') ?? '';
    const allowed = origins === '*' ? '*' : origins.includes(origin) ? origin : null;
    if (allowed) headers['access-control-allow-origin'] = allowed;
    if (expose) headers['access-control-expose-headers'] = expose;
    for (const name in headers) c.header(name, headers[name]);
    c.set('corsHeaders', headers);
    await next();
    // A route that wrote its own head added Vary itself, and answerOrigin() has set it already.
    if (origins !== '*' && !isAlreadySent(c.res) && !c.get('corsHeaders').vary) {
      c.header('Vary', 'Origin', { append: true });
    }
  };
}

/**
 * CORS for this request as its chatbot's allowed origins say, in place of the server-wide
 * answer: the origin echoed when it is allowed (never `*`), no Access-Control-Allow-Origin when
 * it is not, and Vary: Origin either way.
 */
export function answerOrigin(c: Context<AppEnv>, allowed: string | null): void {
  const headers: Record<string, string> = { ...c.get('corsHeaders'), vary: 'Origin' };
  if (allowed) headers['access-control-allow-origin'] = allowed;
  else delete headers['access-control-allow-origin'];
  c.header('access-control-allow-origin', allowed ?? undefined);
  c.header('vary', 'Origin');
  c.set('corsHeaders', headers);
}
