import {
  type ApiRequestInfo,
  abortError,
  NetworkError,
  parseRetryAfter,
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
