import { once } from 'node:events';
import type { ServerResponse } from 'node:http';
import { Hono } from 'hono';
import type { Citation } from '../../api/types.js';
import {
  type AppEnv,
  type Auth,
  ownedChatbot,
  ownedMessage,
  ownedSession,
  type ServerContext,
} from '../context.js';
import { alreadySent, type Fields, HttpError, jsonBody, newUuid, now } from '../http.js';
import { type PreparedAnswer, prepareAnswer } from '../knowledge/answer.js';
import { messageRecord } from '../records.js';

const QUIET_MS = 10;
const HOLD_MAX_MS = 250;
const BURST_STARTS = 8;

const queryBody = (fields: Fields) => ({
  query: fields.string('query', { required: true, max: 20_000 }),
});
const uuidsBody = (fields: Fields) => ({ uuids: fields.strings('uuids', { required: true })! });

export function messageRoutes(ctx: ServerContext, options: { varyOrigin: boolean }) {
  const { store } = ctx;

  /** Checks access and the rate limit, then plans the answer; everything before the first byte. */
  const begin = async (auth: Auth, sessionUuid: string, query: string) => {
    const session = ownedSession(ctx, auth, sessionUuid);
    const chatbot = ownedChatbot(ctx, auth, session.chatbotUuid);
    const limited = ctx.rateLimiter.take(session.uuid, chatbot.rate_limit);
    if (limited) {
      throw new HttpError(429, 'rate_limited', chatbot.rate_limit_message, {
        'Retry-After': String(limited.retryAfter),
      });
    }
    const answer = await prepareAnswer(ctx.knowledge.answerDeps, chatbot, session, query);
    return { session, answer, uuid: newUuid(), startedAt: now() };
  };

  const save = (
    started: { session: { uuid: string }; answer: PreparedAnswer; uuid: string; startedAt: string },
    query: string,
    response: string,
    finished: boolean,
  ) => {
    const t = now();
    try {
      if (!store.getSession(started.session.uuid)) return; // deleted while answering
      store.createMessage({
        uuid: started.uuid,
        sessionUuid: started.session.uuid,
        query,
        response,
        finish_reason: finished ? 'stop' : 'length',
        cite_data: started.answer.citeData,
        meta: started.answer.meta,
        error_message: started.answer.errorMessage,
        created_at: started.startedAt,
        modified_at: t,
      });
      store.touchSession(started.session.uuid, t);
    } catch (error) {
      // Called from stream callbacks, where a throw would reach no one: say it here.
      console.error(`could not store message ${started.uuid}:`, error);
    }
  };

  /**
   * First pieces before later ones. When many chats start at once, each waits for the work of
   * those before it; the later pieces of answers already under way would take their share of the
   * CPU (the server's and the client's), and push the newcomers' first bytes back. So while a burst
   * is arriving (BURST_STARTS chats within QUIET_MS, faster than 200 open streams ask in steady
   * use), a later piece waits, on one shared timer, and an answer waits at most HOLD_MAX_MS in all,
   * so a steady stream of new chats cannot stall it. Chats arriving at a steady pace hold nothing:
   * there is no queue for their pieces to jump, and holding would stall every open answer.
   */
  const starts = new Float64Array(BURST_STARTS).fill(Number.NEGATIVE_INFINITY);
  let slot = 0;
  const chatStarted = () => {
    starts[slot] = performance.now();
    slot = (slot + 1) % BURST_STARTS;
  };
  // The oldest of the last BURST_STARTS starts is within QUIET_MS.
  const bursting = () => performance.now() - starts[slot]! < QUIET_MS;
  let gate: Promise<void> | null = null;
  const quiet = () => {
    gate ??= new Promise<void>((resolve) => {
      const opened = performance.now();
      const check = () => {
        if (bursting() && performance.now() - opened < HOLD_MAX_MS) setTimeout(check, QUIET_MS);
        else {
          gate = null;
          resolve();
        }
      };
      setTimeout(check, QUIET_MS);
    });
    return gate;
  };

  return new Hono<AppEnv>()
    .get('/api/v1/session/:uuid/messages', (c) => {
      const session = ownedSession(ctx, c.get('auth'), c.req.param('uuid'));
      return c.json(store.listMessages(session.uuid).map(messageRecord));
    })
    .post('/api/v1/session/:uuid/message/stream', jsonBody(queryBody), async (c) => {
      chatStarted();
      const { query } = c.get('body');
      const started = await begin(c.get('auth'), c.req.param('uuid'), query);
      const head: Record<string, string> = {
        'content-type': 'text/plain; charset=utf-8',
        'cache-control': 'no-store',
        'x-content-type-options': 'nosniff',
        'x-message-uuid': started.uuid,
      };
      if (started.answer.citations.length > 0) {
        head['x-citations'] = encodeCitations(started.answer.citations);
      }
      const controller = new AbortController();
      const pieces = started.answer.text(controller.signal)[Symbol.asyncIterator]();
      let response = '';
      let saved = false;
      const finish = (finished: boolean) => {
        if (saved) return;
        saved = true;
        save(started, query, response, finished && !started.answer.cutShort);
      };
      const failed = (error: unknown) => {
        // The status is already sent: say what happened in the record, and end the body.
        started.answer.errorMessage ||= `the answer failed: ${(error as Error).message}`;
        finish(false);
      };

      const outgoing = (c.env as { outgoing?: ServerResponse } | undefined)?.outgoing;
      if (outgoing) {
        // On Node, write to the response itself. Through a web ReadableStream, @hono/node-server
        // holds every streamed response back for a timer before its headers (it probes whether
        // the body ends at once), and each piece costs a pull, a read and a promise chain more;
        // with 200 answers at once that kept first bytes waiting behind other requests' work.
        // The head is a plain record: the CORS middleware's headers and this route's.
        Object.assign(head, c.get('corsHeaders'));
        if (options.varyOrigin) head.vary = 'Origin';
        outgoing.writeHead(200, head);
        const stop = () => {
          if (outgoing.writableFinished) return;
          controller.abort();
          finish(false);
          void pieces.return?.(undefined);
        };
        outgoing.once('close', stop);
        let heldMs = 0;
        void (async () => {
          try {
            for (;;) {
              // The first piece is ready at once: it goes out in the same packet as the headers.
              const next = await pieces.next();
              if (next.done || controller.signal.aborted) break;
              if (response && heldMs < HOLD_MAX_MS && bursting()) {
                const t0 = performance.now();
                await quiet();
                heldMs += performance.now() - t0;
                if (controller.signal.aborted) break;
              }
              response += next.value;
              // Only as fast as the client reads: a slow reader holds the answer back.
              if (!outgoing.write(next.value))
                await once(outgoing, 'drain', { signal: controller.signal });
            }
            finish(!controller.signal.aborted);
          } catch (error) {
            if (!controller.signal.aborted) failed(error);
          }
          if (!outgoing.writableEnded) outgoing.end();
        })();
        return alreadySent();
      }

      // Elsewhere (app.request), a pull-based body: the answer is produced only as fast as the
      // client reads it, and a client that goes away cancels it.
      for (const [name, value] of Object.entries(head)) c.header(name, value);
      const encoder = new TextEncoder();
      const stop = () => {
        controller.abort();
        clientGone.removeEventListener('abort', stop);
        finish(false);
      };
      const clientGone = c.req.raw.signal;
      clientGone.addEventListener('abort', stop, { once: true });
      const body = new ReadableStream<Uint8Array>({
        async pull(out) {
          try {
            const next = await pieces.next();
            if (next.done || controller.signal.aborted) {
              clientGone.removeEventListener('abort', stop);
              finish(!controller.signal.aborted);
              out.close();
              return;
            }
            response += next.value;
            out.enqueue(encoder.encode(next.value));
          } catch (error) {
            clientGone.removeEventListener('abort', stop);
            failed(error);
            out.close();
          }
        },
        cancel() {
          stop();
          void pieces.return?.(undefined);
        },
      });
      return c.body(body, 200);
    })
    .post('/api/v1/session/:uuid/message/non-stream', jsonBody(queryBody), async (c) => {
      const { query } = c.get('body');
      const started = await begin(c.get('auth'), c.req.param('uuid'), query);
      const controller = new AbortController();
      const clientGone = c.req.raw.signal;
      const stop = () => controller.abort();
      clientGone.addEventListener('abort', stop, { once: true });
      let response = '';
      try {
        for await (const piece of started.answer.text(controller.signal, false)) response += piece;
      } finally {
        clientGone.removeEventListener('abort', stop);
        save(started, query, response, !controller.signal.aborted && !started.answer.cutShort);
      }
      return c.json({ response });
    })
    .on(['POST', 'DELETE'], '/api/v1/message/:uuid/delete', (c) => {
      const message = ownedMessage(ctx, c.get('auth'), c.req.param('uuid'));
      store.deleteMessages([message.uuid]);
      return c.json({ success: true });
    })
    .on(['POST', 'DELETE'], '/api/v1/messages/delete', jsonBody(uuidsBody), (c) => {
      const messages = c.get('body').uuids.map((u) => ownedMessage(ctx, c.get('auth'), u));
      store.deleteMessages(messages.map((m) => m.uuid));
      return c.json({ success: true });
    });
}

/**
 * Citations for the `X-Citations` header: base64url of their JSON, unpadded, as the client's
 * `decodeCitations` reads it. Buffer's encoder does in one call what the browser-side
 * `encodeCitations` does byte by byte.
 */
export const encodeCitations = (citations: Citation[]) =>
  Buffer.from(JSON.stringify(citations)).toString('base64url');
