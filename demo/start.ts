/**
 * `npm start`: the whole system on one machine. Builds the bundles when they are missing or
 * older than their sources, starts the reference server on the embedded store, seeds a demo
 * chatbot (and a few rated conversations with it) on first start, and serves the demo pages and
 * the API from one origin (no CORS needed).
 *
 *   npm start                 PORT (8787), HOST (127.0.0.1), CHATBOT_DB (data/chatbot.sqlite)
 *   npm start -- --reset      start from an empty store
 */
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createClient } from '../src/api/index.js';
import { startServer } from '../src/server/main.js';
import { DEMO_QA, SHOP_QA, seedConversations } from './seed.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** Each bundle the demo pages load, with the `vite build --mode` that makes it. */
const BUNDLES: Record<string, string> = {
  'chatbot-chat.js': 'chat',
  'chatbot-admin.js': 'admin',
  'chatbot-embed.js': 'embed',
  'chatbot-markdown.js': 'markdown',
  // Loaded beside the others when needed: the demo's chat has attachments on, and an answer may
  // hold raw HTML. A fresh clone's demo lacked both files.
  'chatbot-attachments.js': 'attachments',
  'chatbot-raw-html.js': 'raw-html',
  // The chat's German strings, for a page in German.
  'chatbot-chat-de.js': 'chat-de',
};

/** What the demo pages need to know, kept in data/demo.json between starts. */
interface DemoConfig {
  chatbotUuid: string;
  /** Reaches only the demo chatbot's sessions and messages: the key a public page may hold. */
  chatKey: string;
  /** A full key, for the admin page. Never put one in a public page. */
  adminKey: string;
  /** The website's chatbot (demo/index.html's bike shop), and its own chat-only key. */
  shopChatbotUuid: string;
  shopChatKey: string;
}

type CreateKey = (user: string, options?: { chatOnly?: string }) => Promise<string>;

function fail(message: string): never {
  console.error(`npm start: ${message}`);
  process.exit(1);
}

function newestMtime(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newestMtime(join(path, name))));
}

/** Builds the element bundles when one is missing or older than the sources it comes from. */
function ensureBuild(): void {
  const sources = ['src/api', 'src/chat', 'src/admin', 'src/ui', 'src/embed.ts']
    .map((path) => join(root, path))
    .filter(existsSync);
  const newestSource = Math.max(...sources.map(newestMtime));
  const stale = Object.keys(BUNDLES).filter((file) => {
    const path = join(root, 'dist', file);
    return !existsSync(path) || statSync(path).mtimeMs < newestSource;
  });
  for (const file of stale) {
    const mode = BUNDLES[file];
    console.log(`Building dist/${file}…`);
    const vite = join(root, 'node_modules/vite/bin/vite.js');
    const result = spawnSync(
      process.execPath,
      [vite, 'build', '--mode', mode, '--logLevel', 'warn'],
      {
        cwd: root,
        stdio: 'inherit',
      },
    );
    if (result.status !== 0)
      fail(`dist/${file} did not build (see above); run "npm run build" to retry`);
  }
}

/**
 * The pages in demo/ hold `{{baseUrl}}`, `{{chatbotUuid}}`, `{{chatKey}}` and `{{adminKey}}`
 * where a site owner would paste their own values; the rendered copies are served in their place.
 */
function renderPages(publicDir: string, values: DemoConfig & { baseUrl: string }): void {
  const fields = values as unknown as Record<string, string>;
  for (const name of readdirSync(join(root, 'demo')).filter((file) => file.endsWith('.html'))) {
    const template = readFileSync(join(root, 'demo', name), 'utf8');
    const page = template.replace(/\{\{(\w+)\}\}/g, (whole, key: string) => fields[key] ?? whole);
    writeFileSync(join(publicDir, name), page);
  }
}

function storePaths(db: string) {
  const dataDir = db === ':memory:' ? join(root, 'data') : dirname(resolve(db));
  return { dataDir, configFile: join(dataDir, 'demo.json') };
}

function reset(db: string, configFile: string): void {
  if (db !== ':memory:') {
    for (const suffix of ['', '-wal', '-shm']) rmSync(resolve(db) + suffix, { force: true });
  }
  rmSync(configFile, { force: true });
  console.log('Reset: starting from an empty store.');
}

async function seed(baseUrl: string, createKey: CreateKey): Promise<DemoConfig> {
  const adminKey = await createKey('demo');
  const client = createClient({ baseUrl, apiKey: adminKey });
  const bot = await client.chatbots.create({
    name: 'chatbot-elements guide',
    show_citations: true,
    rate_limit: [20, 240],
    rate_limit_message:
      'You are sending messages quickly. Please wait a moment before asking again.',
  });
  for (const qa of DEMO_QA) await client.sources.createQa(bot.uuid, qa);
  const readme = readFileSync(join(root, 'README.md'));
  await client.sources.upload(
    bot.uuid,
    new File([readme], 'README.md', { type: 'text/markdown' }),
    {
      referenceSourceLink: 'https://www.npmjs.com/package/chatbot-elements',
    },
  );
  const chatKey = await createKey('demo', { chatOnly: bot.uuid });
  return { chatbotUuid: bot.uuid, chatKey, adminKey, ...(await seedShop(client, createKey)) };
}

/**
 * The website's own chatbot: a site owner trying the launcher asks what a customer of that site
 * would, and the bike shop's page answered about chatbot-elements before. Also seeded into a
 * store from before it, whose config lacks it.
 */
async function seedShop(
  client: ReturnType<typeof createClient>,
  createKey: CreateKey,
): Promise<Pick<DemoConfig, 'shopChatbotUuid' | 'shopChatKey'>> {
  const bot = await client.chatbots.create({ name: 'Northwind Cycles', show_citations: true });
  for (const qa of SHOP_QA) await client.sources.createQa(bot.uuid, qa);
  const guide = readFileSync(join(root, 'demo/content/northwind-cycles.md'));
  await client.sources.upload(
    bot.uuid,
    new File([guide], 'northwind-cycles.md', { type: 'text/markdown' }),
  );
  const shopChatKey = await createKey('demo', { chatOnly: bot.uuid });
  return { shopChatbotUuid: bot.uuid, shopChatKey };
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { reset: { type: 'boolean', default: false } } });
  const port = Number(process.env.PORT ?? 8787);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    fail(`PORT must be a port number, not "${process.env.PORT}"`);
  const host = process.env.HOST ?? '127.0.0.1';
  const db = process.env.CHATBOT_DB ?? join(root, 'data', 'chatbot.sqlite');
  const { dataDir, configFile } = storePaths(db);

  ensureBuild();
  try {
    mkdirSync(dataDir, { recursive: true });
  } catch (error) {
    fail(`cannot create the data directory ${dataDir}: ${(error as Error).message}`);
  }
  if (values.reset) reset(db, configFile);

  const publicDir = join(dataDir, 'demo-public');
  mkdirSync(publicDir, { recursive: true });
  const server = await startServer({
    port,
    host,
    db,
    allowPrivateUrls: process.env.CHATBOT_ALLOW_PRIVATE_URLS === '1',
    corsOrigins: process.env.CHATBOT_CORS_ORIGINS,
    apiKeys: process.env.CHATBOT_API_KEYS,
    log: process.env.CHATBOT_LOG !== 'off',
    staticDirs: [
      { prefix: '/dist', dir: join(root, 'dist') },
      { prefix: '/', dir: publicDir },
      { prefix: '/', dir: join(root, 'demo') },
    ],
  });

  let config: DemoConfig | undefined;
  // Whether the config's full key still opens this chatbot of the store.
  const opens = (key: string, uuid: string | undefined) =>
    uuid
      ? createClient({ baseUrl: server.url, apiKey: key })
          .chatbots.get(uuid)
          .then(
            () => true,
            () => false,
          )
      : false;
  if (existsSync(configFile)) {
    config = JSON.parse(readFileSync(configFile, 'utf8')) as DemoConfig;
    // A store deleted by hand leaves the config behind.
    if (!(await opens(config.adminKey, config.chatbotUuid))) config = undefined;
  }
  // A store from before the website's chatbot: it gets one, the rest as it was.
  if (config && !(await opens(config.adminKey, config.shopChatbotUuid))) {
    console.log("Seeding the website's chatbot, Northwind Cycles…");
    const client = createClient({ baseUrl: server.url, apiKey: config.adminKey });
    config = { ...config, ...(await seedShop(client, server.createKey)) };
    await server.idle();
    writeFileSync(configFile, JSON.stringify(config, null, 2), { mode: 0o600 });
  }
  if (!config) {
    console.log(
      "First start: seeding the demo chatbot with Q&A pairs and this README, and the website's…",
    );
    config = await seed(server.url, server.createKey);
    // Announce the demo once the README is searchable, so the first question finds it.
    await server.idle();
    console.log('Seeding a few rated conversations for Conversations and Insights…');
    await seedConversations(
      createClient({ baseUrl: server.url, apiKey: config.chatKey }),
      config.chatbotUuid,
    );
    writeFileSync(configFile, JSON.stringify(config, null, 2), { mode: 0o600 });
  }
  renderPages(publicDir, { ...config, baseUrl: server.url });

  console.log(`
chatbot-elements is running on ${server.url}
  website with the one-tag launcher  ${server.url}/
  inline chat                        ${server.url}/chat.html
  admin panel                        ${server.url}/admin.html
  theming                            ${server.url}/theming.html
  API                                ${server.url}/api/v1/chatbots
demo key: ${config.adminKey}
chat-only key (safe for public pages): ${config.chatKey}
demo chatbot uuid (data-chatbot-uuid): ${config.chatbotUuid}
the website's chatbot (Northwind Cycles): ${config.shopChatbotUuid}, chat-only key ${config.shopChatKey}
Store: ${db === ':memory:' ? 'in memory' : resolve(db)} — Ctrl+C stops.`);

  const stop = async () => {
    await server.close();
    process.exit(0);
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: NodeJS.ErrnoException) => {
  if (error?.code === 'EADDRINUSE')
    fail(`port ${process.env.PORT ?? 8787} is in use: stop what uses it or set PORT`);
  if (error?.code === 'EACCES')
    fail(`not allowed to listen on port ${process.env.PORT ?? 8787}: choose another PORT`);
  if (
    error?.code === 'SQLITE_CANTOPEN' ||
    error?.code === 'SQLITE_READONLY' ||
    error?.code === 'EROFS'
  ) {
    fail(
      `the store is not writable (${error.message}): check CHATBOT_DB and its directory's permissions`,
    );
  }
  fail(error instanceof Error ? error.message : String(error));
});
