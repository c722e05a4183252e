/**
 * Stopping the real server (the CLI, as `npm run server` runs it) while an answer streams: the
 * answer runs to its end within the grace, or, on a second Ctrl-C, is cut and stored as cut
 * short; either way the exchange is in the database after the exit.
 */
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { createClient } from '../../src/api/index.js';
import { ADMIN_KEY } from './helpers.js';
import { freePort, startCli } from './spawn-server.js';
import { sqliteOnly } from './stores.js';

const PIECES = 12;

/** An OpenAI-compatible model that writes `piece N ` every 100 ms, or without end. */
async function slowModel(): Promise<{ url: string; endless: boolean; close(): void }> {
  const model = { url: '', endless: false, close: () => {} };
  const server: Server = createServer(async (req, res) => {
    for await (const _ of req);
    res.writeHead(200, { 'Content-Type': 'text/event-stream' });
    let n = 0;
    const timer = setInterval(() => {
      n += 1;
      res.write(
        `data: ${JSON.stringify({ choices: [{ delta: { content: `piece ${n} ` } }] })}\n\n`,
      );
      if (!model.endless && n === PIECES) {
        clearInterval(timer);
        res.end('data: [DONE]\n\n');
      }
    }, 100);
    res.on('close', () => clearInterval(timer));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  model.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  model.close = () => {
    server.closeAllConnections();
    server.close();
  };
  return model;
}

describe(
  'stopping the server while it answers',
  sqliteOnly('reads the SQLite file after the exit'),
  () => {
    const dir = mkdtempSync(join(tmpdir(), 'chatbot-stop-'));
    const db = join(dir, 'stop.sqlite');
    let model: Awaited<ReturnType<typeof slowModel>>;
    let child: ChildProcess | undefined;
    before(async () => {
      model = await slowModel();
    });
    after(() => {
      child?.kill('SIGKILL');
      model.close();
      rmSync(dir, { recursive: true, force: true });
    });

    /** Starts the server, asks a question its source covers, and resolves once text arrives. */
    async function askThenWaitForText() {
      const port = await freePort();
      ({ child } = await startCli({
        PORT: String(port),
        CHATBOT_DB: db,
        CHATBOT_API_KEYS: `alice:${ADMIN_KEY}`,
        LLM_BASE_URL: model.url,
      }));
      const url = `http://127.0.0.1:${port}`;
      const api = createClient({ baseUrl: url, apiKey: ADMIN_KEY, retry: false });
      const bot = await api.chatbots.create({ name: 'Stopped' });
      const source = await api.sources.upload(
        bot.uuid,
        new Blob(['The lighthouse keeper polishes the lamp every evening.']),
        { fileName: 'keeper.txt' },
      );
      const status = async () =>
        (await api.sources.list(bot.uuid)).find((s) => s.uuid === source.uuid)?.status;
      while ((await status()) !== 'success') {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const session = await api.sessions.create(bot.uuid);
      const response = await fetch(`${url}/api/v1/session/${session.uuid}/message/stream`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${ADMIN_KEY}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ query: 'What does the lighthouse keeper polish?' }),
      });
      const reader = response.body!.getReader();
      const decoder = new TextDecoder();
      let text = '';
      while (!text.includes('piece 1 ')) text += decoder.decode((await reader.read()).value);
      const rest = (async () => {
        for (;;) {
          const { done, value } = await reader
            .read()
            .catch(() => ({ done: true, value: undefined }));
          if (done) return text;
          text += decoder.decode(value);
        }
      })();
      return { session: session.uuid, rest };
    }

    const stored = (session: string) => {
      const reader = new Database(db, { readonly: true });
      try {
        return reader
          .prepare('SELECT response, finish_reason FROM messages WHERE session_uuid = ?')
          .all(session) as Array<{ response: string; finish_reason: string }>;
      } finally {
        reader.close();
      }
    };

    it('lets the answer finish after SIGTERM, stores it whole, and exits 0', async () => {
      model.endless = false;
      const { session, rest } = await askThenWaitForText();
      const exited = once(child!, 'exit');
      child!.kill('SIGTERM');
      const text = await rest;
      assert.match(text, new RegExp(`piece ${PIECES} $`));
      assert.deepEqual((await exited)[0], 0);
      const [message] = stored(session);
      assert.equal(message?.finish_reason, 'stop');
      assert.match(message!.response, new RegExp(`piece ${PIECES} $`));
    });

    it('cuts the answer on a second Ctrl-C and stores what was sent, cut short', async () => {
      model.endless = true;
      const { session, rest } = await askThenWaitForText();
      const exited = once(child!, 'exit');
      child!.kill('SIGINT');
      child!.kill('SIGINT');
      const text = await rest;
      await exited;
      const [message] = stored(session);
      assert.equal(message?.finish_reason, 'length');
      assert.ok(message!.response.startsWith('piece 1 '), message!.response);
      assert.ok(text.startsWith(message!.response.slice(0, 8)));
    });
  },
);
