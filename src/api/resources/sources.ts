import { enc, type RequestOptions, type Transport } from '../transport.js';
import type { DataSource, QaSourceCreate, RescrapeResult, UrlSourceCreate } from '../types.js';
import { postMultipart, type UploadOptions } from '../upload.js';

export type { UploadOptions, UploadProgress } from '../upload.js';

export function sourcesApi(transport: Transport) {
  const { get, post, remove } = transport;
  return {
    /** `GET /api/v1/chatbot/{uuid}/data-sources` */
    list: (chatbotUuid: string, call?: RequestOptions) =>
      get<DataSource[]>(`/api/v1/chatbot/${enc(chatbotUuid)}/data-sources`, call),
    /** `POST /api/v1/chatbot/{uuid}/data-source/upload` (multipart: `file`, `reference_source_link`). */
    upload: (chatbotUuid: string, file: Blob, upload: UploadOptions = {}): Promise<DataSource> => {
      const form = new FormData();
      form.append('file', file, upload.fileName ?? (file as File).name ?? 'upload');
      if (upload.referenceSourceLink !== undefined) {
        form.append('reference_source_link', upload.referenceSourceLink);
      }
      return postMultipart<DataSource>(
        transport,
        `/api/v1/chatbot/${enc(chatbotUuid)}/data-source/upload`,
        form,
        file.size,
        upload,
      );
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
