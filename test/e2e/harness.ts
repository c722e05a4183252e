/**
 * Shared end-to-end setup: the real reference server in-process (in-memory store) serving the
 * built bundles and test pages on one origin, and headless Chromium through playwright-core.
 *
 *   const h = await startHarness();
 *   const page = await h.newPage();
 *   await page.goto(h.page('chat.html', html`…`));
 *   …
 *   await h.close();
 *
 * Exports are stable: other suites (admin e2e) import them.
 */
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type Browser, type BrowserContextOptions, chromium, type Page } from 'playwright-core';
import { type ChatbotClient, createClient } from '../../src/api/client.js';
import { type RunningServer, type ServerOptions, startServer } from '../../src/server/main.js';
import { chromiumArgs, chromiumPath, missingChromium } from '../chromium.mjs';

export const root = resolve(import.meta.dirname, '../..');
export const ADMIN_KEY = 'e2e-admin-key';

export interface Harness {
  server: RunningServer;
  /** The server's origin, e.g. `http://127.0.0.1:40123`; API, `/dist/…` and `/e2e/…` share it. */
  url: string;
  /** A full-access key of user `e2e`. */
  apiKey: string;
  /** A client with `apiKey`, for setting up chatbots and sources. */
  client: ChatbotClient;
  browser: Browser;
  /** Writes a test page under `/e2e/` and returns its URL. */
  page(name: string, html: string): string;
  /** A page in a fresh browser context; console errors and page errors are collected. */
  newPage(options?: BrowserContextOptions): Promise<Page>;
  /** Errors logged by pages of this harness (console.error and uncaught exceptions). */
  errors: string[];
  close(): Promise<void>;
}

export interface HarnessOptions {
  /** Bundles that must be built and fresh: `chat`, `embed`, `admin`, `api`. Default chat, embed, api. */
  builds?: string[];
  server?: Partial<ServerOptions>;
}

const BUILD_SOURCES: Record<string, { out: string; dirs: string[] }> = {
  api: { out: 'dist/api.js', dirs: ['src/api'] },
  chat: { out: 'dist/chatbot-chat.js', dirs: ['src/api', 'src/chat', 'src/ui'] },
  embed: { out: 'dist/chatbot-embed.js', dirs: ['src/api', 'src/chat', 'src/ui', 'src/embed.ts'] },
  admin: { out: 'dist/chatbot-admin.js', dirs: ['src/api', 'src/chat', 'src/ui', 'src/admin'] },
  // Loaded by the three elements' bundles from beside them.
  markdown: { out: 'dist/chatbot-markdown.js', dirs: ['src/api', 'src/chat', 'src/ui'] },
  // Loaded by the markdown chunk for `attachments="on"`, from beside it.
  attachments: { out: 'dist/chatbot-attachments.js', dirs: ['src/api', 'src/chat', 'src/ui'] },
  // Loaded by the markdown chunk for an answer with raw HTML, from beside it.
  'raw-html': { out: 'dist/chatbot-raw-html.js', dirs: ['src/chat'] },
  // Loaded by the chat for a page in German, from beside it.
  'chat-de': { out: 'dist/chatbot-chat-de.js', dirs: ['src/ui/strings'] },
};

/** The lazily loaded chunks every element's bundle needs beside it. */
const CHUNKS = ['markdown', 'attachments', 'raw-html', 'chat-de'];

function newestMtime(path: string): number {
  const full = join(root, path);
  if (!existsSync(full)) return 0;
  const stats = statSync(full);
  if (!stats.isDirectory()) return stats.mtimeMs;
  return Math.max(0, ...readdirSync(full).map((name) => newestMtime(join(path, name))));
}

/** Builds a bundle when it is missing or older than its sources: e2e tests test dist/. */
export function ensureBuilt(modes: string[]): void {
  const elements = modes.some((mode) => mode !== 'api' && !CHUNKS.includes(mode));
  for (const mode of elements ? [...new Set([...modes, ...CHUNKS])] : modes) {
    const spec = BUILD_SOURCES[mode];
    if (!spec) throw new Error(`unknown build mode ${mode}`);
    const built = newestMtime(spec.out);
    if (
      built > 0 &&
      built >= Math.max(...spec.dirs.map(newestMtime), newestMtime('vite.config.ts'))
    ) {
      continue;
    }
    const result = spawnSync(
      process.execPath,
      [join(root, 'node_modules/vite/bin/vite.js'), 'build', '--mode', mode],
      {
        cwd: root,
        encoding: 'utf8',
      },
    );
    if (result.status !== 0)
      throw new Error(`vite build --mode ${mode} failed:\n${result.stderr}${result.stdout}`);
  }
}

export { chromiumPath };

export async function launchBrowser(): Promise<Browser> {
  const missing = missingChromium();
  if (missing) throw new Error(missing);
  return chromium.launch({ executablePath: chromiumPath, headless: true, args: chromiumArgs });
}

export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  ensureBuilt(options.builds ?? ['api', 'chat', 'embed']);
  const pages = mkdtempSync(join(tmpdir(), 'chatbot-e2e-'));
  const server = await startServer({
    port: 0,
    host: '127.0.0.1',
    db: ':memory:',
    apiKeys: `e2e:${ADMIN_KEY}`,
    allowPrivateUrls: true,
    log: false,
    ...options.server,
    staticDirs: [
      { prefix: '/dist', dir: join(root, 'dist') },
      { prefix: '/e2e', dir: pages },
      ...(options.server?.staticDirs ?? []),
    ],
  });
  let browser: Browser;
  try {
    browser = await launchBrowser();
  } catch (error) {
    await server.close();
    throw error;
  }
  const errors: string[] = [];
  const harness: Harness = {
    server,
    url: server.url,
    apiKey: ADMIN_KEY,
    client: createClient({ baseUrl: server.url, apiKey: ADMIN_KEY }),
    browser,
    errors,
    page(name, html) {
      writeFileSync(join(pages, name), html);
      return `${server.url}/e2e/${name}`;
    },
    async newPage(contextOptions) {
      const context = await browser.newContext(contextOptions);
      const page = await context.newPage();
      page.on('console', (message) => {
        // The browser's own line for a non-2xx response is not the page logging an error.
        if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) {
          errors.push(message.text());
        }
      });
      page.on('pageerror', (error) => errors.push(String(error)));
      return page;
    },
    async close() {
      await browser.close().catch(() => {});
      await server.close();
      rmSync(pages, { recursive: true, force: true });
    },
  };
  return harness;
}

const axeSource = () => readFileSync(join(root, 'node_modules/axe-core/axe.min.js'), 'utf8');

/**
 * Runs axe-core in the page (through the debugger, so a strict CSP does not block it) and
 * returns the violations as readable lines; an empty list means none.
 */
export async function axeViolations(page: Page, selector?: string): Promise<string[]> {
  const loaded = await page.evaluate(() => 'axe' in window);
  if (!loaded) await page.evaluate(axeSource());
  return page.evaluate(async (context) => {
    const axe = (
      window as unknown as {
        axe: {
          run: (
            c: unknown,
            o: unknown,
          ) => Promise<{
            violations: Array<{ id: string; help: string; nodes: Array<{ target: unknown }> }>;
          }>;
        };
      }
    ).axe;
    const result = await axe.run(context ? { include: [context] } : document, {
      resultTypes: ['violations'],
    });
    return result.violations.map(
      (v) => `${v.id}: ${v.help} (${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')})`,
    );
  }, selector ?? null);
}

/** A strict Content-Security-Policy for test pages: no inline script or style, no eval. */
export function strictCsp(origin: string): string {
  return [
    "default-src 'none'",
    `script-src 'self'`,
    `style-src 'self'`,
    `connect-src 'self' ${origin}`,
    "img-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

/**
 * A minimal HTML page with the guard script and, unless `csp` is false, a strict CSP meta tag.
 * Without the CSP, only the sanitizer stands between an answer and script: the sharper test.
 */
export function testPage(origin: string, body: string, head = '', csp = true): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
${csp ? `<meta http-equiv="Content-Security-Policy" content="${strictCsp(origin)}">` : ''}
<title>chatbot-chat e2e</title>
<script src="/e2e/guard.js"></script>
${head}
</head>
<body>
${body}
</body>
</html>`;
}

/**
 * The page-side guard: records CSP violations and any attempt to run injected script, through
 * `window.__pwned`, `alert`, `confirm` and `prompt`.
 */
export const guardScript = `
window.__pwned = 0;
window.__violations = [];
document.addEventListener('securitypolicyviolation', (e) => {
  window.__violations.push(e.violatedDirective + ' ' + e.blockedURI + ' ' + (e.sample || ''));
});
for (const name of ['alert', 'confirm', 'prompt']) {
  window[name] = () => { window.__pwned += 1; };
}
`;

export function writeGuard(harness: Harness): void {
  harness.page('guard.js', guardScript);
}
