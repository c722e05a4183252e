import { once } from 'node:events';
import type { ServerResponse } from 'node:http';
import type { Context } from 'hono';
import type { AppEnv } from './context.js';
import { alreadySent, outgoingOf } from './http.js';
import type { Paced } from './knowledge/answer-types.js';

export interface StreamOptions {
  /** The 200's headers besides its type and caching; the CORS middleware adds its own. */
  headers: Record<string, string>;
  /** The CORS origins are a list, so a response varies by Origin. */
  varyOrigin: boolean;
  /**
   * Called once, when the body is over: what was sent, and whether the pieces ran to their end.
   * The body's end waits for it, so a client that read to the end finds what it stored.
   */
  onEnd(sent: string, finished: boolean): void | Promise<void>;
  /**
   * A piece failed once the status was sent, so it cannot say so any more: the body ends, and
   * onEnd follows.
   */
  onError(error: unknown): void;
  /** The pieces of an answer known in full and their pace: sent from timers on Node. */
  paced?: Paced;
}

/** One answer on its way out, whichever transport carries it. */
interface Run {
  readonly controller: AbortController;
  readonly pieces: AsyncIterator<string>;
  sent: string;
  finish(finished: boolean): Promise<void>;
  failed(error: unknown): Promise<void>;
}

/**
 * Streams the pieces as a `text/plain` body, each as soon as it comes and no faster than the
 * client reads, and stops them when the client goes away: as Hono's `stream()`, with the answer's
 * end and failures reported to the caller instead of thrown.
 */
export function streamPieces<E extends AppEnv>(
  c: Context<E>,
  text: (signal: AbortSignal) => AsyncIterable<string>,
  options: StreamOptions,
): Response {
  const controller = new AbortController();
  let ended: Promise<void> | undefined;
  const run: Run = {
    controller,
    pieces: text(controller.signal)[Symbol.asyncIterator](),
    sent: '',
    finish(finished) {
      ended ??= Promise.resolve(options.onEnd(run.sent, finished));
      return ended;
    },
    failed(error) {
      options.onError(error);
      return run.finish(false);
    },
  };
  const headers = {
    'content-type': 'text/plain; charset=utf-8',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    ...options.headers,
  };
  const outgoing = outgoingOf(c);
  return outgoing ? toNode(c, outgoing, run, headers, options) : toWeb(c, run, headers);
}

/**
 * On Node, writes to the response itself. Through a web ReadableStream, @hono/node-server holds
 * every streamed response back for a timer before its headers (it probes whether the body ends
 * at once), and each piece costs a pull, a read and a promise chain more; with 200 answers at
 * once that kept first bytes waiting behind other requests' work.
 */
function toNode<E extends AppEnv>(
  c: Context<E>,
  outgoing: ServerResponse,
  run: Run,
  headers: Record<string, string>,
  options: StreamOptions,
): Response {
  const { controller, pieces } = run;
  // A plain record: the stream's headers and the CORS middleware's.
  const head = { ...headers, ...c.get('corsHeaders') };
  if (options.varyOrigin) head.vary = 'Origin';
  outgoing.writeHead(200, head);
  const stop = () => {
    if (outgoing.writableFinished) return;
    controller.abort();
    void run.finish(false);
    void pieces.return?.(undefined);
  };
  outgoing.once('close', stop);
  if (options.paced) {
    sendPaced(outgoing, run, options.paced);
    return alreadySent();
  }
  void (async () => {
    try {
      for (;;) {
        // The first piece is ready at once: it goes out in the same packet as the headers.
        const next = await pieces.next();
        if (next.done || controller.signal.aborted) break;
        run.sent += next.value;
        // Only as fast as the client reads: a slow reader holds the answer back.
        if (!outgoing.write(next.value)) {
          await once(outgoing, 'drain', { signal: controller.signal });
        }
      }
      await run.finish(!controller.signal.aborted);
    } catch (error) {
      if (!controller.signal.aborted) await run.failed(error);
    }
    if (!outgoing.writableEnded) outgoing.end();
  })();
  return alreadySent();
}

/**
 * An answer known in full, a piece per timer: what the loop above does through the pieces'
 * async iterator, without its promises (a promise chain per piece was about a twentieth of a
 * loaded server's time). The first piece goes out with the headers; a slow reader holds the next
 * back until the response drains; the body ends once `onEnd` has run, right after the last piece.
 */
function sendPaced(outgoing: ServerResponse, run: Run, { pieces, delayMs }: Paced): void {
  const { signal } = run.controller;
  let timer: ReturnType<typeof setTimeout> | undefined;
  signal.addEventListener('abort', () => clearTimeout(timer), { once: true });
  let at = 0;
  const later = () => {
    if (!signal.aborted) timer = setTimeout(next, delayMs);
  };
  const next = (): void => {
    if (signal.aborted) return;
    if (at < pieces.length) {
      const piece = pieces[at++]!;
      run.sent += piece;
      const flowing = outgoing.write(piece);
      if (at < pieces.length) {
        if (flowing) later();
        else outgoing.once('drain', later);
        return;
      }
    }
    void run
      .finish(true)
      .catch((error: unknown) => console.error('an answer could not be ended:', error))
      .finally(() => {
        if (!outgoing.writableEnded) outgoing.end();
      });
  };
  next();
}

/**
 * Elsewhere (app.request), a pull-based body: the answer is produced only as fast as the client
 * reads it, and a client that goes away cancels it.
 */
function toWeb<E extends AppEnv>(
  c: Context<E>,
  run: Run,
  headers: Record<string, string>,
): Response {
  const { controller, pieces } = run;
  for (const [name, value] of Object.entries(headers)) c.header(name, value);
  const encoder = new TextEncoder();
  const clientGone = c.req.raw.signal;
  const stop = () => {
    controller.abort();
    clientGone.removeEventListener('abort', stop);
    void run.finish(false);
  };
  clientGone.addEventListener('abort', stop, { once: true });
  const body = new ReadableStream<Uint8Array>({
    async pull(out) {
      try {
        const next = await pieces.next();
        if (next.done || controller.signal.aborted) {
          clientGone.removeEventListener('abort', stop);
          await run.finish(!controller.signal.aborted);
          out.close();
          return;
        }
        run.sent += next.value;
        out.enqueue(encoder.encode(next.value));
      } catch (error) {
        clientGone.removeEventListener('abort', stop);
        await run.failed(error);
        out.close();
      }
    },
    cancel() {
      stop();
      void pieces.return?.(undefined);
    },
  });
  return c.body(body, 200);
}
