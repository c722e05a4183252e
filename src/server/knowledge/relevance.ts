import type { AgentRow, SourceRow } from '../store/types.js';
import type { Hit } from './search.js';
import { terms } from './text.js';

/** What answering reads of a chatbot's sources, as its user-facing agent may use them. */
export interface Scope {
  /** The sources ready to answer from, by uuid. */
  sources: Map<string, SourceRow>;
  /** Those the agent may use. */
  allowed: Set<string>;
  /** The allowed Q&A sources, in that order, with their questions' terms. */
  qaSources: Array<{ source: SourceRow; question: Set<string> }>;
}

/**
 * Scopes worked out per list of sources and agent. The store hands out the same frozen rows until
 * something is written (store/cached.ts), so each message does not rebuild these maps and stem
 * every Q&A question again; a store that reads afresh each time simply never hits.
 */
const scopes = new WeakMap<readonly SourceRow[], WeakMap<AgentRow, Scope>>();

export function scopeOf(rows: readonly SourceRow[], agent: AgentRow): Scope {
  let byAgent = scopes.get(rows);
  if (!byAgent) {
    byAgent = new WeakMap();
    scopes.set(rows, byAgent);
  }
  let scope = byAgent.get(agent);
  if (!scope) {
    const sources = new Map(rows.filter((s) => s.status === 'success').map((s) => [s.uuid, s]));
    const allowed = agent.meta.use_all_sources
      ? new Set(sources.keys())
      : new Set(agent.data_source_uuids.filter((u) => sources.has(u)));
    const qaSources = [...allowed]
      .map((u) => sources.get(u)!)
      .filter((s) => s.type === 'qa')
      .map((source) => ({ source, question: terms(String(source.meta.question ?? '')) }));
    scope = { sources, allowed, qaSources };
    byAgent.set(agent, scope);
  }
  return scope;
}

/**
 * A Q&A source answers verbatim when its question and the user's share most of their topic
 * words: at least 60% of the question's and half of the user's (stemmed, stop words dropped).
 */
export function matchQa(asked: Set<string>, candidates: Scope['qaSources']): SourceRow | undefined {
  if (asked.size === 0) return undefined;
  let best: { source: SourceRow; score: number } | undefined;
  for (const { source, question } of candidates) {
    if (question.size === 0) continue;
    const shared = [...question].filter((t) => asked.has(t)).length;
    const score = Math.min(shared / question.size / 0.6, shared / asked.size / 0.5);
    if (score >= 1 && (!best || score > best.score)) best = { source, score };
  }
  return best?.source;
}

/**
 * Keeps hits that are about the question: the best must hold at least half of the question's
 * topic words, and others must score at least a third of the best.
 */
export function relevant(hits: Hit[], queryTerms: Set<string>): Hit[] {
  const top = hits[0];
  if (!top) return [];
  const coverage = new Set(top.matched).size / queryTerms.size;
  if (coverage < 0.5) return [];
  return hits.filter((h) => h.score >= top.score / 3);
}
