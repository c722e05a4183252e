import type { MiddlewareHandler } from 'hono';
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
}

/**
 * CORS for the API. Preflights are Hono's `cors()`; every other request gets the headers it
 * would add, set with `c.header()` before the handler runs, so JSON and error responses carry
 * them, and kept as `c.get('corsHeaders')` for a route that writes its head itself (the chat
 * stream). `cors()` set them on `c.res`, which made each request build a web Response and its
 * Headers before its handler ran, and the stream route then read them back out of it.
 */
export function corsHeaders(options: CorsOptions): MiddlewareHandler<AppEnv> {
  const preflight = cors({
    origin: options.origins,
    allowMethods: options.allowMethods,
    allowHeaders: options.allowHeaders,
    exposeHeaders: options.exposeHeaders,
    maxAge: options.maxAge,
  });
  const expose = options.exposeHeaders.join(',');
  const { origins } = options;
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
    // A route that wrote its own head added Vary itself.
    if (origins !== '*' && !isAlreadySent(c.res)) c.header('Vary', 'Origin', { append: true });
  };
}
