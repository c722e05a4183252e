import type { Citation, FeedbackReason, Rating } from '../api/types.js';

/** What a failure was, so a host page can react without parsing messages. */
export type ChatErrorKind =
  | 'network'
  | 'timeout'
  | 'server'
  | 'auth'
  | 'not-found'
  | 'rate-limit'
  | 'config'
  | 'delete'
  | 'unknown';

export interface ChatSessionCreatedDetail {
  readonly sessionUuid: string;
  readonly chatbotUuid: string;
}

export interface ChatMessageSendDetail {
  readonly query: string;
  /** Undefined when the session will be created for this message. */
  readonly sessionUuid: string | undefined;
  /** True when this is a Retry of an earlier, failed message. */
  readonly retry: boolean;
}

export interface ChatAnswerFinishedDetail {
  readonly query: string;
  readonly response: string;
  readonly sessionUuid: string;
  readonly messageUuid: string | undefined;
  readonly citations: readonly Citation[] | undefined;
  /** True when the reader pressed Stop: `response` is the part that arrived. */
  readonly stopped: boolean;
}

export interface ChatErrorDetail {
  readonly kind: ChatErrorKind;
  /** The message shown to the reader. */
  readonly message: string;
  /** The API module's error (ApiError, NetworkError, TimeoutError) or a TypeError for config. */
  readonly error: unknown;
}

export interface ChatFeedbackDetail {
  readonly messageUuid: string;
  /** `null`: the reader withdrew their rating. */
  readonly rating: Rating | null;
  /** Only with `down`, when the reader chose one. */
  readonly reason?: FeedbackReason;
  /** Only with `down`, when the reader wrote one. */
  readonly comment?: string;
}

export type ChatSessionCreatedEvent = CustomEvent<ChatSessionCreatedDetail>;
export type ChatMessageSendEvent = CustomEvent<ChatMessageSendDetail>;
export type ChatAnswerFinishedEvent = CustomEvent<ChatAnswerFinishedDetail>;
export type ChatErrorEvent = CustomEvent<ChatErrorDetail>;
export type ChatFeedbackEvent = CustomEvent<ChatFeedbackDetail>;

export interface ChatEventMap {
  'chatbot-session-created': ChatSessionCreatedEvent;
  'chatbot-message-send': ChatMessageSendEvent;
  'chatbot-answer-finished': ChatAnswerFinishedEvent;
  'chatbot-error': ChatErrorEvent;
  'chatbot-feedback': ChatFeedbackEvent;
}

declare global {
  interface HTMLElementEventMap extends ChatEventMap {}
  // They bubble out of the shadow root, so a page may listen once, on the document or window.
  interface DocumentEventMap extends ChatEventMap {}
  interface WindowEventMap extends ChatEventMap {}
}
