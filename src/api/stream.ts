import { type ApiRequestInfo, NetworkError, TimeoutError } from './errors.js';
import type { Citation } from './types.js';

/** An answer being streamed: resolves once the response headers have arrived. */
export interface MessageStream {
  /** The message record (the exchange) this stream creates, from `X-Message-Uuid`. */
  messageUuid: string | undefined;
  /** The sources the answer cites as `[1]`, `[2]`…, from `X-Citations`. */
  citations: Citation[] | undefined;
  /**
   * What the chatbot offers instead when its sources did not cover the question, from
   * `X-Suggestions` (the reference server's addition; absent elsewhere).
   */
  suggestions: string[] | undefined;
  /**
   * The answer as decoded text deltas. Single use. Breaking out of the loop aborts the request;
   * the caller's own abort ends it quietly; a connection lost mid-answer throws `NetworkError`.
   */
  text: AsyncIterable<string>;
  /** Stops the answer: the same as aborting the signal passed to `stream()`. */
  abort(): void;
}

const DONE = Symbol('done');

/**
 * Incremental `text/event-stream` parser. Each event's `data:` lines are joined; JSON data yields
 * its `text`, `delta` or `content` member (or an OpenAI-style `choices[0].delta.content`), other
 * data yields itself; `[DONE]` ends the stream.
 */
export class SseParser {
  private buffer = '';
  private data: string[] = [];

  push(chunk: string): Array<string | typeof DONE> {
    this.buffer += chunk;
    const out: Array<string | typeof DONE> = [];
    // A trailing '\r' may be the first half of '\r\n': keep it until the next chunk says.
    const lines = this.buffer.split(/\r\n|\r(?!$)|\n/);
    this.buffer = lines.pop() ?? '';
    for (const line of lines) this.line(line, out);
    return out;
  }

  flush(): Array<string | typeof DONE> {
    const out: Array<string | typeof DONE> = [];
    if (this.buffer) this.line(this.buffer.replace(/\r$/, ''), out);
    this.buffer = '';
    this.line('', out);
    return out;
  }

  private line(line: string, out: Array<string | typeof DONE>): void {
    if (line === '') {
      if (this.data.length === 0) return;
      const raw = this.data.join('\n');
      this.data = [];
      if (raw === '[DONE]') out.push(DONE);
      else {
        const text = sseText(raw);
        if (text) out.push(text);
      }
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') this.data.push(value);
  }
}

function sseText(raw: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return raw;
  }
  if (typeof parsed === 'string') return parsed;
  if (typeof parsed !== 'object' || parsed === null) return raw;
  const record = parsed as Record<string, unknown>;
  for (const key of ['text', 'delta', 'content'] as const) {
    if (typeof record[key] === 'string') return record[key];
  }
  const choices = record.choices as Array<{ delta?: { content?: unknown } }> | undefined;
  const content = Array.isArray(choices) ? choices[0]?.delta?.content : undefined;
  return typeof content === 'string' ? content : '';
}

/** Decodes a header holding base64url of UTF-8 JSON. Malformed input is ignored. */
function decodeJsonHeader(header: string | null): unknown {
  if (!header) return undefined;
  try {
    const base64 = header.replace(/-/g, '+').replace(/_/g, '/');
    const padded = base64 + '='.repeat((4 - (base64.length % 4)) % 4);
    const bytes = Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return undefined;
  }
}

/** Decodes the `X-Citations` header: base64url of UTF-8 JSON. Malformed input is ignored. */
export function decodeCitations(header: string | null): Citation[] | undefined {
  const parsed = decodeJsonHeader(header);
  return Array.isArray(parsed) ? (parsed as Citation[]) : undefined;
}

/**
 * Decodes the reference server's `X-Suggestions` header (our addition): the questions or topics
 * offered when the sources did not cover the question, in the same encoding as `X-Citations`.
 */
export function decodeSuggestions(header: string | null): string[] | undefined {
  const parsed = decodeJsonHeader(header);
  return Array.isArray(parsed) && parsed.every((item) => typeof item === 'string')
    ? parsed
    : undefined;
}

/** Encodes citations for the `X-Citations` header (used by the reference server). */
export function encodeCitations(citations: Citation[]): string {
  const bytes = new TextEncoder().encode(JSON.stringify(citations));
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export interface TextDeltaOptions {
  request: ApiRequestInfo;
  /** Aborts the underlying request. */
  abort: (reason?: unknown) => void;
  /** True once the caller stopped the answer (its signal or `abort()`): the iteration ends quietly. */
  stopped: () => boolean;
  /** Longest wait for the next chunk before the stream counts as stalled. */
  idleTimeoutMs: number;
}

/** Yields the decoded text deltas of a streamed answer body (plain text or SSE). */
export async function* textDeltas(
  response: Response,
  options: TextDeltaOptions,
): AsyncGenerator<string, void, undefined> {
  const { request, abort, stopped, idleTimeoutMs } = options;
  const sse = (response.headers.get('content-type') ?? '').includes('text/event-stream')
    ? new SseParser()
    : undefined;
  if (!response.body) {
    const all = await response.text();
    if (sse) {
      for (const piece of [...sse.push(all), ...sse.flush()]) {
        if (piece === DONE) return;
        yield piece;
      }
    } else if (all) yield all;
    return;
  }

  const reader = response.body.getReader();
  const decoder = new TextDecoder('utf-8');
  let finished = false;
  let stalled = false;
  // One timer at a time, not one per read: an answer comes in thousands of small chunks, and a
  // timer set and cleared for each cost more main-thread time than reading them. It counts only
  // the waits for the server (the time the caller holds a piece is not a stall), and it stops
  // when it finds no read waiting, so a stream its caller walked away from holds no timer.
  let waitingSince: number | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const arm = (ms: number) => {
    timer = setTimeout(watch, ms);
    // In Node, a watch that outlives its last read must not hold the process open: the read
    // itself does while it waits.
    (timer as { unref?: () => void }).unref?.();
  };
  const watch = () => {
    timer = undefined;
    if (waitingSince === undefined) return;
    const waited = performance.now() - waitingSince;
    if (waited >= idleTimeoutMs) {
      stalled = true;
      abort();
    } else arm(idleTimeoutMs - waited);
  };
  try {
    while (true) {
      let result: ReadableStreamReadResult<Uint8Array>;
      try {
        waitingSince = performance.now();
        if (timer === undefined) arm(idleTimeoutMs);
        result = await reader.read();
      } catch (error) {
        if (stopped()) return;
        if (stalled)
          throw new TimeoutError(request, idleTimeoutMs, 'answer stream stalled: no data');
        throw new NetworkError(request, error, 'answer stream was interrupted');
      } finally {
        waitingSince = undefined;
      }
      const pieces: Array<string | typeof DONE> = [];
      const text = result.done ? decoder.decode() : decoder.decode(result.value, { stream: true });
      if (sse) pieces.push(...sse.push(text), ...(result.done ? sse.flush() : []));
      else if (text) pieces.push(text);
      for (const piece of pieces) {
        if (piece === DONE) {
          finished = true;
          reader.cancel().catch(() => {});
          return;
        }
        yield piece;
      }
      if (result.done) {
        finished = true;
        return;
      }
    }
  } finally {
    clearTimeout(timer);
    if (!finished) {
      // The consumer stopped early (break, return, throw) or the stream failed: end the request.
      abort();
      reader.cancel().catch(() => {});
    }
  }
}
