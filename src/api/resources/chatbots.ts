import { enc, type RequestOptions, type Transport } from '../transport.js';
import type { Chatbot, ChatbotCreate, ChatbotUpdate } from '../types.js';

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
