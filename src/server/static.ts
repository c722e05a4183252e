import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';
import { Readable } from 'node:stream';
import type { MiddlewareHandler } from 'hono';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.htm': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.wasm': 'application/wasm',
  '.pdf': 'application/pdf',
};

const SCRIPT = new Set(['.js', '.mjs']);

export interface StaticDir {
  /** URL prefix, e.g. `/` or `/dist`. */
  prefix: string;
  dir: string;
}

/** Serves files from directories (GET and HEAD), `index.html` for a directory, nothing outside `dir`. */
export function serveStatic(dirs: StaticDir[]): MiddlewareHandler {
  const roots = dirs
    .map((d) => ({
      prefix: `/${d.prefix.replace(/^\/+|\/+$/g, '')}`.replace(/^\/$/, ''),
      dir: resolve(d.dir),
    }))
    // The longest prefix decides, so `/dist` wins over `/`.
    .sort((a, b) => b.prefix.length - a.prefix.length);
  return async (c, next) => {
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return next();
    let path: string;
    try {
      path = decodeURIComponent(c.req.path);
    } catch {
      return next();
    }
    if (path.includes('\0')) return next();
    for (const { prefix, dir } of roots) {
      if (prefix && path !== prefix && !path.startsWith(`${prefix}/`)) continue;
      let file = join(dir, path.slice(prefix.length));
      if (file !== dir && !file.startsWith(dir + sep)) continue;
      let info = await stat(file).catch(() => null);
      if (info?.isDirectory()) {
        file = join(file, 'index.html');
        info = await stat(file).catch(() => null);
      }
      if (!info?.isFile()) continue;
      const ext = extname(file).toLowerCase();
      const headers: Record<string, string> = {
        'Content-Type': TYPES[ext] ?? 'application/octet-stream',
        'Content-Length': String(info.size),
        'Cache-Control': 'no-cache',
      };
      // A page on another origin that embeds the chat loads its markdown renderer with import(),
      // which needs CORS. Only scripts: a page (the demo's holds keys) stays unreadable to other
      // origins, which matters for a server on localhost that a visited site could ask.
      if (SCRIPT.has(ext)) headers['Access-Control-Allow-Origin'] = '*';
      if (c.req.method === 'HEAD') return c.body(null, 200, headers);
      const body = Readable.toWeb(createReadStream(file)) as unknown as ReadableStream;
      return c.body(body, 200, headers);
    }
    return next();
  };
}
