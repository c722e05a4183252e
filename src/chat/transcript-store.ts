import type { Citation, Feedback } from '../api/types.js';

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
  /**
   * From a session the service no longer has (expired, deleted): its message went with it, so
   * it is shown as it was, across reloads too, with nothing to do with it on the service.
   */
  earlier?: boolean;
}

export interface Transcript {
  sessionUuid?: string;
  exchanges: Exchange[];
}

/** Older exchanges are dropped beyond this many, so localStorage never fills up. */
export const MAX_EXCHANGES = 200;
const VERSION = 1;

/**
 * Random, not counted: the element and the answers' chunk are separate builds, each with its own
 * copy of this function, and two counters of one millisecond gave the same ids.
 */
export const newExchangeId = (): string => `x${Math.random().toString(36).slice(2)}`;

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
 * Changes to the stored conversations, as `detail`: the browser's `storage` events (another
 * page's), and this page's stores after each change, which the browser tells other pages only:
 * two chats of one page (a launcher, and the same chatbot inline on its help page) keep one
 * conversation too.
 */
export const savedConversations = /* @__PURE__ */ new EventTarget();
/** Tells the page's chats of a change; conversation-controller.ts passes on the browser's. */
export const tellSaved = (detail: { key: string | null }) =>
  savedConversations.dispatchEvent(new CustomEvent('save', { detail }));

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
        this.write(JSON.stringify({ sessionUuid, exchanges: kept }));
        return;
      } catch {}
    }
  }

  clear(): void {
    try {
      this.write(null);
    } catch {
      // Nothing stored, nothing to clear.
    }
  }

  /**
   * Stores `value` (null: removes it) and tells the page's other chats, only of a change, as the
   * browser tells other pages: a chat that follows a save saves what it then shows, mostly the
   * same, and two chats would otherwise answer each other's saves without end.
   */
  private write(value: string | null): void {
    const storage = globalThis.localStorage;
    if (!storage || storage.getItem(this.key) === value) return;
    if (value === null) storage.removeItem(this.key);
    else storage.setItem(this.key, value);
    tellSaved(this);
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
