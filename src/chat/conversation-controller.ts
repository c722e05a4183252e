import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { ChatClient } from '../api/client.js';
import { isApiError } from '../api/errors.js';
import type { SessionData } from '../api/types.js';
import { emit } from '../ui/events.js';
import { fill } from '../ui/i18n.js';
import type { ChatStrings } from '../ui/strings/chat.js';
import type { AnswerViewsController } from './answer-views-controller.js';
import { ChatConfigError, checkSessionData, type ShownError } from './errors.js';
import type { NoticesController } from './notices-controller.js';
import { loadRenderer, transcriptMerge } from './renderer.js';
import { StreamController, type StreamOutcome } from './stream-controller.js';
import {
  type Exchange,
  newExchangeId,
  type SentDocument,
  savedConversations,
  TranscriptStore,
  tellSaved,
} from './transcript-store.js';

// Here, not beside the store: the answers' chunk has its own copy of the store's module (each
// chunk is its own build), and a listener registered there would be a second one doing nothing.
globalThis.addEventListener?.('storage', tellSaved);

/** A retried exchange's last try, and the deletion of its record once a new try replaces it. */
interface Attempt {
  shown: Pick<Exchange, 'response' | 'messageUuid' | 'citations' | 'suggestions'>;
  superseded?: Promise<void>;
}

function attemptOf({ response, messageUuid, citations, suggestions }: Exchange): Attempt {
  return { shown: { response, messageUuid, citations, suggestions } };
}

/** The element's configuration the conversation follows; `sessionUuid` it also sets. */
export interface ConversationHost extends ReactiveControllerHost, EventTarget {
  chatbotUuid: string;
  sessionUuid: string;
  persist: 'local' | 'none';
  sessionData?: SessionData;
  /** The visitor: each has a conversation (and session) of their own. */
  userId: string;
}

export interface ConversationOptions {
  /** The client in use; undefined while the host has none configured. */
  client(): ChatClient | undefined;
  strings(): ChatStrings;
  answers: AnswerViewsController;
  notices: NoticesController;
  /** A message was accepted (its `chatbot-message-send` not cancelled) and goes out. */
  onAccept?(query: string, retry: boolean): void;
  /**
   * The service refused the question itself (too long, say) before answering: it has left the
   * log, and goes back where the reader wrote it.
   */
  onRefused?(query: string): void;
  /** What the reader is told of `error` where the element's own words say less (see `fail`). */
  describe?(error: unknown): Partial<ShownError> | undefined;
  /** More text of the streaming answer is on screen (its first text comes with a host update). */
  onText?(): void;
  /**
   * The documents to send with a new question (`attachments="on"`); `null` while some are still
   * uploading, which holds the question back.
   */
  documents?(): SentDocument[] | null | undefined;
}

/**
 * The conversation with one chatbot: its exchanges and session, remembered in a
 * `TranscriptStore` and restored from the service's list of messages (a newer restore aborts the
 * one it supersedes), and the sending, retrying and deleting of messages, streamed by a
 * `StreamController`. It fires the element's `chatbot-*` events from its host.
 */
export class ConversationController implements ReactiveController {
  /** The question and answer pairs, oldest first. */
  exchanges: Exchange[] = [];
  /** The exchange that the alert's Retry re-sends. */
  failedId?: string;
  /** A session is being created for the first message. */
  creatingSession = false;
  readonly #stream: StreamController;
  /** Where the conversation is remembered: none with `persist="none"`. Undo puts one back. */
  store?: TranscriptStore;
  /** The configuration the exchanges were loaded for (see `configKey`). */
  #loadedKey = '';
  #restoring?: AbortController;
  /** The session data last checked (see `hostUpdate`). */
  #checkedData?: SessionData;
  /** The session whose restore the host's leaving the page aborted, to do again on return. */
  #interrupted?: string;
  /**
   * The session this conversation took up or began itself; the host's being another means the
   * page gave it (`session-uuid`).
   */
  #ownSession?: string;

  readonly #host: ConversationHost;
  readonly #options: ConversationOptions;

  constructor(host: ConversationHost, options: ConversationOptions) {
    this.#host = host;
    this.#options = options;
    this.#stream = new StreamController(host);
    host.addController(this);
  }

  /** An answer is streaming. */
  get streaming(): boolean {
    return this.#stream.active;
  }

  /** The exchange the alert's Retry is about. */
  get failed(): Exchange | undefined {
    return this.exchanges.find((e) => e.id === this.failedId);
  }

  hostConnected(): void {
    savedConversations.addEventListener('save', this.#follow);
    const session = this.#interrupted;
    this.#interrupted = undefined;
    const client = this.#options.client();
    if (client && session && session === this.#host.sessionUuid)
      void this.#restore(client, session);
  }

  hostUpdate(): void {
    this.#checkData();
    this.sync();
  }

  hostDisconnected(): void {
    savedConversations.removeEventListener('save', this.#follow);
    if (!this.#restoring) return;
    this.#interrupted = this.#host.sessionUuid;
    this.#restoring.abort();
  }

  /**
   * Loads the transcript of the configured service, chatbot and session when they changed. A
   * send calls it first too, so a message sent right after setting `client` (before the next
   * render) is not wiped by the reload that render would do.
   */
  sync(): void {
    if (this.#configKey() !== this.#loadedKey) this.#load();
  }

  /**
   * The visitor's other tab, or another chat of this page, saved or forgot the conversation: this
   * one shows what a reload would (the stored session and transcript, then the service's list),
   * so the two do not go on in two sessions, and a conversation forgotten there is gone here too.
   * Not while this one is answering: its save at the end is then the newest.
   */
  readonly #follow = (event: Event): void => {
    const { detail } = event as CustomEvent<{ key: string | null }>;
    if (
      detail === this.store ||
      detail.key !== this.store?.key ||
      this.#stream.active ||
      this.creatingSession
    ) {
      return;
    }
    const { sessionUuid } = this.#host;
    if (sessionUuid && sessionUuid !== this.#ownSession) {
      // A session the page gave is kept: another chat's conversation is not this one's.
      if (this.store.load().sessionUuid !== sessionUuid) return;
    } else {
      // No session of its own: load() takes the stored one, as on a reload.
      this.#host.sessionUuid = '';
    }
    this.#load(true);
  };

  /** Stops the answer that is streaming, keeping what arrived. */
  stop(): void {
    this.#stream.stop();
  }

  /** Forgets the conversation (and its session): the next message starts a new one. */
  clear(): void {
    this.#stream.stop();
    this.#restoring?.abort();
    this.exchanges = [];
    this.#options.answers.clear();
    this.#useSession('');
    this.#options.notices.clearError();
    // The last answer's words would still be there for a screen reader to come across.
    this.#options.notices.announce('');
    this.failedId = undefined;
    this.store?.clear();
    this.#host.requestUpdate();
  }

  /** Sends `query`, or again the failed exchange `retryOf`. Resolves when it is answered or failed. */
  async send(query: string, retryOf?: Exchange): Promise<void> {
    const { notices } = this.#options;
    if (this.#stream.active || this.creatingSession || notices.rateLimited) return;
    this.sync();
    const client = this.#options.client();
    try {
      if (!client)
        throw new ChatConfigError(
          'set base-url (an http(s) address) and api-key, or the client property',
        );
      if (!this.#host.chatbotUuid) throw new ChatConfigError('set chatbot-uuid');
      if (this.#host.sessionData !== undefined) checkSessionData(this.#host.sessionData);
    } catch (error) {
      notices.showError(error);
      return;
    }
    const documents = retryOf ? retryOf.documents : this.#options.documents?.();
    if (documents === null) return;
    const sessionUuid = this.#host.sessionUuid || undefined;
    const detail = { query, sessionUuid, retry: retryOf !== undefined };
    if (!emit(this.#host, 'chatbot-message-send', detail, { cancelable: true })) return;

    let exchange: Exchange;
    // A retried exchange keeps what its last try got until the service takes the new one: a
    // Retry that fails again (still offline, the server still down) loses nothing.
    let previous: Attempt | undefined;
    if (retryOf) {
      exchange = retryOf;
      previous = attemptOf(exchange);
      exchange.state = 'pending';
    } else {
      exchange = { id: newExchangeId(), query, response: '', state: 'pending', documents };
      this.exchanges = [...this.exchanges, exchange];
    }
    // The request leaves first: drawing the new exchange and laying out the log (a frame's
    // worth on a slow machine) then overlaps the server's answering instead of delaying it.
    // `answer` issues the request in its synchronous part, before the update requested below.
    const answering = this.#answer(client, exchange, previous);
    this.#options.onAccept?.(query, detail.retry);
    notices.clearError();
    this.failedId = undefined;
    this.#host.requestUpdate();
    await answering;
  }

  /** Streams the answer of an accepted `exchange`, in the current session or a new one. */
  async #answer(client: ChatClient, exchange: Exchange, previous?: Attempt): Promise<void> {
    const { userId } = this.#host;
    let session: string;
    try {
      // A session in hand is not awaited: that would put the request behind the render.
      session = this.#host.sessionUuid || (await this.#ensureSession(client));
    } catch (error) {
      this.#fail(exchange, error, previous);
      return;
    }
    // Another visitor came meanwhile: the question is not theirs to see answered.
    if (userId !== this.#host.userId) return;
    let outcome = await this.#streamAnswer(client, session, exchange, previous);
    // The remembered session is gone (expired, deleted): start a new one, once, and keep the
    // conversation on screen.
    if (outcome.kind === 'failed' && !outcome.started && isApiError(outcome.error)) {
      if (outcome.error.status === 404) {
        for (const e of this.exchanges) {
          if (e !== exchange && e.messageUuid) {
            e.messageUuid = undefined;
            e.earlier = true;
          }
        }
        this.#useSession('');
        try {
          session = await this.#ensureSession(client);
        } catch (error) {
          this.#fail(exchange, error, previous);
          return;
        }
        outcome = await this.#streamAnswer(client, session, exchange, previous);
      }
    }
    await previous?.superseded;
    this.#finish(exchange, session, outcome, previous);
  }

  /** Deletes the exchange on the service and here, and says so; false when it could not. */
  async remove(exchange: Exchange): Promise<boolean> {
    const client = this.#options.client();
    if (!client || !exchange.messageUuid) return false;
    try {
      await client.messages.delete(exchange.messageUuid);
    } catch (error) {
      // Already gone on the server is what the reader asked for.
      if (!(isApiError(error) && error.status === 404)) {
        const message = this.#options.strings().deleteFailed;
        this.#options.notices.showError(error, { kind: 'delete', message, retryable: false });
        return false;
      }
    }
    this.#drop(exchange);
    this.#options.notices.flash(this.#options.strings().deleted);
    return true;
  }

  #drop(exchange: Exchange): void {
    this.exchanges = this.exchanges.filter((e) => e.id !== exchange.id);
    this.#options.answers.forget(exchange.id);
    this.save();
    this.#host.requestUpdate();
  }

  /** Remembers the settled exchanges in the transcript store (a rating changed, say). */
  save(): void {
    this.store?.save({
      sessionUuid: this.#host.sessionUuid || undefined,
      exchanges: this.exchanges.filter((e) => e.state !== 'pending' && e.state !== 'streaming'),
    });
  }

  /** Refuses new session data as it is set, not only once a session is created with it. */
  #checkData(): void {
    const { sessionData } = this.#host;
    if (sessionData === this.#checkedData) return;
    this.#checkedData = sessionData;
    if (sessionData === undefined) return;
    const { notices } = this.#options;
    try {
      checkSessionData(sessionData);
      if (notices.shownError?.kind === 'config') notices.clearError();
    } catch (error) {
      notices.showError(error);
    }
  }

  /** Changes the session without reloading the transcript, as an outside change would. */
  #useSession(uuid: string): void {
    this.#ownSession = this.#host.sessionUuid = uuid;
    this.#loadedKey = this.#configKey();
  }

  #configKey(): string {
    const { chatbotUuid, persist, sessionUuid, userId } = this.#host;
    const base = this.#options.client()?.baseUrl ?? '';
    return [base, chatbotUuid, persist, sessionUuid, userId].join('\n');
  }

  /** `following` another chat's save: answers it shows already keep their rendered markdown. */
  #load(following?: boolean): void {
    const client = this.#options.client();
    const host = this.#host;
    const options = this.#options;
    // Storing turned off alone (a visitor withdrawing consent): what was stored goes, and the
    // conversation stays on screen.
    const was = this.#loadedKey.split('\n');
    const next = this.#configKey().split('\n');
    if (
      host.persist === 'none' &&
      this.store &&
      was.every((part, i) => i === 2 || part === next[i])
    ) {
      this.store.clear();
      this.store = undefined;
      this.#loadedKey = this.#configKey();
      return;
    }
    this.#stream.stop();
    if (!following) options.answers.clear();
    // Another visitor (or none: signed out), another chatbot or another service does not continue
    // the last one's session, unless the page gave one along with it. (Before the first load
    // there is no session; a service or chatbot set for the first time is no other one.)
    const [base, bot, , session, user] = was;
    const moved = (was = '', now = '') => was !== '' && was !== now;
    if (
      (user !== host.userId || moved(bot, host.chatbotUuid) || moved(base, client?.baseUrl)) &&
      host.sessionUuid === session
    ) {
      host.sessionUuid = '';
    }
    this.store =
      client && host.chatbotUuid && host.persist !== 'none'
        ? new TranscriptStore(client.baseUrl, host.chatbotUuid, host.userId)
        : undefined;
    const stored = this.store?.load() ?? { exchanges: [] };
    // A given session-uuid wins; a remembered conversation of another session is not shown.
    if (host.sessionUuid && stored.sessionUuid && stored.sessionUuid !== host.sessionUuid) {
      stored.exchanges = [];
    }
    if (!host.sessionUuid && stored.sessionUuid) {
      this.#ownSession = host.sessionUuid = stored.sessionUuid;
    }
    const before = this.exchanges;
    this.exchanges = stored.exchanges;
    if (following) options.answers.replaced(before);
    else options.answers.showNewest();
    if (this.exchanges.length) options.answers.expect();
    this.failedId = [...stored.exchanges].reverse().find((e) => e.state === 'failed')?.id;
    this.#loadedKey = this.#configKey();
    this.#host.requestUpdate();
    if (client && host.sessionUuid) void this.#restore(client, host.sessionUuid);
    else this.#restoring?.abort();
  }

  /** Replaces the remembered transcript with the server's, where the server keeps one. */
  async #restore(client: ChatClient, session: string): Promise<void> {
    this.#restoring?.abort();
    const restoring = new AbortController();
    this.#restoring = restoring;
    // What another tab stores meanwhile (a conversation forgotten there, say) is followed, not
    // overwritten with this read's now stale answer.
    const stored = this.store?.load().sessionUuid;
    try {
      // What reads the list comes with the answers' chunk, which showing them needs anyway.
      const [messages] = await Promise.all([
        client.messages.list(session, { signal: restoring.signal }),
        loadRenderer(),
      ]);
      const merge = transcriptMerge();
      if (
        restoring.signal.aborted ||
        session !== this.#host.sessionUuid ||
        !merge ||
        this.store?.load().sessionUuid !== stored
      ) {
        return;
      }
      // A message sent meanwhile makes the local view newer than the list.
      if (this.#stream.active || this.creatingSession) return;
      if (!Array.isArray(messages) || (messages.length === 0 && this.exchanges.length > 0)) return;
      const before = this.exchanges;
      this.exchanges = merge(before, messages);
      // Answers the list confirms keep their rendered markdown; only changed ones render again.
      this.#options.answers.replaced(before);
      this.save();
      this.#host.requestUpdate();
    } catch {
      // Aborted, no list (older service), or the session is gone: the remembered transcript
      // stays, and the next message finds out whether the session still exists.
    } finally {
      if (this.#restoring === restoring) this.#restoring = undefined;
    }
  }

  async #ensureSession(client: ChatClient): Promise<string> {
    if (this.#host.sessionUuid) return this.#host.sessionUuid;
    const { chatbotUuid, sessionData, userId } = this.#host;
    this.creatingSession = true;
    try {
      const data = sessionData !== undefined ? checkSessionData(sessionData) : undefined;
      const creating = client.sessions.create(chatbotUuid, data);
      // After the request, as in `send`.
      this.#host.requestUpdate();
      const created = await creating;
      // Made for a visitor who has gone meanwhile: not the new one's session.
      if (userId !== this.#host.userId) return created.uuid;
      this.#useSession(created.uuid);
      this.save();
      emit(this.#host, 'chatbot-session-created', { sessionUuid: created.uuid, chatbotUuid });
      return created.uuid;
    } finally {
      this.creatingSession = false;
      this.#host.requestUpdate();
    }
  }

  #streamAnswer(
    client: ChatClient,
    session: string,
    exchange: Exchange,
    previous?: Attempt,
  ): Promise<StreamOutcome> {
    const { answers } = this.#options;
    answers.load();
    return this.#stream.start(
      client,
      session,
      exchange.query,
      {
        onStart: ({ messageUuid, citations, suggestions }) => {
          // The service took the new try: it replaces the last one, on the service too, where
          // the last one may be stored cut short (and would come back with the list).
          const superseded = previous?.shown.messageUuid;
          if (previous && superseded && superseded !== messageUuid) {
            // Not there (never stored) or not deleted: nothing the reader needs to hear of.
            const quiet = () => {};
            previous.superseded = client.messages.delete(superseded).then(quiet, quiet);
          }
          exchange.response = '';
          answers.viewFor(exchange)?.update('');
          exchange.messageUuid = messageUuid;
          exchange.citations = citations;
          exchange.suggestions = suggestions;
          exchange.state = 'streaming';
          this.#host.requestUpdate();
        },
        onText: (text) => {
          const first = !exchange.response;
          exchange.response = text;
          answers.viewFor(exchange)?.update(text);
          // The first text changes the exchange's state: the host's update follows it then.
          if (first) this.#host.requestUpdate();
          else this.#options.onText?.();
        },
      },
      exchange.documents?.map((document) => document.uuid),
    );
  }

  #finish(exchange: Exchange, session: string, outcome: StreamOutcome, previous?: Attempt): void {
    exchange.response = outcome.text;
    if (outcome.kind === 'failed') {
      // A try the service never took replaces nothing.
      this.#fail(exchange, outcome.error, outcome.started ? undefined : previous);
      return;
    }
    const stopped = outcome.kind === 'stopped';
    if (stopped && !outcome.started && previous) {
      // A Retry stopped before the service took it: the last try stands, with its Retry.
      this.#unanswered(exchange, previous);
      return;
    }
    if (stopped && !outcome.text) {
      // Stopped before any text (Send tapped twice: it became Stop) is no answer: the question
      // stays, with its Retry.
      this.#unanswered(exchange, previous);
    } else {
      const view = this.#options.answers.viewFor(exchange);
      view?.update(outcome.text);
      view?.finish();
      exchange.state = stopped ? 'stopped' : 'done';
      this.save();
      this.#host.requestUpdate();
      // No view yet (the renderer still loading): the start of the text will do.
      const text = view?.plainText ?? outcome.text.slice(0, 240);
      const t = this.#options.strings();
      // A stopped answer is said to be one: the log shows "Stopped" under it.
      this.#options.notices.announce(
        fill(t.answerReady, { text }) + (stopped ? ` ${t.stopped}` : ''),
      );
    }
    emit(this.#host, 'chatbot-answer-finished', {
      query: exchange.query,
      response: exchange.response,
      sessionUuid: session,
      messageUuid: exchange.messageUuid,
      citations: exchange.citations,
      stopped,
    });
  }

  /** `previous`: the retried exchange's last try, which the failed one did not replace. */
  #fail(exchange: Exchange, error: unknown, previous?: Attempt): void {
    // What stays on screen is the last try's text where this one replaced nothing.
    const partial = !!(previous?.shown ?? exchange).response;
    const { kind, retryable } = this.#options.notices.showError(
      error,
      this.#options.describe?.(error),
      partial,
    );
    // The service refused the question itself (400, 413, 422: too long, say): a Retry would be
    // refused again, so it leaves the log and goes back to the reader to change.
    if (kind === 'unknown' && !retryable) {
      this.#drop(exchange);
      this.#options.onRefused?.(exchange.query);
    } else this.#unanswered(exchange, previous);
  }

  /** Marks the exchange not answered, showing `previous` (its last try) again when given. */
  #unanswered(exchange: Exchange, previous?: Attempt): void {
    if (previous) Object.assign(exchange, previous.shown);
    exchange.state = 'failed';
    const view = this.#options.answers.viewFor(exchange);
    view?.update(exchange.response);
    view?.finish();
    this.failedId = exchange.id;
    this.save();
    this.#host.requestUpdate();
  }
}
