import { isUtf8 } from 'node:buffer';
import { badInput, HttpError } from './http.js';
import { ALLOWED_EXTENSIONS } from './knowledge/parse.js';

/** The request's multipart content type (with its boundary); a 400 for any other body. */
export function multipartType(type: string | undefined): string {
  if (!/^multipart\/form-data/i.test(type ?? '')) {
    throw badInput('the body must be a multipart form with a file part named file');
  }
  return type!;
}

/**
 * The parts of an upload's multipart body: exactly one file part named `file`, and the named text
 * fields (each at most once). A 400 names what is missing or not as expected.
 */
export async function readUploadForm<F extends string>(
  type: string,
  bytes: Buffer,
  fields: readonly F[],
): Promise<{ file: File } & Partial<Record<F, string>>> {
  let form: FormData;
  try {
    form = await new Response(bytes as Uint8Array<ArrayBuffer>, {
      headers: { 'content-type': type },
    }).formData();
  } catch {
    throw badInput('the multipart form could not be read');
  }
  const files = form.getAll('file');
  if (files.length > 1) throw badInput('file must be given once: one file per upload');
  const file = files[0];
  if (typeof file === 'string') {
    throw badInput('file must be a file part (with a filename), not a text field');
  }
  if (!(file instanceof File)) throw badInput('file is required (a form part named file)');
  const values: Partial<Record<F, string>> = {};
  for (const name of fields) {
    const all = form.getAll(name);
    if (all.length === 0) continue;
    if (all.length > 1) throw badInput(`${name} must be given once`);
    if (typeof all[0] !== 'string') throw badInput(`${name} must be a text field`);
    values[name] = all[0];
  }
  if (
    [file.name, ...Object.values<string | undefined>(values)].some((v) => v?.includes('\uFFFD'))
  ) {
    refuseMalformedText(type, bytes, fields);
  }
  return { file, ...values };
}

/**
 * A 400 naming the first text field, or the file's name, whose bytes are not UTF-8: the form's
 * reading replaced them with U+FFFD, which would be stored as if sent. Run only when a value
 * holds U+FFFD, which valid UTF-8 may also spell.
 */
function refuseMalformedText(type: string, bytes: Buffer, fields: readonly string[]): void {
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (!boundary) return;
  const delimiter = Buffer.from(`--${boundary}`);
  let at = bytes.indexOf(delimiter);
  while (at >= 0) {
    const start = at + delimiter.length;
    const next = bytes.indexOf(delimiter, start);
    const part = bytes.subarray(start, next < 0 ? bytes.length : next);
    at = next;
    const split = part.indexOf('\r\n\r\n');
    if (split < 0) continue;
    const head = part.subarray(0, split).toString('latin1');
    const name = /name="([^"]*)"/i.exec(head)?.[1];
    if (/filename\*?=/i.test(head)) {
      if (name === 'file' && !isUtf8(part.subarray(0, split))) {
        throw badInput('the file name is not valid UTF-8');
      }
    } else if (name && fields.includes(name)) {
      // The body ends before the CRLF that precedes the next delimiter.
      if (!isUtf8(part.subarray(split + 4, Math.max(split + 4, part.length - 2)))) {
        throw badInput(`${name} is not valid UTF-8`);
      }
    }
  }
}

/** The longest file name an upload keeps, as a data source or a session document. */
export const FILE_NAME_CHARS = 255;

/** The name an uploaded file is kept under ("upload" when the form gives none); a 400 past 255. */
export function uploadFileName(file: File): string {
  if (file.name.length > FILE_NAME_CHARS) {
    throw badInput(`file name must be at most ${FILE_NAME_CHARS} characters`);
  }
  return file.name || 'upload';
}

/** The 415 for a file whose type no upload takes, listing the extensions that are taken. */
export const fileTypeNotAllowed = (filename: string) =>
  new HttpError(
    415,
    'file_type_not_allowed',
    `file type not allowed: ${filename} (allowed: ${ALLOWED_EXTENSIONS.map((e) => `.${e}`).join(', ')})`,
  );
