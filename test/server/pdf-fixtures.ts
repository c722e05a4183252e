/** PDFs built byte by byte for the knowledge and document tests: bombs, encrypted files. */
import { createHash } from 'node:crypto';
import { constants, deflateSync } from 'node:zlib';

/**
 * A one-page PDF whose content is `content`, encoded by `filters` (undone in order), in as many
 * streams as `times` (the page's contents one after the other), each `encrypted` with RC4 as
 * PDF's standard security handler does (revision 2) for an empty password, which readers open
 * without asking.
 */
export function pdfWithContent(
  content: Buffer,
  filters: string[],
  { encrypted = false, times = 1 } = {},
): Uint8Array {
  const id = Buffer.from('0123456789abcdef');
  const owner = Buffer.alloc(32, 7);
  const key = createHash('md5')
    .update(Buffer.concat([PASSWORD_PAD, owner, Buffer.from([0xfc, 0xff, 0xff, 0xff]), id]))
    .digest()
    .subarray(0, 5);
  // Each object's own key: the file's, its number and its generation (0).
  const encrypt = (number: number, data: Buffer) =>
    rc4(
      createHash('md5')
        .update(Buffer.concat([key, Buffer.from([number, number >> 8, number >> 16, 0, 0])]))
        .digest()
        .subarray(0, 10),
      data,
    );
  const filter = filters.length > 0 ? `/Filter [${filters.map((f) => `/${f}`).join(' ')}] ` : '';
  // The content streams: object 4, then 6 and on when there are more.
  const streams = [4, ...Array.from({ length: times - 1 }, (_, i) => 6 + i)];
  const objects: Array<string | null> = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents [${streams.map((n) => `${n} 0 R`).join(' ')}] >>`,
    null,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    ...streams.slice(1).map(() => null),
  ];
  let trailer = '';
  if (encrypted) {
    const user = rc4(key, PASSWORD_PAD).toString('hex');
    objects.push(
      `<< /Filter /Standard /V 1 /R 2 /O <${owner.toString('hex')}> /U <${user}> /P -4 >>`,
    );
    trailer = ` /Encrypt ${objects.length} 0 R /ID [<${id.toString('hex')}> <${id.toString('hex')}>]`;
  }
  const parts: Buffer[] = [Buffer.from('%PDF-1.4\n')];
  let length = parts[0]!.length;
  const offsets: number[] = [];
  const add = (part: Buffer) => {
    parts.push(part);
    length += part.length;
  };
  objects.forEach((object, i) => {
    offsets.push(length);
    add(Buffer.from(`${i + 1} 0 obj\n`));
    if (object) add(Buffer.from(object));
    else {
      const data = encrypted ? encrypt(i + 1, content) : content;
      add(Buffer.from(`<< /Length ${data.length} ${filter}>>\nstream\n`));
      add(data);
      add(Buffer.from('\nendstream'));
    }
    add(Buffer.from('\nendobj\n'));
  });
  const xref = length;
  add(
    Buffer.from(
      `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets
        .map((o) => `${String(o).padStart(10, '0')} 00000 n \n`)
        .join(
          '',
        )}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R${trailer} >>\nstartxref\n${xref}\n%%EOF\n`,
    ),
  );
  return new Uint8Array(Buffer.concat(parts));
}

/** The 32 bytes PDF pads a password with. */
const PASSWORD_PAD = Buffer.from(
  '28bf4e5e4e758a4164004e56fffa01082e2e00b6d0683e802f0ca9fe6453697a',
  'hex',
);

function rc4(key: Buffer, data: Buffer): Buffer {
  const s = Array.from({ length: 256 }, (_, i) => i);
  for (let i = 0, j = 0; i < 256; i++) {
    j = (j + s[i]! + key[i % key.length]!) & 255;
    [s[i], s[j]] = [s[j]!, s[i]!];
  }
  const out = Buffer.alloc(data.length);
  for (let n = 0, i = 0, j = 0; n < data.length; n++) {
    i = (i + 1) & 255;
    j = (j + s[i]!) & 255;
    [s[i], s[j]] = [s[j]!, s[i]!];
    out[n] = data[n]! ^ s[(s[i]! + s[j]!) & 255]!;
  }
  return out;
}

/** `mb` MB of spaces, deflated a MB at a time (about 1 KB of file per MB). */
export function deflatedSpaces(mb: number): Buffer {
  const deflate = deflateSync(Buffer.alloc(2 ** 20, 0x20), { finishFlush: constants.Z_SYNC_FLUSH });
  const end = deflateSync(Buffer.alloc(0));
  // Raw deflate blocks of one MB each, repeated: zlib's header, the blocks, an empty last block.
  const header = end.subarray(0, 2);
  const block = deflate.subarray(2);
  return Buffer.concat([header, ...Array<Buffer>(mb).fill(block), Buffer.from([0x03, 0x00])]);
}
