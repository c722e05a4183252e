/**
 * What the client-fault tests (chat-faults.test.ts) fault: the real server as a process of its
 * own, killed and started again on its port and database file; a language model on 127.0.0.1
 * that says what the test tells it, when the test tells it, so an answer is mid-stream for as
 * long as a test needs; and a tab that can be hidden.
 */
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { freePort, startCli } from '../server/spawn-server.js';

/** One completion the chat server asked the language model for. */
export interface Turn {
  /** The visitor's question, as the chat server passed it on. */
  readonly question: string;
  /** Streams `text` as the next delta. */
  send(text: string): void;
  /** Ends the completion. */
  end(): void;
  /** Resolves once the chat server has gone from this request (finished, aborted or killed). */
  readonly closed: Promise<void>;
}

/** An OpenAI-compatible `/chat/completions` whose every delta the test sends. */
export class ScriptedLlm {
  private readonly arrived: Turn[] = [];
  private readonly waiting: Array<(turn: Turn) => void> = [];
  private readonly server: Server;

  private constructor() {
    this.server = createServer(async (req, res) => {
      let body = '';
      for await (const part of req) body += part;
      const messages: Array<{ role: string; content: string }> = JSON.parse(body).messages ?? [];
      const question = messages.filter((m) => m.role === 'user').at(-1)?.content ?? '';
      this.arrive(turnOf(question, res));
    });
  }

  static async start(): Promise<ScriptedLlm> {
    const llm = new ScriptedLlm();
    llm.server.listen(0, '127.0.0.1');
    await once(llm.server, 'listening');
    return llm;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
  }

  /** The next completion asked for: one already waiting, or the next to come. */
  next(): Promise<Turn> {
    const turn = this.arrived.shift();
    if (turn) return Promise.resolve(turn);
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private arrive(turn: Turn): void {
    const taker = this.waiting.shift();
    if (taker) taker(turn);
    else this.arrived.push(turn);
  }
}

function turnOf(question: string, res: ServerResponse): Turn {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
  const closed = once(res, 'close').then(() => {});
  return {
    question,
    send(text) {
      res.write(`data: ${JSON.stringify({ choices: [{ delta: { content: text } }] })}\n\n`);
    },
    end() {
      res.end('data: [DONE]\n\n');
    },
    closed,
  };
}

/** The reference server as `npm run server` starts it, on a database file that outlives it. */
export class ServerProcess {
  private child?: ChildProcess;

  private constructor(
    private readonly env: Record<string, string>,
    readonly url: string,
  ) {}

  static async start(options: {
    db: string;
    apiKeys: string;
    llm: string;
  }): Promise<ServerProcess> {
    const port = await freePort();
    const server = new ServerProcess(
      {
        PORT: String(port),
        CHATBOT_DB: options.db,
        CHATBOT_API_KEYS: options.apiKeys,
        LLM_BASE_URL: options.llm,
      },
      `http://127.0.0.1:${port}`,
    );
    await server.restart();
    return server;
  }

  /** Starts it (again) on the same port and database. */
  async restart(): Promise<void> {
    this.child = (await startCli(this.env)).child;
  }

  /** Starts it again unless it runs: a test that failed with it killed leaves it so. */
  async up(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) await this.restart();
  }

  /** SIGKILL: no chance to end a stream, close a socket or write anything more. */
  async kill(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGKILL');
    await exited;
  }
}

/**
 * Installed before the page's scripts: `window.__tab.hide()` and `show()` do to the page what a
 * hidden tab does and the element can see: `document.hidden`, `visibilityState` and their
 * `visibilitychange`, and no animation frames until it is shown again (their callbacks then run).
 * Headless Chromium keeps every page visible whatever CDP says (a minimized window, another tab
 * in front, `Page.setWebLifecycleState` frozen: all still `visible`, frames and timers running),
 * so the page is told instead.
 */
export const hiddenTabScript = `(() => {
  let hidden = false;
  const queued = new Map();
  let nextId = -1;
  const frame = window.requestAnimationFrame.bind(window);
  const cancel = window.cancelAnimationFrame.bind(window);
  Object.defineProperty(Document.prototype, 'hidden', { configurable: true, get: () => hidden });
  Object.defineProperty(Document.prototype, 'visibilityState', {
    configurable: true,
    get: () => (hidden ? 'hidden' : 'visible'),
  });
  window.requestAnimationFrame = (callback) => {
    if (!hidden) return frame(callback);
    const id = nextId--;
    queued.set(id, callback);
    return id;
  };
  window.cancelAnimationFrame = (id) => {
    if (!queued.delete(id)) cancel(id);
  };
  window.__tab = {
    hide() {
      hidden = true;
      document.dispatchEvent(new Event('visibilitychange'));
    },
    show() {
      hidden = false;
      document.dispatchEvent(new Event('visibilitychange'));
      const callbacks = [...queued.values()];
      queued.clear();
      for (const callback of callbacks) frame(callback);
    },
  };
})();`;

/**
 * A page script that gives the element a client of its own with a short stall timeout, from
 * the built API module: `data-stream-idle-ms` on the element says how short.
 */
export const idleClientScript = `import { createClient } from '/dist/api.js';
const el = document.querySelector('chatbot-chat');
el.client = createClient({
  baseUrl: el.getAttribute('base-url'),
  apiKey: el.getAttribute('api-key'),
  streamIdleTimeoutMs: Number(el.dataset.streamIdleMs),
});
`;
