import type { ApiRequestInfo } from '../errors.js';
import { decodeCitations, decodeSuggestions, type MessageStream, textDeltas } from '../stream.js';
import { apiError, enc, type RequestOptions, type Transport } from '../transport.js';
import type { FeedbackInput, Message } from '../types.js';

/** Options of a message besides its text. */
export interface MessageOptions extends RequestOptions {
  /**
   * Documents uploaded with `sessions.uploadDocument`, sent as `session_document_uuids`: the
   * answer reads them, and later answers in the same session too.
   */
  sessionDocumentUuids?: string[];
}

const messageBody = (query: string, call: MessageOptions) =>
  call.sessionDocumentUuids?.length
    ? { query, session_document_uuids: call.sessionDocumentUuids }
    : { query };

/**
 * What the chat element calls: its own client (`createChatClient`) is built of this alone, so its
 * bundle carries no other method.
 */
export function chatMessagesApi({ get, post, remove, attempt, streamIdleTimeoutMs }: Transport) {
  return {
    /** `GET /api/v1/session/{uuid}/messages`: the exchanges, oldest first. */
    list: (sessionUuid: string, call?: RequestOptions) =>
      get<Message[]>(`/api/v1/session/${enc(sessionUuid)}/messages`, call),
    /**
     * `POST /api/v1/session/{uuid}/message/stream`. Resolves when the headers arrive; the answer
     * follows through `text`. Never retried: the server may already be answering.
     */
    stream: async (
      sessionUuid: string,
      query: string,
      call: MessageOptions = {},
    ): Promise<MessageStream> => {
      const path = `/api/v1/session/${enc(sessionUuid)}/message/stream`;
      const request: ApiRequestInfo = { method: 'POST', path };
      const { response, controller } = await attempt(
        request,
        {
          method: 'POST',
          headers: { Accept: 'text/plain, text/event-stream', 'Content-Type': 'application/json' },
          body: JSON.stringify(messageBody(query, call)),
        },
        call,
        'stream',
      );
      if (!response.ok) throw await apiError(response, request);
      let stopped = false;
      const abort = () => {
        stopped = true;
        controller.abort();
      };
      return {
        messageUuid: response.headers.get('x-message-uuid') ?? undefined,
        citations: decodeCitations(response.headers.get('x-citations')),
        suggestions: decodeSuggestions(response.headers.get('x-suggestions')),
        text: textDeltas(response, {
          request,
          abort: () => controller.abort(),
          stopped: () => stopped || call.signal?.aborted === true,
          idleTimeoutMs: streamIdleTimeoutMs,
        }),
        abort,
      };
    },
    /** `POST /api/v1/message/{uuid}/delete`: deletes the exchange. */
    delete: (messageUuid: string, call?: RequestOptions) =>
      remove(`/api/v1/message/${enc(messageUuid)}/delete`, 'POST', undefined, call),
    /**
     * `POST /api/v1/message/{uuid}/feedback` (this project's addition): rates an answer, or
     * withdraws the rating with `rating: null`. Answers the updated message.
     */
    feedback: (messageUuid: string, body: FeedbackInput, call?: RequestOptions) =>
      post<Message>(`/api/v1/message/${enc(messageUuid)}/feedback`, body, call),
  };
}

export function messagesApi(transport: Transport) {
  const { post, remove } = transport;
  return {
    ...chatMessagesApi(transport),
    /** `POST /api/v1/session/{uuid}/message/non-stream`: the whole answer at once. */
    send: (sessionUuid: string, query: string, call: MessageOptions = {}) =>
      post<{ response: string }>(
        `/api/v1/session/${enc(sessionUuid)}/message/non-stream`,
        messageBody(query, call),
        call,
      ),
    /** `POST /api/v1/messages/delete` with `{uuids}` */
    deleteMany: (uuids: string[], call?: RequestOptions) =>
      remove('/api/v1/messages/delete', 'POST', { uuids }, call),
  };
}
