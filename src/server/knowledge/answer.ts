import type { Citation, CiteData } from '../../api/types.js';
import type { AgentRow, ChatbotRow, SessionRow, SourceRow, Store } from '../store/types.js';
import { type ChatMessage, LlmError, type LlmOptions, streamCompletion } from './llm.js';
import { quotableUnits, type Unit } from './quotable.js';
import { asksForHuman, isSpam, matchesTrigger, triggerPhrases } from './rules.js';
import type { Hit, SearchIndex } from './search.js';
import { terms } from './text.js';

export const NOT_COVERED =
  "I'm sorry, I couldn't find anything about that in the information I have, so I can't answer it reliably. Could you ask in other words, or about something else?";
export const NO_AGENT =
  'This chatbot has no enabled user-facing agent, so it cannot answer yet. Enable one in the admin panel.';

/** How many passages a composed answer quotes, and how many an LLM gets to read. */
const COMPOSED_PASSAGES = 3;
const LLM_PASSAGES = 6;
const EXCERPT_CHARS = 480;

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

function agentMeta(agent: AgentRow, rule: string): Record<string, unknown> {
  return { rule, agent_uuid: agent.uuid, agent_type: agent.type };
}

/** What answering reads of a chatbot's sources, as its user-facing agent may use them. */
interface Scope {
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

function scopeOf(rows: readonly SourceRow[], agent: AgentRow): Scope {
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
function matchQa(asked: Set<string>, candidates: Scope['qaSources']): SourceRow | undefined {
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
function relevant(hits: Hit[], queryTerms: Set<string>): Hit[] {
  const top = hits[0];
  if (!top) return [];
  const coverage = new Set(top.matched).size / queryTerms.size;
  if (coverage < 0.5) return [];
  return hits.filter((h) => h.score >= top.score / 3);
}

interface Passage {
  source: SourceRow;
  text: string;
}

function citationsFor(passages: Passage[]): { citations: Citation[]; citeData: CiteData } {
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
function composedText(
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
    const text = quote(
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
    // Once one passage names its section, a passage without one must name at least its source,
    // or it reads as the continuation of the passage above.
    const lead = leadIn(p.source.title, headings[i]!, headings.some(Boolean));
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

const FIRST_PASSAGE_CHARS = 640;

/** "From *chatbot-elements › Errors*:": the source and the innermost section, when known. */
function leadIn(title: string, heading: string, always: boolean): string {
  const section = heading.split(' › ').pop()?.trim() ?? '';
  if (!section && !always) return '';
  const name = [title.trim(), section]
    .filter((part, i, all) => part && (i === 0 || part.toLowerCase() !== all[0]!.toLowerCase()))
    .join(' › ')
    .replace(/[*_`[\]\\<>]/g, '');
  return name ? `From *${name}*:` : '';
}

export function excerpt(chunk: string, queryTerms: Set<string>, max = EXCERPT_CHARS): string {
  return quote(quotableUnits(chunk), queryTerms, max, new Set());
}

/**
 * The excerpt of one chunk; `quoted` holds the units earlier passages quoted (chunks overlap, and
 * a sentence said once is enough), and receives this one's.
 */
function quote(
  units: readonly Unit[],
  queryTerms: Set<string>,
  max: number,
  quoted: Set<string>,
): string {
  // The first passage has nothing quoted before it: no need to read every unit's text for that.
  const all = quoted.size === 0 ? units : units.filter((u) => !quoted.has(u.text));
  if (all.length === 0) return '';
  const scores = all.map((u) => matches(u.terms, queryTerms) + matches(u.leadTerms, queryTerms));
  let best = 0;
  for (let i = 1; i < all.length; i++) if (scores[i]! > scores[best]!) best = i;
  const picked = new Map<number, string>([[best, fit(all[best]!, max, queryTerms)]]);
  let start = best;
  let end = best + 1;
  let length = picked.get(best)!.length;
  // Grow forward first (what follows a matching sentence usually explains it), then back.
  while (true) {
    const next = all[end];
    if (next !== undefined && length + next.text.length + 2 <= max) {
      picked.set(end, next.text);
      length += next.text.length + 2;
      end++;
      continue;
    }
    const previous = all[start - 1];
    // Back only within the paragraph or list: an earlier block is another topic's end.
    const sameBlock =
      previous !== undefined &&
      (previous.block === all[start]!.block ||
        (previous.kind === 'item' && all[start]!.kind === 'item'));
    if (
      previous !== undefined &&
      sameBlock &&
      length + previous.text.length + 2 <= max &&
      scores[start - 1]! > 0
    ) {
      picked.set(start - 1, previous.text);
      length += previous.text.length + 2;
      start--;
      continue;
    }
    break;
  }
  // Sentences of a paragraph one a line (the same paragraph in Markdown, and easier for clients
  // that read lines), items of a list on consecutive lines, a blank line around anything else.
  let text = '';
  for (let i = start; i < end; i++) {
    const unit = all[i]!;
    const previous = all[i - 1];
    const joined =
      i === start
        ? ''
        : (unit.kind === 'sentence' &&
              previous?.kind === 'sentence' &&
              previous.block === unit.block) ||
            (unit.kind === 'item' && previous?.kind === 'item') ||
            (unit.kind === 'quote' && previous?.kind === 'quote')
          ? '\n'
          : '\n\n';
    text += joined + picked.get(i)!;
  }
  const last = all[end - 1]!;
  if (last.kind === 'sentence' && !/[.!?…:"')\]*`]$/.test(text)) text += '.';
  for (let i = start; i < end; i++) quoted.add(all[i]!.text);
  return text;
}

/** How many of the question's terms a unit holds (its terms are distinct). */
function matches(unitTerms: readonly string[], queryTerms: Set<string>): number {
  let n = 0;
  for (const term of unitTerms) if (queryTerms.has(term)) n++;
  return n;
}

/** One unit cut to `max` characters without leaving a fence, table or inline markup open. */
function fit(unit: Unit, max: number, queryTerms: Set<string>): string {
  if (unit.text.length <= max) return unit.text;
  if (unit.kind === 'code') {
    const lines = unit.text.split('\n');
    const fenceLine = lines.pop()!;
    const kept: string[] = [];
    let length = fenceLine.length + 1;
    for (const line of lines) {
      if (length + line.length + 1 > max && kept.length > 1) break;
      kept.push(line);
      length += line.length + 1;
    }
    return [...kept, fenceLine].join('\n');
  }
  if (unit.kind === 'table') {
    // Too wide to quote whole: its best rows as readable lines, "- first cell — header: cell".
    const rows = unit.text.split('\n').map(cells);
    const header = rows[0] ?? [];
    const body = rows.slice(/^[\s|:-]+$/.test(unit.text.split('\n')[1] ?? '') ? 2 : 1);
    const lines = body.map(
      (row) =>
        `- ${row[0] ?? ''}${row
          .slice(1)
          .map((cell, i) => (cell ? ` — ${header[i + 1] ? `${header[i + 1]}: ` : ''}${cell}` : ''))
          .join('')}`,
    );
    const ranked = lines
      .map((line, i) => ({ i, score: matches([...terms(line)], queryTerms) }))
      .sort((a, b) => b.score - a.score || a.i - b.i);
    const kept = new Set<number>();
    let length = 0;
    for (const { i } of ranked) {
      const line = lines[i]!.length > max ? truncate(lines[i]!, max) : lines[i]!;
      if (kept.size > 0 && length + line.length + 1 > max) continue;
      lines[i] = line;
      kept.add(i);
      length += line.length + 1;
    }
    return lines.filter((_, i) => kept.has(i)).join('\n');
  }
  return truncate(unit.text, max);
}

const cells = (row: string) =>
  row
    .trim()
    .replace(/^\||\|$/g, '')
    .split(/(?<!\\)\|/)
    .map((c) => c.replace(/\\\|/g, '|').trim());

/** Cut at a word, with an ellipsis, closing any code span or bold the cut left open. */
function truncate(text: string, max: number): string {
  let out = `${text.slice(0, max - 1).replace(/\s+\S*$/, '')}…`;
  if ((out.match(/`/g) ?? []).length % 2 === 1) out = out.replace(/…$/, '`…');
  if ((out.match(/\*\*/g) ?? []).length % 2 === 1) out = out.replace(/…$/, '**…');
  return out;
}

function composed(
  deps: AnswerDeps,
  text: string,
  citations: Citation[],
  citeData: CiteData,
  meta: Record<string, unknown>,
  showCitations = true,
): PreparedAnswer {
  return {
    citations: showCitations ? citations : [],
    citeData,
    meta,
    errorMessage: '',
    cutShort: false,
    text: (signal, pace = true) => paced(text, pace ? deps.streamDelayMs : 0, signal),
  };
}

/** Small pieces of a few words, each ending on a space or line break, so lines arrive whole. */
const PIECE = /(?:\S+\s*){1,4}|\s+/g;

export function pieces(text: string): string[] {
  return text.match(PIECE) ?? [];
}

async function* paced(text: string, delayMs: number, signal: AbortSignal): AsyncGenerator<string> {
  // One piece at a time: the first goes out before the rest of the text is even cut.
  for (const [piece] of text.matchAll(PIECE)) {
    if (signal.aborted) return;
    yield piece;
    await new Promise((resolve) =>
      delayMs > 0 ? setTimeout(resolve, delayMs) : setImmediate(resolve),
    );
  }
}

const DEFAULT_PROMPT = 'You are a helpful assistant for this website. Be concise and friendly.';

function llmAnswer(
  deps: AnswerDeps,
  llm: LlmOptions,
  chatbot: ChatbotRow,
  session: SessionRow,
  agent: AgentRow,
  query: string,
  passages: Passage[],
  composedFallback: () => { text: string; picked: Passage[] },
): PreparedAnswer {
  const cite = citationsFor(passages);
  const numbers = new Map(cite.citations.map((c) => [c.data_source_uuid, c.n]));
  const sourcesText = passages
    .map((p) => `[${numbers.get(p.source.uuid)}] ${p.source.title}\n${p.text}`)
    .join('\n\n');
  const instructions = [
    agent.prompt.trim() || DEFAULT_PROMPT,
    passages.length > 0
      ? 'Answer using only the numbered sources below. If they do not cover the question, say so plainly instead of guessing.'
      : 'No source of this chatbot matches the question: unless it is small talk, say plainly that your information does not cover it.',
    chatbot.show_citations && passages.length > 0
      ? 'After each sentence that uses a source, cite it as [n] with its number.'
      : 'Do not add citation markers.',
    'Write short paragraphs in Markdown.',
    passages.length > 0 ? `Sources:\n\n${sourcesText}` : '',
  ]
    .filter(Boolean)
    .join('\n\n');
  const history: ChatMessage[] = deps.store
    .recentMessages(session.uuid, 6)
    .flatMap((m) => [
      { role: 'user' as const, content: m.query },
      { role: 'assistant' as const, content: m.response },
    ])
    .filter((m) => m.content);
  const model =
    agent.meta.model && agent.meta.model !== 'default'
      ? agent.meta.model
      : (llm.model ?? 'gpt-4o-mini');
  const prepared: PreparedAnswer = {
    citations: chatbot.show_citations ? cite.citations : [],
    citeData: cite.citeData,
    meta: { ...agentMeta(agent, 'llm'), model },
    errorMessage: '',
    cutShort: false,
    async *text(signal, pace = true) {
      let produced = false;
      try {
        for await (const delta of streamCompletion(
          llm,
          {
            model,
            temperature: agent.meta.temperature ?? 0.2,
            messages: [
              { role: 'system', content: instructions },
              ...history,
              { role: 'user', content: query },
            ],
          },
          signal,
        )) {
          produced = true;
          yield delta;
        }
      } catch (error) {
        if (!(error instanceof LlmError)) throw error;
        prepared.errorMessage = error.message;
        if (produced) {
          prepared.cutShort = true;
          return;
        }
        // Nothing was said yet: answer from the sources rather than leave the user with nothing.
        prepared.meta.rule = 'llm-fallback';
        const fallback = passages.length > 0 ? composedFallback().text : NOT_COVERED;
        yield* paced(fallback, pace ? deps.streamDelayMs : 0, signal);
      }
    },
  };
  return prepared;
}

export type { Hit };
