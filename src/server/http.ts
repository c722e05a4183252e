import { randomUUID } from 'node:crypto';
import { type IncomingMessage, maxHeaderSize, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';

/**
 * The one exception a handler throws: a status and a stable code, mapped to
 * `{error: {code, message}}` by onError.
 */
export class HttpError extends HTTPException {
  constructor(
    status: ContentfulStatusCode,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(status, { message });
  }

  /** Any HTTP exception as ours: Hono's own (a request it could not handle) are a `bad_request`. */
  static from(error: HTTPException): HttpError {
    return error instanceof HttpError
      ? error
      : new HttpError(error.status, 'bad_request', error.message || 'bad request');
  }
}

/** The body of every failure. */
export const errorBody = (code: string, message: string) => ({ error: { code, message } });

export const badInput = (message: string) => new HttpError(400, 'invalid_input', message);

/** The start of a value a message echoes, cut on characters: half an emoji is no character. */
export const excerptOf = (value: string, chars = 40) => [...value].slice(0, chars).join('');
/**
 * The rest of an oversized body is read and thrown away (body.ts, drainUnread) but not parsed:
 * `Connection: close` tells the client not to send another request on it.
 */
export const tooLarge = (message: string) =>
  new HttpError(413, 'too_large', message, { Connection: 'close' });
export const notFound = (what: string) => new HttpError(404, 'not_found', `${what} not found`);

/** `YYYY-MM-DDTHH:MM:SSZ` of a time in milliseconds, as the interface writes timestamps. */
export const timestamp = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
export const now = () => timestamp(Date.now());
export const newUuid = () => randomUUID();

export const HEX_COLOR = /^#[0-9a-fA-F]{6}$/;

/**
 * Reads members of a JSON body, throwing a 400 that names the member on the first bad one.
 * Members that are absent come back as undefined; `null` counts as absent.
 */
export class Fields {
  readonly raw: Record<string, unknown>;

  constructor(
    value: unknown,
    readonly prefix = '',
  ) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw badInput(
        prefix
          ? `${prefix.replace(/\.$/, '')} must be an object`
          : 'the body must be a JSON object',
      );
    }
    this.raw = value as Record<string, unknown>;
  }

  has(name: string): boolean {
    return this.raw[name] !== undefined && this.raw[name] !== null;
  }

  private name(name: string) {
    return this.prefix + name;
  }

  string(name: string, opts: { required: true; max?: number; nonEmpty?: boolean }): string;
  string(
    name: string,
    opts?: { required?: false; max?: number; nonEmpty?: boolean },
  ): string | undefined;
  string(name: string, opts: { required?: boolean; max?: number; nonEmpty?: boolean } = {}) {
    const value = this.raw[name];
    if (value === undefined || value === null) {
      if (opts.required) throw badInput(`${this.name(name)} is required`);
      return undefined;
    }
    if (typeof value !== 'string') throw badInput(`${this.name(name)} must be a string`);
    if ((opts.nonEmpty ?? opts.required) && value.trim() === '') {
      throw badInput(`${this.name(name)} must not be empty`);
    }
    const max = opts.max ?? 100_000;
    if (value.length > max) throw badInput(`${this.name(name)} must be at most ${max} characters`);
    return value;
  }

  boolean(name: string): boolean | undefined {
    const value = this.raw[name];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'boolean') throw badInput(`${this.name(name)} must be a boolean`);
    return value;
  }

  /** A boolean, or the integers 0 and 1 that the service itself uses for flags. */
  flag(name: string): boolean | undefined {
    const value = this.raw[name];
    if (value === 0 || value === 1) return value === 1;
    return this.boolean(name);
  }

  number(name: string, opts: { min?: number; max?: number } = {}): number | undefined {
    const value = this.raw[name];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      throw badInput(`${this.name(name)} must be a number`);
    }
    if (opts.min !== undefined && value < opts.min) {
      throw badInput(`${this.name(name)} must be at least ${opts.min}`);
    }
    if (opts.max !== undefined && value > opts.max) {
      throw badInput(`${this.name(name)} must be at most ${opts.max}`);
    }
    return value;
  }

  color(name: string, required = false): string | undefined {
    const value = required ? this.string(name, { required: true }) : this.string(name);
    if (value !== undefined && !HEX_COLOR.test(value)) {
      throw badInput(`${this.name(name)} must be a hex color such as #1A2B3C`);
    }
    return value;
  }

  strings(name: string, opts: { required?: boolean; max?: number } = {}): string[] | undefined {
    const value = this.raw[name];
    if (value === undefined || value === null) {
      if (opts.required) throw badInput(`${this.name(name)} is required`);
      return undefined;
    }
    if (!Array.isArray(value)) throw badInput(`${this.name(name)} must be an array of strings`);
    value.forEach((item, i) => {
      if (typeof item !== 'string') throw badInput(`${this.name(name)}[${i}] must be a string`);
    });
    const max = opts.max ?? 1000;
    if (value.length > max) throw badInput(`${this.name(name)} must have at most ${max} items`);
    return value as string[];
  }

  array(name: string, opts: { max?: number } = {}): unknown[] | undefined {
    const value = this.raw[name];
    if (value === undefined || value === null) return undefined;
    if (!Array.isArray(value)) throw badInput(`${this.name(name)} must be an array`);
    if (opts.max !== undefined && value.length > opts.max) {
      throw badInput(`${this.name(name)} must have at most ${opts.max} items`);
    }
    return value;
  }

  object(name: string): Fields | undefined {
    const value = this.raw[name];
    if (value === undefined || value === null) return undefined;
    return new Fields(value, `${this.name(name)}.`);
  }
}

/** Node's request under a context; undefined for an in-process request (app.request). */
export const incomingOf = (c: Context) =>
  (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;

/** Node's response under a context; undefined for an in-process request (app.request). */
export const outgoingOf = (c: Context) =>
  (c.env as { outgoing?: ServerResponse } | undefined)?.outgoing;

/**
 * A request header as `c.req.header()` reads it (repeated headers joined by ", "), taken from
 * Node's raw headers when there are: `c.req.header()` makes @hono/node-server build a web
 * Headers object of the whole request first. `name` is lower case.
 */
export function requestHeader(c: Context, name: string): string | undefined {
  const raw = incomingOf(c)?.rawHeaders;
  if (!raw) return c.req.header(name);
  let value: string | undefined;
  for (let i = 0; i < raw.length; i += 2) {
    const key = raw[i]!;
    if (key.length === name.length && key.toLowerCase() === name) {
      value = value === undefined ? raw[i + 1] : `${value}, ${raw[i + 1]}`;
    }
  }
  return value;
}

/** How many times the request sent a header (Node's raw headers; in process, 0 or 1). */
export function headerLines(c: Context, name: string): number {
  const raw = incomingOf(c)?.rawHeaders;
  if (!raw) return c.req.header(name) === undefined ? 0 : 1;
  let lines = 0;
  for (let i = 0; i < raw.length; i += 2) {
    const key = raw[i]!;
    if (key.length === name.length && key.toLowerCase() === name) lines++;
  }
  return lines;
}

/**
 * What a handler returns when it wrote the response itself on Node, which tells
 * @hono/node-server to leave it alone. One shared object: nothing adds to it, as middleware
 * checks `isAlreadySent` before setting headers after the handler, and Hono copies a finished
 * response before changing it.
 */
const ALREADY_SENT = new Response(null, { headers: { 'x-hono-already-sent': 'true' } });
export const alreadySent = () => ALREADY_SENT;
export const isAlreadySent = (response: Response) => response === ALREADY_SENT;

/** What a request Node's parser refused answers, by the parser's error code. */
function parserRefusal(code: string | undefined): [number, string, string, string] {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return [
        431,
        'Request Header Fields Too Large',
        'too_large',
        `the request's path and headers are larger than ${maxHeaderSize} bytes together`,
      ];
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return [413, 'Payload Too Large', 'too_large', "a chunk's extensions are too large"];
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return [408, 'Request Timeout', 'timeout', 'the request took too long to arrive'];
    default:
      return [400, 'Bad Request', 'bad_request', 'the request is not valid HTTP/1.1'];
  }
}

/**
 * A request Node's parser refuses before the app sees it (a path or headers over 16 KB, a line
 * that is no HTTP) answers the JSON error shape too, instead of Node's bare status line, so that
 * clients read every failure one way. As Node's own answer, it goes out only while no response
 * of an earlier request on the connection has begun, and the connection then closes: its parser
 * is past use.
 */
export function answerParserErrors(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    // The response in progress on the socket, which Node's own handler checks the same way.
    const current = (socket as { _httpMessage?: ServerResponse })._httpMessage;
    if (error.code === 'ECONNRESET' || !socket.writable || current?.headersSent) {
      socket.destroy();
      return;
    }
    const [status, reason, code, message] = parserRefusal(error.code);
    const body = JSON.stringify(errorBody(code, message));
    socket.end(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      () => socket.destroy(),
    );
  });
}

/**
 * How long an idle kept-alive connection stays open by default: longer than the 60 s a load
 * balancer keeps its own connections to a server (nginx's upstream keepalive, AWS's load
 * balancers). With Node's 5 s, a balancer may reuse a connection the server has just closed, and
 * the visitor gets a 502. Clients read it from the `Keep-Alive` header and retire theirs before.
 * `headersTimeout` stays Node's: since Node 18.2 it no longer has to exceed this.
 */
export const KEEP_ALIVE_MS = 65_000;
