import type { Citation, CiteData, Feedback, Message } from '../api/types.js';

/** The reader's rating of an answer: the server's `feedback_json` without its time. */
export type ReaderFeedback = Omit<Feedback, 'at'>;

/** A document sent with a question: what its chip shows, and its uuid for a retry. */
export interface SentDocument {
  uuid: string;
  filename?: string;
  size?: number;
}

/** One question and its answer, as the widget shows it. */
export interface Exchange {
  /** Local id, stable across renders. */
  id: string;
  query: string;
  response: string;
  /** The server's message record (the exchange), when known: enables delete. */
  messageUuid?: string;
  citations?: Citation[];
  /** The reader's rating, as the server accepted it. */
  feedback?: ReaderFeedback;
  /**
   * What a refusal offered to ask instead, when the sources did not cover the question: the
   * reference server's `X-Suggestions`, kept in the record's `meta_json`.
   */
  suggestions?: string[];
  /** The documents attached to the question (`attachments="on"`). */
  documents?: SentDocument[];
  /**
   * `done` and `stopped` are final; `failed` can be retried; `pending` waits for headers and
   * `streaming` is receiving text. Only final and failed states are stored.
   */
  state: 'pending' | 'streaming' | 'done' | 'stopped' | 'failed';
}

export interface Transcript {
  sessionUuid?: string;
  exchanges: Exchange[];
}

/** Older exchanges are dropped beyond this many, so localStorage never fills up. */
export const MAX_EXCHANGES = 200;
const VERSION = 1;

let counter = 0;
export function newExchangeId(): string {
  counter += 1;
  return `x${Date.now().toString(36)}${counter.toString(36)}`;
}

/**
 * A visitor's id as their storage key holds it: hashed (32-bit FNV-1a), so that an id (often an
 * e-mail address) is not left readable among the site's storage keys after its visitor has
 * gone. Not a secret from the site's own scripts, which can read the transcripts anyway; sync
 * and small, and two visitors of one browser practically never share a hash.
 */
function visitorKey(id: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) hash = Math.imul(hash ^ id.charCodeAt(i), 0x01000193);
  return `:u${hash.toString(36)}`;
}

/**
 * The conversation kept in localStorage per service, chatbot and visitor (`user-id`), so it
 * survives reloads and continues in the same session, and one visitor never sees another's.
 * Storage can be missing, full or forbidden (private mode, a sandboxed iframe): then the widget
 * simply does not remember, it never fails.
 */
export class TranscriptStore {
  readonly key: string;

  constructor(baseUrl: string, chatbotUuid: string, userId = '') {
    // Without a visitor the key is the one from before visitors, so those transcripts stay.
    this.key = `chatbot-chat:v${VERSION}:${baseUrl.replace(/\/+$/, '')}:${chatbotUuid}${userId && visitorKey(userId)}`;
  }

  load(): Transcript {
    try {
      const raw = globalThis.localStorage?.getItem(this.key);
      if (!raw) return { exchanges: [] };
      const parsed = JSON.parse(raw) as Partial<Transcript>;
      const exchanges = Array.isArray(parsed.exchanges)
        ? parsed.exchanges.filter(isExchange).map((exchange) => ({
            ...exchange,
            // An answer cut off by a reload is what arrived, not a live stream.
            state:
              exchange.state === 'pending' || exchange.state === 'streaming'
                ? ('failed' as const)
                : exchange.state,
          }))
        : [];
      return {
        sessionUuid: typeof parsed.sessionUuid === 'string' ? parsed.sessionUuid : undefined,
        exchanges,
      };
    } catch {
      return { exchanges: [] };
    }
  }

  save({ sessionUuid, exchanges }: Transcript): void {
    const newest = exchanges.slice(-MAX_EXCHANGES);
    // Quota exceeded: keep the newer half rather than nothing; storage unavailable: the
    // conversation lasts as long as the page.
    for (const kept of [newest, newest.slice(newest.length >> 1)]) {
      try {
        globalThis.localStorage?.setItem(
          this.key,
          JSON.stringify({ sessionUuid, exchanges: kept }),
        );
        return;
      } catch {}
    }
  }

  clear(): void {
    try {
      globalThis.localStorage?.removeItem(this.key);
    } catch {
      // Nothing stored, nothing to clear.
    }
  }
}

function isExchange(value: unknown): value is Exchange {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return (
    typeof record.id === 'string' &&
    typeof record.query === 'string' &&
    typeof record.response === 'string'
  );
}

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
  return [...restored, ...unsent];
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
