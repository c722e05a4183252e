import type { AgentRow, ChatbotRow, SessionRow, SourceRow } from '../store/types.js';
import type { AnswerDeps, AnswerMeta, PreparedAnswer } from './answer-types.js';
import { agentMeta, citationsFor, composed, composedText, qaAnswer } from './compose.js';
import { type AnswerDocuments, withDocuments } from './documents.js';
import { llmAnswer } from './llm-answer.js';
import {
  closestFirst,
  matchQa,
  relevant,
  type Scope,
  type Section,
  scopeOf,
  termWeights,
} from './relevance.js';
import { asksForHuman, isSpam, matchesTrigger, triggerPhrases } from './rules.js';
import type { Hit } from './search.js';
import { NOT_COVERED, notCoveredText, suggestionsFor } from './suggestions.js';

export type { AnswerDeps, AnswerMeta, PreparedAnswer } from './answer-types.js';
export { pieces } from './compose.js';
export { excerpt } from './excerpt.js';
export { NOT_COVERED };

export const NO_AGENT =
  'This chatbot has no enabled user-facing agent, so it cannot answer yet. Enable one in the admin panel.';

/** How many passages an LLM gets to read. */
const LLM_PASSAGES = 6;
/** How many hits a search returns for relevance.ts to judge: the right one is often not first. */
const SEARCHED = 12;

/**
 * An agent answered before the sources were searched (spam defense, human escalation, a
 * pre-canned reply to its trigger) or no agent could: not covered, but no gap in the sources
 * either, so review does not count it as one (store/facts.ts).
 */
const UNASKED = { sources_asked: false } as const;

const answerMeta = (
  base: Record<string, unknown> & { rule: string },
  sources: string[],
  extra: Partial<AnswerMeta> = {},
): AnswerMeta => ({ ...base, covered: sources.length > 0, sources, ...extra });

export async function prepareAnswer(
  deps: AnswerDeps,
  chatbot: ChatbotRow,
  session: SessionRow,
  query: string,
  documents: AnswerDocuments = { sent: [], earlier: [] },
): Promise<PreparedAnswer> {
  const agents = (await deps.store.listAgents(chatbot.uuid)).filter((a) => a.enabled);
  const enabled = (type: AgentRow['type']) => agents.filter((a) => a.type === type);
  const fixed = (text: string, meta: AnswerMeta) => composed(deps, text, [], {}, meta);

  const spamAgent = enabled('spam-defense')[0];
  if (spamAgent) {
    const previous = (await deps.store.recentMessages(session.uuid, 2)).map((m) => m.query);
    if (isSpam(query, previous)) {
      return fixed(
        spamAgent.meta.default_message ?? '',
        answerMeta(agentMeta(spamAgent, 'spam-defense'), [], UNASKED),
      );
    }
  }
  const escalation = enabled('human-escalation')[0];
  if (escalation && asksForHuman(query)) {
    return fixed(
      escalation.human_escalation_settings?.human_requested_message ?? '',
      answerMeta(agentMeta(escalation, 'human-escalation'), [], { ...UNASKED, escalated: true }),
    );
  }
  const preCanned = enabled('pre-canned');
  const triggered = preCanned.find((a) => matchesTrigger(a, query));
  if (triggered) {
    return fixed(
      triggered.meta.default_message ?? '',
      answerMeta(agentMeta(triggered, 'pre-canned'), [], UNASKED),
    );
  }
  // The owner's own words for "not covered" are the reply as written: a list of topics under
  // them would change what they chose to say (often a hand-off: "Please email us…").
  const fallback = preCanned.find((a) => triggerPhrases(a).length === 0);

  const agent = enabled('user-facing')[0];
  if (!agent) return fixed(NO_AGENT, answerMeta({ rule: 'no-agent' }, [], UNASKED));

  const scope = scopeOf(await deps.store.listSources(chatbot.uuid), agent);
  // The session's documents lead, ahead of the sources and of a Q&A pair (documents.ts).
  const { qa, hits, queryTerms, closeness, sections, sources, leading } = withDocuments(
    await judge(deps, chatbot.uuid, query, scope, session),
    scope.sources,
    query,
    documents,
    Boolean(deps.llm),
  );
  if (qa) {
    const answer = qaAnswer(qa);
    const cite = citationsFor([{ source: qa, text: answer }]);
    return composed(
      deps,
      answer,
      cite.citations,
      cite.citeData,
      answerMeta({ ...agentMeta(agent, 'qa'), data_source_uuid: qa.uuid }, [qa.uuid]),
      chatbot.show_citations,
    );
  }

  const offered = () => suggestionsFor(scope, closeness, sections);
  const notCovered = () => {
    if (fallback) {
      return fixed(
        fallback.meta.default_message ?? NOT_COVERED,
        answerMeta(agentMeta(fallback, 'pre-canned'), []),
      );
    }
    const topics = offered();
    return fixed(
      notCoveredText(topics),
      answerMeta(
        { rule: 'not-covered' },
        [],
        topics.topics.length > 0 ? { suggestions: topics.topics } : {},
      ),
    );
  };

  if (deps.llm) {
    const passages = hits.slice(0, leading + LLM_PASSAGES).map((h) => ({
      source: sources.get(h.sourceUuid)!,
      text: h.text,
    }));
    if (passages.length === 0 && fallback) return notCovered();
    return llmAnswer(
      deps,
      deps.llm,
      chatbot,
      session,
      agent,
      query,
      passages,
      () => composedText(hits, queryTerms, sources, chatbot.show_citations),
      passages.length === 0 ? offered() : undefined,
    );
  }
  if (hits.length === 0) return notCovered();
  const { text, picked } = composedText(hits, queryTerms, sources, chatbot.show_citations);
  if (picked.length === 0) return notCovered();
  const cite = citationsFor(picked);
  return composed(
    deps,
    text,
    cite.citations,
    cite.citeData,
    answerMeta(
      agentMeta(agent, 'passages'),
      cite.citations.map((c) => c.data_source_uuid),
    ),
    chatbot.show_citations,
  );
}

/**
 * Whether the chatbot, as its sources stand now, answers each of `queries` from them: the
 * judgement prepareAnswer makes through its user-facing agent (a Q&A pair, passages for an LLM,
 * or passages worth quoting), outside any session. Insights marks the gaps since closed with it.
 */
export async function coveredNow(
  deps: AnswerDeps,
  chatbot: ChatbotRow,
  queries: readonly string[],
): Promise<boolean[]> {
  if (queries.length === 0) return [];
  const agent = (await deps.store.listAgents(chatbot.uuid)).find(
    (a) => a.enabled && a.type === 'user-facing',
  );
  if (!agent) return queries.map(() => false);
  const scope = scopeOf(await deps.store.listSources(chatbot.uuid), agent);
  return Promise.all(
    queries.map(async (query) => {
      const { qa, hits, queryTerms } = await judge(deps, chatbot.uuid, query, scope);
      if (qa) return true;
      if (deps.llm) return hits.length > 0;
      const { picked } = composedText(hits, queryTerms, scope.sources, chatbot.show_citations);
      return picked.length > 0;
    }),
  );
}

/**
 * What the sources say to a question: a Q&A pair that answers it verbatim, or the passages that
 * answer it (relevance.ts), and how close each source came, for the topics a refusal offers.
 */
interface Judged {
  qa?: SourceRow;
  hits: Hit[];
  queryTerms: Set<string>;
  closeness: ReadonlyMap<string, number>;
  sections: readonly Section[];
}

async function judge(
  deps: AnswerDeps,
  chatbotUuid: string,
  query: string,
  scope: Scope,
  session?: SessionRow,
): Promise<Judged> {
  const { sources, allowed, qaSources } = scope;
  const none: Judged = { hits: [], queryTerms: new Set(), closeness: new Map(), sections: [] };
  if (allowed.size === 0) return none;
  const found = await deps.index.search(chatbotUuid, query, {
    limit: SEARCHED,
    // Every source allowed: no filter to run over each result.
    sources: allowed.size === sources.size ? undefined : allowed,
  });
  // An excerpt's sentences are chosen by the words asked and the synonyms found for them.
  const queryTerms = new Set([...found.terms, ...[...(found.alternatives?.values() ?? [])].flat()]);
  const qa = matchQa(termWeights(found), qaSources, found.alternatives);
  if (qa) return { ...none, qa, queryTerms };
  // A source being processed again keeps its old chunks meanwhile; it is not answered from.
  const { hits, closeness, sections, named } = relevant(
    { ...found, hits: found.hits.filter((h) => allowed.has(h.sourceUuid)) },
    query,
    scope,
  );
  if (!named) return { qa, hits, queryTerms, closeness, sections };
  // A section picked from a refusal's offer answers the question refused, around its words.
  const refused = session && (await refusedOffering(deps, session, query));
  if (refused) {
    const earlier = await deps.index.search(chatbotUuid, refused, { limit: 0 });
    const ordered = closestFirst(hits, earlier);
    if (ordered !== hits) {
      const asked = [...earlier.terms, ...[...(earlier.alternatives?.values() ?? [])].flat()];
      return { qa, hits: ordered, queryTerms: new Set(asked), closeness, sections };
    }
  }
  // A section asked for by its heading is quoted from its beginning, not around its words.
  return { qa, hits, queryTerms: new Set(), closeness, sections };
}

const sameTopic = (a: string, b: string) =>
  a.replace(/\s+/g, ' ').trim().toLowerCase() === b.replace(/\s+/g, ' ').trim().toLowerCase();

/**
 * The question the session's last answer refused, when that refusal offered `query` as a topic:
 * the visitor picked it (a click on the chat's chip sends the topic's text) to find that answer.
 */
async function refusedOffering(
  deps: AnswerDeps,
  session: SessionRow,
  query: string,
): Promise<string | undefined> {
  const [last] = await deps.store.recentMessages(session.uuid, 1);
  const offered = last?.meta.suggestions;
  if (last?.meta.covered !== false || !Array.isArray(offered)) return undefined;
  return offered.some((topic) => typeof topic === 'string' && sameTopic(topic, query))
    ? last.query
    : undefined;
}

export type { Hit };
