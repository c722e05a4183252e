/** Base URLs for the scripted endpoints of fixture-server.mjs, usable in Node and in browsers. */

export type FixtureKind = 'status' | 'flaky' | 'slow' | 'drop' | 'stream';

function base64url(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export function fixtureBase(origin: string, kind: 'echo' | 'upload'): string;
export function fixtureBase(origin: string, kind: FixtureKind, options: object): string;
export function fixtureBase(origin: string, kind: string, options?: object): string {
  return options === undefined
    ? `${origin}/fixture/${kind}`
    : `${origin}/fixture/${kind}/${base64url(JSON.stringify(options))}`;
}

/** Bytes of a UTF-8 string, as plain numbers (the stream fixture writes each array as one chunk). */
export const utf8 = (text: string): number[] => [...new TextEncoder().encode(text)];

/** Splits bytes into chunks of `size`, so boundaries fall inside multi-byte characters. */
export function chunked(bytes: number[], size: number): number[][] {
  const chunks: number[][] = [];
  for (let i = 0; i < bytes.length; i += size) chunks.push(bytes.slice(i, i + size));
  return chunks;
}

export async function collect(iterable: AsyncIterable<string>): Promise<string[]> {
  const pieces: string[] = [];
  for await (const piece of iterable) pieces.push(piece);
  return pieces;
}
