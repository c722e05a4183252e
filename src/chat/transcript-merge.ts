import type { Citation, CiteData, Message } from '../api/types.js';
import {
  type Exchange,
  MAX_EXCHANGES,
  newExchangeId,
  type ReaderFeedback,
  type SentDocument,
} from './transcript-store.js';

// Reading the service's list of messages back into exchanges, for a reload that continues a
// session: it comes with the answers' chunk (answer-chunk.ts), which a page showing a restored
// conversation loads anyway, so a visitor's first chat does not carry it.

/** The citations of a message record's `cite_data_json`, numbered as the answer cites them. */
export function citationsFromCiteData(json: string | undefined): Citation[] | undefined {
  if (!json) return undefined;
  try {
    const data = JSON.parse(json) as CiteData;
    if (typeof data !== 'object' || data === null) return undefined;
    const citations = Object.entries(data)
      .filter(([n, item]) => /^\d+$/.test(n) && typeof item === 'object' && item !== null)
      .map(([n, item]) => {
        const extra = item as { url?: unknown; reference_source_link?: unknown };
        const url = typeof extra.url === 'string' ? extra.url : extra.reference_source_link;
        return {
          n: Number(n),
          data_source_uuid: String(item.data_source_uuid ?? ''),
          title: String(item.title || item.file_name || `#${n}`),
          type: String(item.type ?? ''),
          ...(typeof url === 'string' && url ? { url } : {}),
        };
      })
      .sort((a, b) => a.n - b.n);
    return citations.length ? citations : undefined;
  } catch {
    return undefined;
  }
}

/** Exchanges from the server's message records (oldest first). */
export function exchangesFromMessages(messages: Message[]): Exchange[] {
  return messages.slice(-MAX_EXCHANGES).map((message) => ({
    id: newExchangeId(),
    query: message.query,
    response: message.response,
    messageUuid: message.uuid,
    // A record keeps its cite data even when the chatbot hides citations; the markers in the
    // answer tell whether they were shown.
    citations: /\[\d{1,3}\]/.test(message.response)
      ? citationsFromCiteData(message.cite_data_json)
      : undefined,
    feedback: feedbackFromJson(message.feedback_json),
    suggestions: suggestionsFromMeta(message.meta_json),
    documents: message.session_documents as SentDocument[] | undefined,
    state: 'done',
  }));
}

/**
 * The conversation as the service lists it, with what only this page knows: the exchanges it
 * confirms keep their ids (their rendered answers), the stream's citations (which carry links; a
 * record's cite data may not) and a failed state; failed exchanges it does not list follow, with
 * their Retry: one the service never stored (it went away before the answer's end), and one it
 * stored cut short, which is no finished answer.
 */
export function withListed(local: Exchange[], messages: Message[]): Exchange[] {
  const listed = new Set(messages.map((m) => m.uuid));
  const unsent = local.filter(
    (e) => e.state === 'failed' && !(e.messageUuid && listed.has(e.messageUuid)),
  );
  const known = new Map(local.map((e) => [e.messageUuid, e]));
  const restored = exchangesFromMessages(messages).map((e): Exchange => {
    const mine = known.get(e.messageUuid);
    if (!mine) return e;
    const citations = mine.citations ?? e.citations;
    const state = mine.state === 'failed' ? 'failed' : e.state;
    return { ...e, id: mine.id, citations, state };
  });
  const earlier = local.filter((e) => e.earlier && !listed.has(e.messageUuid!));
  return [...earlier, ...restored, ...unsent];
}

/** A message record's `feedback_json`; undefined when unrated or unreadable. */
export function feedbackFromJson(json: string | undefined): ReaderFeedback | undefined {
  const { rating, reason, comment }: Partial<ReaderFeedback> = parseRecord(json);
  if (rating !== 'up' && rating !== 'down') return undefined;
  return { rating, ...(reason ? { reason } : {}), ...(comment ? { comment } : {}) };
}

/** The topics a refusal offered, from a record's `meta_json`; undefined when there are none. */
export function suggestionsFromMeta(json: string | undefined): string[] | undefined {
  const { suggestions } = parseRecord(json);
  return Array.isArray(suggestions) &&
    suggestions.length > 0 &&
    suggestions.every((item) => typeof item === 'string')
    ? suggestions
    : undefined;
}

/** The members of a JSON object in a record's field; none when it is empty or unreadable. */
function parseRecord(json: string | undefined): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(json || '{}');
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
