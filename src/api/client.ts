import {
  ApiError,
  type ApiRequestInfo,
  abortError,
  errorFrom,
  isAbortError,
  NetworkError,
  parseRetryAfter,
  TimeoutError,
} from './errors.js';
import { decodeCitations, type MessageStream, textDeltas } from './stream.js';
import type {
  Agent,
  AgentCreate,
  AgentUpdate,
  Chatbot,
  ChatbotCreate,
  ChatbotUpdate,
  ChatSession,
  DataSource,
  Message,
  QaSourceCreate,
  RescrapeResult,
  SessionData,
  SessionSummary,
  SourceTag,
  SourceTagCreate,
  SourceTagUpdate,
  SuccessResponse,
  UrlSourceCreate,
} from './types.js';
import { uploadWithProgress } from './upload.js';

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

export interface UploadProgress {
  loaded: number;
  total: number;
}

export interface UploadOptions extends RequestOptions {
  /** Sent as the `reference_source_link` form field: a link shown in citations. */
  referenceSourceLink?: string;
  /** File name to send when `file` is a Blob without one. */
  fileName?: string;
  /**
   * Upload progress. In browsers it fires as bytes go out (XMLHttpRequest), unless a custom
   * `fetch` was given; elsewhere it fires once when the upload is complete.
   */
  onProgress?: (progress: UploadProgress) => void;
}

interface Call extends RequestOptions {
  body?: unknown;
  idempotent?: boolean;
  /** A delete retried after a lost answer may meet the 404 of its own success. */
  deleteCall?: boolean;
}

const DEFAULT_RETRY: Required<RetryOptions> = { limit: 2, baseDelayMs: 300, maxDelayMs: 10_000 };
const RETRY_STATUSES = new Set([408, 429, 500, 502, 503, 504]);

const enc = encodeURIComponent;

/**
 * The request core every resource group shares: authorization, timeouts, retries and error
 * mapping. Groups are separate factories over it so a bundle that needs only a few of them (the
 * chat element) does not carry every endpoint.
 */
export function createTransport(options: ClientOptions) {
  if (!options || typeof options.baseUrl !== 'string' || options.baseUrl === '') {
    throw new TypeError('createClient needs a baseUrl, e.g. "http://127.0.0.1:8787"');
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

  /** One attempt: fetch with a timeout, mapping failures to the error family. */
  async function attempt(
    request: ApiRequestInfo,
    init: RequestInit,
    call: RequestOptions,
    /** A stream's body outlives the fetch: the caller's signal must still reach it. */
    keepCallerLink = false,
  ): Promise<{ response: Response; controller: AbortController }> {
    const controller = new AbortController();
    const callerSignal = call.signal;
    if (callerSignal?.aborted) throw abortError(callerSignal);
    const onAbort = () => controller.abort(callerSignal?.reason);
    callerSignal?.addEventListener('abort', onAbort, { once: true });
    const limit = call.timeoutMs ?? timeoutMs;
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, limit);
    try {
      const headers = new Headers(init.headers);
      headers.set('Authorization', await authorization());
      const response = await doFetch(baseUrl + request.path, {
        ...init,
        headers,
        signal: controller.signal,
      });
      return { response, controller };
    } catch (error) {
      if (callerSignal?.aborted) throw abortError(callerSignal);
      if (timedOut) throw new TimeoutError(request, limit);
      if (isAbortError(error)) throw error;
      throw new NetworkError(request, error);
    } finally {
      clearTimeout(timer);
      if (!keepCallerLink) callerSignal?.removeEventListener('abort', onAbort);
    }
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
        const { response } = await attempt(request, { method, headers, body }, call);
        if (response.ok) return (await readJson(response, request)) as T;
        if (call.deleteCall && tries > 0 && response.status === 404) {
          return { success: true } as T;
        }
        failure = await apiError(response, request);
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

export function chatbotsApi({ get, post, remove }: Transport) {
  return {
    /** `GET /api/v1/chatbots`: the current user's chatbots. */
    list: (call?: RequestOptions) => get<Chatbot[]>('/api/v1/chatbots', call),
    /** `GET /api/v1/chatbot/{uuid}` */
    get: (uuid: string, call?: RequestOptions) =>
      get<Chatbot>(`/api/v1/chatbot/${enc(uuid)}`, call),
    /** `POST /api/v1/chatbot/create` */
    create: (body: ChatbotCreate, call?: RequestOptions) =>
      post<Chatbot>('/api/v1/chatbot/create', body, call),
    /** `POST /api/v1/chatbot/{uuid}/update` */
    update: (uuid: string, body: ChatbotUpdate, call?: RequestOptions) =>
      post<Chatbot>(`/api/v1/chatbot/${enc(uuid)}/update`, body, call),
    /** `DELETE /api/v1/chatbot/{uuid}/delete` */
    delete: (uuid: string, call?: RequestOptions) =>
      remove(`/api/v1/chatbot/${enc(uuid)}/delete`, 'DELETE', undefined, call),
  };
}

export function agentsApi({ get, post, remove }: Transport) {
  return {
    /** `GET /api/v1/chatbot/{uuid}/agents`: items carry `tool_functions`, not `variables`. */
    list: (chatbotUuid: string, call?: RequestOptions) =>
      get<Agent[]>(`/api/v1/chatbot/${enc(chatbotUuid)}/agents`, call),
    /** `POST /api/v1/chatbot/{uuid}/agent/create`: the new agent is disabled (`enabled: 0`). */
    create: (chatbotUuid: string, body: AgentCreate, call?: RequestOptions) =>
      post<Agent>(`/api/v1/chatbot/${enc(chatbotUuid)}/agent/create`, body, call),
    /** `POST /api/v1/agent/{uuid}/update`: `enabled` comes back as a boolean. */
    update: (agentUuid: string, body: AgentUpdate, call?: RequestOptions) =>
      post<Agent>(`/api/v1/agent/${enc(agentUuid)}/update`, body, call),
    /** `POST /api/v1/agent/{uuid}/delete` */
    delete: (agentUuid: string, call?: RequestOptions) =>
      remove(`/api/v1/agent/${enc(agentUuid)}/delete`, 'POST', undefined, call),
  };
}

export function sourcesApi({
  baseUrl,
  customFetch,
  get,
  post,
  remove,
  attempt,
  authorization,
  timeoutMs,
}: Transport) {
  return {
    /** `GET /api/v1/chatbot/{uuid}/data-sources` */
    list: (chatbotUuid: string, call?: RequestOptions) =>
      get<DataSource[]>(`/api/v1/chatbot/${enc(chatbotUuid)}/data-sources`, call),
    /** `POST /api/v1/chatbot/{uuid}/data-source/upload` (multipart: `file`, `reference_source_link`). */
    upload: async (
      chatbotUuid: string,
      file: Blob,
      upload: UploadOptions = {},
    ): Promise<DataSource> => {
      const path = `/api/v1/chatbot/${enc(chatbotUuid)}/data-source/upload`;
      const request: ApiRequestInfo = { method: 'POST', path };
      const form = new FormData();
      const name = upload.fileName ?? (file as File).name ?? 'upload';
      form.append('file', file, name);
      if (upload.referenceSourceLink !== undefined) {
        form.append('reference_source_link', upload.referenceSourceLink);
      }
      const limit = upload.timeoutMs ?? Math.max(timeoutMs, 120_000);
      if (upload.onProgress && !customFetch && typeof XMLHttpRequest !== 'undefined') {
        const result = await uploadWithProgress({
          url: baseUrl + path,
          request,
          form,
          authorization: await authorization(),
          signal: upload.signal,
          timeoutMs: limit,
          onProgress: upload.onProgress,
        });
        if (result.ok) return JSON.parse(result.text) as DataSource;
        throw errorFrom(result.status, result.statusText, result.text, result.retryAfter, request);
      }
      const { response } = await attempt(
        request,
        { method: 'POST', headers: { Accept: 'application/json' }, body: form },
        { signal: upload.signal, timeoutMs: limit },
      );
      if (!response.ok) throw await apiError(response, request);
      const record = (await readJson(response, request)) as DataSource;
      upload.onProgress?.({ loaded: file.size, total: file.size });
      return record;
    },
    /** `POST /api/v1/chatbot/{uuid}/data-source/qa` */
    createQa: (chatbotUuid: string, body: QaSourceCreate, call?: RequestOptions) =>
      post<DataSource>(`/api/v1/chatbot/${enc(chatbotUuid)}/data-source/qa`, body, call),
    /** `POST /api/v1/chatbot/{uuid}/data-source/url` */
    createUrl: (chatbotUuid: string, body: UrlSourceCreate, call?: RequestOptions) =>
      post<DataSource>(`/api/v1/chatbot/${enc(chatbotUuid)}/data-source/url`, body, call),
    /** `POST /api/v1/data-source/{uuid}/update`: renames the source. */
    update: (sourceUuid: string, body: { title: string }, call?: RequestOptions) =>
      post<DataSource>(`/api/v1/data-source/${enc(sourceUuid)}/update`, body, call),
    /** `POST /api/v1/data-sources/url/re-scrape`: one result per uuid, in order. */
    rescrape: (uuids: string[], call?: RequestOptions) =>
      post<RescrapeResult[]>('/api/v1/data-sources/url/re-scrape', { uuids }, call),
    /** `POST /api/data-sources/restart` (no `/v1`): processes the sources again. */
    restart: (uuids: string[], call?: RequestOptions) =>
      post<unknown>('/api/data-sources/restart', { uuids }, call),
    /** `POST /api/v1/data-source/{uuid}/delete` */
    delete: (sourceUuid: string, call?: RequestOptions) =>
      remove(`/api/v1/data-source/${enc(sourceUuid)}/delete`, 'POST', undefined, call),
    /** `POST /api/v1/data-sources/delete` with `{uuids}` */
    deleteMany: (uuids: string[], call?: RequestOptions) =>
      remove('/api/v1/data-sources/delete', 'POST', { uuids }, call),
  };
}

export function tagsApi({ get, post, remove }: Transport) {
  return {
    /** `GET /api/v1/chatbot/{uuid}/source-tags` */
    list: (chatbotUuid: string, call?: RequestOptions) =>
      get<SourceTag[]>(`/api/v1/chatbot/${enc(chatbotUuid)}/source-tags`, call),
    /** `POST /api/v1/chatbot/{uuid}/source-tag/create` */
    create: (chatbotUuid: string, body: SourceTagCreate, call?: RequestOptions) =>
      post<SourceTag>(`/api/v1/chatbot/${enc(chatbotUuid)}/source-tag/create`, body, call),
    /** `POST /api/v1/source-tag/{uuid}/update` */
    update: (tagUuid: string, body: SourceTagUpdate, call?: RequestOptions) =>
      post<SourceTag>(`/api/v1/source-tag/${enc(tagUuid)}/update`, body, call),
    /** `POST /api/v1/source-tag/{uuid}/delete` */
    delete: (tagUuid: string, call?: RequestOptions) =>
      remove(`/api/v1/source-tag/${enc(tagUuid)}/delete`, 'POST', undefined, call),
  };
}

export function sessionsApi({ get, post, remove }: Transport) {
  return {
    /**
     * `POST /api/v1/chatbot/{uuid}/session/create`. Without `data` the request has no body, as
     * public clients send it; `data` must be a flat object.
     */
    create: (chatbotUuid: string, data?: SessionData, call?: RequestOptions) =>
      post<ChatSession>(`/api/v1/chatbot/${enc(chatbotUuid)}/session/create`, data, call),
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

export function messagesApi({ get, post, remove, attempt, streamIdleTimeoutMs }: Transport) {
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
      call: RequestOptions = {},
    ): Promise<MessageStream> => {
      const path = `/api/v1/session/${enc(sessionUuid)}/message/stream`;
      const request: ApiRequestInfo = { method: 'POST', path };
      const { response, controller } = await attempt(
        request,
        {
          method: 'POST',
          headers: { Accept: 'text/plain, text/event-stream', 'Content-Type': 'application/json' },
          body: JSON.stringify({ query }),
        },
        call,
        true,
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
        text: textDeltas(response, {
          request,
          abort: () => controller.abort(),
          stopped: () => stopped || call.signal?.aborted === true,
          idleTimeoutMs: streamIdleTimeoutMs,
        }),
        abort,
      };
    },
    /** `POST /api/v1/session/{uuid}/message/non-stream`: the whole answer at once. */
    send: (sessionUuid: string, query: string, call?: RequestOptions) =>
      post<{ response: string }>(
        `/api/v1/session/${enc(sessionUuid)}/message/non-stream`,
        { query },
        call,
      ),
    /** `POST /api/v1/message/{uuid}/delete`: deletes the exchange. */
    delete: (messageUuid: string, call?: RequestOptions) =>
      remove(`/api/v1/message/${enc(messageUuid)}/delete`, 'POST', undefined, call),
    /** `POST /api/v1/messages/delete` with `{uuids}` */
    deleteMany: (uuids: string[], call?: RequestOptions) =>
      remove('/api/v1/messages/delete', 'POST', { uuids }, call),
  };
}

/** Creates a client for every endpoint of the chatbot service. */
export function createClient(options: ClientOptions) {
  const transport = createTransport(options);
  return {
    baseUrl: transport.baseUrl,
    chatbots: chatbotsApi(transport),
    agents: agentsApi(transport),
    sources: sourcesApi(transport),
    tags: tagsApi(transport),
    sessions: sessionsApi(transport),
    messages: messagesApi(transport),
  };
}

export type ChatbotClient = ReturnType<typeof createClient>;

/**
 * Only the groups the chat element calls, for its own client from base-url and api-key: the
 * chat bundle then leaves the admin endpoints and the XHR upload out. A full client fits too.
 */
export function createChatClient(options: ClientOptions) {
  const transport = createTransport(options);
  return {
    baseUrl: transport.baseUrl,
    sessions: sessionsApi(transport),
    messages: messagesApi(transport),
  };
}

export type ChatClient = ReturnType<typeof createChatClient>;

async function readJson(response: Response, request: ApiRequestInfo): Promise<unknown> {
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

async function apiError(response: Response, request: ApiRequestInfo): Promise<ApiError> {
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
