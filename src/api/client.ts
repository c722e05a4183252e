/**
 * The client: one object over one transport, with a group of methods per resource. The groups
 * live in `resources/`, the request plumbing in `transport.ts`.
 */
import { agentsApi } from './resources/agents.js';
import { chatbotsApi } from './resources/chatbots.js';
import { documentsApi } from './resources/documents.js';
import { chatMessagesApi, messagesApi } from './resources/messages.js';
import { reviewApi } from './resources/review.js';
import { chatSessionsApi, sessionsApi } from './resources/sessions.js';
import { sourcesApi } from './resources/sources.js';
import { tagsApi } from './resources/tags.js';
import { type ClientOptions, createTransport } from './transport.js';

export { agentsApi } from './resources/agents.js';
export { chatbotsApi } from './resources/chatbots.js';
export { type DocumentUploadOptions, documentsApi } from './resources/documents.js';
export { type MessageOptions, messagesApi } from './resources/messages.js';
export { filterQuery, reviewApi } from './resources/review.js';
export { sessionsApi } from './resources/sessions.js';
export { sourcesApi, type UploadOptions, type UploadProgress } from './resources/sources.js';
export { tagsApi } from './resources/tags.js';
export {
  type ClientOptions,
  createTransport,
  type RequestOptions,
  type RetryOptions,
  type Transport,
} from './transport.js';

/** Creates a client for every endpoint of the chatbot service. */
export function createClient(options: ClientOptions) {
  const transport = createTransport(options);
  return {
    baseUrl: transport.baseUrl,
    chatbots: chatbotsApi(transport),
    agents: agentsApi(transport),
    sources: sourcesApi(transport),
    tags: tagsApi(transport),
    sessions: { ...sessionsApi(transport), ...documentsApi(transport) },
    messages: messagesApi(transport),
    review: reviewApi(transport),
  };
}

export type ChatbotClient = ReturnType<typeof createClient>;

/**
 * Only the methods the chat element calls, for its own client from base-url and api-key: the
 * chat bundle then leaves the admin endpoints, the XHR upload and the other message and session
 * calls out. A full client fits too.
 */
export function createChatClient(options: ClientOptions) {
  const transport = createTransport(options);
  return {
    baseUrl: transport.baseUrl,
    sessions: chatSessionsApi(transport),
    messages: chatMessagesApi(transport),
  };
}

export type ChatClient = ReturnType<typeof createChatClient>;
