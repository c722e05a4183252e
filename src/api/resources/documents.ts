import type { Transport } from '../transport.js';
import type { SessionDocument } from '../types.js';
import { postMultipart, type UploadOptions } from '../upload.js';

export interface DocumentUploadOptions
  extends Omit<UploadOptions, 'referenceSourceLink' | 'fileName'> {
  /** Sent as the `filename` form field; defaults to the File's own name. */
  filename?: string;
}

/**
 * `POST /api/v1/session-document/upload` (multipart: `file`, `filename`): a document a visitor
 * attaches to a question. Its uuid goes with the message in `session_document_uuids`; the
 * document then belongs to that message's session. Kept apart from the sessions group so a
 * client that never uploads (the chat without attachments) does not carry the upload code.
 */
export function documentsApi(transport: Transport) {
  return {
    uploadDocument: (file: Blob, options: DocumentUploadOptions = {}): Promise<SessionDocument> => {
      const filename = options.filename ?? (file as File).name ?? 'document';
      const form = new FormData();
      form.append('file', file, filename);
      form.append('filename', filename);
      return postMultipart<SessionDocument>(
        transport,
        '/api/v1/session-document/upload',
        form,
        file.size,
        options,
      );
    },
  };
}
