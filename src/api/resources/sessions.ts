import { enc, type RequestOptions, type Transport } from '../transport.js';
import type { ChatSession, SessionData, SessionSummary } from '../types.js';

/** What the chat element calls (see `chatMessagesApi`). */
export function chatSessionsApi({ post }: Transport) {
  return {
    /**
     * `POST /api/v1/chatbot/{uuid}/session/create`. Without `data` the request has no body, as
     * public clients send it; `data` must be a flat object.
     */
    create: (chatbotUuid: string, data?: SessionData, call?: RequestOptions) =>
      post<ChatSession>(`/api/v1/chatbot/${enc(chatbotUuid)}/session/create`, data, call),
  };
}

export function sessionsApi(transport: Transport) {
  const { get, remove } = transport;
  return {
    ...chatSessionsApi(transport),
    /** `GET /api/v1/session/{uuid}`: with its stored `meta`. */
    get: (sessionUuid: string, call?: RequestOptions) =>
      get<ChatSession>(`/api/v1/session/${enc(sessionUuid)}`, call),
    /** `GET /api/v1/chatbot/{uuid}/sessions` */
    list: (chatbotUuid: string, call?: RequestOptions) =>
      get<SessionSummary[]>(`/api/v1/chatbot/${enc(chatbotUuid)}/sessions`, call),
    /** `POST /api/v1/session/{uuid}/delete` */
    delete: (sessionUuid: string, call?: RequestOptions) =>
      remove(`/api/v1/session/${enc(sessionUuid)}/delete`, 'POST', undefined, call),
  };
}
