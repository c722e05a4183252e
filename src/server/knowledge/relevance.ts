import type { AgentRow, SourceRow } from '../store/types.js';
import { HEADING_SEPARATOR } from './markdown.js';
import { sectionKey } from './postings.js';
import type { Hit, SearchResult } from './search.js';
import { queryTerms, terms } from './text.js';

/** What answering reads of a chatbot's sources, as its user-facing agent may use them. */
export interface Scope {
  /** The sources ready to answer from, by uuid. */
  sources: Map<string, SourceRow>;
  /** Those the agent may use. */
  allowed: Set<string>;
  /** The allowed Q&A sources, in that order, with their questions' terms. */
  qaSources: Array<{ source: SourceRow; question: Set<string> }>;
  /** The terms of each allowed source's title. */
  titles: Map<string, Set<string>>;
  /**
   * Title terms that name one document: in the title of exactly one allowed source other than a
   * Q&A pair (whose title is a question, not a name), by the uuid of that source.
   */
  names: Map<string, string>;
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
      .map((source) => ({ source, question: queryTerms(String(source.meta.question ?? '')) }));
    const titles = new Map([...allowed].map((u) => [u, terms(sources.get(u)!.title)]));
    const names = new Map<string, string>();
    const shared = new Set<string>();
    for (const [uuid, title] of titles) {
      if (sources.get(uuid)!.type === 'qa') continue;
      for (const term of title) {
        if (names.has(term)) shared.add(term);
        names.set(term, uuid);
      }
    }
    for (const term of shared) names.delete(term);
    scope = { sources, allowed, qaSources, titles, names };
    byAgent.set(agent, scope);
  }
  return scope;
}

/**
 * How much each term of a question says about its topic: its inverse document frequency among
 * the chatbot's chunks. A word the sources never use weighs as much as one a single passage
 * holds, the most any word weighs: when it is what the question is about ("Does MiniSearch do
 * vector search?"), a passage holding only the question's commoner words is no answer. No more
 * than that, or in a small knowledge base, where most words of any question are missing, an
 * everyday word ("Is the lift working?") would outweigh the rest.
 */
export function termWeights(found: SearchResult): Map<string, number> {
  const { total } = found;
  return new Map(
    found.terms.map((term, i) => {
      const df = Math.max(1, found.df[i]!);
      return [term, Math.log(1 + (Math.max(total, df) - df + 0.5) / (df + 0.5))];
    }),
  );
}

const sum = (weights: Map<string, number>, of: Iterable<string>) => {
  let total = 0;
  for (const term of of) total += weights.get(term) ?? 0;
  return total;
};

/**
 * A Q&A source answers verbatim when its question and the user's share most of their topic
 * words: at least 60% of the question's, and half of the weight of the user's. Weighted, so
 * "How many customers use chatbot-elements?" is not "What is chatbot-elements?": the words
 * they share are the chatbot's name, which nearly every passage holds.
 */
export function matchQa(
  weights: Map<string, number>,
  candidates: Scope['qaSources'],
  alternatives: SearchResult['alternatives'] = new Map(),
): SourceRow | undefined {
  const asked = sum(weights, weights.keys());
  if (asked === 0) return undefined;
  // Each term of a Q&A question stands for the term asked that it is, or is a synonym of.
  const standsFor = new Map([...weights.keys()].map((t) => [t, t]));
  for (const [term, others] of alternatives) {
    for (const other of others) if (!standsFor.has(other)) standsFor.set(other, term);
  }
  let best: { source: SourceRow; score: number } | undefined;
  for (const { source, question } of candidates) {
    if (question.size === 0) continue;
    const shared = [...question].filter((t) => standsFor.has(t));
    const askedShared = new Set(shared.map((t) => standsFor.get(t)!));
    const score = Math.min(
      shared.length / question.size / 0.6,
      sum(weights, askedShared) / asked / 0.5,
    );
    if (score >= 1 && (!best || score > best.score)) best = { source, score };
  }
  return best?.source;
}

export interface Relevance {
  /** The hits that answer, best first. */
  hits: Hit[];
  /** Per source among the hits, the best share of the question's weight one of them holds. */
  closeness: Map<string, number>;
  /** The section path of each hit judged (the same filters as `closeness`), with its share. */
  sections: Section[];
  /** The question named a section by its heading: `hits` are that section's, in order. */
  named?: boolean;
}

/** A judged hit's section: what a refusal can offer of a document with headings. */
export interface Section {
  sourceUuid: string;
  /** The section path, " › " between levels ("The API module › Errors"). */
  heading: string;
  share: number;
}

/**
 * The share of a question's weight a passage must hold to be quoted as an answer. Exactly half
 * only when the rest is words no passage holds ("Is the lift working?" of "The lift is out of
 * order."): one of two equally rare words ("reset" of "How do I reset my password?") is half an
 * answer when another passage holds the other.
 */
const MIN_SHARE = 0.5;
/** Shares of a question's weight closer than this to the best one count as the best. */
const SHARE_TIE = 0.01;
/** How much of a word's weight a passage holding only a synonym of it gets (synonyms.ts). */
const SYNONYM_CREDIT = 0.75;
/** Consecutive units (sentences, items, code, tables) read together as the quoted excerpt. */
const WINDOW = 2;

/**
 * The hits that answer the question, best first. Each hit is judged by what an answer would quote
 * of it, the best WINDOW consecutive units, read with its section path and its source's title
 * (a passage of the MiniSearch README is about MiniSearch without saying so): it is kept when
 * that holds at least MIN_SHARE of the question's weight (`termWeights`), whatever its rank, and
 * kept hits are ordered by that share, then by score; hits of other sources than the best one's
 * only when they hold as much (shares within SHARE_TIE of the best are the best, in order of
 * score). Besides, a hit is not kept when
 *
 * - the question has a single word the sources know ("What does it cost?" against "costs 21 KB"),
 *   unless that word is what the passage is about: in its section path, a bold lead, its source's
 *   title, or no other passage holds it;
 * - the question names another document by a word of its title ("MiniSearch", "ipaddr.js") that
 *   the passage does not hold;
 * - the question uses a name ("Papa Parse") that the passage's source never says, though another
 *   source does;
 * - the question names something — a capitalised word that does not open a sentence, such as
 *   "Python" or "WordPress" — that no passage holds: nothing is kept at all.
 */
export function relevant(found: SearchResult, query: string, scope: Scope): Relevance {
  const weights = termWeights(found);
  const total = sum(weights, weights.keys());
  const closeness = new Map<string, number>();
  const sections: Section[] = [];
  if (total === 0) return { hits: [], closeness, sections };
  const section = namedSection(found, query, scope);
  if (section.length > 0) return { hits: section, closeness, sections, named: true };
  const known = found.terms.filter((_, i) => found.df[i]! > 0);
  const names = [...namesIn(query)].filter((t) => weights.has(t));
  const unknownName = names.some((t) => !known.includes(t));
  // Per name the question uses, the sources that say it: a document that never does is about
  // something else ("Does Papa Parse figure out the separator?" against ipaddr.js's README).
  const sayers = found.holders ? names.map((t) => ({ t, sources: found.holders!(t) })) : [];
  const single = known.length === 1 ? found.terms.indexOf(known[0]!) : -1;
  const named = [...weights.keys()].filter((t) => scope.names.has(t));
  const question = questionBits(weights, found.alternatives);
  const kept: Array<{ hit: Hit; share: number }> = [];
  for (const hit of found.hits) {
    const context = new Set([...hit.headingTerms, ...(scope.titles.get(hit.sourceUuid) ?? [])]);
    const { matched, weight } = excerptTerms(hit, context, question);
    // A passage about another document than the one the question names is not even close.
    if (named.some((t) => scope.names.get(t) !== hit.sourceUuid && !matched.has(t))) continue;
    if (sayers.some(({ t, sources }) => !sources.has(hit.sourceUuid) && !context.has(t))) continue;
    const share = weight / total;
    // A question of one known word ("What does it cost?") is not close to a passage that only
    // uses the word in passing: answering it from there is refused below, and offering its
    // section would be as unrelated.
    if (single >= 0 && !topicalFor(hit, context, found, single)) continue;
    closeness.set(hit.sourceUuid, Math.max(share, closeness.get(hit.sourceUuid) ?? 0));
    if (hit.heading) sections.push({ sourceUuid: hit.sourceUuid, heading: hit.heading, share });
    if (unknownName || share < MIN_SHARE) continue;
    // Half, and what it lacks is a word other passages hold: they say it, this one does not.
    if (share < MIN_SHARE + 1e-9 && known.some((t) => !matched.has(t))) continue;
    // Half, and what it holds is only quoted in it: an example it gives, not what it is about.
    if (share < MIN_SHARE + 1e-9 && onlyQuoted(hit, matched, context, found.alternatives)) continue;
    kept.push({ hit, share });
  }
  // Shares this close are the same: the weights behind them are estimates, and one more passage
  // using a word moves them by as much.
  const top = Math.max(0, ...kept.map((k) => k.share)) - SHARE_TIE;
  const near = (k: { share: number }) => (k.share >= top ? 1 : 0);
  kept.sort(
    (a, b) => near(b) - near(a) || (near(a) ? 0 : b.share - a.share) || b.hit.score - a.hit.score,
  );
  // An answer stays with the document that answers best: another joins only as complete a match.
  const [best] = kept;
  const hits = kept
    .filter((k) => k.hit.sourceUuid === best?.hit.sourceUuid || near(k))
    .map((k) => k.hit);
  return { hits, closeness, sections };
}

/**
 * Whether a passage is about the question's term at `index`, the one the sources know: it (or a
 * synonym) is in the passage's section path or title, leads one of its units (a bold lead), or
 * no other passage holds it.
 */
function topicalFor(hit: Hit, context: Set<string>, found: SearchResult, index: number): boolean {
  const word = found.terms[index]!;
  const said = [word, ...(found.alternatives?.get(word) ?? [])];
  return (
    said.some((t) => context.has(t)) ||
    hit.units.some((u) => said.some((t) => u.leadTerms.includes(t))) ||
    found.df[index] === 1
  );
}

/** A quotation in running text: "…" or “…”, within one line. */
const QUOTED = /"[^"\n]{1,200}"|“[^”\n]{1,200}”/g;

/**
 * Whether every word of the question that a hit holds (`matched`) is in it only within quotation
 * marks ("search finds "Alice talked about pizza""), outside its section path and title. Code is
 * read as it is: its quotes hold the names it is about. Asked only of hits on the edge, at half.
 */
function onlyQuoted(
  hit: Hit,
  matched: Set<string>,
  context: Set<string>,
  alternatives: SearchResult['alternatives'] = new Map(),
): boolean {
  if (!hit.units.some((u) => u.kind !== 'code' && /["“]/.test(u.text))) return false;
  const said = terms(
    hit.units.map((u) => (u.kind === 'code' ? u.text : u.text.replace(QUOTED, ' '))).join('\n'),
  );
  for (const term of matched) {
    if (context.has(term) || said.has(term)) return false;
    if ((alternatives.get(term) ?? []).some((other) => said.has(other))) return false;
  }
  return matched.size > 0;
}

/**
 * The chunks of the section a question names by its heading, as a refusal offers it
 * (suggestions.ts: "Environment", or "MiniSearch › Search options" beside other documents): the
 * visitor asked for that section, whatever share of its words a passage holds, and gets its
 * beginning first. Without this an offered topic was answered from a neighbour ("How answers are
 * made" from the benchmark of answers), or refused: its words are common, so its own chunks were
 * not among those searched.
 */
function namedSection(found: SearchResult, query: string, scope: Scope): Hit[] {
  if (!found.section || query.length > 200) return [];
  const [title, ...rest] = query.split(HEADING_SEPARATOR);
  // Not a source being processed again, whose old chunks the index still holds, nor one the
  // agent may not use.
  const asked = found.section(query).filter((hit) => scope.allowed.has(hit.sourceUuid));
  if (rest.length === 0) return asked;
  // "Title › Section": that document's section only.
  const named = sectionKey(title!);
  return asked.filter(
    (hit) => sectionKey(scope.sources.get(hit.sourceUuid)?.title ?? '') === named,
  );
}

/**
 * A section's chunks (`namedSection`'s, in order) for a visitor who picked it from the topics a
 * refusal offered: the chunk whose best window holds most of the refused question's weight
 * (`earlier`, as the index searched it) first, the others after it in order. None holding any of
 * it, the section as it stands, from its beginning.
 */
export function closestFirst(section: Hit[], earlier: SearchResult): Hit[] {
  const question = questionBits(termWeights(earlier), earlier.alternatives);
  let best = -1;
  let bestWeight = 0;
  section.forEach((hit, i) => {
    // Every term asked: excerptTerms looks for each in the units, with its synonyms.
    const { weight } = excerptTerms({ ...hit, matched: earlier.terms }, new Set(), question);
    if (weight > bestWeight) {
      best = i;
      bestWeight = weight;
    }
  });
  return best <= 0 ? section : [section[best]!, ...section.filter((_, i) => i !== best)];
}

/**
 * The question's terms in the best window of a hit's units, with the hit's context. A question's
 * terms are bits of a mask (up to 31 of them; a longer question's others count only in the
 * context), so each unit is read once and a window is two ORs: a set per window, and every unit
 * read once per window it falls in, were a tenth of a busy server's time (CPU profile).
 */
function excerptTerms(
  hit: Hit,
  context: Set<string>,
  question: QuestionBits,
): { matched: Set<string>; weight: number } {
  const { marks, terms, weights } = question;
  let base = 0;
  let baseSyn = 0;
  for (const t of context) {
    const mark = marks.get(t);
    if (mark) {
      base |= mark.literal;
      baseSyn |= mark.synonym;
    }
  }
  const { units } = hit;
  const masks = new Array<number>(units.length);
  const synMasks = new Array<number>(units.length);
  // The busiest loop of answering (a tenth of a loaded server's time, when every term of every
  // unit was looked up): a unit's terms are among its chunk's, so only the question's terms the
  // search found in this chunk (`matched`) and their synonyms can be in a unit. Each is looked
  // for in each unit's few terms. search.test.ts holds the premise.
  const wanted: Array<[string, { literal: number; synonym: number }]> = [];
  for (const asked of hit.matched) {
    const mark = marks.get(asked);
    if (mark) wanted.push([asked, mark]);
    for (const other of question.alternatives.get(asked) ?? []) {
      const m = marks.get(other);
      if (m) wanted.push([other, m]);
    }
  }
  for (let i = 0; i < units.length; i++) {
    const unit = units[i]!;
    let mask = 0;
    let syn = 0;
    for (const [t, mark] of wanted) {
      if (unit.terms.includes(t) || unit.leadTerms.includes(t)) {
        mask |= mark.literal;
        syn |= mark.synonym;
      }
    }
    masks[i] = mask;
    synMasks[i] = syn;
  }
  const weigh = (literal: number, syn: number) =>
    weightOf(literal, weights) + SYNONYM_CREDIT * weightOf(syn & ~literal, weights);
  let best = base;
  let bestSyn = baseSyn;
  let bestWeight = weigh(base, baseSyn);
  for (let i = 0; i < masks.length; i++) {
    let window = base;
    let windowSyn = baseSyn;
    for (let j = i; j < i + WINDOW && j < masks.length; j++) {
      window |= masks[j]!;
      windowSyn |= synMasks[j]!;
    }
    const weight = weigh(window, windowSyn);
    if (weight > bestWeight) {
      best = window;
      bestSyn = windowSyn;
      bestWeight = weight;
    }
  }
  const matched = new Set<string>();
  const either = best | bestSyn;
  for (let b = 0; b < terms.length; b++) if (either & (1 << b)) matched.add(terms[b]!);
  // Past the 31st term, only the context counts: rare enough not to be worth a second path.
  for (const t of context) {
    if (question.all.has(t) && !matched.has(t)) {
      matched.add(t);
      bestWeight += question.all.get(t)!;
    }
  }
  return { matched, weight: bestWeight };
}

/**
 * A question's weighted terms as bits: `marks` maps each of the first 31 to its bit
 * (`literal`), and each synonym of one that the sources hold to the bits of the terms it stands
 * for (`synonym`); a term can be both.
 */
interface QuestionBits {
  marks: Map<string, { literal: number; synonym: number }>;
  alternatives: NonNullable<SearchResult['alternatives']>;
  terms: string[];
  weights: number[];
  all: Map<string, number>;
}

function questionBits(
  weights: Map<string, number>,
  alternatives: SearchResult['alternatives'] = new Map(),
): QuestionBits {
  const terms = [...weights.keys()].slice(0, 31);
  const marks = new Map(terms.map((t, i) => [t, { literal: 1 << i, synonym: 0 }]));
  terms.forEach((t, i) => {
    for (const other of alternatives.get(t) ?? []) {
      const mark = marks.get(other) ?? { literal: 0, synonym: 0 };
      mark.synonym |= 1 << i;
      marks.set(other, mark);
    }
  });
  return { marks, alternatives, terms, weights: terms.map((t) => weights.get(t)!), all: weights };
}

function weightOf(mask: number, weights: number[]): number {
  let total = 0;
  for (let b = 0; mask !== 0; b++, mask >>>= 1) if (mask & 1) total += weights[b]!;
  return total;
}

/**
 * The terms of the names a question uses: words with a capital that do not open a sentence
 * ("Does it work with Vue?"), and acronyms anywhere ("GDPR"). A question written in capitals
 * throughout, or in title case, names nothing this way.
 */
export function namesIn(query: string): Set<string> {
  const out = new Set<string>();
  const words = [...query.matchAll(/[\p{L}\p{N}][\p{L}\p{N}'’.-]*/gu)].map(({ 0: word, index }) => {
    const before = query.slice(0, index).trimEnd();
    return { word, opens: before === '' || /[.!?:]$/.test(before) };
  });
  const inner = words.filter((w) => !w.opens && w.word !== 'I');
  const capitalised = inner.filter((w) => /\p{Lu}/u.test(w.word));
  if (capitalised.length * 2 > inner.length) return out;
  for (const { word, opens } of words) {
    // An opening word is a name only when it shows so inside ("WordPress", "GDPR").
    const name = opens ? /^.[\p{Ll}\p{N}]*\p{Lu}/u.test(word) : /\p{Lu}/u.test(word);
    if (name) for (const term of terms(word)) out.add(term);
  }
  return out;
}
