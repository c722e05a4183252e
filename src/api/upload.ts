import {
  type ApiRequestInfo,
  abortError,
  errorFrom,
  NetworkError,
  parseRetryAfter,
  TimeoutError,
} from './errors.js';
import { apiError, type RequestOptions, readJson, type Transport } from './transport.js';

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

/**
 * POSTs a multipart form and reads the JSON record it answers: through XMLHttpRequest when the
 * caller wants progress in a browser, else through the transport's fetch. Uploads get at least
 * two minutes, whatever the client's timeout.
 */
export async function postMultipart<T>(
  transport: Transport,
  path: string,
  form: FormData,
  size: number,
  options: UploadOptions,
): Promise<T> {
  const request: ApiRequestInfo = { method: 'POST', path };
  const limit = options.timeoutMs ?? Math.max(transport.timeoutMs, 120_000);
  if (options.onProgress && !transport.customFetch && typeof XMLHttpRequest !== 'undefined') {
    const result = await uploadWithProgress({
      url: transport.baseUrl + path,
      request,
      form,
      authorization: await transport.authorization(),
      signal: options.signal,
      timeoutMs: limit,
      onProgress: options.onProgress,
    });
    if (result.ok) return JSON.parse(result.text) as T;
    throw errorFrom(result.status, result.statusText, result.text, result.retryAfter, request);
  }
  const { response, settle } = await transport.attempt(
    request,
    { method: 'POST', headers: { Accept: 'application/json' }, body: form },
    { signal: options.signal, timeoutMs: limit },
    'body',
  );
  if (!response.ok) throw await settle(apiError(response, request));
  const record = (await settle(readJson(response, request))) as T;
  options.onProgress?.({ loaded: size, total: size });
  return record;
}

export interface XhrResult {
  ok: boolean;
  status: number;
  statusText: string;
  text: string;
  retryAfter: number | undefined;
}

/**
 * Multipart upload through XMLHttpRequest, because fetch cannot report upload progress in
 * browsers. Failures map to the same error family as fetch-based calls.
 */
export function uploadWithProgress(init: {
  url: string;
  request: ApiRequestInfo;
  form: FormData;
  authorization: string;
  signal: AbortSignal | undefined;
  timeoutMs: number;
  onProgress: (progress: { loaded: number; total: number }) => void;
}): Promise<XhrResult> {
  const { url, request, form, authorization, signal, timeoutMs, onProgress } = init;
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError(signal));
    const xhr = new XMLHttpRequest();
    const onAbort = () => xhr.abort();
    const done = () => signal?.removeEventListener('abort', onAbort);
    xhr.open('POST', url);
    xhr.timeout = timeoutMs;
    xhr.setRequestHeader('Authorization', authorization);
    xhr.setRequestHeader('Accept', 'application/json');
    // The last event may fall short of the total; completion is reported once the server answered.
    let total = 0;
    xhr.upload.addEventListener('progress', (event) => {
      if (!event.lengthComputable) return;
      total = event.total;
      onProgress({ loaded: event.loaded, total });
    });
    xhr.addEventListener('load', () => {
      done();
      const ok = xhr.status >= 200 && xhr.status < 300;
      if (ok) {
        const size = total || (form.get('file') as Blob | null)?.size || 0;
        onProgress({ loaded: size, total: size });
      }
      resolve({
        ok,
        status: xhr.status,
        statusText: xhr.statusText,
        text: xhr.responseText,
        retryAfter: parseRetryAfter(xhr.getResponseHeader('retry-after')),
      });
    });
    xhr.addEventListener('error', () => {
      done();
      reject(new NetworkError(request, new Error('the upload failed')));
    });
    xhr.addEventListener('timeout', () => {
      done();
      reject(new TimeoutError(request, timeoutMs));
    });
    xhr.addEventListener('abort', () => {
      done();
      reject(abortError(signal));
    });
    signal?.addEventListener('abort', onAbort, { once: true });
    xhr.send(form);
  });
}
