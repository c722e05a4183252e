import { SUGGESTION_LEAD_INS } from '../store/facts.js';
import type { SourceRow } from '../store/types.js';
import { HEADING_SEPARATOR, innermostHeading } from './markdown.js';
import type { Scope, Section } from './relevance.js';

export const NOT_COVERED =
  "I'm sorry, I couldn't find anything about that in the information I have, so I can't answer it reliably. Could you ask in other words, or about something else?";

/** How many topics a refusal offers. */
const OFFERED = 3;
/**
 * A source is close to a question when one of its passages holds this share of the question's
 * weight: a word or two in common, not enough to answer (relevance.ts asks for half).
 */
const CLOSE_SHARE = 0.2;
/**
 * Once one topic is close, others this near fill the offer's places: a paraphrase whose words
 * the document does not use may hold little of the question's weight in the very section that
 * answers it ("the ^ symbol" for Caret Ranges).
 */
const NEAR_SHARE = 0.1;

const [CLOSEST, AVAILABLE] = SUGGESTION_LEAD_INS;

/** What a visitor can ask about, as a list item: a Q&A pair's question, or a source's title. */
const topic = (source: SourceRow) =>
  (source.type === 'qa' ? String(source.meta.question ?? '') || source.title : source.title)
    .replace(/\s+/g, ' ')
    .trim();

/**
 * A section of a document as a topic: its innermost heading, after the document's title when the
 * chatbot has other documents ("MiniSearch › Search options": several READMEs have a "Usage").
 */
function sectionTopic(source: SourceRow, heading: string, titled: boolean): string {
  const section = innermostHeading(heading).replace(/\s+/g, ' ');
  const title = topic(source);
  if (!section || section.toLowerCase() === title.toLowerCase()) return title;
  return titled ? `${title}${HEADING_SEPARATOR}${section}` : section;
}

/**
 * Up to OFFERED topics for a question no source answers: what came closest to it (`closeness`
 * and `sections`, from relevance.ts), closest first: a Q&A pair's question, or the sections of a
 * document whose passages came close (its title when it has no headings), since a chatbot of one
 * long manual would otherwise offer the manual's title to every question; once one is close,
 * nearer ones (NEAR_SHARE) fill the places left. When nothing is close,
 * what the chatbot can help with at all: its Q&A questions in the owner's order (each is
 * answered as asked), then its documents, largest first. None when the agent has no source to
 * answer from.
 */
export function suggestionsFor(
  scope: Scope,
  closeness: ReadonlyMap<string, number>,
  sections: readonly Section[] = [],
): { close: boolean; topics: string[] } {
  const allowed = [...scope.allowed].map((uuid) => scope.sources.get(uuid)!);
  const titled = allowed.filter((s) => s.type !== 'qa').length > 1;
  const close: Array<{ share: number; topic: string }> = [];
  for (const [uuid, share] of closeness) {
    if (share < NEAR_SHARE || !scope.allowed.has(uuid)) continue;
    const source = scope.sources.get(uuid)!;
    const parts =
      source.type === 'qa'
        ? []
        : sections.filter((s) => s.sourceUuid === uuid && s.share >= NEAR_SHARE);
    if (parts.length === 0) close.push({ share, topic: topic(source) });
    for (const part of parts) {
      close.push({ share: part.share, topic: sectionTopic(source, part.heading, titled) });
    }
  }
  // Stable: equally close topics keep the search's order.
  close.sort((a, b) => b.share - a.share);
  const isClose = close.length > 0 && close[0]!.share >= CLOSE_SHARE;
  const pool = isClose
    ? close.map((c) => c.topic)
    : [
        ...allowed.filter((s) => s.type === 'qa'),
        ...allowed.filter((s) => s.type !== 'qa').sort((a, b) => b.tokens - a.tokens),
      ].map(topic);
  const topics = [...new Set(pool.filter(Boolean))].slice(0, OFFERED);
  return { close: isClose, topics };
}

/**
 * The honest answer to a question the sources do not cover: it says so, then offers the topics
 * as a Markdown list, one per line (clients read the stream line by line).
 */
export function notCoveredText(suggestions: { close: boolean; topics: string[] }): string {
  if (suggestions.topics.length === 0) return NOT_COVERED;
  return `${NOT_COVERED}\n\n${suggestionList(suggestions)}`;
}

/**
 * A topic as the text of a Markdown list item: a heading or a question is the owner's text, not
 * markup ("<chatbot-chat>", "*args", "[beta]" would otherwise be read as HTML, emphasis, a link).
 */
const literal = (topic: string) =>
  topic
    .replace(/[\\`*_[\]<>#|~&]/g, '\\$&')
    // Nor is a list marker at its start ("2024. Prices", "- draft") a list inside the item.
    .replace(/^(\d+)([.)])/, '$1\\$2')
    .replace(/^([-+])/, '\\$1');

/** The offered topics under their lead-in line. */
export function suggestionList({ close, topics }: { close: boolean; topics: string[] }): string {
  return `${close ? CLOSEST : AVAILABLE}\n\n${topics.map((t) => `- ${literal(t)}`).join('\n')}`;
}
