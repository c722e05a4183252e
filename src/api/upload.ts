import {
  abortError,
  NetworkError,
  parseRetryAfter,
  type RequestInfo,
  TimeoutError,
} from './errors.js';

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
  request: RequestInfo;
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
    xhr.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable) onProgress({ loaded: event.loaded, total: event.total });
    });
    xhr.addEventListener('load', () => {
      done();
      const ok = xhr.status >= 200 && xhr.status < 300;
      if (ok) {
        const total = Math.max(
          1,
          form.get('file') instanceof Blob ? (form.get('file') as Blob).size : 1,
        );
        onProgress({ loaded: total, total });
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
