import { enc, type RequestOptions, type Transport } from '../transport.js';
import type { Agent, AgentCreate, AgentUpdate } from '../types.js';

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
