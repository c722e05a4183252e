import { Hono } from 'hono';
import type { Citation, Feedback, FeedbackReason } from '../../api/types.js';
import { jsonBody } from '../body.js';
import {
  type AppEnv,
  type Auth,
  ownedChatbot,
  ownedMessage,
  ownedSession,
  type ServerContext,
} from '../context.js';
import { badInput, type Fields, newUuid, now } from '../http.js';
import { prepareAnswer } from '../knowledge/answer.js';
import { type DocumentSettings, tooLongAnswer } from '../knowledge/documents.js';
import { messageRecord } from '../records.js';
import { streamPieces } from '../streaming.js';
import { clientAddress, rateLimited, takeVisitor, type VisitorSettings } from '../visitors.js';
import { attachDocuments, documentRef, sentDocuments, sessionDocumentUuids } from './documents.js';

const queryBody = (fields: Fields) => {
  // Public clients send these two; they are checked and change nothing here.
  fields.boolean('pre_canned_response');
  fields.boolean('direct_function_response');
  return {
    query: fields.string('query', { required: true, max: 20_000 }),
    documentUuids: sessionDocumentUuids(fields),
  };
};
type QueryBody = ReturnType<typeof queryBody>;
const uuidsBody = (fields: Fields) => ({ uuids: fields.strings('uuids', { required: true })! });

const REASONS: readonly FeedbackReason[] = ['wrong', 'incomplete', 'not-asked', 'other'];

/**
 * A rating, its reason and comment; `rating: null` withdraws it. A reason and a comment explain a
 * "down" only: with "up" they are checked, then dropped.
 */
const feedbackBody = (fields: Fields) => {
  const rating = fields.raw.rating;
  if (rating === undefined) throw badInput('rating is required: "up", "down" or null');
  if (rating !== null && rating !== 'up' && rating !== 'down') {
    throw badInput('rating must be "up", "down" or null');
  }
  const reason = fields.string('reason');
  if (reason !== undefined && !REASONS.includes(reason as FeedbackReason)) {
    throw badInput(`reason must be one of ${REASONS.map((r) => `"${r}"`).join(', ')}`);
  }
  const comment = fields.string('comment', { max: 1000 })?.trim();
  return (at: string): Feedback | null => {
    if (rating === null) return null;
    if (rating === 'up') return { rating, at };
    return {
      rating,
      ...(reason ? { reason: reason as FeedbackReason } : {}),
      ...(comment ? { comment } : {}),
      at,
    };
  };
};

export function messageRoutes(
  ctx: ServerContext,
  options: { varyOrigin: boolean; documents: DocumentSettings; visitors: VisitorSettings },
) {
  const { store } = ctx;
  const { visitors } = options;

  /**
   * Checks access and the rate limits, then plans the answer; everything before the first byte.
   * `address` is the client's, for a chat-only key's visitor limit (visitors.ts).
   */
  const begin = async (
    auth: Auth,
    sessionUuid: string,
    { query, documentUuids }: QueryBody,
    address: string | undefined,
  ) => {
    const session = await ownedSession(ctx, auth, sessionUuid);
    const chatbot = await ownedChatbot(ctx, auth, session.chatbotUuid);
    const sent = await sentDocuments(store, auth, session, documentUuids);
    // Counted in the database: the limits hold across instances and restarts. Both windows at
    // once, in two round trips side by side: a message one refuses still counts in the other.
    const at = Date.now();
    const limits = await Promise.all([
      store.takeRateLimit(session.uuid, chatbot.rate_limit, at),
      takeVisitor(store, visitors, auth, chatbot, address, at),
    ]);
    const waits = limits.flatMap((limit) => (limit ? [limit.retryAfter] : []));
    if (waits.length > 0) throw rateLimited(chatbot, Math.max(...waits));
    const read = await attachDocuments(store, session, sent, options.documents.contextTokens);
    const answer =
      'tooLong' in read
        ? tooLongAnswer(ctx.knowledge.answerDeps, read.tooLong)
        : await prepareAnswer(ctx.knowledge.answerDeps, chatbot, session, query, read);
    return { session, answer, uuid: newUuid(), startedAt: now(), documents: sent.map(documentRef) };
  };

  const save = async (
    started: Awaited<ReturnType<typeof begin>>,
    query: string,
    response: string,
    finished: boolean,
  ) => {
    const t = now();
    try {
      if (!(await store.getSession(started.session.uuid))) return; // deleted while answering
      await store.createMessage({
        uuid: started.uuid,
        sessionUuid: started.session.uuid,
        query,
        response,
        finish_reason: finished ? 'stop' : 'length',
        cite_data: started.answer.citeData,
        // The documents it sent ride in meta: messageRecord lists them as session_documents.
        meta:
          started.documents.length > 0
            ? { ...started.answer.meta, session_documents: started.documents }
            : started.answer.meta,
        error_message: started.answer.errorMessage,
        feedback: null,
        created_at: started.startedAt,
        // The session's time too: one write, one round trip.
        modified_at: t,
      });
    } catch (error) {
      // Called from stream callbacks, where a throw would reach no one: say it here.
      console.error(`could not store message ${started.uuid}:`, error);
    }
  };

  return new Hono<AppEnv>()
    .get('/api/v1/session/:uuid/messages', async (c) => {
      const session = await ownedSession(ctx, c.get('auth'), c.req.param('uuid'));
      return c.json((await store.listMessages(session.uuid)).map(messageRecord));
    })
    .post('/api/v1/session/:uuid/message/stream', jsonBody(queryBody), async (c) => {
      const body = c.get('body');
      const { query } = body;
      const started = await begin(
        c.get('auth'),
        c.req.param('uuid'),
        body,
        clientAddress(c, visitors.trustProxy),
      );
      const headers: Record<string, string> = { 'x-message-uuid': started.uuid };
      if (started.answer.citations.length > 0) {
        headers['x-citations'] = encodeJsonHeader(started.answer.citations);
      }
      const { suggestions } = started.answer.meta;
      if (suggestions && suggestions.length > 0) {
        headers['x-suggestions'] = encodeJsonHeader(suggestions);
      }
      // The handler returns before the body ends: a stop waits until the answer is stored.
      const stored = ctx.drain.enter();
      return streamPieces(c, (signal) => started.answer.text(signal), {
        headers,
        paced: started.answer.paced,
        varyOrigin: options.varyOrigin,
        onEnd: (response, finished) =>
          save(started, query, response, finished && !started.answer.cutShort).finally(stored),
        onError: (error) => {
          // The status is already sent: say what happened in the record.
          started.answer.errorMessage ||= `the answer failed: ${(error as Error).message}`;
        },
      });
    })
    .post('/api/v1/session/:uuid/message/non-stream', jsonBody(queryBody), async (c) => {
      const body = c.get('body');
      const { query } = body;
      const started = await begin(
        c.get('auth'),
        c.req.param('uuid'),
        body,
        clientAddress(c, visitors.trustProxy),
      );
      const controller = new AbortController();
      const clientGone = c.req.raw.signal;
      const stop = () => controller.abort();
      clientGone.addEventListener('abort', stop, { once: true });
      let response = '';
      try {
        for await (const piece of started.answer.text(controller.signal, false)) response += piece;
      } finally {
        clientGone.removeEventListener('abort', stop);
        await save(
          started,
          query,
          response,
          !controller.signal.aborted && !started.answer.cutShort,
        );
      }
      return c.json({ response });
    })
    .on(['POST', 'DELETE'], '/api/v1/message/:uuid/delete', async (c) => {
      const message = await ownedMessage(ctx, c.get('auth'), c.req.param('uuid'));
      await store.deleteMessages([message.uuid]);
      return c.json({ success: true });
    })
    .post('/api/v1/message/:uuid/feedback', jsonBody(feedbackBody), async (c) => {
      const message = await ownedMessage(ctx, c.get('auth'), c.req.param('uuid'));
      const t = now();
      await store.setFeedback(message.uuid, c.get('body')(t), t);
      return c.json(messageRecord((await store.getMessage(message.uuid))!));
    })
    .on(['POST', 'DELETE'], '/api/v1/messages/delete', jsonBody(uuidsBody), async (c) => {
      const messages = [];
      for (const uuid of c.get('body').uuids) {
        messages.push(await ownedMessage(ctx, c.get('auth'), uuid));
      }
      await store.deleteMessages(messages.map((m) => m.uuid));
      return c.json({ success: true });
    });
}

/**
 * A header holding JSON (`X-Citations`, and our `X-Suggestions`): base64url of it, unpadded, as
 * the client's `decodeCitations` and `decodeSuggestions` read it. Buffer's encoder does in one
 * call what the browser-side `encodeCitations` does byte by byte.
 */
export const encodeJsonHeader = (value: Citation[] | string[]) =>
  Buffer.from(JSON.stringify(value)).toString('base64url');
