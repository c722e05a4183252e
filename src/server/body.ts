/**
 * Request bodies: read from Node's request stream with a byte limit, parsed as JSON with a depth
 * limit, and whatever a refused request left unread drained before its answer goes out.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Context, MiddlewareHandler } from 'hono';
import {
  badInput,
  Fields,
  HttpError,
  incomingOf,
  isAlreadySent,
  outgoingOf,
  requestHeader,
  tooLarge,
} from './http.js';
import { JSON_DEPTH_LIMIT, jsonTooDeep } from './json-depth.js';

export const JSON_LIMIT_BYTES = 1024 * 1024;

/**
 * How much of a refused request's body is read and thrown away before the answer, and how long
 * the client may pause while sending it. Past either, the answer goes out and the connection
 * closes on the unread rest, which clients that write their whole body before reading (Python's
 * requests, raw sockets) see as a reset.
 */
export const DRAIN_LIMIT_BYTES = 128 * 1024 * 1024;
export const DRAIN_IDLE_MS = 5000;
export const DRAIN_TOTAL_MS = 60_000;

/**
 * How long a body being read may pause before the request is refused with 408: a client that
 * stops mid-body would otherwise hold its connection (and its buffered part) until Node's own
 * five-minute request timeout. A field, so a test can shorten it.
 */
export const bodyReading = { idleMs: 30_000 };

/**
 * Requests whose client waits for `100 Continue` before it sends the body (`Expect:
 * 100-continue`, as curl sends with an upload), and has not been told to yet. Node would say it
 * at once, before the request is even seen; `answerExpectContinue` makes it wait until the body
 * is read, so that a refusal from the headers alone (401, 404, a declared length over the limit,
 * an hourly upload cap) goes out before the client has sent a byte of the body.
 */
const awaitingContinue = new WeakSet<IncomingMessage>();

/** Lets a server's requests with `Expect: 100-continue` be told to go on only by readBody. */
export function answerExpectContinue(server: Server): void {
  server.on('checkContinue', (incoming: IncomingMessage, outgoing: ServerResponse) => {
    awaitingContinue.add(incoming);
    server.emit('request', incoming, outgoing);
  });
}

/** Tells a client waiting for it to send the body (see `awaitingContinue`). */
function sayContinue(c: Context, incoming: IncomingMessage): void {
  if (!awaitingContinue.delete(incoming)) return;
  outgoingOf(c)?.writeContinue();
}

/** The body's length as its Content-Length header declares it; 0 without one. */
export function declaredLength(c: Context): number {
  return Number.parseInt(requestHeader(c, 'content-length') ?? '0', 10) || 0;
}

/** The 413's message for a body past `limit`. */
const overLimit = (what: string, limit: number) => `${what} is larger than ${limit} bytes`;

/**
 * A 413 from the declared length alone, before anything is read. `said` is its message, where a
 * route names another limit than the body's (a file's, not the form's room around it).
 */
export function refuseDeclaredLength(
  c: Context,
  limit: number,
  what: string,
  said = overLimit(what, limit),
): void {
  if (requestHeader(c, 'transfer-encoding') !== undefined) return;
  if (declaredLength(c) > limit) throw tooLarge(said);
}

/**
 * The whole body, or a 413 once it passes `limit` bytes, declared or counted (a chunked body has
 * no declared length). On Node it is read from the request stream itself: a web Request around
 * it costs most of what a small JSON request does, and the rest of a refused body must stay
 * readable for the drain.
 */
export async function readBody(
  c: Context,
  limit: number,
  what: string,
  said = overLimit(what, limit),
): Promise<Buffer> {
  refuseDeclaredLength(c, limit, what, said);
  const incoming = incomingOf(c);
  if (!incoming || incoming.readableDidRead) return readWebBody(c, limit, said);
  sayContinue(c, incoming);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const idle = setTimeout(() => {
      stop();
      reject(new HttpError(408, 'timeout', `${what} stopped arriving`));
    }, bodyReading.idleMs);
    const stop = () => {
      clearTimeout(idle);
      incoming.off('data', onData);
      incoming.off('end', onEnd);
      incoming.off('error', onGone);
      incoming.off('close', onGone);
    };
    const onData = (chunk: Buffer) => {
      idle.refresh();
      size += chunk.length;
      if (size <= limit) return void chunks.push(chunk);
      stop();
      incoming.pause();
      reject(tooLarge(said));
    };
    const onEnd = () => {
      stop();
      resolve(Buffer.concat(chunks, size));
    };
    const onGone = () => {
      stop();
      reject(unreadable());
    };
    incoming.on('data', onData);
    incoming.once('end', onEnd);
    incoming.once('error', onGone);
    incoming.once('close', onGone);
  });
}

/** The client went away mid-body: nobody reads the answer, but it must not count as a failure. */
const unreadable = () => new HttpError(400, 'bad_request', 'the request body could not be read');

/** Through the web Request (app.request, where there is no Node stream), counting its bytes. */
async function readWebBody(c: Context, limit: number, said: string): Promise<Buffer> {
  const body = c.req.raw.body;
  if (!body || c.req.raw.bodyUsed) return Buffer.from(await c.req.arrayBuffer());
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    let next: ReadableStreamReadResult<Uint8Array>;
    try {
      next = await reader.read();
    } catch {
      throw unreadable();
    }
    if (next.done) return Buffer.concat(chunks, size);
    size += next.value.byteLength;
    if (size > limit) {
      void reader.cancel();
      throw tooLarge(said);
    }
    chunks.push(next.value);
  }
}

/**
 * The parsed body, or undefined when the request has none. A body that is not UTF-8, invalid
 * JSON, JSON nested more than JSON_DEPTH_LIMIT levels and a string holding half a surrogate pair
 * are a 400, the last two naming the member.
 */
export async function readJsonBody(c: Context): Promise<unknown> {
  const text = utf8Text(await readBody(c, JSON_LIMIT_BYTES, 'the body'));
  if (text.trim() === '') return undefined;
  const deep = jsonTooDeep(text, JSON_DEPTH_LIMIT);
  if (deep) throw badInput(`${deep} is nested more than ${JSON_DEPTH_LIMIT} levels deep`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new HttpError(400, 'invalid_json', 'the body is not valid JSON');
  }
  // Only an escape (`"\ud800"`) can make one: the decoder refuses an encoded surrogate.
  const unpaired = SURROGATE_ESCAPE.test(text) ? unpairedSurrogateAt(value) : null;
  if (unpaired !== null) {
    throw badInput(`${unpaired} holds an unpaired surrogate (a lone \\uD800-\\uDFFF escape)`);
  }
  return value;
}

/**
 * The body as text, or a 400 when it is not UTF-8: replacing the bad bytes would store text the
 * client never sent. A leading byte order mark is dropped, as RFC 8259 lets a JSON parser do.
 */
function utf8Text(bytes: Uint8Array): string {
  try {
    return UTF8.decode(bytes);
  } catch {
    throw new HttpError(400, 'invalid_json', 'the body is not valid UTF-8');
  }
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;
const UNPAIRED = /\p{Cs}/u;

/**
 * The member path (`name`, `tags[0].name`, `body[1]`) of a string or member name holding an
 * unpaired surrogate, which the stores would not keep as sent; null when none does. Iterative,
 * as in json-depth.ts, though the depth is already bounded.
 */
function unpairedSurrogateAt(value: unknown): string | null {
  const open: Array<[unknown, string]> = [[value, '']];
  for (let next = open.pop(); next; next = open.pop()) {
    const [item, path] = next;
    if (typeof item === 'string' && UNPAIRED.test(item)) return path || 'body';
    if (typeof item !== 'object' || item === null) continue;
    for (const [key, member] of Object.entries(item)) {
      const at = Array.isArray(item) ? `${path || 'body'}[${key}]` : path ? `${path}.${key}` : key;
      if (UNPAIRED.test(key)) return at;
      open.push([member, at]);
    }
  }
  return null;
}

/**
 * Validation middleware: parses the JSON body (whatever its Content-Type says, as lenient
 * clients omit it), hands it to `parse` and stores the clean result for `c.get('body')`.
 */
export function jsonBody<T>(
  parse: (fields: Fields) => T,
): MiddlewareHandler<{ Variables: { body: T } }> {
  return async (c, next) => {
    const value = await readJsonBody(c);
    // No body reads as `{}`; a JSON `null` is not an object, and is refused as one.
    c.set('body', parse(new Fields(value === undefined ? {} : value)));
    await next();
  };
}

/**
 * Reads and discards what a request left unread (a refusal answered before its body: 401, 404,
 * 413, 415…) before the answer goes out. Answering first and closing on an unread body makes the
 * client's socket reset, and a client still writing then loses the answer (EPIPE, "other side
 * closed"). Past the drain's bounds the answer goes out anyway, with `Connection: close`.
 */
export function drainUnread(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const incoming = incomingOf(c);
    if (!incoming || incoming.complete || incoming.destroyed || isAlreadySent(c.res)) return;
    // Refused before its client was told to send the body: there is none to read. A client that
    // sends it all the same, its wait over, does so on a connection that closes after this.
    if (awaitingContinue.has(incoming)) {
      c.header('Connection', 'close');
      return;
    }
    if (!(await drain(incoming))) c.header('Connection', 'close');
  };
}

/** Resolves true once the body has ended, false when a bound stopped the drain first. */
export function drain(incoming: IncomingMessage): Promise<boolean> {
  const declared = Number.parseInt(incoming.headers['content-length'] ?? '0', 10);
  if (declared > DRAIN_LIMIT_BYTES) return Promise.resolve(false);
  return new Promise((resolve) => {
    let bytes = 0;
    const finish = (drained: boolean) => {
      clearTimeout(idle);
      clearTimeout(total);
      incoming.off('data', onData);
      incoming.off('end', onEnd);
      incoming.off('error', onGone);
      incoming.off('close', onGone);
      if (!drained) incoming.pause();
      resolve(drained);
    };
    const idle = setTimeout(() => finish(false), DRAIN_IDLE_MS);
    const total = setTimeout(() => finish(false), DRAIN_TOTAL_MS);
    const onData = (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > DRAIN_LIMIT_BYTES) finish(false);
      else idle.refresh();
    };
    const onEnd = () => finish(true);
    const onGone = () => finish(false);
    incoming.on('data', onData);
    incoming.once('end', onEnd);
    incoming.once('error', onGone);
    incoming.once('close', onGone);
    incoming.resume();
  });
}
