import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { ChatbotClient } from '../api/client.js';
import { isAbortError } from '../api/errors.js';
import type { Citation } from '../api/types.js';

export interface StreamHandlers {
  /** The response headers arrived. */
  onStart?(info: { messageUuid: string | undefined; citations: Citation[] | undefined }): void;
  /** The whole text so far; called at most once per animation frame. */
  onText(text: string): void;
}

export type StreamOutcome =
  | { kind: 'done'; text: string }
  | { kind: 'stopped'; text: string }
  /** `started` tells whether the server accepted the message (headers arrived). */
  | { kind: 'failed'; text: string; error: unknown; started: boolean };

/**
 * Runs one streamed answer at a time for its host. It owns a fresh AbortController per answer,
 * so Stop, a new answer or the host leaving the page ends exactly that request; and it batches
 * text deltas to one `onText` per animation frame, because rendering per network chunk would
 * cost far more than the reader can see.
 */
export class StreamController implements ReactiveController {
  private readonly host: ReactiveControllerHost;
  private controller: AbortController | undefined;
  private run = 0;

  constructor(host: ReactiveControllerHost) {
    this.host = host;
    host.addController(this);
  }

  /** True while an answer is streaming. */
  get active(): boolean {
    return this.controller !== undefined;
  }

  hostDisconnected(): void {
    this.stop();
  }

  /** Aborts the current answer; its `start()` resolves with `stopped` and the partial text. */
  stop(): void {
    this.controller?.abort();
  }

  async start(
    client: ChatbotClient,
    sessionUuid: string,
    query: string,
    handlers: StreamHandlers,
  ): Promise<StreamOutcome> {
    this.controller?.abort();
    const controller = new AbortController();
    this.controller = controller;
    const run = ++this.run;
    this.host.requestUpdate();

    let text = '';
    let started = false;
    let frame: number | undefined;
    let flushed = '';
    const flush = () => {
      frame = undefined;
      if (text !== flushed && run === this.run) {
        flushed = text;
        handlers.onText(text);
      }
    };
    const schedule = () => {
      if (frame === undefined) frame = requestAnimationFrame(flush);
    };
    const settle = (outcome: StreamOutcome): StreamOutcome => {
      if (frame !== undefined) cancelAnimationFrame(frame);
      flush();
      if (this.controller === controller) this.controller = undefined;
      this.host.requestUpdate();
      return outcome;
    };

    // Stop must take effect at once, even if a body read never settles after the abort.
    const stopped = new Promise<'stopped'>((resolve) => {
      controller.signal.addEventListener('abort', () => resolve('stopped'), { once: true });
    });
    try {
      const stream = await client.messages.stream(sessionUuid, query, {
        signal: controller.signal,
      });
      started = true;
      handlers.onStart?.({ messageUuid: stream.messageUuid, citations: stream.citations });
      const consume = async () => {
        for await (const delta of stream.text) {
          if (controller.signal.aborted) break;
          text += delta;
          schedule();
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
          ? { kind: 'stopped', text }
          : { kind: 'done', text },
      );
    } catch (error) {
      // After Stop, whatever the request failed with is the abort itself.
      if (controller.signal.aborted || isAbortError(error)) {
        return settle({ kind: 'stopped', text });
      }
      return settle({ kind: 'failed', text, error, started });
    }
  }
}
