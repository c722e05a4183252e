import { enc, type RequestOptions, type Transport } from '../transport.js';
import type { SourceTag, SourceTagCreate, SourceTagUpdate } from '../types.js';

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
