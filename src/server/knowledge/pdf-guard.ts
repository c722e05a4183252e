import { inflateSync, constants as zlib } from 'node:zlib';

/**
 * Refuses a PDF whose streams unpack to more than `limit` bytes together, before pdfjs reads it.
 * pdfjs keeps each stream it decodes whole in a buffer outside the JavaScript heap, where the
 * worker's heap limit does not reach: a 1 MB file of deflated spaces took the server to 2.5 GB
 * (measured), a 20 MB one would take 50. Each stream's filters are undone here in turn with the
 * output capped at what is left of the limit, so the `/Length` and sizes the file declares are
 * not trusted. Every stream counts, pictures too: a dictionary saying `/Subtype /Image` does not
 * stop pdfjs decoding the stream as a page's text when a page names it as its contents.
 *
 * What this cannot undo counts at its size in the file: JPEG, JPEG 2000, JBIG2 and fax pictures
 * (pdfjs does not decode them to read text) and the streams of an encrypted PDF, which pdfjs
 * decrypts with an empty password. An encrypted bomb is left to isolated.ts, which stops a
 * reading that grows the process past its memory limit.
 */
export function checkStreams(bytes: Uint8Array, limit: number): void {
  const file = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // latin1 keeps one character per byte, so offsets in the text are offsets in the file.
  const text = file.toString('latin1');
  let left = limit;
  let previous = 0;
  const keyword = /stream(?:\r\n|\n|\r)/g;
  for (let match = keyword.exec(text); match; match = keyword.exec(text)) {
    if (text.startsWith('end', match.index - 3)) continue;
    const dictionary = dictionaryBefore(text, previous, match.index);
    if (dictionary === undefined) continue;
    const start = match.index + match[0].length;
    const end = streamEnd(text, dictionary, start);
    previous = keyword.lastIndex = end;
    left -= unpacked(file.subarray(start, end), filtersOf(dictionary), left + 1);
    if (left < 0) {
      throw new Error(`its streams unpack to more than ${Math.round(limit / 2 ** 20)} MB`);
    }
  }
}

/**
 * The stream's dictionary, when `stream` follows one (`>>`): from its object's `N G obj` to
 * `stream`, looked for no further back than the previous stream's end, so a file of many streams
 * is read once, not once per stream. The last `/Filter` and `/Length` in it are the stream's own.
 */
function dictionaryBefore(text: string, from: number, at: number): string | undefined {
  let end = at;
  while (end > from && WHITESPACE.has(text.charCodeAt(end - 1))) end--;
  if (!text.startsWith('>>', end - 2)) return undefined;
  const head = text.slice(from, at);
  let opened = head.lastIndexOf('obj');
  while (opened >= 0 && !/\d\s+\d+\s+$/.test(head.slice(Math.max(0, opened - 32), opened))) {
    opened = head.lastIndexOf('obj', opened - 1);
  }
  return opened < 0 ? head : head.slice(opened);
}

/** PDF's white-space characters: NUL, tab, line feed, form feed, carriage return, space. */
const WHITESPACE = new Set([0, 9, 10, 12, 13, 32]);

/** Where the stream's data ends: its direct `/Length` when `endstream` follows it there. */
function streamEnd(text: string, dictionary: string, start: number): number {
  const length = [...dictionary.matchAll(/\/Length\s+(\d+)(?!\s+\d+\s+R)/g)].at(-1);
  if (length) {
    const end = start + Number(length[1]);
    if (/^\s*endstream/.test(text.slice(end, end + 64))) return end;
  }
  const end = text.indexOf('endstream', start);
  return end < 0 ? text.length : end;
}

function filtersOf(dictionary: string): string[] {
  const filter = [...dictionary.matchAll(/\/Filter\s*(\[[^\]]*\]|\/[^\s/[\]<>()]+)/g)].at(-1);
  return filter ? [...filter[1]!.matchAll(/\/([^\s/[\]<>()]+)/g)].map((m) => m[1]!) : [];
}

/** Bytes a stream unpacks to, up to `cap` (past it, the cap): its filters undone in order. */
function unpacked(data: Buffer, filters: string[], cap: number): number {
  let out = data;
  for (const filter of filters) {
    const decode = DECODERS[filter];
    // A filter of pictures (pdfjs leaves them be), or encryption's: counted as it stands.
    if (!decode) break;
    try {
      out = decode(out, cap);
    } catch (error) {
      if (isTooLarge(error)) return cap;
      // Data this cannot undo is data pdfjs fails on too (or an encrypted file's): as it stands.
      break;
    }
    if (out.length >= cap) return cap;
  }
  return out.length;
}

type Decoder = (data: Buffer, cap: number) => Buffer;

/** zlib data, also cut short (pdfjs reads what a truncated stream holds, as do we). */
const inflate: Decoder = (data, cap) =>
  inflateSync(data, { maxOutputLength: cap, finishFlush: zlib.Z_SYNC_FLUSH });

/**
 * zlib data, damaged too: pdfjs keeps what a stream gave before its damage (its errors in a
 * page's contents are ignored), so its longest readable start counts, found by halving.
 */
const flate: Decoder = (data, cap) => {
  try {
    return inflate(data, cap);
  } catch (error) {
    if (isTooLarge(error)) throw error;
  }
  let read: Buffer = Buffer.alloc(0);
  let good = 0;
  let bad = data.length;
  while (bad - good > 1) {
    const middle = (good + bad) >>> 1;
    try {
      read = inflate(data.subarray(0, middle), cap);
      good = middle;
    } catch (error) {
      if (isTooLarge(error)) throw error;
      bad = middle;
    }
  }
  return read;
};

const DECODERS: Record<string, Decoder> = {
  FlateDecode: flate,
  Fl: flate,
  LZWDecode: lzw,
  LZW: lzw,
  RunLengthDecode: runLength,
  RL: runLength,
  ASCII85Decode: ascii85,
  A85: ascii85,
  ASCIIHexDecode: asciiHex,
  AHx: asciiHex,
};

/** Past the cap: zlib's own error, and ours for the decoders written here. */
const TOO_LARGE = 'ERR_BUFFER_TOO_LARGE';
const tooLarge = () => Object.assign(new Error('too large'), { code: TOO_LARGE });
const isTooLarge = (error: unknown) => (error as { code?: string }).code === TOO_LARGE;

/** Output of a decoder, refused past `cap` bytes. */
class Output {
  private buffer = Buffer.alloc(1024);
  length = 0;
  constructor(private readonly cap: number) {}
  push(bytes: Buffer | number[]): void {
    // Reserved first: it may replace the buffer with a larger one.
    const at = this.reserve(bytes.length);
    this.buffer.set(bytes, at);
  }
  private room(size: number): void {
    if (size <= this.buffer.length) return;
    const grown = Buffer.alloc(Math.min(this.cap, 2 * size));
    this.buffer.copy(grown, 0, 0, this.length);
    this.buffer = grown;
  }
  repeat(byte: number, count: number): void {
    const at = this.reserve(count);
    this.buffer.fill(byte, at, at + count);
  }
  /** Room for `count` more bytes, for the caller to write at the offset returned. */
  reserve(count: number): number {
    if (this.length + count > this.cap) throw tooLarge();
    this.room(this.length + count);
    this.length += count;
    return this.length - count;
  }
  get written(): Buffer {
    return this.buffer;
  }
  bytes(): Buffer {
    return this.buffer.subarray(0, this.length);
  }
}

/**
 * LZW with 9- to 12-bit codes, the code width growing one code early (`/EarlyChange 1`). Each
 * code is its prefix's code and one byte, so the table stays 4,096 entries of three numbers.
 */
function lzw(data: Buffer, cap: number): Buffer {
  const out = new Output(cap);
  const prefix = new Int32Array(4096);
  const last = new Uint8Array(4096);
  const first = new Uint8Array(4096);
  const size = new Int32Array(4096);
  for (let i = 0; i < 256; i++) {
    prefix[i] = -1;
    last[i] = first[i] = i;
    size[i] = 1;
  }
  let next = 258;
  let width = 9;
  let bits = 0;
  let held = 0;
  let previous = -1;
  // A code's string, written from its end back through its prefixes.
  const write = (code: number): void => {
    const at = out.reserve(size[code]!);
    const buffer = out.written;
    for (let c = code, i = at + size[code]! - 1; c >= 0; c = prefix[c]!, i--) buffer[i] = last[c]!;
  };
  for (const byte of data) {
    held = ((held << 8) | byte) & 0xffffff;
    bits += 8;
    while (bits >= width) {
      bits -= width;
      const code = (held >>> bits) & ((1 << width) - 1);
      if (code === 256) {
        next = 258;
        width = 9;
        previous = -1;
        continue;
      }
      if (code === 257 || code > next || (code === next && previous < 0)) return out.bytes();
      let head: number;
      if (code === next) {
        // The code being defined: the previous string and its own first byte.
        head = first[previous]!;
        write(previous);
        out.repeat(head, 1);
      } else {
        head = first[code]!;
        write(code);
      }
      if (previous >= 0 && next < 4096) {
        prefix[next] = previous;
        last[next] = head;
        first[next] = first[previous]!;
        size[next] = size[previous]! + 1;
        next++;
      }
      previous = code;
      if (next + 1 >= 1 << width && width < 12) width++;
    }
  }
  return out.bytes();
}

/** Runs: a length byte, then that many bytes plus one, or one byte repeated 257 − length times. */
function runLength(data: Buffer, cap: number): Buffer {
  const out = new Output(cap);
  for (let i = 0; i < data.length; ) {
    const length = data[i++]!;
    if (length === 128) break;
    if (length < 128) {
      out.push(data.subarray(i, i + length + 1));
      i += length + 1;
    } else {
      out.repeat(data[i++] ?? 0, 257 - length);
    }
  }
  return out.bytes();
}

function ascii85(data: Buffer, cap: number): Buffer {
  const out = new Output(cap);
  const text = data.toString('latin1');
  const end = text.indexOf('~>');
  let group: number[] = [];
  for (const char of end < 0 ? text : text.slice(0, end)) {
    if (char === 'z' && group.length === 0) {
      out.push([0, 0, 0, 0]);
      continue;
    }
    const digit = char.charCodeAt(0) - 33;
    if (digit < 0 || digit > 84) continue;
    group.push(digit);
    if (group.length === 5) {
      out.push(word85(group, 4));
      group = [];
    }
  }
  if (group.length > 1) {
    const kept = group.length - 1;
    while (group.length < 5) group.push(84);
    out.push(word85(group, kept));
  }
  return out.bytes();
}

function word85(digits: number[], kept: number): number[] {
  const value = digits.reduce((total, digit) => total * 85 + digit, 0);
  return [value >>> 24, (value >>> 16) & 255, (value >>> 8) & 255, value & 255].slice(0, kept);
}

function asciiHex(data: Buffer, cap: number): Buffer {
  const digits = data
    .toString('latin1')
    .split('>')[0]!
    .replace(/[^0-9a-fA-F]/g, '');
  if (digits.length / 2 > cap) throw tooLarge();
  return Buffer.from(digits.length % 2 ? `${digits}0` : digits, 'hex');
}
