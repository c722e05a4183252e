import { mulberry32 } from '../random.js';
/**
 * The seeded fuzzer's endpoints and the requests it makes of them: each one is refused by
 * construction (a bad body, encoding, size, uuid, key or header), or a read; none may answer 5xx
 * or change what is stored.
 */

/** A deterministic PRNG (mulberry32), so a failing case is found again from its seed. */
export function prng(seed: number) {
  const next = mulberry32(seed);
  return {
    next,
    int: (n: number) => Math.floor(next() * n),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!,
  };
}
export type Rng = ReturnType<typeof prng>;

/** `enum`: one of a few strings (a type, a colour, a URL), so any other string is refused too. */
export type MemberType = 'string' | 'array' | 'boolean' | 'object' | 'enum' | 'scalar';

export type Kind = 'chatbot' | 'agent' | 'source' | 'tag' | 'session' | 'message';

export interface Endpoint {
  method: 'GET' | 'POST' | 'DELETE';
  /** With `:chatbot`, `:agent`… where the route takes a uuid of that kind. */
  path: string;
  /** A body the endpoint accepts, to corrupt; `upload` for the multipart upload. */
  body?: (ids: Ids) => Record<string, unknown>;
  upload?: true;
  /** Members, by what they take: a value of another type is always refused. */
  typed?: Record<string, MemberType>;
  /** Query parameters the route reads (the review routes). */
  query?: true;
  /** Reachable with a chat-only key of its chatbot. */
  chat?: true;
  /** Acts on no resource of a user: another user's key reaches it legitimately. */
  unowned?: true;
}

export type Ids = Record<Kind, string> & { second: string; link: string };

const uuids = (ids: Ids) => ({ uuids: [ids.source] });

/** Every route of src/server/routes (the test checks that none is missing). */
export const ENDPOINTS: Endpoint[] = [
  { method: 'GET', path: '/api/v1/chatbots', unowned: true },
  {
    method: 'POST',
    path: '/api/v1/chatbot/create',
    body: () => ({ name: 'n' }),
    typed: {
      name: 'string',
      rate_limit: 'array',
      show_citations: 'boolean',
      allowed_origins: 'array',
    },
    unowned: true,
  },
  { method: 'GET', path: '/api/v1/chatbot/:chatbot' },
  {
    method: 'POST',
    path: '/api/v1/chatbot/:chatbot/update',
    body: () => ({ name: 'n' }),
    typed: {
      name: 'string',
      rate_limit_message: 'string',
      visibility: 'string',
      allowed_origins: 'array',
    },
  },
  { method: 'POST', path: '/api/v1/chatbot/:chatbot/delete' },
  { method: 'DELETE', path: '/api/v1/chatbot/:chatbot/delete' },
  {
    method: 'POST',
    path: '/api/v1/chatbot/:chatbot/agent/create',
    body: () => ({ name: 'a', type: 'human-escalation' }),
    typed: {
      name: 'string',
      type: 'enum',
      description: 'string',
      variables: 'array',
      human_escalation_settings: 'object',
    },
  },
  { method: 'GET', path: '/api/v1/chatbot/:chatbot/agents' },
  {
    method: 'POST',
    path: '/api/v1/agent/:agent/update',
    body: () => ({ name: 'a' }),
    typed: {
      name: 'string',
      prompt: 'string',
      enabled: 'boolean',
      data_source_uuids: 'array',
      variables: 'array',
    },
  },
  { method: 'POST', path: '/api/v1/agent/:agent/delete' },
  { method: 'DELETE', path: '/api/v1/agent/:agent/delete' },
  { method: 'GET', path: '/api/v1/chatbot/:chatbot/data-sources' },
  { method: 'POST', path: '/api/v1/chatbot/:chatbot/data-source/upload', upload: true },
  {
    method: 'POST',
    path: '/api/v1/chatbot/:chatbot/data-source/qa',
    body: () => ({ question: 'q', answer: 'a' }),
    typed: { question: 'string', answer: 'string', reference_source_link: 'string' },
  },
  {
    method: 'POST',
    path: '/api/v1/chatbot/:chatbot/data-source/url',
    body: () => ({ url: 'https://example.com/' }),
    typed: { url: 'enum', reference_source_link: 'string' },
  },
  {
    method: 'POST',
    path: '/api/v1/data-source/:source/update',
    body: () => ({ title: 't' }),
    typed: { title: 'string' },
  },
  { method: 'POST', path: '/api/v1/data-source/:source/delete' },
  { method: 'DELETE', path: '/api/v1/data-source/:source/delete' },
  { method: 'POST', path: '/api/v1/data-sources/delete', body: uuids, typed: { uuids: 'array' } },
  { method: 'DELETE', path: '/api/v1/data-sources/delete', body: uuids, typed: { uuids: 'array' } },
  {
    method: 'POST',
    path: '/api/v1/data-sources/url/re-scrape',
    body: (ids) => ({ uuids: [ids.link] }),
    typed: { uuids: 'array' },
  },
  { method: 'POST', path: '/api/data-sources/restart', body: uuids, typed: { uuids: 'array' } },
  { method: 'GET', path: '/api/v1/chatbot/:chatbot/source-tags' },
  {
    method: 'POST',
    path: '/api/v1/chatbot/:chatbot/source-tag/create',
    body: () => ({ name: 't', color: '#123456' }),
    typed: { name: 'string', color: 'enum', data_source_uuids: 'array' },
  },
  {
    method: 'POST',
    path: '/api/v1/source-tag/:tag/update',
    body: () => ({ name: 't' }),
    typed: { name: 'string', color: 'enum', data_source_uuids: 'array' },
  },
  { method: 'POST', path: '/api/v1/source-tag/:tag/delete' },
  { method: 'DELETE', path: '/api/v1/source-tag/:tag/delete' },
  {
    method: 'POST',
    path: '/api/v1/chatbot/:chatbot/session/create',
    body: () => ({ page: 'home' }),
    typed: { page: 'scalar' },
    chat: true,
  },
  { method: 'GET', path: '/api/v1/session/:session', chat: true },
  { method: 'GET', path: '/api/v1/chatbot/:chatbot/sessions' },
  { method: 'POST', path: '/api/v1/session/:session/delete' },
  { method: 'DELETE', path: '/api/v1/session/:session/delete' },
  { method: 'GET', path: '/api/v1/session/:session/messages', chat: true },
  {
    method: 'POST',
    path: '/api/v1/session/:session/message/stream',
    body: () => ({ query: 'q' }),
    typed: { query: 'string' },
    chat: true,
  },
  {
    method: 'POST',
    path: '/api/v1/session/:session/message/non-stream',
    body: () => ({ query: 'q' }),
    typed: { query: 'string' },
    chat: true,
  },
  { method: 'POST', path: '/api/v1/session-document/upload', upload: true, chat: true },
  { method: 'POST', path: '/api/v1/message/:message/delete', chat: true },
  { method: 'DELETE', path: '/api/v1/message/:message/delete', chat: true },
  {
    method: 'POST',
    path: '/api/v1/message/:message/feedback',
    body: () => ({ rating: 'down', reason: 'wrong' }),
    typed: { rating: 'enum', reason: 'enum', comment: 'string' },
    chat: true,
  },
  {
    method: 'POST',
    path: '/api/v1/messages/delete',
    body: (ids) => ({ uuids: [ids.message] }),
    typed: { uuids: 'array' },
    chat: true,
  },
  {
    method: 'DELETE',
    path: '/api/v1/messages/delete',
    body: (ids) => ({ uuids: [ids.message] }),
    typed: { uuids: 'array' },
    chat: true,
  },
  { method: 'GET', path: '/api/v1/chatbot/:chatbot/messages', query: true },
  { method: 'GET', path: '/api/v1/chatbot/:chatbot/conversations', query: true },
  { method: 'GET', path: '/api/v1/chatbot/:chatbot/messages/export', query: true },
  { method: 'GET', path: '/api/v1/chatbot/:chatbot/insights', query: true },
];

/** The route as Hono names it (`:uuid`), to compare with the route files. */
export const routeOf = (e: Endpoint) =>
  e.path.replace(/:(chatbot|agent|source|tag|session|message)/, ':uuid');

export const fill = (path: string, ids: Ids, uuid?: string) =>
  path.replace(/:(chatbot|agent|source|tag|session|message)/, (_, kind: Kind) => uuid ?? ids[kind]);

/** Values a member of each type refuses. */
export const WRONG_VALUES: Record<MemberType, unknown[]> = {
  string: [42, -1.5, true, [], ['x'], { a: 1 }],
  array: [42, true, 'x', { a: 1 }, [1], [{}, []]],
  boolean: [42, 'x', 'true', [], { a: 1 }],
  object: [42, 'x', true, [], [{}]],
  enum: [42, true, [], { a: 1 }, 'not-one-of-them'],
  scalar: [[], ['x'], { a: 1 }],
};

/** Path segments where a uuid belongs: none of them names anything the caller may reach. */
export const ODD_UUIDS = [
  '00000000-0000-4000-8000-000000000000',
  'not-a-uuid',
  '%20',
  '%00',
  '%ff',
  '%',
  '..%2F..%2Fchatbots',
  "'%20OR%201=1%20--",
  '%F0%9F%92%A9',
  'a'.repeat(4000),
  'NULL',
  '-1',
];

/** Bodies that are not the JSON object an endpoint takes, as bytes. */
export function badJsonBodies(rng: Rng, valid: Record<string, unknown>): Buffer[] {
  const text = JSON.stringify(valid);
  const nested = `${'['.repeat(40 + rng.int(4000))}${']'.repeat(40)}`;
  return [
    Buffer.from(text.slice(0, Math.max(1, rng.int(text.length)))),
    Buffer.from('[]'),
    Buffer.from('"a string"'),
    Buffer.from('null'),
    Buffer.from(`{"a":${nested}}`),
    Buffer.from(`${text}}`),
    Buffer.from('name=n&title=t'),
    // Not UTF-8: a byte outside any string, and the whole text as UTF-16 with its BOM.
    Buffer.concat([Buffer.from('{'), Buffer.from([0xff, 0xfe]), Buffer.from(text.slice(1))]),
    Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]),
  ];
}

export const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-16',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/octet-stream',
  '',
];

/** Query strings the review routes refuse, each naming a parameter. */
export const BAD_QUERIES = [
  '?limit=0',
  '?limit=-5',
  '?limit=abc',
  '?limit=100000',
  '?cursor=garbage',
  '?cursor=%ff',
  '?from=yesterday',
  '?from=2026-13-45',
  '?to=2026-01-01&from=2027-01-01',
  '?rating=maybe',
  '?covered=yes',
  '?q=',
  '?q=%20%20%2B',
  `?q=${'x'.repeat(600)}`,
  '?format=xml',
  '?unknown=1',
  '?rating=up&rating=down',
];

/** Authorization headers that carry no valid key. */
export const BAD_AUTHORIZATIONS = [
  undefined,
  '',
  'Bearer',
  'Bearer ',
  'Bearer a b',
  'Basic dGVzdDp0ZXN0',
  `Bearer ${'k'.repeat(10_000)}`,
  'Bearer \u00e9t\u00e9',
  'Token test-admin-key',
];

/** Multipart bodies the upload refuses: malformed, no file, an empty file, a refused type. */
export function badUploads(rng: Rng): Array<{ type: string; body: Buffer }> {
  const part = (name: string, file: string | null, content: string, type = '') =>
    `--x\r\nContent-Disposition: form-data; name="${name}"${file === null ? '' : `; filename="${file}"`}\r\n${type ? `Content-Type: ${type}\r\n` : ''}\r\n${content}\r\n`;
  const multipart = 'multipart/form-data; boundary=x';
  return [
    { type: multipart, body: Buffer.from('--x\r\nnot a part') },
    { type: multipart, body: Buffer.from(`${part('link', null, 'x')}--x--\r\n`) },
    { type: multipart, body: Buffer.from(`${part('file', 'a.txt', '')}--x--\r\n`) },
    // Typed as a browser types it: a part without a type is text/plain (RFC 2046).
    {
      type: multipart,
      body: Buffer.from(`${part('file', 'a.exe', 'MZ', 'application/x-msdownload')}--x--\r\n`),
    },
    { type: multipart, body: Buffer.from(`${part('file', null, 'text')}--x--\r\n`) },
    {
      type: multipart,
      body: Buffer.from(`${part('file', 'a.txt', 'x')}${part('file', 'b.txt', 'y')}--x--\r\n`),
    },
    { type: 'multipart/form-data', body: Buffer.from(`${part('file', 'a.txt', 'x')}--x--\r\n`) },
    { type: 'application/json', body: Buffer.from('{"file":"x"}') },
    { type: multipart, body: Buffer.alloc(rng.int(64), 0) },
  ];
}
