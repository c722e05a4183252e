import { inflateRawSync } from 'node:zlib';

const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;

/**
 * Refuses a zip (a .docx) whose entries unpack to more than `limit` bytes together, before a
 * library unpacks them whole: a 113 KB .docx can hold 30 MB of text, and a 300 KB one 300 MB,
 * which mammoth would hold in memory and ingestion then store. Each entry is inflated here with
 * its output capped at what is left of the limit, so the sizes the archive declares (which it
 * may lie about) are not trusted. Every entry counts, whatever its name: mammoth finds the
 * document by the package's relationships, which may name `word/main.bin` as well as
 * `word/document.xml`. Anything this cannot follow is refused as unreadable: what the library
 * would read past it is what this could not check.
 */
export function checkUnpacked(bytes: Uint8Array, limit: number): void {
  const zip = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end < 0 || zip.length < end + 22 || zip.readUInt32LE(end) !== END_OF_DIRECTORY) {
    throw new Error('not a .docx (zip) file');
  }
  let left = limit;
  try {
    let at = zip.readUInt32LE(end + 16);
    for (let n = zip.readUInt16LE(end + 10); n > 0; n--) {
      if (zip.readUInt32LE(at) !== DIRECTORY_ENTRY) throw new Error('damaged directory');
      const method = zip.readUInt16LE(at + 10);
      const stored = zip.readUInt32LE(at + 20);
      const nameLength = zip.readUInt16LE(at + 28);
      const local = zip.readUInt32LE(at + 42);
      at += 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
      if (zip.readUInt32LE(local) !== LOCAL_HEADER) throw new Error('damaged entry');
      const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
      const data = zip.subarray(start, start + stored);
      if (method !== 0 && method !== 8) throw new Error(`compression method ${method}`);
      left -=
        method === 0 ? data.length : inflateRawSync(data, { maxOutputLength: left + 1 }).length;
      if (left < 0) break;
    }
  } catch (error) {
    if ((error as { code?: string }).code !== 'ERR_BUFFER_TOO_LARGE') {
      // What went wrong inside is a detail of this reading (or Node's), not the sender's to read.
      throw new Error('not a readable .docx file (its zip is damaged)', { cause: error });
    }
    left = -1;
  }
  if (left < 0) {
    throw new Error(`its contents unpack to more than ${Math.round(limit / 2 ** 20)} MB`);
  }
}
