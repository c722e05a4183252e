/**
 * The published package, as a user gets it: `npm pack`, installed into an empty directory,
 * imported in Node (the API module), type-checked, and bundled by Vite into a page that runs
 * in Chromium (the elements). Needs `npm run build` first (npm test does it).
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { launchBrowser } from '../e2e/harness.js';

const root = resolve(import.meta.dirname, '../..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
let project: string;
let tarball: string;

before(() => {
  project = mkdtempSync(join(tmpdir(), 'chatbot-elements-pack-'));
  const packed = JSON.parse(
    // npm test has just built dist/: the prepack script's build would only repeat it.
    execFileSync(npm, ['pack', '--json', '--ignore-scripts', '--pack-destination', project], {
      cwd: root,
      encoding: 'utf8',
    }),
  ) as Array<{ filename: string; files: Array<{ path: string }> }>;
  tarball = join(project, packed[0]!.filename);
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'consumer', private: true, type: 'module' }),
  );
  execFileSync(npm, ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball], {
    cwd: project,
    stdio: 'pipe',
  });
});

after(() => rmSync(project, { recursive: true, force: true }));

describe('the npm package', () => {
  it('ships the bundles, the types, the element manifest and the bundled libraries’ licences, and no sources or tests', () => {
    const listing = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).split('\n');
    for (const file of [
      'package/dist/api.js',
      'package/dist/chatbot-chat.js',
      'package/dist/chatbot-admin.js',
      'package/dist/chatbot-embed.js',
      'package/dist/chatbot-markdown.js',
      'package/dist/chatbot-attachments.js',
      'package/dist/chatbot-raw-html.js',
      'package/dist/chatbot-chat-de.js',
      'package/dist/chatbot-admin-de.js',
      'package/dist/chatbot-admin-insights-panel.js',
      'package/dist/chatbot-admin-try-chat.js',
      'package/dist/chatbot-admin-transcript-markdown.js',
      'package/dist/node/chatbot-chat.js',
      'package/dist/node/chatbot-admin.js',
      'package/dist/custom-elements.json',
      'package/dist/THIRD-PARTY-LICENSES.md',
      'package/dist/types/api/index.d.ts',
      'package/README.md',
    ]) {
      assert.ok(listing.includes(file), `${file} is in the tarball`);
    }
    assert.ok(
      !listing.some((file) => file.startsWith('package/src/') || file.startsWith('package/test/')),
    );
    const manifest = JSON.parse(
      readFileSync(join(project, 'node_modules/chatbot-elements/package.json'), 'utf8'),
    );
    assert.equal(manifest.customElements, 'dist/custom-elements.json');
  });

  it('imports the API module in Node and calls nothing at import time', () => {
    const script = `
      import { createClient, isApiError, ApiError } from 'chatbot-elements';
      const client = createClient({ baseUrl: 'http://127.0.0.1:9', apiKey: 'k' });
      console.log(JSON.stringify({
        groups: Object.keys(client).sort(),
        guard: isApiError(new ApiError({ status: 404, serverMessage: 'x', request: { method: 'GET', path: '/' } })),
      }));`;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: project,
      encoding: 'utf8',
    });
    assert.deepEqual(JSON.parse(out), {
      groups: [
        'agents',
        'baseUrl',
        'chatbots',
        'messages',
        'review',
        'sessions',
        'sources',
        'tags',
      ],
      guard: true,
    });
  });

  it('imports the elements in Node without a DOM, as a server render does', () => {
    const script = `
      const { ChatbotChat } = await import('chatbot-elements/chat');
      const { ChatbotAdmin } = await import('chatbot-elements/admin');
      console.log(JSON.stringify({
        chat: customElements.get('chatbot-chat') === ChatbotChat,
        admin: customElements.get('chatbot-admin') === ChatbotAdmin,
        dom: typeof document,
      }));`;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: project,
      encoding: 'utf8',
    });
    assert.deepEqual(JSON.parse(out), { chat: true, admin: true, dom: 'undefined' });
  });

  it('type-checks an import of every entry point', () => {
    writeFileSync(
      join(project, 'check.ts'),
      `import { createClient, type Chatbot } from 'chatbot-elements';
import { ChatbotChat, type ChatStringOverrides } from 'chatbot-elements/chat';
import { ChatbotAdmin, type AdminStrings } from 'chatbot-elements/admin';
const bot: Chatbot | undefined = undefined;
const chat: ChatbotChat = document.createElement('chatbot-chat');
const admin: ChatbotAdmin = document.createElement('chatbot-admin');
chat.strings = { send: 'Ask', helpful: 'Yes' } satisfies ChatStringOverrides;
admin.strings = { newChatbot: 'Add bot' } satisfies Partial<AdminStrings>;
// The events leave the elements: one listener on the document, typed.
document.addEventListener('chatbot-feedback', (e) => console.log(e.detail.rating));
window.addEventListener('chatbot-admin-error', (e) => console.log(e.detail.operation));
console.log(createClient, bot, chat, admin);
`,
    );
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'ESNext',
          moduleResolution: 'Bundler',
          strict: true,
          noEmit: true,
          lib: ['ES2022', 'DOM'],
          skipLibCheck: false,
          types: [],
        },
        files: ['check.ts'],
      }),
    );
    execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', '.'], {
      cwd: project,
      stdio: 'pipe',
    });
  });

  describe('in a page built with Vite', () => {
    let server: Server;
    let url: string;

    before(async () => {
      mkdirSync(join(project, 'site'));
      writeFileSync(
        join(project, 'site/index.html'),
        '<!doctype html><html><body><chatbot-chat base-url="http://127.0.0.1:9" api-key="k" chatbot-uuid="c"></chatbot-chat><chatbot-admin base-url="http://127.0.0.1:9" api-key="k"></chatbot-admin><script type="module" src="./main.js"></script></body></html>',
      );
      writeFileSync(
        join(project, 'site/main.js'),
        "import { createClient } from 'chatbot-elements';\nimport 'chatbot-elements/chat';\nimport 'chatbot-elements/admin';\nwindow.__loaded = typeof createClient;\n",
      );
      execFileSync(
        process.execPath,
        [
          join(root, 'node_modules/vite/bin/vite.js'),
          'build',
          'site',
          '--logLevel',
          'error',
          '--outDir',
          'dist',
        ],
        {
          cwd: project,
          stdio: 'pipe',
        },
      );
      const dist = join(project, 'site/dist');
      const types: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript' };
      server = createServer((req, res) => {
        const path = join(dist, req.url === '/' ? 'index.html' : (req.url ?? '').split('?')[0]!);
        try {
          const body = readFileSync(path);
          res.writeHead(200, {
            'content-type': types[extname(path)] ?? 'application/octet-stream',
          });
          res.end(body);
        } catch {
          res.writeHead(404).end();
        }
      });
      await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    });

    after(() => server?.close());

    it('defines both elements once, with no page error, and renders them', async () => {
      const browser = await launchBrowser();
      try {
        const page = await browser.newPage();
        const errors: string[] = [];
        page.on('pageerror', (error) => errors.push(error.message));
        page.on('console', (message) => {
          // The browser's own line for the unreachable service is not the page's.
          if (message.text().startsWith('Failed to load resource')) return;
          if (message.type() === 'warning' || message.type() === 'error') {
            errors.push(message.text());
          }
        });
        // The inline chat asks for its markdown renderer at once; the site's bundler must have
        // followed the package's import() of it.
        const renderer = page.waitForResponse((response) =>
          /chatbot-markdown[^/]*\.js$/.test(response.url()),
        );
        await page.goto(url);
        assert.equal((await renderer).status(), 200);
        await page.waitForFunction(
          () => (window as unknown as { __loaded?: string }).__loaded === 'function',
        );
        const defined = await page.evaluate(() => ({
          chat: customElements.get('chatbot-chat') !== undefined,
          admin: customElements.get('chatbot-admin') !== undefined,
          chatRendered:
            (document.querySelector('chatbot-chat')?.shadowRoot?.childElementCount ?? 0) > 0,
          adminRendered:
            (document.querySelector('chatbot-admin')?.shadowRoot?.childElementCount ?? 0) > 0,
        }));
        assert.deepEqual(defined, {
          chat: true,
          admin: true,
          chatRendered: true,
          adminRendered: true,
        });
        assert.deepEqual(errors, []);
      } finally {
        await browser.close();
      }
    });
  });
});
