import { type ApiRequestInfo, errorFrom } from '../errors.js';
import { apiError, enc, type RequestOptions, readJson, type Transport } from '../transport.js';
import type { DataSource, QaSourceCreate, RescrapeResult, UrlSourceCreate } from '../types.js';
import { uploadWithProgress } from '../upload.js';

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
      const { response, settle } = await attempt(
        request,
        { method: 'POST', headers: { Accept: 'application/json' }, body: form },
        { signal: upload.signal, timeoutMs: limit },
        'body',
      );
      if (!response.ok) throw await settle(apiError(response, request));
      const record = (await settle(readJson(response, request))) as DataSource;
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
