import type { Citation, CiteData } from '../../api/types.js';
import type { AgentRow, ChatbotRow, SessionRow, Store } from '../store/types.js';
import { agentMeta, citationsFor, composed, composedText, NOT_COVERED } from './compose.js';
import type { LlmOptions } from './llm.js';
import { llmAnswer } from './llm-answer.js';
import { matchQa, relevant, scopeOf } from './relevance.js';
import { asksForHuman, isSpam, matchesTrigger, triggerPhrases } from './rules.js';
import type { Hit, SearchIndex } from './search.js';
import { terms } from './text.js';

export { pieces } from './compose.js';
export { excerpt } from './excerpt.js';
export { NOT_COVERED };

export const NO_AGENT =
  'This chatbot has no enabled user-facing agent, so it cannot answer yet. Enable one in the admin panel.';

/** How many passages an LLM gets to read. */
const LLM_PASSAGES = 6;

export interface AnswerDeps {
  store: Store;
  index: SearchIndex;
  llm?: LlmOptions;
  /** Pause between streamed pieces of a composed answer, so it reads as it arrives. */
  streamDelayMs: number;
}

/** Everything known before the first byte, plus the text still to come. */
export interface PreparedAnswer {
  citations: Citation[];
  citeData: CiteData;
  meta: Record<string, unknown>;
  /** Set when the answer was degraded (the LLM failed) or cut off. */
  errorMessage: string;
  /** The answer stopped before its end (the LLM broke off mid-answer). */
  cutShort: boolean;
  /** `pace: false` for a whole answer at once (the non-stream endpoint). */
  text(signal: AbortSignal, pace?: boolean): AsyncIterable<string>;
}

export async function prepareAnswer(
  deps: AnswerDeps,
  chatbot: ChatbotRow,
  session: SessionRow,
  query: string,
): Promise<PreparedAnswer> {
  const agents = deps.store.listAgents(chatbot.uuid).filter((a) => a.enabled);
  const enabled = (type: AgentRow['type']) => agents.filter((a) => a.type === type);
  const fixed = (text: string, meta: Record<string, unknown>) => composed(deps, text, [], {}, meta);

  const spamAgent = enabled('spam-defense')[0];
  if (spamAgent) {
    const previous = deps.store.recentMessages(session.uuid, 2).map((m) => m.query);
    if (isSpam(query, previous)) {
      return fixed(spamAgent.meta.default_message ?? '', agentMeta(spamAgent, 'spam-defense'));
    }
  }
  const escalation = enabled('human-escalation')[0];
  if (escalation && asksForHuman(query)) {
    return fixed(
      escalation.human_escalation_settings?.human_requested_message ?? '',
      agentMeta(escalation, 'human-escalation'),
    );
  }
  const preCanned = enabled('pre-canned');
  const triggered = preCanned.find((a) => matchesTrigger(a, query));
  if (triggered) {
    return fixed(triggered.meta.default_message ?? '', agentMeta(triggered, 'pre-canned'));
  }
  const fallback = preCanned.find((a) => triggerPhrases(a).length === 0);
  const notCovered = () =>
    fallback
      ? fixed(fallback.meta.default_message ?? NOT_COVERED, agentMeta(fallback, 'pre-canned'))
      : fixed(NOT_COVERED, { rule: 'not-covered' });

  const agent = enabled('user-facing')[0];
  if (!agent) return fixed(NO_AGENT, { rule: 'no-agent' });

  const { sources, allowed, qaSources } = scopeOf(deps.store.listSources(chatbot.uuid), agent);
  const asked = terms(query);
  const qa = matchQa(asked, qaSources);
  if (qa) {
    const cite = citationsFor([{ source: qa, text: String(qa.meta.answer ?? '') }]);
    return composed(
      deps,
      String(qa.meta.answer ?? ''),
      cite.citations,
      cite.citeData,
      {
        ...agentMeta(agent, 'qa'),
        data_source_uuid: qa.uuid,
      },
      chatbot.show_citations,
    );
  }

  let queryTerms = asked;
  let hits: Hit[] = [];
  if (allowed.size > 0 && queryTerms.size > 0) {
    await deps.index.ready(chatbot.uuid);
    const found = deps.index.search(chatbot.uuid, query, {
      limit: 12,
      // Every source allowed: no filter to run over each result.
      sources: allowed.size === sources.size ? undefined : allowed,
    });
    queryTerms = new Set(found.terms);
    // A source being processed again keeps its old chunks meanwhile; it is not answered from.
    hits = relevant(
      found.hits.filter((h) => allowed.has(h.sourceUuid)),
      queryTerms,
    );
  }

  if (deps.llm) {
    const passages = hits.slice(0, LLM_PASSAGES).map((h) => ({
      source: sources.get(h.sourceUuid)!,
      text: h.text,
    }));
    if (passages.length === 0 && fallback) return notCovered();
    return llmAnswer(deps, deps.llm, chatbot, session, agent, query, passages, () =>
      composedText(hits, queryTerms, sources, chatbot.show_citations),
    );
  }
  if (hits.length === 0) return notCovered();
  const { text, picked } = composedText(hits, queryTerms, sources, chatbot.show_citations);
  const cite = citationsFor(picked);
  return composed(
    deps,
    text,
    cite.citations,
    cite.citeData,
    agentMeta(agent, 'passages'),
    chatbot.show_citations,
  );
}

export type { Hit };
