/**
 * Text from the file types the server takes: .txt/.text, .md/.markdown, .html/.htm, .pdf
 * (pdfjs-dist), .docx (mammoth), .csv (papaparse), .json. Anything else is refused with `file
 * type not allowed`.
 */
import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import { extractCsv, extractJson } from './data-files.js';
import {
  DEFAULT_EXTRACT_LIMITS,
  ExtractFailure,
  type ExtractLimits,
  extractIsolated,
} from './isolated.js';
import { markdownTitle } from './markdown.js';
import { checkStreams } from './pdf-guard.js';
import { TextBudget, textLimit, UnreadableFileError } from './read-limits.js';
import { titleFrom } from './text.js';
import { checkUnpacked } from './zip-guard.js';

export type FileKind = 'txt' | 'md' | 'html' | 'pdf' | 'docx' | 'csv' | 'json';

/** Every extension the server takes, and how it reads each: the 415 lists these, no others. */
const KINDS: Readonly<Record<string, FileKind>> = {
  txt: 'txt',
  text: 'txt',
  md: 'md',
  markdown: 'md',
  html: 'html',
  htm: 'html',
  pdf: 'pdf',
  docx: 'docx',
  csv: 'csv',
  json: 'json',
};

export const ALLOWED_EXTENSIONS: readonly string[] = Object.keys(KINDS);

export function fileKind(fileName: string): FileKind | undefined {
  const ext = /\.([a-z0-9]+)$/i.exec(fileName)?.[1]?.toLowerCase();
  return ext !== undefined && Object.hasOwn(KINDS, ext) ? KINDS[ext] : undefined;
}

/** The kind a fetched page's Content-Type names, for URL sources that point at documents. */
export function kindOfContentType(contentType: string): FileKind | undefined {
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  if (type === 'text/html' || type === 'application/xhtml+xml') return 'html';
  if (type === 'text/plain') return 'txt';
  if (type === 'text/markdown') return 'md';
  if (type === 'application/pdf') return 'pdf';
  if (type === 'text/csv') return 'csv';
  if (type === 'application/json') return 'json';
  if (type === 'application/vnd.openxmlformats-officedocument.wordprocessingml.document')
    return 'docx';
  return undefined;
}

export interface Extracted {
  text: string;
  /** The text is Markdown (or HTML turned into it): chunked by its structure. */
  markdown?: boolean;
  /** Empty when the content names no title. */
  title: string;
}

export async function extractFile(
  fileName: string,
  bytes: Uint8Array,
  limits?: Partial<ExtractLimits>,
): Promise<Extracted> {
  const kind = fileKind(fileName);
  if (!kind) throw new Error('file type not allowed');
  return extract(kind, bytes, limits);
}

/** The kinds whose libraries read what the file unpacks to: read in a worker, within limits. */
const ISOLATED: ReadonlySet<FileKind> = new Set(['pdf', 'docx']);

/**
 * The file's text; an UnreadableFileError when it cannot be read as its kind, or not within
 * `limits` (PDFs and .docx files, read in a worker thread: isolated.ts).
 */
export async function extract(
  kind: FileKind,
  bytes: Uint8Array,
  limits?: Partial<ExtractLimits>,
): Promise<Extracted> {
  if (!ISOLATED.has(kind)) return extractHere(kind, bytes);
  try {
    return await extractIsolated(kind, bytes, { ...DEFAULT_EXTRACT_LIMITS, ...limits });
  } catch (error) {
    if (error instanceof ExtractFailure && error.unreadable) {
      throw new UnreadableFileError(error.message);
    }
    throw error;
  }
}

/** `extract` in this thread, whatever the kind: what the worker runs. */
export async function extractHere(kind: FileKind, bytes: Uint8Array): Promise<Extracted> {
  try {
    return await extractKind(kind, bytes);
  } catch (error) {
    if (error instanceof UnreadableFileError) throw error;
    throw new UnreadableFileError(`not a readable .${kind} file`, { cause: error });
  }
}

async function extractKind(kind: FileKind, bytes: Uint8Array): Promise<Extracted> {
  const budget = new TextBudget(textLimit(bytes));
  switch (kind) {
    case 'txt':
      return { text: utf8(bytes), title: '' };
    case 'md': {
      const text = utf8(bytes);
      return { text, markdown: true, title: markdownTitle(text) };
    }
    case 'html':
      return extractHtml(utf8(bytes)).main;
    case 'pdf':
      return extractPdf(bytes, budget);
    case 'docx':
      return extractDocx(bytes);
    case 'csv':
      return extractCsv(utf8(bytes), budget);
    case 'json':
      return extractJson(utf8(bytes), budget);
  }
}

const utf8 = (bytes: Uint8Array) => new TextDecoder('utf-8').decode(bytes).replace(/^\uFEFF/, '');

/** The readable main text of a page (Readability), its title, and its links. */
export function extractHtml(html: string, baseUrl?: string): { main: Extracted; links: string[] } {
  const { document } = parseHTML(html);
  const links: string[] = [];
  for (const a of document.querySelectorAll('a[href]')) {
    const href = a.getAttribute('href') ?? '';
    try {
      links.push(new URL(href, baseUrl ?? 'http://invalid.invalid/').href);
    } catch {
      // Not an address: nothing to follow.
    }
  }
  const pageTitle = document.querySelector('title')?.textContent?.trim() ?? '';
  const root = document.documentElement as unknown as DomNode | null;
  if (root && deeperThan(root, MAX_DEPTH)) {
    return { main: { text: plainText(root), title: pageTitle }, links };
  }
  const firstHeading = document.querySelector('h1')?.textContent?.trim() ?? '';
  let text = '';
  let title = '';
  try {
    const article = new Readability(document as unknown as Document, { charThreshold: 0 }).parse();
    if (article?.content) {
      // Readability's HTML keeps paragraphs apart; its textContent would run them together.
      text = blockText(parseHTML(`<html><body>${article.content}</body></html>`).document.body);
      title = article.title ?? '';
    }
  } catch {
    // Readability gives up on odd pages; the whole body's text is the fallback below.
  }
  if (!text.trim()) text = blockText(parseHTML(html).document.body);
  return { main: { text, markdown: true, title: pageTitle || title || firstHeading }, links };
}

interface DomNode {
  nodeType: number;
  nodeName: string;
  textContent: string | null;
  childNodes: ArrayLike<unknown>;
}

const SKIPPED = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'svg', 'SVG']);
const BLOCKS = new Set([
  'P',
  'DIV',
  'SECTION',
  'ARTICLE',
  'UL',
  'OL',
  'BR',
  'HEADER',
  'FOOTER',
  'MAIN',
  'ASIDE',
  'DD',
  'DT',
  'FIGCAPTION',
  'FIGURE',
  'NAV',
  'FORM',
  'DL',
]);

const children = (node: DomNode) => Array.from(node.childNodes) as DomNode[];

/**
 * How deep a page may nest for Readability and the block walk: browsers' HTML parsers stop
 * nesting at 512 levels. Readability's work grows with depth times size (a page of 10,000
 * nested divs held the server's one thread for 4 s), and the walk recurses (the stack ran out),
 * so a deeper page is read as its plain text, without recursion.
 */
const MAX_DEPTH = 512;

function deeperThan(root: DomNode, max: number): boolean {
  const stack: Array<[DomNode, number]> = [[root, 0]];
  for (let next = stack.pop(); next; next = stack.pop()) {
    const [node, depth] = next;
    if (depth > max) return true;
    for (const child of children(node)) if (child.nodeType === 1) stack.push([child, depth + 1]);
  }
  return false;
}

/** The text of `root` in document order, scripts and styles left out, walked without recursion. */
function plainText(root: DomNode): string {
  const parts: string[] = [];
  const stack: DomNode[] = [root];
  for (let node = stack.pop(); node; node = stack.pop()) {
    if (node.nodeType === 3) parts.push(node.textContent ?? '');
    else if (node.nodeType === 1 && !SKIPPED.has(node.nodeName)) {
      const kids = children(node);
      for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]!);
    }
  }
  return parts.join(' ').replace(/\s+/g, ' ').trim();
}

/** Inline text of an element on one line (markup inside it only as text). */
function inlineText(node: DomNode): string {
  return (node.textContent ?? '').replace(/\s+/g, ' ').trim();
}

/**
 * An HTML body as Markdown blocks (headings, paragraphs, list items, fenced code, tables), so
 * pages and Word documents are chunked by the same structure-aware path as Markdown files.
 */
function blockText(root: DomNode | null | undefined): string {
  if (!root) return '';
  const out: string[] = [];
  let line = '';
  const breakLine = () => {
    const text = line.replace(/\s+/g, ' ').trim();
    if (text) out.push(text);
    line = '';
  };
  const walk = (node: DomNode, listDepth: number) => {
    if (node.nodeType === 3) {
      line += node.textContent ?? '';
      return;
    }
    if (node.nodeType !== 1 || SKIPPED.has(node.nodeName)) return;
    const name = node.nodeName.toUpperCase();
    if (/^H[1-6]$/.test(name)) {
      breakLine();
      const text = inlineText(node);
      if (text) out.push(`${'#'.repeat(Number(name[1]))} ${text}`);
      return;
    }
    if (name === 'PRE') {
      breakLine();
      const code = (node.textContent ?? '').replace(/\n+$/, '');
      if (code.trim()) {
        const ticks = '`'.repeat(
          Math.max(2, ...(code.match(/`+/g) ?? []).map((r) => r.length)) + 1,
        );
        out.push(`${ticks}\n${code}\n${ticks}`);
      }
      return;
    }
    if (name === 'TABLE') {
      breakLine();
      const rows: string[][] = [];
      const collect = (n: DomNode) => {
        for (const child of children(n)) {
          if (child.nodeType !== 1) continue;
          if (child.nodeName.toUpperCase() === 'TR') {
            rows.push(
              children(child)
                .filter((c) => c.nodeType === 1 && /^T[DH]$/i.test(c.nodeName))
                .map((c) => inlineText(c).replace(/\|/g, '\\|')),
            );
          } else collect(child);
        }
      };
      collect(node);
      const width = Math.max(0, ...rows.map((r) => r.length));
      if (width > 0) {
        const pad = (r: string[]) => [...r, ...Array(width - r.length).fill('')];
        const lines = rows.map((r) => `| ${pad(r).join(' | ')} |`);
        lines.splice(1, 0, `|${' --- |'.repeat(width)}`);
        out.push(lines.join('\n'));
      }
      return;
    }
    if (name === 'LI') {
      breakLine();
      const before = out.length;
      line = '';
      for (const child of children(node)) walk(child, listDepth + 1);
      breakLine();
      // The item's own text is its first line; nested lists were already written indented.
      const indent = '  '.repeat(Math.max(0, listDepth));
      if (out.length > before && !/^\s*[-`|#]/.test(out[before]!)) {
        out[before] = `${indent}- ${out[before]}`;
      } else out.splice(before, 0, `${indent}-`);
      return;
    }
    if (name === 'BLOCKQUOTE') {
      breakLine();
      const before = out.length;
      for (const child of children(node)) walk(child, listDepth);
      breakLine();
      for (let i = before; i < out.length; i++) out[i] = `> ${out[i]}`;
      return;
    }
    const block = BLOCKS.has(name);
    if (block && name !== 'UL' && name !== 'OL') breakLine();
    for (const child of children(node))
      walk(child, name === 'UL' || name === 'OL' ? listDepth : listDepth);
    if (block) breakLine();
  };
  for (const child of children(root)) walk(child, 0);
  breakLine();
  // A blank line between blocks, except between items of one list, as Markdown expects.
  return out
    .map((block, i) =>
      i > 0 && !(/^\s*- /.test(block) && /^\s*- /.test(out[i - 1]!)) ? `\n${block}` : block,
    )
    .join('\n')
    .trim();
}

/** Where a PDF's `%PDF-` header may be: readers accept it anywhere in the first 1024 bytes. */
const PDF_HEADER_WITHIN = 1024;

/**
 * How much a PDF's streams may unpack to: 128 MB, and eight times the file beyond that. Text and
 * drawing commands deflate to a fifth or so, and pictures (counted too) to about what they take
 * in the file; a 500-page book's streams come to tens of MB. Past this a file is a bomb: 1 MB of
 * deflated spaces is a GB.
 */
const PDF_UNPACKED_GAIN = 128 * 2 ** 20;
const PDF_UNPACKED_TIMES = 8;

async function extractPdf(bytes: Uint8Array, budget: TextBudget): Promise<Extracted> {
  if (!Buffer.from(bytes.subarray(0, PDF_HEADER_WITHIN)).includes('%PDF-')) {
    throw new UnreadableFileError(
      `not a .pdf file (no %PDF- in its first ${PDF_HEADER_WITHIN} bytes)`,
    );
  }
  try {
    checkStreams(bytes, PDF_UNPACKED_GAIN + PDF_UNPACKED_TIMES * bytes.length);
  } catch (error) {
    throw new UnreadableFileError((error as Error).message, { cause: error });
  }
  // The legacy build is the one pdfjs supports in Node; without a worker it runs in-thread.
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const pdf = await pdfjs.getDocument({
    data: new Uint8Array(bytes),
    isEvalSupported: false,
    disableFontFace: true,
    verbosity: 0,
  }).promise;
  try {
    const pages: string[] = [];
    for (let n = 1; n <= pdf.numPages; n++) {
      const page = await pdf.getPage(n);
      const content = await page.getTextContent();
      let line = '';
      const lines: string[] = [];
      for (const item of content.items) {
        if (!('str' in item)) continue;
        line += budget.spend(item.str);
        if (item.hasEOL) {
          lines.push(line);
          line = '';
        } else if (item.str && !item.str.endsWith(' ')) line += ' ';
      }
      if (line) lines.push(line);
      pages.push(lines.join('\n'));
      page.cleanup();
    }
    const info = (await pdf.getMetadata().catch(() => null))?.info as
      | { Title?: unknown }
      | undefined;
    const title = typeof info?.Title === 'string' ? info.Title.trim() : '';
    return { text: pages.join('\n\n'), title };
  } finally {
    await pdf.destroy();
  }
}

/**
 * How much more than its own size a .docx may unpack to. A 500-page report's document.xml is a
 * few MB, and its pictures unpack to about the bytes they take in the file; past this a small file
 * is a zip bomb (113 KB of it held 30 MB of text), whose text mammoth would hold in memory and
 * ingestion then store.
 */
const DOCX_UNPACKED_GAIN = 16 * 2 ** 20;

async function extractDocx(bytes: Uint8Array): Promise<Extracted> {
  try {
    checkUnpacked(bytes, DOCX_UNPACKED_GAIN + bytes.length);
  } catch (error) {
    // The guard's reasons are this server's own (a zip bomb's size, a file that is no zip).
    throw new UnreadableFileError((error as Error).message, { cause: error });
  }
  const mammoth = await import('mammoth');
  // Images are not read at all: mammoth would otherwise inline each one as a data: URI, only
  // for the text to drop it.
  const { value: html } = await mammoth.convertToHtml(
    { buffer: Buffer.from(bytes) },
    { convertImage: mammoth.images.imgElement(async () => ({ src: '' })) },
  );
  const { document } = parseHTML(`<html><body>${html}</body></html>`);
  const heading = document.querySelector('h1, h2')?.textContent?.trim() ?? '';
  return { text: blockText(document.body), markdown: true, title: heading };
}

export { titleFrom, UnreadableFileError };
