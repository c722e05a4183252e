/** The worker thread isolated.ts reads PDFs and .docx files in, one at a time. */
import { parentPort } from 'node:worker_threads';
import type { WorkerReply } from './isolated.js';
import { extractHere, type FileKind, UnreadableFileError } from './parse.js';

parentPort?.on(
  'message',
  async ({ id, kind, bytes }: { id: number; kind: FileKind; bytes: Uint8Array }) => {
    let reply: WorkerReply;
    try {
      reply = { id, extracted: await extractHere(kind, bytes) };
    } catch (error) {
      reply = {
        id,
        error: (error as Error).message,
        unreadable: error instanceof UnreadableFileError,
      };
    }
    parentPort?.postMessage(reply);
  },
);

/** pdfjs's worker code, which the package ships without types. */
const PDF_WORKER: string = 'pdfjs-dist/legacy/build/pdf.worker.mjs';

// The libraries are loaded before the worker says it is ready: a file's time limit counts its
// reading, not the start of the thread. pdfjs's own worker code (in this thread, as it is in
// Node) would otherwise load with the first PDF: a second of it.
void Promise.all([
  import('pdfjs-dist/legacy/build/pdf.mjs'),
  import(PDF_WORKER).then((handler: unknown) => {
    (globalThis as { pdfjsWorker?: unknown }).pdfjsWorker = handler;
  }),
  import('mammoth'),
]).then(() => parentPort?.postMessage('ready'));
