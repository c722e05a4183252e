import {
  ApiError,
  type ApiRequestInfo,
  abortError,
  ChatbotApiError,
  errorFrom,
  isAbortError,
  NetworkError,
  parseRetryAfter,
  TimeoutError,
} from './errors.js';
import type { SuccessResponse } from './types.js';

export interface RetryOptions {
  /** Retries after the first attempt. Default 2. */
  limit?: number;
  /** First backoff delay; doubles each retry, with full jitter. Default 300 ms. */
  baseDelayMs?: number;
  /** Longest wait between attempts; a `Retry-After` longer than this is not waited for. Default 10 s. */
  maxDelayMs?: number;
}

export interface ClientOptions {
  /** The service's base address, e.g. `http://127.0.0.1:8787` (without `/api/v1`). */
  baseUrl: string;
  /** Bearer key sent as `Authorization: Bearer <apiKey>`. */
  apiKey?: string;
  /** Called before every attempt instead of `apiKey` (a short-lived token from your backend). */
  getToken?: () => string | Promise<string>;
  /** A `fetch` to use instead of the global one (a proxy, a test double, Node's undici). */
  fetch?: typeof fetch;
  /** Per attempt; for a stream, until its headers arrive. Default 30 s. */
  timeoutMs?: number;
  /** Longest silence inside a streamed answer before it counts as stalled. Default 60 s. */
  streamIdleTimeoutMs?: number;
  /** Retry policy for idempotent requests, or `false` for none. */
  retry?: RetryOptions | false;
}

export interface RequestOptions {
  signal?: AbortSignal;
  /** Overrides the client's `timeoutMs` for this call. */
  timeoutMs?: number;
}

interface Call extends RequestOptions {
  body?: unknown;
  idempotent?: boolean;
  /** A delete retried after a lost answer may meet the 404 of its own success. */
  deleteCall?: boolean;
}

const DEFAULT_RETRY: Required<RetryOptions> = { limit: 2, baseDelayMs: 300, maxDelayMs: 10_000 };
const RETRY_STATUSES = new Set([408, 429, 500, 502, 503, 504]);

/** Encodes one path segment (a uuid), so a crafted id cannot reach another endpoint. */
export const enc = encodeURIComponent;

/**
 * The request core every resource group shares: authorization, timeouts, retries and error
 * mapping. Groups are separate factories over it so a bundle that needs only a few of them (the
 * chat element) does not carry every endpoint.
 */
export function createTransport(options: ClientOptions) {
  if (!options || typeof options.baseUrl !== 'string' || options.baseUrl === '') {
    throw new TypeError('createClient needs a baseUrl, e.g. "http://127.0.0.1:8787"');
  }
  // "localhost:8787" reads as a URL of the scheme "localhost:", which fetch can only fail on.
  if (/^[a-z][\w+.-]*:/i.test(options.baseUrl) && !/^https?:\/\//i.test(options.baseUrl)) {
    throw new TypeError(`baseUrl must be an http(s) address, not "${options.baseUrl}"`);
  }
  if (!options.apiKey && !options.getToken) {
    throw new TypeError('createClient needs an apiKey or a getToken function');
  }
  const baseUrl = options.baseUrl.replace(/\/+$/, '').replace(/\/api\/v1$/, '');
  const timeoutMs = options.timeoutMs ?? 30_000;
  const streamIdleTimeoutMs = options.streamIdleTimeoutMs ?? 60_000;
  const retry =
    options.retry === false
      ? { ...DEFAULT_RETRY, limit: 0 }
      : { ...DEFAULT_RETRY, ...options.retry };
  const doFetch: typeof fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));

  async function authorization(): Promise<string> {
    const token = options.getToken ? await options.getToken() : options.apiKey;
    return `Bearer ${token}`;
  }

  /**
   * One attempt: fetch with a timeout and the caller's signal, mapping failures to the error
   * family. `hold` says how long both stay attached: `headers` until the response starts;
   * `body` until the caller's `settle()` has read it (a JSON body can stall after its headers);
   * `stream` keeps the caller's signal for the body's whole life but stops the timeout at the
   * headers (a stream has its own idle timeout).
   */
  async function attempt(
    request: ApiRequestInfo,
    init: RequestInit,
    call: RequestOptions,
    hold: 'headers' | 'body' | 'stream' = 'headers',
  ): Promise<{
    response: Response;
    controller: AbortController;
    settle: <T>(read: Promise<T>) => Promise<T>;
  }> {
    const callerSignal = call.signal;
    if (callerSignal?.aborted) throw abortError(callerSignal);
    // Before the clock starts: the caller's own token provider failing is its error, passed on
    // as it is, not the network's (which would be retried).
    const headers = new Headers(init.headers);
    headers.set('Authorization', await authorization());
    const controller = new AbortController();
    const onAbort = () => controller.abort(callerSignal?.reason);
    callerSignal?.addEventListener('abort', onAbort, { once: true });
    const limit = call.timeoutMs ?? timeoutMs;
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, limit);
    const release = () => {
      clearTimeout(timer);
      callerSignal?.removeEventListener('abort', onAbort);
    };
    const failure = (error: unknown) => {
      if (callerSignal?.aborted) return abortError(callerSignal);
      if (timedOut) return new TimeoutError(request, limit);
      if (isAbortError(error) || error instanceof ChatbotApiError) return error;
      return new NetworkError(request, error);
    };
    let response: Response;
    try {
      response = await doFetch(baseUrl + request.path, {
        ...init,
        headers,
        signal: controller.signal,
      });
    } catch (error) {
      release();
      throw failure(error);
    }
    if (hold === 'headers') release();
    else if (hold === 'stream') clearTimeout(timer);
    const settle = async <T>(read: Promise<T>): Promise<T> => {
      try {
        return await read;
      } catch (error) {
        throw failure(error);
      } finally {
        release();
      }
    };
    return { response, controller, settle };
  }

  async function send<T>(method: string, path: string, call: Call = {}): Promise<T> {
    const request: ApiRequestInfo = { method, path };
    const headers: Record<string, string> = { Accept: 'application/json' };
    let body: string | undefined;
    if (call.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(call.body);
    }
    for (let tries = 0; ; tries++) {
      let failure: unknown;
      try {
        const { response, settle } = await attempt(
          request,
          { method, headers, body },
          call,
          'body',
        );
        if (response.ok) return (await settle(readJson(response, request))) as T;
        if (call.deleteCall && tries > 0 && response.status === 404) {
          await settle(response.body?.cancel() ?? Promise.resolve());
          return { success: true } as T;
        }
        failure = await settle(apiError(response, request));
      } catch (error) {
        if (!(error instanceof NetworkError)) throw error;
        failure = error;
      }
      const wait = call.idempotent ? retryDelay(failure, tries, retry) : undefined;
      if (wait === undefined) throw failure;
      await sleep(wait, call.signal);
    }
  }

  const get = <T>(path: string, call?: RequestOptions) =>
    send<T>('GET', path, { ...call, idempotent: true });
  const post = <T>(path: string, body?: unknown, call?: RequestOptions) =>
    send<T>('POST', path, { ...call, body });
  const remove = (
    path: string,
    method: 'POST' | 'DELETE' = 'POST',
    body?: unknown,
    call?: RequestOptions,
  ) => send<SuccessResponse>(method, path, { ...call, body, idempotent: true, deleteCall: true });

  return {
    baseUrl,
    timeoutMs,
    streamIdleTimeoutMs,
    /** XHR upload progress is only possible with the global fetch's network stack. */
    customFetch: options.fetch !== undefined,
    authorization,
    attempt,
    get,
    post,
    remove,
  };
}

export type Transport = ReturnType<typeof createTransport>;

/** An empty body is `undefined`; a body that is not JSON is an ApiError, not a SyntaxError. */
export async function readJson(response: Response, request: ApiRequestInfo): Promise<unknown> {
  const text = await response.text();
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ApiError({
      status: response.status,
      code: 'invalid_response',
      serverMessage: `the response is not JSON (${(error as Error).message})`,
      request,
      body: text,
    });
  }
}

/** The ApiError for a non-2xx response, from whatever body it has. */
export async function apiError(response: Response, request: ApiRequestInfo): Promise<ApiError> {
  let text = '';
  try {
    text = await response.text();
  } catch {
    // The body is unreadable; the status still says what happened.
  }
  return errorFrom(
    response.status,
    response.statusText,
    text,
    parseRetryAfter(response.headers.get('retry-after')),
    request,
  );
}

/** How long to wait before the next attempt, or undefined when not to retry. */
function retryDelay(
  failure: unknown,
  tries: number,
  retry: Required<RetryOptions>,
): number | undefined {
  if (tries >= retry.limit) return undefined;
  if (failure instanceof ApiError) {
    if (!RETRY_STATUSES.has(failure.status)) return undefined;
    if (failure.retryAfter !== undefined) {
      const wait = failure.retryAfter * 1000;
      return wait <= retry.maxDelayMs ? wait : undefined;
    }
  } else if (!(failure instanceof NetworkError)) {
    return undefined;
  }
  const ceiling = Math.min(retry.maxDelayMs, retry.baseDelayMs * 2 ** tries);
  return Math.random() * ceiling;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError(signal));
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError(signal));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
