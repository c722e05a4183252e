import type { ApiRequestInfo } from '../errors.js';
import { apiError, enc, type RequestOptions, type Transport } from '../transport.js';
import type {
  ConversationSummary,
  ExportFormat,
  Insights,
  MessageFilters,
  MessageRow,
  Page,
  PageOptions,
  TestSessions,
} from '../types.js';

/** `?q=…&rating=…` from filters, leaving out what is unset; booleans as `true`/`false`. */
export function filterQuery(filters: object = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) {
    if (value === undefined || value === null || value === '') continue;
    params.set(key, String(value));
  }
  const query = params.toString();
  return query ? `?${query}` : '';
}

/**
 * The review loop's reads: this project's additions to the interface, answered by the reference
 * server. The hosted service may answer them with 404; the admin then falls back to sessions.
 */
export function reviewApi({ get, attempt }: Transport) {
  const base = (uuid: string) => `/api/v1/chatbot/${enc(uuid)}`;
  return {
    /** `GET /api/v1/chatbot/{uuid}/messages`: exchanges of every session, newest first. */
    messages: (
      chatbotUuid: string,
      filters?: MessageFilters & PageOptions,
      call?: RequestOptions,
    ) => get<Page<MessageRow>>(`${base(chatbotUuid)}/messages${filterQuery(filters)}`, call),
    /** `GET /api/v1/chatbot/{uuid}/conversations`: sessions with a match, latest activity first. */
    conversations: (
      chatbotUuid: string,
      filters?: MessageFilters & PageOptions,
      call?: RequestOptions,
    ) =>
      get<Page<ConversationSummary>>(
        `${base(chatbotUuid)}/conversations${filterQuery(filters)}`,
        call,
      ),
    /**
     * `GET /api/v1/chatbot/{uuid}/insights` for a period (default: the last 30 days), its days
     * those of the IANA zone `tz` (default UTC); the owner's tests left out unless `test` says.
     */
    insights: (
      chatbotUuid: string,
      period: { from?: string; to?: string; tz?: string; test?: TestSessions } = {},
      call?: RequestOptions,
    ) => get<Insights>(`${base(chatbotUuid)}/insights${filterQuery(period)}`, call),
    /**
     * `GET /api/v1/chatbot/{uuid}/messages/export`: resolves with the streamed response once its
     * headers arrive (`X-Total-Count` holds the row count), so the caller reads the body at its
     * own pace instead of holding the whole export. Not retried: a retry would start it over.
     */
    export: async (
      chatbotUuid: string,
      options: MessageFilters & { format: ExportFormat },
      call: RequestOptions = {},
    ): Promise<Response> => {
      const path = `${base(chatbotUuid)}/messages/export${filterQuery(options)}`;
      const request: ApiRequestInfo = { method: 'GET', path };
      const accept = options.format === 'csv' ? 'text/csv' : 'application/json';
      const { response } = await attempt(
        request,
        { method: 'GET', headers: { Accept: accept } },
        call,
        'stream',
      );
      if (!response.ok) throw await apiError(response, request);
      return response;
    },
  };
}
