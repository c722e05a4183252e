/**
 * What a store indexes about a message for review (filters, insights), worked out the same way by
 * every store and by the migration that fills them in for messages stored before they existed.
 */
import type { CiteData } from '../../api/types.js';

/** Rules of the agents that answer before the sources are searched (knowledge/answer.ts). */
const UNASKED_RULES = new Set(['spam-defense', 'human-escalation', 'no-agent']);

/**
 * The meta_json members review reads, filled in when the answer path left them out: `covered`
 * (the answer cited a source or Q&A), `sources` (the cited data_source_uuids, in citation order),
 * `escalated: true` (a human-escalation agent answered) and `sources_asked: false` (an agent
 * answered before the sources were searched; a pre-canned reply of a record from before this
 * member cannot be told from the one that stands in for "not covered", and counts as asked).
 * Members the answer path set itself are kept as they are.
 */
export function answerMeta(
  meta: Record<string, unknown>,
  citeData: CiteData | Record<string, unknown>,
): Record<string, unknown> {
  const cited = [
    ...new Set(
      Object.values(citeData)
        .map((c) => (c as { data_source_uuid?: unknown } | null)?.data_source_uuid)
        .filter((uuid): uuid is string => typeof uuid === 'string' && uuid !== ''),
    ),
  ];
  const sources = Array.isArray(meta.sources)
    ? meta.sources.filter((s): s is string => typeof s === 'string')
    : cited;
  const covered = typeof meta.covered === 'boolean' ? meta.covered : sources.length > 0;
  const escalated = meta.escalated === true || meta.agent_type === 'human-escalation';
  const unasked = meta.sources_asked === false || escalated || UNASKED_RULES.has(String(meta.rule));
  return {
    ...meta,
    covered,
    sources,
    ...(escalated ? { escalated: true } : {}),
    ...(unasked ? { sources_asked: false } : {}),
  };
}

/**
 * The review's own `covered` column: whether a message is NOT a gap in the sources, that is
 * they covered it or were never asked (an agent answered first). "Not covered" in filters,
 * marks and insights lists the questions the sources were asked and could not answer, which
 * adding a source or a Q&A can mend; meta_json's `covered` stays what the sources did.
 */
export function coveredForReview(meta: Record<string, unknown>): boolean {
  return meta.covered === true || meta.sources_asked === false;
}

/**
 * A question's wording for grouping: "How much does it cost?" and "how much does it  cost"
 * are the same question. Letters are lower-cased and compatibility forms folded; punctuation and
 * symbols become spaces; runs of spaces collapse.
 */
export function normalizeQuestion(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\p{P}\p{S}]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * The lines a refusal's offered topics are listed under (knowledge/suggestions.ts writes them).
 * The conversation search reads a response only up to them: the topics are the chatbot's own
 * words, not the conversation's, and searching "parking" listed every refusal that offered it.
 */
export const SUGGESTION_LEAD_INS = [
  'These topics come closest to your question:',
  'Here is what I can help with:',
] as const;

/**
 * SQL for what of a message's response the conversation search reads: all of it, or, when its
 * meta_json offered topics (`suggestions`), what comes before their lead-in. For a column
 * prefix (`new.`, `old.`, or none), in SQLite's functions or PostgreSQL's.
 */
export function searchedResponseSql(row: string, dialect: 'sqlite' | 'postgres'): string {
  const find = dialect === 'sqlite' ? 'instr' : 'strpos';
  const at = SUGGESTION_LEAD_INS.map(
    (lead) => `${find}(${row}response, '\n\n${lead.replaceAll("'", "''")}')`,
  );
  const first =
    dialect === 'sqlite'
      ? `nullif(max(${at.join(', ')}), 0)`
      : `nullif(greatest(${at.join(', ')}), 0)`;
  const offered =
    dialect === 'sqlite'
      ? `json_extract(${row}meta_json, '$.suggestions') IS NOT NULL`
      : `(${row}meta_json::jsonb -> 'suggestions') IS NOT NULL`;
  return `CASE WHEN ${offered} THEN coalesce(substr(${row}response, 1, ${first} - 1), ${row}response) ELSE ${row}response END`;
}
