import { Hono } from 'hono';
import type { SessionDocument } from '../../api/types.js';
import { declaredLength, readBody, refuseDeclaredLength } from '../body.js';
import { type AppEnv, type Auth, ownedChatbot, type ServerContext } from '../context.js';
import {
  badInput,
  type Fields,
  HttpError,
  newUuid,
  now,
  requestHeader,
  timestamp,
  tooLarge,
} from '../http.js';
import {
  type AnswerDocuments,
  type DocumentSettings,
  documentKind,
  documentsToRead,
  documentText,
  documentTokens,
} from '../knowledge/documents.js';
import { UnreadableFileError } from '../knowledge/parse.js';
import type { SessionDocumentRow, SessionRow, Store } from '../store/types.js';
import {
  FILE_NAME_CHARS,
  fileTypeNotAllowed,
  multipartType,
  readUploadForm,
} from '../upload-form.js';

/** Room for the form around the file: boundaries, part headers and the `filename` field. */
const FORM_BYTES = 64 * 1024;
/** How many documents one message may send. */
export const DOCUMENTS_PER_MESSAGE = 10;
/** Documents no message sent are kept this long, then go. */
const UNSENT_KEPT_MS = 24 * 60 * 60 * 1000;
/** A size as a visitor reads it in a message: whole MiB where it is some, else bytes. */
const bytesText = (bytes: number) =>
  bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0
    ? `${bytes / 1024 / 1024} MiB`
    : `${bytes} bytes`;

/** The window of a chatbot's visitors' uploads (`DocumentSettings.hourlyBytes`). */
const UPLOAD_WINDOW_MS = 60 * 60 * 1000;

/**
 * The room left in a chatbot's upload window, read once: the check it answers refuses an upload
 * through a chat-only key that would take its chatbot's visitors past the bytes they may upload
 * in an hour. Anyone holding the page's key can upload, and a message binds what it sends to its
 * session for as long as the session lasts, so without a window one visitor could fill the
 * disk. The refusal says when the oldest upload leaves the window.
 */
async function uploadWindow(
  store: Store,
  chatbotUuid: string,
  settings: DocumentSettings,
): Promise<(bytes: number) => void> {
  const at = Date.now();
  const { bytes: used, oldest } = await store.uploadedDocumentBytes(
    chatbotUuid,
    timestamp(at - UPLOAD_WINDOW_MS),
  );
  return (bytes) => {
    if (used + bytes <= settings.hourlyBytes) return;
    const leaves = oldest === null ? at + UPLOAD_WINDOW_MS : Date.parse(oldest) + UPLOAD_WINDOW_MS;
    const retryAfter = Math.max(1, Math.ceil((leaves - at) / 1000));
    throw new HttpError(
      429,
      'rate_limited',
      `this chatbot's visitors have uploaded as much as they may in an hour (${bytesText(settings.hourlyBytes)}); try again in ${Math.ceil(retryAfter / 60)} minute(s)`,
      { 'Retry-After': String(retryAfter) },
    );
  };
}

const documentRecord = (row: SessionDocumentRow): SessionDocument => ({
  uuid: row.uuid,
  filename: row.filename,
  size: row.size,
  content_type: row.content_type,
  created_at: row.created_at,
});

/** What a message record lists of the documents it sent. */
export const documentRef = ({ uuid, filename, size }: SessionDocumentRow) => ({
  uuid,
  filename,
  size,
});

/**
 * `POST /api/v1/session-document/upload`: a file a visitor attaches to a question, kept as its
 * text until a message sends it (see `sentDocuments`). A chat-only key may upload: the document
 * is then its chatbot's too.
 */
export function documentRoutes(ctx: ServerContext, settings: DocumentSettings) {
  const { store } = ctx;
  const limit = settings.maxBytes + FORM_BYTES;
  // Every 413 here names the file's limit, not the form's room around it, which a visitor has
  // no use for: the chat reads the number to say the limit (attachments-controller.ts).
  const fileTooLarge = `the file is larger than ${settings.maxBytes} bytes`;
  return new Hono<AppEnv>().post('/api/v1/session-document/upload', async (c) => {
    refuseDeclaredLength(c, limit, 'the upload', fileTooLarge);
    const auth = c.get('auth');
    const { chatOnly } = auth;
    let fits: ((bytes: number) => void) | undefined;
    if (chatOnly !== null) {
      // A chat-only key outlives a deleted chatbot: its uploads would belong to nothing.
      await ownedChatbot(ctx, auth, chatOnly);
      fits = await uploadWindow(store, chatOnly, settings);
      // Before the body is read, as far as its declared length tells: the file is at least that
      // length less the room a form takes around it.
      fits(Math.max(1, declaredLength(c) - FORM_BYTES));
    }
    const type = multipartType(requestHeader(c, 'content-type'));
    const body = await readBody(c, limit, 'the upload', fileTooLarge);
    const form = await readUploadForm(type, body, ['filename']);
    const { file } = form;
    if (file.size > settings.maxBytes) throw tooLarge(fileTooLarge);
    fits?.(file.size);
    const filename = (form.filename ?? file.name).trim();
    if (!filename) throw badInput('filename must not be empty');
    if (filename.length > FILE_NAME_CHARS) {
      throw badInput(`filename must be at most ${FILE_NAME_CHARS} characters`);
    }
    const kind = documentKind(filename, file.type);
    if (!kind) {
      throw fileTypeNotAllowed(filename);
    }
    if (file.size === 0) throw badInput('file is empty');
    let extracted: Awaited<ReturnType<typeof documentText>>;
    try {
      extracted = await documentText(
        kind,
        new Uint8Array(await file.arrayBuffer()),
        ctx.extractLimits,
      );
    } catch (error) {
      // Only the reasons in our own words reach the visitor; anything else is a failure of ours.
      if (!(error instanceof UnreadableFileError)) throw error;
      throw new HttpError(
        422,
        'unreadable_file',
        `${filename} could not be read: ${error.message}`,
      );
    }
    if (!extracted.text) {
      throw new HttpError(422, 'unreadable_file', `no text could be extracted from ${filename}`);
    }
    await store.pruneSessionDocuments(timestamp(Date.now() - UNSENT_KEPT_MS));
    const row: SessionDocumentRow = {
      uuid: newUuid(),
      userId: auth.userId,
      chatbotUuid: auth.chatOnly,
      sessionUuid: null,
      filename,
      content_type: file.type,
      size: file.size,
      markdown: extracted.markdown,
      tokens: documentTokens(extracted.text),
      text: extracted.text,
      created_at: now(),
    };
    await store.createSessionDocument(row);
    return c.json(documentRecord(row));
  });
}

/** `session_document_uuids` of a message body: at most 10 strings, each once. */
export function sessionDocumentUuids(fields: Fields): string[] {
  const uuids = fields.strings('session_document_uuids', { max: DOCUMENTS_PER_MESSAGE }) ?? [];
  uuids.forEach((uuid, i) => {
    if (uuid.length > 100) {
      throw badInput(`session_document_uuids[${i}] must be at most 100 characters`);
    }
  });
  return [...new Set(uuids)];
}

/**
 * The documents a message sends: each the caller's (and, for one a chat-only key uploaded, of
 * the session's chatbot), and either not sent yet or already this session's. Any other is a 404,
 * as an unknown one is, so a uuid says nothing about another session's documents.
 */
export async function sentDocuments(
  store: Store,
  auth: Auth,
  session: SessionRow,
  uuids: readonly string[],
): Promise<SessionDocumentRow[]> {
  const documents: SessionDocumentRow[] = [];
  for (const uuid of uuids) {
    const document = await store.getSessionDocument(uuid);
    if (
      !document ||
      document.userId !== auth.userId ||
      (document.chatbotUuid !== null && document.chatbotUuid !== session.chatbotUuid) ||
      (document.sessionUuid !== null && document.sessionUuid !== session.uuid)
    ) {
      throw new HttpError(404, 'not_found', `session document not found: ${uuid}`);
    }
    documents.push(document);
  }
  return documents;
}

/**
 * What the answer to a message reads of the session's documents, binding the message's own to the
 * session; or the "too long" reply, and then nothing is bound: the session goes on as it was.
 */
export async function attachDocuments(
  store: Store,
  session: SessionRow,
  sent: readonly SessionDocumentRow[],
  contextTokens: number,
): Promise<AnswerDocuments | { tooLong: string }> {
  const read = documentsToRead(sent, await store.listSessionDocuments(session.uuid), contextTokens);
  if ('tooLong' in read) return read;
  const unbound = sent.filter((d) => d.sessionUuid === null).map((d) => d.uuid);
  if (unbound.length > 0) await store.bindSessionDocuments(unbound, session.uuid);
  return read;
}
