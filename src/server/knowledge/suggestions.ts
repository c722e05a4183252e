import type { SourceRow } from '../store/types.js';
import type { Scope } from './relevance.js';

export const NOT_COVERED =
  "I'm sorry, I couldn't find anything about that in the information I have, so I can't answer it reliably. Could you ask in other words, or about something else?";

/** How many topics a refusal offers. */
const OFFERED = 3;
/**
 * A source is close to a question when one of its passages holds this share of the question's
 * weight: a word or two in common, not enough to answer (relevance.ts asks for half).
 */
const CLOSE_SHARE = 0.2;

const CLOSEST = 'These topics come closest to your question:';
const AVAILABLE = 'Here is what I can help with:';

/** What a visitor can ask about, as a list item: a Q&A pair's question, or a source's title. */
const topic = (source: SourceRow) =>
  (source.type === 'qa' ? String(source.meta.question ?? '') || source.title : source.title)
    .replace(/\s+/g, ' ')
    .trim();

/**
 * Up to OFFERED topics for a question no source answers: the allowed sources closest to it
 * (`closeness`, from relevance.ts), closest first; when none is close, what the chatbot can
 * help with at all — its Q&A questions in the owner's order (each is answered as asked), then
 * its documents, largest first. None when the agent has no source to answer from.
 */
export function suggestionsFor(
  scope: Scope,
  closeness: ReadonlyMap<string, number>,
): { close: boolean; topics: string[] } {
  const close = [...closeness]
    .filter(([uuid, share]) => share >= CLOSE_SHARE && scope.allowed.has(uuid))
    .sort((a, b) => b[1] - a[1])
    .map(([uuid]) => scope.sources.get(uuid)!);
  const allowed = [...scope.allowed].map((uuid) => scope.sources.get(uuid)!);
  const pool =
    close.length > 0
      ? close
      : [
          ...allowed.filter((s) => s.type === 'qa'),
          ...allowed.filter((s) => s.type !== 'qa').sort((a, b) => b.tokens - a.tokens),
        ];
  const topics = [...new Set(pool.map(topic).filter(Boolean))].slice(0, OFFERED);
  return { close: close.length > 0, topics };
}

/**
 * The honest answer to a question the sources do not cover: it says so, then offers the topics
 * as a Markdown list, one per line (clients read the stream line by line).
 */
export function notCoveredText(suggestions: { close: boolean; topics: string[] }): string {
  if (suggestions.topics.length === 0) return NOT_COVERED;
  return `${NOT_COVERED}\n\n${suggestionList(suggestions)}`;
}

/** The offered topics under their lead-in line. */
export function suggestionList({ close, topics }: { close: boolean; topics: string[] }): string {
  return `${close ? CLOSEST : AVAILABLE}\n\n${topics.map((t) => `- ${t}`).join('\n')}`;
}
