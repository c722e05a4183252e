/**
 * Session documents in answers: the files a visitor attached to questions of a session, read
 * before the chatbot's own sources. Their text is extracted at upload by the data sources'
 * extractors; an answer chunks and searches them as the sources are, in an index of their own.
 */

import { envCount } from '../env.js';
import type { SessionDocumentRow, SourceRow } from '../store/types.js';
import type { AnswerDeps, PreparedAnswer } from './answer-types.js';
import { chunksOf, cleanText } from './chunking.js';
import { composed } from './compose.js';
import type { ExtractLimits } from './isolated.js';
import { extract, type FileKind, fileKind, kindOfContentType } from './parse.js';
import { type ChatbotIndex, createIndex, indexChunks } from './postings.js';
import { type Hit, rank } from './ranking.js';

/** The hosted service's own words. */
export const DOCUMENTS_TOO_LONG =
  'The uploaded file(s) are too long, please reduce the length and try again.';
export const SESSION_DOCUMENTS_TOO_LONG =
  'The uploaded file(s) are too long, please reduce the length and try again, or start a new chat session.';

export interface DocumentSettings {
  /** The largest upload, in bytes: `CHATBOT_DOCUMENT_MAX_BYTES`, default 10 MiB. */
  maxBytes: number;
  /**
   * The most tokens of documents one answer reads, those of the message and the session's
   * earlier ones together: `CHATBOT_DOCUMENT_CONTEXT_TOKENS`, default 6000.
   */
  contextTokens: number;
  /**
   * The most bytes the visitors of one chatbot (its chat-only keys) may upload in an hour,
   * together, sent with a message or not: `CHATBOT_DOCUMENT_HOURLY_BYTES`, default 100 MiB.
   */
  hourlyBytes: number;
}

export function documentSettings(env: Record<string, string | undefined>): DocumentSettings {
  return {
    maxBytes: envCount(env, 'CHATBOT_DOCUMENT_MAX_BYTES', 10 * 1024 * 1024, 1),
    contextTokens: envCount(env, 'CHATBOT_DOCUMENT_CONTEXT_TOKENS', 6000, 1),
    hourlyBytes: envCount(env, 'CHATBOT_DOCUMENT_HOURLY_BYTES', 100 * 1024 * 1024, 1),
  };
}

/** A language model's tokens, roughly: about four characters each. */
export const documentTokens = (text: string) => Math.ceil(text.length / 4);

/**
 * What an attached file is, by its name's extension; by its MIME type only when the name has
 * none (a pasted file), as a part without a type reads as text/plain and would let any name in.
 */
export const documentKind = (filename: string, contentType: string): FileKind | undefined =>
  /\.[a-z0-9]+$/i.test(filename) ? fileKind(filename) : kindOfContentType(contentType);

/** An upload's text, cleaned as ingestion cleans a source's (Markdown keeps its spacing). */
export async function documentText(
  kind: FileKind,
  bytes: Uint8Array,
  limits?: Partial<ExtractLimits>,
) {
  const { text, markdown = false } = await extract(kind, bytes, limits);
  return { text: cleanText(text, markdown), markdown };
}

/** The documents an answer reads: those the message sent, then the session's earlier ones. */
export interface AnswerDocuments {
  sent: readonly SessionDocumentRow[];
  earlier: readonly SessionDocumentRow[];
}

/**
 * The documents an answer reads, or the "too long" reply when they exceed the context: the
 * message's own alone, or with the session's earlier ones.
 */
export function documentsToRead(
  sent: readonly SessionDocumentRow[],
  bound: readonly SessionDocumentRow[],
  contextTokens: number,
): AnswerDocuments | { tooLong: string } {
  const tokens = (documents: readonly SessionDocumentRow[]) =>
    documents.reduce((n, d) => n + d.tokens, 0);
  const earlier = bound.filter((d) => !sent.some((s) => s.uuid === d.uuid));
  if (tokens(sent) > contextTokens) return { tooLong: DOCUMENTS_TOO_LONG };
  if (tokens(sent) + tokens(earlier) > contextTokens)
    return { tooLong: SESSION_DOCUMENTS_TOO_LONG };
  return { sent, earlier };
}

export function tooLongAnswer(deps: AnswerDeps, text: string): PreparedAnswer {
  return composed(deps, text, [], {}, { rule: 'documents-too-long', covered: false, sources: [] });
}

/** How many chunks of the documents a search returns. */
const SEARCHED = 12;

interface Judged {
  qa?: SourceRow;
  hits: Hit[];
  queryTerms: Set<string>;
}

/**
 * What the chatbot's sources say to a question (`judged`), with the documents' passages put
 * first: for a composed answer the chunks that hold at least half of the question's words the
 * documents know (or, when none does, the opening of each document this message sent: the
 * question is about it); for an LLM, every document whole. A Q&A pair's verbatim answer gives
 * way to documents whose passages match. `sources` gains the documents, which citations name by
 * filename with the type `session_document`; `leading` counts the documents' hits.
 */
export function withDocuments<J extends Judged>(
  judged: J,
  chatbotSources: Map<string, SourceRow>,
  query: string,
  documents: AnswerDocuments,
  llm: boolean,
): J & { sources: Map<string, SourceRow>; leading: number } {
  const all = [...documents.sent, ...documents.earlier];
  if (all.length === 0) return { ...judged, sources: chatbotSources, leading: 0 };
  const { hits, terms, opening } = searchDocuments(all, query);
  const sent = new Set(documents.sent.map((d) => d.uuid));
  const leading = llm
    ? all.map((d) => ({
        ...(hits.find((h) => h.sourceUuid === d.uuid) ?? opening.get(d.uuid)!),
        text: d.text,
      }))
    : hits.length > 0
      ? hits
      : [...opening.values()].filter((h) => sent.has(h.sourceUuid));
  return {
    ...judged,
    // A Q&A pair that answers the question gives way only to documents that do too.
    qa: hits.length > 0 ? undefined : judged.qa,
    hits: [...leading, ...judged.hits],
    queryTerms: new Set([...judged.queryTerms, ...terms]),
    sources: new Map([...all.map((d) => [d.uuid, asSource(d)] as const), ...chatbotSources]),
    leading: leading.length,
  };
}

/** An index of the documents one answer reads, and the id of each one's first chunk. */
interface DocumentIndex {
  index: ChatbotIndex;
  firstIds: Map<string, number>;
  chars: number;
}

/**
 * The indexes of the documents recent answers read, by the documents' uuids, least recently used
 * first: a session's next question reads the same documents, and chunking and indexing them again
 * took milliseconds before each first byte. A document never changes once uploaded, so an entry
 * cannot go stale; at most INDEXED of them, of INDEXED_CHARS of text in all.
 */
const indexed = new Map<string, DocumentIndex>();
let indexedChars = 0;
const INDEXED = 32;
const INDEXED_CHARS = 4_000_000;

function documentIndex(documents: readonly SessionDocumentRow[]): DocumentIndex {
  const key = documents.map((d) => d.uuid).join(' ');
  const known = indexed.get(key);
  if (known) {
    indexed.delete(key);
    indexed.set(key, known);
    return known;
  }
  const index = createIndex([]);
  const firstIds = new Map<string, number>();
  let id = 0;
  for (const document of documents) {
    const chunks = chunksOf(document.text, document.markdown);
    // Ids of their own, below the store's: these chunks are in no chatbot's index.
    const start = id - 1;
    firstIds.set(document.uuid, start);
    indexChunks(
      index,
      (chunks.length > 0 ? chunks : [{ text: document.text, heading: '' }]).map((chunk) => ({
        ...chunk,
        id: --id,
        sourceUuid: document.uuid,
      })),
    );
  }
  const entry = { index, firstIds, chars: documents.reduce((n, d) => n + d.text.length, 0) };
  indexed.set(key, entry);
  indexedChars += entry.chars;
  for (const [oldest, old] of indexed) {
    if (indexed.size <= INDEXED && indexedChars <= INDEXED_CHARS) break;
    if (oldest === key) break;
    indexed.delete(oldest);
    indexedChars -= old.chars;
  }
  return entry;
}

function searchDocuments(documents: readonly SessionDocumentRow[], query: string) {
  const { index, firstIds } = documentIndex(documents);
  const found = rank(index, query, { limit: SEARCHED });
  const known = found.df.filter((df) => df > 0).length;
  const opening = new Map<string, Hit>();
  for (const [uuid, chunkId] of firstIds) {
    const { text, heading, units, headingTerms } = index.chunks.get(chunkId)!;
    opening.set(uuid, {
      chunkId,
      sourceUuid: uuid,
      text,
      heading,
      units,
      headingTerms,
      score: 0,
      matched: [],
    });
  }
  return {
    hits: found.hits.filter((h) => h.matched.length * 2 >= known),
    terms: found.terms,
    opening,
  };
}

/**
 * A document as an answer reads a source: citations take its title, type and file name, and
 * find no link in its empty meta. Its type is not one of a data source's, so it is cast.
 */
const asSource = (d: SessionDocumentRow): SourceRow =>
  ({
    uuid: d.uuid,
    chatbotUuid: d.chatbotUuid ?? '',
    title: d.filename,
    type: 'session_document',
    status: 'success',
    file_name: d.filename,
    file_size: d.size,
    tokens: d.tokens,
    meta: {},
    created_at: d.created_at,
    modified_at: d.created_at,
  }) as unknown as SourceRow;
