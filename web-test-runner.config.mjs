// Browser tests: every test/**/*.browser.test.ts, in Debian's headless Chromium.
// The reference server (when present) runs beside the dev server, so element tests talk to the
// real thing; browser tests read its address from /__test-env.json.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { chromeLauncher } from '@web/test-runner-chrome';
import { handleFixture } from './test/api/fixture-server.mjs';
import { chromiumArgs, chromiumPath, missingChromium } from './test/chromium.mjs';

const missing = missingChromium();
if (missing) {
  console.error(missing);
  process.exit(1);
}

const TEST_KEY = 'wtr-admin-key';
const OTHER_KEY = 'wtr-other-key';

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/** Starts `npm run server` on a free port with an in-memory store, once, for the whole run. */
function referenceServerPlugin() {
  let child;
  let env = { baseUrl: null, apiKey: TEST_KEY, otherApiKey: OTHER_KEY };
  return {
    name: 'reference-server',
    async serverStart() {
      if (!existsSync('src/server/cli.ts')) return;
      const port = await freePort();
      child = spawn(process.execPath, ['--import', 'tsx', 'src/server/cli.ts'], {
        env: {
          ...process.env,
          PORT: String(port),
          HOST: '127.0.0.1',
          CHATBOT_DB: ':memory:',
          CHATBOT_API_KEYS: `wtr:${TEST_KEY},other:${OTHER_KEY}`,
          CHATBOT_ALLOW_PRIVATE_URLS: '1',
          CHATBOT_LOG: 'off',
        },
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      await new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error('reference server did not start in 30 s')),
          30_000,
        );
        child.once('exit', (code) => reject(new Error(`reference server exited with ${code}`)));
        child.stdout.on('data', (data) => {
          if (String(data).includes('listening on')) {
            clearTimeout(timer);
            resolve();
          }
        });
      });
      env = { ...env, baseUrl: `http://127.0.0.1:${port}` };
    },
    serverStop() {
      child?.kill();
    },
    serve(context) {
      if (context.path === '/__test-env.json') return { body: JSON.stringify(env), type: 'json' };
    },
  };
}

/**
 * A phone's conditions for the test's page, as Chromium's DevTools emulate them:
 * - `executeServerCommand('emulate-touch', { enabled })`: a coarse pointer and no fine one, no
 *   hover, without the reload `setViewport({ hasTouch })` would cost;
 * - `executeServerCommand('safe-area', { top, right, bottom, left })`: the notch's and the home
 *   indicator's insets, as `env(safe-area-inset-*)` reads them (`{}` for none).
 * - `executeServerCommand('pixels', { x, y, width, height })`: the page as painted in that
 *   rectangle (CSS pixels from the document's top left, in view; scale 1), as a PNG in base64:
 *   what a reader sees, as a scroll shadow.
 * An override lasts as long as its DevTools session, so one is kept per page.
 */
function phoneEmulationPlugin() {
  const sessions = new Map();
  return {
    name: 'emulate-phone',
    async executeCommand({ command, payload, session }) {
      if (!['emulate-touch', 'safe-area', 'pixels'].includes(command)) return undefined;
      const page = session.browser.getPage(session.id);
      let cdp = sessions.get(page);
      if (!cdp) {
        cdp = await page.createCDPSession();
        sessions.set(page, cdp);
      }
      if (command === 'pixels') {
        const { data } = await cdp.send('Page.captureScreenshot', {
          format: 'png',
          clip: { ...payload, scale: 1 },
        });
        return data;
      }
      if (command === 'safe-area') {
        await cdp.send('Emulation.setSafeAreaInsetsOverride', { insets: payload ?? {} });
        return true;
      }
      await cdp.send('Emulation.setTouchEmulationEnabled', {
        enabled: Boolean(payload?.enabled),
        maxTouchPoints: 5,
      });
      return true;
    },
  };
}

export default {
  files: ['test/**/*.browser.test.ts'],
  nodeResolve: { exportConditions: ['production'] },
  concurrency: 1,
  // Long enough for a helper's 20 s wait to fail with its own message, on a loaded machine.
  testFramework: { config: { timeout: 45_000 } },
  browserStartTimeout: 60_000,
  testsFinishTimeout: 300_000,
  middleware: [
    // Scripted endpoints for the API module's own tests (test/api/fixture-server.mjs).
    (ctx, next) => {
      if (!ctx.path.startsWith('/fixture/')) return next();
      ctx.status = 200; // the fixture writes the real status; this keeps the 404 report quiet
      ctx.respond = false;
      handleFixture(ctx.req, ctx.res);
    },
  ],
  plugins: [
    referenceServerPlugin(),
    phoneEmulationPlugin(),
    esbuildPlugin({ ts: true, tsconfig: 'tsconfig.json', target: 'es2022' }),
  ],
  browsers: [
    chromeLauncher({
      launchOptions: { executablePath: chromiumPath, headless: true, args: chromiumArgs },
    }),
  ],
};
