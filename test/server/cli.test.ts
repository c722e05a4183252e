import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { MIGRATIONS } from '../../src/server/store/sqlite.js';
import { freePort, runCli, startCli } from './spawn-server.js';
import { sqliteOnly } from './stores.js';

const SQLITE_ONLY = sqliteOnly('the CLI on SQLite (PostgreSQL: multi-instance.test.ts)');
describe('the command line', SQLITE_ONLY, () => {
  const dir = mkdtempSync(join(tmpdir(), 'chatbot-cli-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('starts from the environment and prints "listening on http://HOST:PORT"', async () => {
    const port = await freePort();
    const { child, line } = await startCli({
      PORT: String(port),
      HOST: '127.0.0.1',
      CHATBOT_DB: ':memory:',
      CHATBOT_API_KEYS: 'wtr:wtr-admin-key',
    });
    try {
      assert.equal(line.trim(), `listening on http://127.0.0.1:${port}`);
      const response = await fetch(`http://127.0.0.1:${port}/api/v1/chatbots`, {
        headers: { Authorization: 'Bearer wtr-admin-key' },
      });
      assert.equal(response.status, 200);
      assert.deepEqual(await response.json(), []);
    } finally {
      child.kill();
    }
  });

  it('explains a port in use in one line and exits with code 1', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const { port } = blocker.address() as { port: number };
    try {
      const result = runCli([], { PORT: String(port), CHATBOT_DB: ':memory:' });
      assert.equal(result.status, 1);
      assert.equal(result.stderr.trim().split('\n').length, 1);
      assert.match(result.stderr, /port \d+ is already in use/);
    } finally {
      blocker.close();
    }
  });

  it('explains a database that cannot be written in one line and exits with code 1', () => {
    // A path under a regular file can never be created, whoever runs the test.
    const blocker = join(dir, 'not-a-directory');
    writeFileSync(blocker, '');
    const result = runCli([], { PORT: '0', CHATBOT_DB: join(blocker, 'chatbot.sqlite') });
    assert.equal(result.status, 1);
    assert.equal(result.stderr.trim().split('\n').length, 1);
    assert.match(result.stderr, /chatbot server: /);
    assert.doesNotMatch(result.stderr, /\n\s+at /);
  });

  it('refuses more than one worker without PostgreSQL, in one line, with code 1', () => {
    for (const [args, extra] of [
      [['--workers', '2'], {}],
      [[], { CHATBOT_WORKERS: '3' }],
    ] as const) {
      const result = runCli(args, {
        PORT: '0',
        CHATBOT_DB: ':memory:',
        DATABASE_URL: '',
        ...extra,
      });
      assert.equal(result.status, 1);
      assert.equal(result.stderr.trim().split('\n').length, 1);
      assert.match(result.stderr, /^chatbot server: \d workers need PostgreSQL: set DATABASE_URL/);
      assert.equal(result.stdout, '');
    }
  });

  it('refuses an upload limit, an LLM address or CORS origins it cannot use, naming the variable', () => {
    const notADirectory = join(dir, 'a-file');
    writeFileSync(notADirectory, '');
    for (const [name, value, says] of [
      [
        'CHATBOT_UPLOAD_LIMIT_MB',
        'abc',
        /CHATBOT_UPLOAD_LIMIT_MB must be a positive number of MB, not "abc"/,
      ],
      [
        'CHATBOT_UPLOAD_LIMIT_MB',
        '-1',
        /CHATBOT_UPLOAD_LIMIT_MB must be a positive number of MB, not "-1"/,
      ],
      ['LLM_BASE_URL', 'api.openai.com/v1', /LLM_BASE_URL must be an http\(s\) address/],
      ['CHATBOT_WORKERS', 'two', /CHATBOT_WORKERS must be a positive whole number, not "two"/],
      // The key itself is never echoed: an entry without a colon is all key.
      [
        'CHATBOT_API_KEYS',
        'me:ok-key,s3cret-only-key',
        /CHATBOT_API_KEYS entry 2 is not user:key$/m,
      ],
      ['CHATBOT_API_KEYS', 'alice:', /CHATBOT_API_KEYS entry 1 \("alice:"\) is not user:key/],
      [
        'CHATBOT_INGEST_LEASE_SECONDS',
        '5000000',
        /CHATBOT_INGEST_LEASE_SECONDS must be a number of seconds from 1 to 86400, not "5000000"/,
      ],
      [
        'CHATBOT_INGEST_LEASE_SECONDS',
        '0x10',
        /CHATBOT_INGEST_LEASE_SECONDS must be a positive whole number, not "0x10"/,
      ],
      [
        'CHATBOT_PG_POOL_SIZE',
        '0',
        /CHATBOT_PG_POOL_SIZE must be a positive whole number, not "0"/,
      ],
      [
        'CHATBOT_CORS_ORIGINS',
        'shop.example',
        /CHATBOT_CORS_ORIGINS: "shop\.example" is not an origin/,
      ],
      // Number() would read these as 1000 and 16.
      ['PORT', '1e3', /PORT 1e3 is not a port number/],
      ['CHATBOT_PG_POOL_SIZE', '0x10', /CHATBOT_PG_POOL_SIZE must be a positive whole number/],
      [
        'CHATBOT_KEEP_ALIVE_SECONDS',
        '90s',
        /CHATBOT_KEEP_ALIVE_SECONDS must be a positive whole number, not "90s"/,
      ],
      [
        'CHATBOT_KEEP_ALIVE_SECONDS',
        '5000000',
        /CHATBOT_KEEP_ALIVE_SECONDS must be a number of seconds from 1 to 86400, not "5000000"/,
      ],
      [
        'CHATBOT_EXTRACT_SECONDS',
        '0',
        /CHATBOT_EXTRACT_SECONDS must be a positive whole number, not "0"/,
      ],
      [
        'CHATBOT_EXTRACT_HEAP_MB',
        '64',
        /CHATBOT_EXTRACT_HEAP_MB must be 256 or more \(MB\), not "64"/,
      ],
      ['CHATBOT_LOG', 'maybe', /CHATBOT_LOG must be on or off, not "maybe"/],
      ['CHATBOT_ALLOW_PRIVATE_URLS', 'sure', /CHATBOT_ALLOW_PRIVATE_URLS must be on or off/],
      [
        'DATABASE_URL',
        'mysql://me:pw@db.example/chat',
        /DATABASE_URL must be a postgres:\/\/ or postgresql:\/\/ address .*mysql:\/\/me:\*\*\*@db/,
      ],
      ['HOST', 'no-such-host.invalid', /HOST no-such-host\.invalid cannot be found/],
      [
        'CHATBOT_DB',
        join(notADirectory, 'chatbot.sqlite'),
        /cannot open the database .* set CHATBOT_DB/,
      ],
    ] as const) {
      const result = runCli([], { PORT: '0', CHATBOT_DB: ':memory:', [name]: value });
      assert.equal(result.status, 1, `${name}=${value} stops the start`);
      assert.equal(result.stderr.trim().split('\n').length, 1);
      assert.match(result.stderr, says);
      assert.doesNotMatch(result.stderr, /s3cret/, 'no key in the log');
      assert.equal(result.stdout, '');
    }
  });

  it('reads --workers=N as --workers N', () => {
    const result = runCli(['--workers=2'], { PORT: '0', CHATBOT_DB: ':memory:' });
    assert.equal(result.status, 1);
    assert.match(result.stderr, /2 workers need PostgreSQL/);
  });

  it('prints its usage for --help, and starts nothing', () => {
    const result = runCli(['--help'], { PORT: '0', CHATBOT_DB: ':memory:' });
    assert.equal(result.status, 0);
    assert.match(result.stdout, /^usage: npm run server/);
    assert.doesNotMatch(result.stdout, /listening/);
    assert.equal(result.stderr, '');
  });

  it('create-key prints a key that then authenticates, and --chat-only confines it', async () => {
    const db = join(dir, 'keys.sqlite');
    const made = runCli(['create-key', 'carol'], { CHATBOT_DB: db });
    assert.equal(made.status, 0, made.stderr);
    const key = made.stdout.trim();
    assert.match(key, /^cbk_[\w-]{20,}$/);

    const port = await freePort();
    const { child } = await startCli({ PORT: String(port), CHATBOT_DB: db });
    let chatbotUuid: string;
    try {
      const created = await fetch(`http://127.0.0.1:${port}/api/v1/chatbot/create`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: 'Carol bot' }),
      });
      assert.equal(created.status, 200);
      chatbotUuid = ((await created.json()) as { uuid: string }).uuid;
    } finally {
      child.kill();
      await new Promise((resolve) => child.once('exit', resolve));
    }

    const chatOnly = runCli(['create-key', 'carol', '--chat-only', chatbotUuid], {
      CHATBOT_DB: db,
    });
    assert.equal(chatOnly.status, 0, chatOnly.stderr);
    const chatKey = chatOnly.stdout.trim();

    const refused = runCli(['create-key', 'dave', '--chat-only', chatbotUuid], { CHATBOT_DB: db });
    assert.equal(refused.status, 1);
    assert.match(refused.stderr, /user dave has no chatbot/);

    const port2 = await freePort();
    const second = await startCli({ PORT: String(port2), CHATBOT_DB: db });
    try {
      const base = `http://127.0.0.1:${port2}`;
      const list = await fetch(`${base}/api/v1/chatbots`, {
        headers: { Authorization: `Bearer ${chatKey}` },
      });
      assert.equal(list.status, 403);
      const session = await fetch(`${base}/api/v1/chatbot/${chatbotUuid}/session/create`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${chatKey}` },
      });
      assert.equal(session.status, 200);
    } finally {
      second.child.kill();
    }
  });

  it('says how to make a first key while the store holds none, and not once it holds one', async () => {
    const db = join(dir, 'first-key.sqlite');
    const start = async () => {
      const started = await startCli({
        PORT: String(await freePort()),
        CHATBOT_DB: db,
        CHATBOT_API_KEYS: '',
      });
      started.child.kill();
      await new Promise((resolve) => started.child.once('exit', resolve));
      return started.out;
    };
    assert.match(await start(), /no API keys yet: create one with "npm run server -- create-key/);
    assert.equal(runCli(['create-key', 'erin'], { CHATBOT_DB: db }).status, 0);
    assert.doesNotMatch(await start(), /API keys/);
  });

  it('revoke-key makes a running server refuse the key, and says when there is no such key', async (t) => {
    const db = join(dir, 'revoke.sqlite');
    const run = (...args: string[]) =>
      runCli(args, { CHATBOT_DB: db, CHATBOT_API_KEYS: 'erin:erin-listed-key' });
    const made = run('create-key', 'erin');
    assert.equal(made.status, 0, made.stderr);
    const key = made.stdout.trim();
    const port = await freePort();
    const { child } = await startCli({
      PORT: String(port),
      CHATBOT_DB: db,
      CHATBOT_API_KEYS: 'erin:erin-listed-key',
    });
    const status = async (bearer: string) =>
      (
        await fetch(`http://127.0.0.1:${port}/api/v1/chatbots`, {
          headers: { Authorization: `Bearer ${bearer}` },
        })
      ).status;
    try {
      // The server remembers the key once it has used it.
      assert.equal(await status(key), 200);
      const revoked = run('revoke-key', key);
      assert.equal(revoked.status, 0, revoked.stderr);
      assert.match(revoked.stdout, /^revoked/);
      assert.equal(revoked.stderr, '');
      const began = Date.now();
      while ((await status(key)) !== 401) {
        if (Date.now() - began > 20_000) assert.fail('the running server still takes the key');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      t.diagnostic(`refused ${Date.now() - began} ms after revoke-key (promised: within 1 s)`);

      const again = run('revoke-key', key);
      assert.equal(again.status, 1);
      assert.equal(
        again.stderr.trim(),
        'chatbot server: no such key in this database: nothing revoked',
      );

      // A key the environment lists is revoked too, with a word that the next start adds it back.
      const listed = run('revoke-key', 'erin-listed-key');
      assert.equal(listed.status, 0, listed.stderr);
      assert.match(listed.stderr, /also in CHATBOT_API_KEYS/);
      assert.doesNotMatch(listed.stderr, /erin-listed-key/, 'no key in the log');
    } finally {
      child.kill();
      await new Promise((resolve) => child.once('exit', resolve));
    }
  });

  it('refuses a second server on the same SQLite file, and takes over the file of one that died', async () => {
    const db = join(dir, 'claimed.sqlite');
    const first = await startCli({ PORT: String(await freePort()), CHATBOT_DB: db });
    const firstExit = new Promise((resolve) => first.child.once('exit', resolve));
    try {
      const second = runCli([], { PORT: String(await freePort()), CHATBOT_DB: db });
      assert.equal(second.status, 1);
      assert.equal(second.stderr.trim().split('\n').length, 1);
      assert.match(
        second.stderr,
        new RegExp(`another server \\(process ${first.child.pid}\\) is using the database`),
      );
      // A command still opens the file beside the running server.
      const made = runCli(['create-key', 'frank'], { CHATBOT_DB: db });
      assert.equal(made.status, 0, made.stderr);
    } finally {
      first.child.kill('SIGKILL');
      await firstExit;
    }
    // Killed without a word: its claim is left, and taken over.
    const third = await startCli({ PORT: String(await freePort()), CHATBOT_DB: db });
    third.child.kill('SIGTERM');
    await new Promise((resolve) => third.child.once('exit', resolve));
    // Stopped cleanly: the file is free at once.
    const fourth = await startCli({ PORT: String(await freePort()), CHATBOT_DB: db });
    fourth.child.kill();
    await new Promise((resolve) => fourth.child.once('exit', resolve));
  });

  it('refuses a database a newer version migrated, in one line', () => {
    const db = join(dir, 'newer.sqlite');
    const raw = new Database(db);
    raw.pragma(`user_version = ${MIGRATIONS.length + 1}`);
    raw.close();
    const result = runCli([], { PORT: '0', CHATBOT_DB: db });
    assert.equal(result.status, 1);
    assert.equal(
      result.stderr.trim(),
      `chatbot server: this database was migrated by a newer version of the server (schema version ${MIGRATIONS.length + 1}; this version knows up to ${MIGRATIONS.length}): run the newer version, or restore a backup taken before the upgrade`,
    );
    const raw2 = new Database(db);
    assert.equal(raw2.pragma('user_version', { simple: true }), MIGRATIONS.length + 1, 'untouched');
    raw2.close();
  });
});
