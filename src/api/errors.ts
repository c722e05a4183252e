/**
 * The error family of the API module. Every failure of a call is a `ChatbotApiError`, except a
 * caller's own abort, which stays a DOMException named `AbortError` so it is never mistaken for a
 * failure.
 *
 * The guards check a brand, or a name and shape, rather than `instanceof`, so they hold across
 * realms (an iframe, two copies of the bundle on one page).
 */

/** The call an error is about. */
export interface ApiRequestInfo {
  method: string;
  path: string;
}

// Symbol.for is shared by every realm and every copy of this module, unlike the class itself.
const BRAND: unique symbol = Symbol.for('chatbot-elements.ChatbotApiError');

/** Any failure of a call: catch this (or test `isChatbotApiError`) to handle all of them at once. */
export class ChatbotApiError extends Error {
  override readonly name: string = 'ChatbotApiError';
  readonly method: string;
  readonly path: string;

  /** `detail` follows the method and path, so every message names the call that failed. */
  constructor(request: ApiRequestInfo, detail: string, options?: ErrorOptions) {
    super(`${request.method} ${request.path} ${detail}`, options);
    this.method = request.method;
    this.path = request.path;
  }

  get [BRAND](): true {
    return true;
  }
}

/** The server answered with a status other than 2xx. */
export class ApiError extends ChatbotApiError {
  override readonly name = 'ApiError';
  readonly status: number;
  /** `error.code` from the body's `{error: {code, message}}`, when present. */
  readonly code: string | undefined;
  /** The server's own message (or the status text), without the method and path. */
  readonly serverMessage: string;
  /** Seconds to wait before trying again, from `Retry-After`. */
  readonly retryAfter: number | undefined;
  /** The parsed JSON body, or the text when it is not JSON. */
  readonly body: unknown;

  constructor(init: {
    status: number;
    code?: string;
    serverMessage: string;
    retryAfter?: number;
    request: ApiRequestInfo;
    body?: unknown;
  }) {
    super(init.request, `failed with ${init.status}: ${init.serverMessage}`);
    this.status = init.status;
    this.code = init.code;
    this.serverMessage = init.serverMessage;
    this.retryAfter = init.retryAfter;
    this.body = init.body;
  }
}

/** The request never got an answer, or the answer was cut off (offline, DNS, reset, CORS). */
export class NetworkError extends ChatbotApiError {
  override readonly name = 'NetworkError';

  constructor(request: ApiRequestInfo, cause: unknown, what = 'could not reach the server') {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(request, `${what}: ${reason}`, { cause });
  }
}

/** The request took longer than the client's `timeoutMs`. */
export class TimeoutError extends ChatbotApiError {
  override readonly name = 'TimeoutError';
  readonly timeoutMs: number;

  constructor(request: ApiRequestInfo, timeoutMs: number, what = 'got no answer') {
    super(request, `${what} within ${timeoutMs} ms`);
    this.timeoutMs = timeoutMs;
  }
}

const named = (error: unknown, name: string): error is Error =>
  typeof error === 'object' && error !== null && (error as { name?: unknown }).name === name;

/**
 * True for any failure of ours, whichever copy of this module threw it. A caller's abort is not
 * one: test it with `isAbortError`.
 */
export const isChatbotApiError = (error: unknown): error is ChatbotApiError =>
  error instanceof ChatbotApiError ||
  (typeof error === 'object' && error !== null && (error as { [BRAND]?: unknown })[BRAND] === true);

export const isApiError = (error: unknown): error is ApiError =>
  named(error, 'ApiError') && typeof (error as ApiError).status === 'number';

/**
 * How a server without one of this project's routes (feedback, review, insights) answers it:
 * the hosted service says 404 or 405. The elements hide the feature that needs the route.
 */
export const isMissingRoute = (error: unknown): error is ApiError =>
  isApiError(error) && (error.status === 404 || error.status === 405);

/**
 * How a server without one of this project's query parameters (`tz`, `test`) answers it: a 400
 * whose message starts with the parameter's name, as every unknown parameter's does. The
 * elements ask again without it.
 */
export const refusesParameter = (error: unknown, name: string): error is ApiError =>
  isApiError(error) && error.status === 400 && new RegExp(`^${name}\\b`).test(error.serverMessage);

export const isNetworkError = (error: unknown): error is NetworkError =>
  named(error, 'NetworkError');

export const isTimeoutError = (error: unknown): error is TimeoutError =>
  named(error, 'TimeoutError');

/** True for the caller's own abort (`AbortController.abort()`), which is not a failure. */
export const isAbortError = (error: unknown): error is DOMException => named(error, 'AbortError');

export function abortError(signal?: AbortSignal): DOMException {
  const reason: unknown = signal?.reason;
  return reason instanceof DOMException && reason.name === 'AbortError'
    ? reason
    : new DOMException('The operation was aborted.', 'AbortError');
}

/** Builds an ApiError from `{error: {code, message}}`, `{error: "…"}`, `{message}` or plain text. */
export function errorFrom(
  status: number,
  statusText: string,
  text: string,
  retryAfter: number | undefined,
  request: ApiRequestInfo,
): ApiError {
  let body: unknown = text;
  let code: string | undefined;
  let message: string | undefined;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON: a proxy's HTML page or plain text.
  }
  if (typeof body === 'object' && body !== null) {
    const record = body as { error?: unknown; message?: unknown; detail?: unknown };
    if (typeof record.error === 'object' && record.error !== null) {
      const inner = record.error as { code?: unknown; message?: unknown };
      if (typeof inner.code === 'string') code = inner.code;
      if (typeof inner.message === 'string') message = inner.message;
    } else if (typeof record.error === 'string') message = record.error;
    if (!message && typeof record.message === 'string') message = record.message;
    if (!message && typeof record.detail === 'string') message = record.detail;
  } else if (typeof body === 'string' && body.trim() && !body.trimStart().startsWith('<')) {
    message = body.trim().slice(0, 300);
  }
  return new ApiError({
    status,
    code,
    serverMessage: message ?? (statusText || `HTTP ${status}`),
    retryAfter,
    request,
    body,
  });
}

/** `Retry-After` as seconds: delta-seconds or an HTTP date. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
}
