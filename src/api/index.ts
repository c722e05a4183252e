export {
  type ChatbotClient,
  type ClientOptions,
  createClient,
  type DocumentUploadOptions,
  type RequestOptions,
  type RetryOptions,
  type UploadOptions,
  type UploadProgress,
} from './client.js';
export {
  ApiError,
  type ApiRequestInfo,
  ChatbotApiError,
  isAbortError,
  isApiError,
  isChatbotApiError,
  isMissingRoute,
  isNetworkError,
  isTimeoutError,
  NetworkError,
  TimeoutError,
} from './errors.js';
export {
  decodeCitations,
  decodeSuggestions,
  encodeCitations,
  type MessageStream,
  SseParser,
} from './stream.js';
export * from './types.js';
