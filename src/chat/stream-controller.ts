import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { ChatClient } from '../api/client.js';
import { isAbortError } from '../api/errors.js';
import type { MessageStream } from '../api/stream.js';

export interface StreamHandlers {
  /** The response headers arrived. */
  onStart?(info: Pick<MessageStream, 'messageUuid' | 'citations' | 'suggestions'>): void;
  /** The whole text so far; called at most once per animation frame. */
  onText(text: string): void;
}

/**
 * New characters rendered per frame at most: a burst of text (a fast model, a slow frame) is
 * spread over several frames instead of becoming one long task. 800 fell behind text arriving
 * in 10-character chunks as fast as a page takes them (about 1,000 characters a frame): ten
 * frames late at p95 by bench:chat, and the more frames, the more renders of the open block.
 * 4,000 keep up with four times that, and a frame that commits them stays a few milliseconds.
 */
const CHARS_PER_FRAME = 4_000;

export type StreamOutcome =
  | { kind: 'done'; text: string }
  /** `started` tells whether the server accepted the message (headers arrived). */
  | { kind: 'stopped'; text: string; started: boolean }
  | { kind: 'failed'; text: string; error: unknown; started: boolean };

/**
 * Runs one streamed answer at a time for its host. It owns a fresh AbortController per answer,
 * so Stop, a new answer or the host leaving the page ends exactly that request; and it batches
 * text deltas to one `onText` per animation frame, because rendering per network chunk would
 * cost far more than the reader can see.
 */
export class StreamController implements ReactiveController {
  readonly #host: ReactiveControllerHost;
  #controller: AbortController | undefined;
  #run = 0;

  constructor(host: ReactiveControllerHost) {
    this.#host = host;
    host.addController(this);
  }

  /** True while an answer is streaming. */
  get active(): boolean {
    return this.#controller !== undefined;
  }

  hostDisconnected(): void {
    // A chat moved in the page (a framework's portal or reorder) is back before a microtask
    // runs: only one taken off the page ends its answer.
    queueMicrotask(() => {
      if (!(this.#host as Partial<Element>).isConnected) this.stop();
    });
  }

  /** Aborts the current answer; its `start()` resolves with `stopped` and the partial text. */
  stop(): void {
    this.#controller?.abort();
  }

  async start(
    client: ChatClient,
    sessionUuid: string,
    query: string,
    handlers: StreamHandlers,
    sessionDocumentUuids?: string[],
  ): Promise<StreamOutcome> {
    this.#controller?.abort();
    const controller = new AbortController();
    this.#controller = controller;
    const run = ++this.#run;

    let text = '';
    let started = false;
    let frame: number | undefined;
    /** How much of `text` has been handed to `onText`. */
    let shown = 0;
    let caughtUp: (() => void) | undefined;
    const flush = () => {
      frame = undefined;
      if (run !== this.#run) return;
      if (shown < text.length) {
        shown = Math.min(text.length, shown + CHARS_PER_FRAME);
        handlers.onText(text.slice(0, shown));
      }
      if (shown < text.length) schedule();
      else caughtUp?.();
    };
    const schedule = () => {
      if (frame === undefined) frame = requestAnimationFrame(flush);
    };
    const settle = async (outcome: StreamOutcome): Promise<StreamOutcome> => {
      // Let rendering catch up frame by frame; a hidden page has no frames, so it gets the rest
      // at once (as does a page whose frames stall).
      if (shown < text.length && !document.hidden) {
        await new Promise<void>((resolve) => {
          caughtUp = resolve;
          schedule();
          setTimeout(resolve, 2000);
        });
      }
      if (frame !== undefined) cancelAnimationFrame(frame);
      frame = undefined;
      if (shown < text.length && run === this.#run) {
        shown = text.length;
        handlers.onText(text);
      }
      if (this.#controller === controller) this.#controller = undefined;
      this.#host.requestUpdate();
      return outcome;
    };

    // Stop must take effect at once, even if a body read never settles after the abort.
    const stopped = new Promise<'stopped'>((resolve) => {
      controller.signal.addEventListener('abort', () => resolve('stopped'), { once: true });
    });
    try {
      const request = client.messages.stream(sessionUuid, query, {
        signal: controller.signal,
        sessionDocumentUuids,
      });
      // Stop is drawn after the request has left: a render first would hold it back.
      this.#host.requestUpdate();
      const stream = await request;
      started = true;
      handlers.onStart?.(stream);
      const consume = async () => {
        for await (const delta of stream.text) {
          if (controller.signal.aborted) break;
          text += delta;
          // The answer's first words go in as they arrive, to be painted with the next frame
          // (waiting for a frame to insert them cost 7-15 ms of the first answer); later words
          // once per frame.
          if (shown === 0) flush();
          else schedule();
        }
        return 'ended' as const;
      };
      const consuming = consume();
      // Once Stop has won the race, a late failure of the read is of no interest.
      consuming.catch(() => {});
      const end = await Promise.race([consuming, stopped]);
      // A caller's abort ends the iteration quietly, so "ended" may still mean "stopped".
      return settle(
        end === 'stopped' || controller.signal.aborted
          ? { kind: 'stopped', text, started }
          : { kind: 'done', text },
      );
    } catch (error) {
      // After Stop, whatever the request failed with is the abort itself.
      if (controller.signal.aborted || isAbortError(error)) {
        return settle({ kind: 'stopped', text, started });
      }
      return settle({ kind: 'failed', text, error, started });
    }
  }
}
