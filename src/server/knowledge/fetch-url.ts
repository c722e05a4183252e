/**
 * Fetching URL sources safely. Every address a host name resolves to is checked at connection
 * time (through the socket's own `lookup`, so a DNS answer cannot change between check and
 * connect), on the first request and on every redirect. Refused by default: loopback, private,
 * link-local (which holds the cloud metadata address 169.254.169.254), unique-local, carrier-grade
 * NAT, multicast, reserved and unspecified ranges — anything ipaddr.js does not call `unicast`.
 *
 * Link following, kept small: from the first page only (depth 1), links on the same origin,
 * HTML pages only, at most `maxPages` pages in all (default 5), each under the same size cap and
 * the whole crawl under one time limit.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import type { ExtractLimits } from './isolated.js';
import { extract, extractHtml, kindOfContentType } from './parse.js';

export interface FetchLimits {
  /** The whole fetch (all pages and redirects). Default 15 s. */
  timeoutMs: number;
  /** Per page. Default 5 MiB. */
  maxBytes: number;
  /** Pages in all, the first included. Default 5. */
  maxPages: number;
  /** Redirects per page. Default 5. */
  maxRedirects: number;
}

export const DEFAULT_FETCH_LIMITS: FetchLimits = {
  timeoutMs: 15_000,
  maxBytes: 5 * 1024 * 1024,
  maxPages: 5,
  maxRedirects: 5,
};

export class RefusedAddressError extends Error {
  override readonly name = 'RefusedAddressError';
}

/** True when connecting to this address could reach the server's own network. */
export function isPrivateAddress(address: string): boolean {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(address);
  } catch {
    return true;
  }
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    // `::ffff:a.b.c.d`, and the deprecated `::a.b.c.d` that ipaddr.js calls unicast: judged by
    // the IPv4 address they carry (`::127.0.0.1` is loopback wherever a system still routes it).
    if (v6.isIPv4MappedAddress()) parsed = v6.toIPv4Address();
    else if (v6.parts.slice(0, 6).every((part) => part === 0)) {
      const [high, low] = v6.parts.slice(6) as [number, number];
      parsed = new ipaddr.IPv4([high >> 8, high & 255, low >> 8, low & 255]);
    }
  }
  return parsed.range() !== 'unicast';
}

/** Which addresses a fetch may connect to. */
export type AddressPolicy = (address: string) => boolean;

export const publicOnly: AddressPolicy = (address) => !isPrivateAddress(address);
const anyAddress: AddressPolicy = () => true;

function safeLookup(allowed: AddressPolicy): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      const list = addresses as LookupAddress[];
      const refused = list.find((a) => !allowed(a.address));
      if (refused) {
        return callback(
          new RefusedAddressError(
            `${hostname} resolves to ${refused.address}, a private or local address; URL sources may only reach public addresses`,
          ),
          '',
          0,
        );
      }
      if ((options as { all?: boolean }).all)
        return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
      const first = list[0]!;
      callback(null, first.address, first.family);
    });
  };
}

export interface Page {
  url: string;
  title: string;
  text: string;
}

export interface FetchedSite {
  pages: Page[];
  /** Bytes downloaded over all pages. */
  bytes: number;
}

export async function fetchSite(
  url: string,
  opts: Partial<FetchLimits> & {
    allowPrivate: boolean;
    signal?: AbortSignal;
    /** Overrides `allowPrivate` (tests use it to allow one address and refuse another). */
    policy?: AddressPolicy;
    /** How long and in how much memory a linked PDF or .docx may be read. */
    extractLimits?: Partial<ExtractLimits>;
  },
): Promise<FetchedSite> {
  const limits = { ...DEFAULT_FETCH_LIMITS, ...opts };
  const policy = opts.policy ?? (opts.allowPrivate ? anyAddress : publicOnly);
  const timeout = AbortSignal.timeout(limits.timeoutMs);
  const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
  const first = await fetchPage(url, limits, policy, signal);
  const pages: Page[] = [first.page];
  let bytes = first.bytes;
  const origin = new URL(first.page.url).origin;
  const seen = new Set([stripHash(url), stripHash(first.page.url)]);
  for (const link of first.links) {
    if (pages.length >= limits.maxPages) break;
    const target = stripHash(link);
    if (seen.has(target)) continue;
    seen.add(target);
    let parsed: URL;
    try {
      parsed = new URL(target);
    } catch {
      continue;
    }
    if (parsed.origin !== origin) continue;
    try {
      const next = await fetchPage(target, limits, policy, signal, true);
      bytes += next.bytes;
      if (next.page.text.trim()) pages.push(next.page);
    } catch (error) {
      if (signal.aborted) throw timeoutOr(error, limits);
      // A broken link on the site does not spoil the source.
    }
  }
  return { pages, bytes };
}

const stripHash = (u: string) => u.replace(/#.*$/, '');

function timeoutOr(error: unknown, limits: FetchLimits): Error {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
    return new Error(`fetching the page took longer than ${limits.timeoutMs / 1000} s`);
  }
  return error as Error;
}

async function fetchPage(
  url: string,
  limits: FetchLimits & { extractLimits?: Partial<ExtractLimits> },
  policy: AddressPolicy,
  signal: AbortSignal,
  htmlOnly = false,
): Promise<{ page: Page; links: string[]; bytes: number }> {
  let current = url;
  for (let hop = 0; ; hop++) {
    const target = new URL(current);
    if (target.protocol !== 'http:' && target.protocol !== 'https:') {
      throw new Error(`only http and https addresses can be fetched, not ${target.protocol}`);
    }
    const host = target.hostname.replace(/^\[|\]$/g, '');
    // A literal address never goes through `lookup`, so it is checked here.
    if (ipaddr.isValid(host) && !policy(host)) {
      throw new RefusedAddressError(
        `${host} is a private or local address; URL sources may only reach public addresses`,
      );
    }
    let response: Awaited<ReturnType<typeof get>>;
    try {
      response = await get(target, limits, policy, signal);
    } catch (error) {
      throw timeoutOr(error, limits);
    }
    if (response.status >= 300 && response.status < 400 && response.location) {
      if (hop >= limits.maxRedirects) throw new Error(`more than ${limits.maxRedirects} redirects`);
      current = new URL(response.location, target).href;
      continue;
    }
    if (response.status !== 200) throw new Error(`the page answered HTTP ${response.status}`);
    const kind = kindOfContentType(response.contentType) ?? 'html';
    if (htmlOnly && kind !== 'html')
      return {
        page: { url: current, title: '', text: '' },
        links: [],
        bytes: response.body.length,
      };
    if (kind === 'html') {
      const { main, links } = extractHtml(new TextDecoder().decode(response.body), current);
      return {
        page: { url: current, title: main.title, text: main.text },
        links,
        bytes: response.body.length,
      };
    }
    const extracted = await extract(kind, response.body, limits.extractLimits);
    return {
      page: { url: current, title: extracted.title, text: extracted.text },
      links: [],
      bytes: response.body.length,
    };
  }
}

function get(
  target: URL,
  limits: FetchLimits,
  policy: AddressPolicy,
  signal: AbortSignal,
): Promise<{ status: number; location?: string; contentType: string; body: Uint8Array }> {
  return new Promise((resolve, reject) => {
    const client = target.protocol === 'https:' ? https : http;
    const request = client.get(
      target,
      {
        lookup: safeLookup(policy),
        signal,
        headers: {
          'User-Agent': 'chatbot-elements-reference-server/0.1 (+source fetcher)',
          Accept: 'text/html,application/xhtml+xml,text/plain;q=0.9,*/*;q=0.5',
        },
      },
      (response) => {
        const status = response.statusCode ?? 0;
        if (status >= 300 && status < 400) {
          response.resume();
          return resolve({
            status,
            location: response.headers.location,
            contentType: '',
            body: new Uint8Array(),
          });
        }
        const declared = Number(response.headers['content-length'] ?? 0);
        if (declared > limits.maxBytes) {
          response.destroy();
          return reject(new Error(`the page is larger than ${limits.maxBytes} bytes`));
        }
        const parts: Buffer[] = [];
        let size = 0;
        response.on('data', (part: Buffer) => {
          size += part.length;
          if (size > limits.maxBytes) {
            response.destroy();
            reject(new Error(`the page is larger than ${limits.maxBytes} bytes`));
            return;
          }
          parts.push(part);
        });
        response.on('end', () =>
          resolve({
            status,
            contentType: String(response.headers['content-type'] ?? ''),
            body: new Uint8Array(Buffer.concat(parts)),
          }),
        );
        response.on('error', reject);
      },
    );
    request.on('error', reject);
  });
}
