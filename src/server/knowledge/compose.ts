import type { Citation, CiteData } from '../../api/types.js';
import type { AgentRow, SourceRow } from '../store/types.js';
import type { AnswerDeps, AnswerMeta, PreparedAnswer } from './answer-types.js';
import { EXCERPT_CHARS, quote } from './excerpt.js';
import { HEADING_SEPARATOR, innermostHeading } from './markdown.js';
import type { Hit } from './search.js';
import { NOT_COVERED } from './suggestions.js';

/** How many passages a composed answer quotes, and the room of the first (the likeliest answer). */
const COMPOSED_PASSAGES = 3;
const FIRST_PASSAGE_CHARS = 640;

export function agentMeta(
  agent: AgentRow,
  rule: string,
): { rule: string; agent_uuid: string; agent_type: AgentRow['type'] } {
  return { rule, agent_uuid: agent.uuid, agent_type: agent.type };
}

export interface Passage {
  source: SourceRow;
  text: string;
}

export function citationsFor(passages: Passage[]): { citations: Citation[]; citeData: CiteData } {
  const citations: Citation[] = [];
  const citeData: CiteData = {};
  for (const { source, text } of passages) {
    if (citations.some((c) => c.data_source_uuid === source.uuid)) continue;
    const n = citations.length + 1;
    const url = sourceUrl(source);
    citations.push({
      n,
      data_source_uuid: source.uuid,
      title: source.title,
      type: source.type,
      ...(url ? { url } : {}),
    });
    citeData[String(n)] = {
      data_source_uuid: source.uuid,
      title: source.title,
      text,
      file_name: source.file_name,
      type: source.type,
    };
  }
  return { citations, citeData };
}

function sourceUrl(source: SourceRow): string | undefined {
  const link = source.meta.reference_source_link || (source.type === 'link' ? source.meta.url : '');
  return typeof link === 'string' && link ? link : undefined;
}

/**
 * The passages as readable Markdown: each one names its section ("From *Guide › Errors*:"), then
 * quotes whole blocks of the chunk around the best-matching one (sentences each on their own line,
 * list items as items, code fenced, tables whole or as lines), then its `[n]`. The first passage
 * gets more room than the others: it is the one most likely to answer.
 */
export function composedText(
  hits: Hit[],
  queryTerms: Set<string>,
  sources: Map<string, SourceRow>,
  showCitations: boolean,
): { text: string; picked: Passage[] } {
  const picked: Passage[] = [];
  const headings: string[] = [];
  const seen = new Set<string>();
  const quoted = new Set<string>();
  for (const hit of hits) {
    if (picked.length >= COMPOSED_PASSAGES) break;
    const source = sources.get(hit.sourceUuid);
    if (!source) continue;
    const text =
      qaAnswer(source).trim() ||
      quote(
        hit.units,
        queryTerms,
        picked.length === 0 ? FIRST_PASSAGE_CHARS : EXCERPT_CHARS,
        quoted,
      );
    const key = text.toLowerCase();
    if (!text || seen.has(key) || [...seen].some((s) => s.includes(key) || key.includes(s)))
      continue;
    seen.add(key);
    picked.push({ source, text });
    headings.push(hit.heading ?? '');
  }
  if (picked.length === 0) return { text: NOT_COVERED, picked };
  const numbers = new Map<string, number>();
  for (const p of picked)
    if (!numbers.has(p.source.uuid)) numbers.set(p.source.uuid, numbers.size + 1);
  const paragraphs = picked.map((p, i) => {
    // Beside another passage, or once one names its section, a passage names at least its
    // source (a Q&A pair by its question): otherwise it reads as the one above continued.
    const lead = leadIn(p.source.title, headings[i]!, picked.length > 1 || headings.some(Boolean));
    let body = p.text;
    if (showCitations) {
      const n = `[${numbers.get(p.source.uuid)}]`;
      // After a fence or a table row the marker needs its own paragraph: on the fence line it
      // would break the fence, and a line after a table row becomes another row.
      body = /(?:^|\n)(?:`{3,}|\|.*\|)$/.test(body) ? `${body}\n\n${n}` : `${body} ${n}`;
    }
    return lead ? `${lead}\n\n${body}` : body;
  });
  return { text: paragraphs.join('\n\n'), picked };
}

/**
 * A Q&A pair's answer, whole ('' for another source): the owner wrote it as the answer to its
 * question (often from Conversations' Add as Q&A), so it is what a question matching the pair
 * gets verbatim (answer.ts), and what a passage of the pair quotes when a question in other
 * words finds it: excerpted as a document's, it lost the code block of "Add one script tag
 * before `</body>`:" and quoted the question with it.
 */
export function qaAnswer(source: SourceRow): string {
  return source.type === 'qa' ? String(source.meta.answer ?? '') : '';
}

/** "From *chatbot-elements › Errors*:": the source and the innermost section, when known. */
function leadIn(title: string, heading: string, always: boolean): string {
  const section = innermostHeading(heading);
  if (!section && !always) return '';
  const name = [title.trim(), section]
    .filter((part, i, all) => part && (i === 0 || part.toLowerCase() !== all[0]!.toLowerCase()))
    .map(literal)
    .join(HEADING_SEPARATOR);
  return name ? `From *${name}*:` : '';
}

/**
 * A name as written, inside the lead-in's emphasis: a word of it that Markdown would read as a
 * tag or as emphasis (`<chatbot-admin>`, `rate_limit`) goes in a code span, so it shows as it
 * is, not dropped by the sanitizer; brackets go (they could read as a citation marker).
 */
function literal(name: string): string {
  return name
    .replace(/[[\]\\]/g, '')
    .split(/(\s+)/)
    .map((word) => (/[*_`<>]/.test(word) ? `\`${word.replace(/`/g, '')}\`` : word))
    .join('');
}

/** An answer known in full: its text goes out in paced pieces. */
export function composed(
  deps: AnswerDeps,
  text: string,
  citations: Citation[],
  citeData: CiteData,
  meta: AnswerMeta,
  showCitations = true,
): PreparedAnswer {
  return {
    citations: showCitations ? citations : [],
    citeData,
    meta,
    errorMessage: '',
    cutShort: false,
    text: (signal, pace = true) => paced(text, pace ? deps.streamDelayMs : 0, signal),
    paced: { pieces: pieces(text), delayMs: deps.streamDelayMs },
  };
}

/** Small pieces of a few words, each ending on a space or line break, so lines arrive whole. */
const PIECE = /(?:\S+\s*){1,4}|\s+/g;

export function pieces(text: string): string[] {
  return text.match(PIECE) ?? [];
}

export async function* paced(
  text: string,
  delayMs: number,
  signal: AbortSignal,
): AsyncGenerator<string> {
  // One piece at a time: the first goes out before the rest of the text is even cut.
  for (const [piece] of text.matchAll(PIECE)) {
    if (signal.aborted) return;
    yield piece;
    await new Promise((resolve) =>
      delayMs > 0 ? setTimeout(resolve, delayMs) : setImmediate(resolve),
    );
  }
}
