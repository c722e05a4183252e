/**
 * The search as it was on MiniSearch, kept as the reference the index's rankings are compared
 * with (search.test.ts). Only what a comparison needs: adding chunks and searching.
 */
import MiniSearch from 'minisearch';
import { boldLeads, processTerm, terms, tokenize } from '../../src/server/knowledge/text.js';
import type { ChunkRow } from '../../src/server/store/types.js';

interface IndexedChunk extends ChunkRow {
  topic: string;
  terms: Set<string>;
}

const PRUNE_FROM_CHUNKS = 200;
const COMMON_SHARE = 0.1;

export class MiniSearchReference {
  private readonly search = new MiniSearch<IndexedChunk>({
    fields: ['text', 'topic'],
    storeFields: [],
    tokenize,
    processTerm: (term) => processTerm(term) ?? false,
    searchOptions: {
      tokenize: (text) => [text],
      processTerm: (term) => term,
      boost: { topic: 1 },
    },
  });
  private readonly chunks = new Map<number, IndexedChunk>();
  private readonly df = new Map<string, number>();

  constructor(chunks: ChunkRow[]) {
    const added = chunks.map((chunk) => {
      const heading = chunk.heading ?? '';
      const leads = chunk.text.includes('**') ? boldLeads(chunk.text) : '';
      const topic = leads ? `${heading} ${leads}` : heading;
      const distinct = terms(chunk.text);
      if (topic) for (const term of terms(topic)) distinct.add(term);
      const entry: IndexedChunk = { ...chunk, heading, topic, terms: distinct };
      this.chunks.set(chunk.id, entry);
      for (const term of distinct) this.df.set(term, (this.df.get(term) ?? 0) + 1);
      return entry;
    });
    this.search.addAll(added);
  }

  find(
    query: string,
    opts: { limit?: number; sources?: Set<string> } = {},
  ): Array<{ chunkId: number; score: number; matched: string[] }> {
    const { sources, limit = 5 } = opts;
    const all = [...terms(query)];
    const total = this.chunks.size;
    const df = (t: string) => this.df.get(t) ?? 0;
    const held = all.filter((t) => df(t) > 0);
    if (held.length === 0) return [];
    let used = held;
    let common: string[] = [];
    if (total >= PRUNE_FROM_CHUNKS && held.length > 1) {
      const rare = held.filter((t) => df(t) / total <= COMMON_SHARE);
      used = rare.length > 0 ? rare : [held.reduce((a, b) => (df(a) <= df(b) ? a : b))];
      common = held.filter((t) => !used.includes(t));
    }
    const filter = sources
      ? {
          filter: (r: { id: unknown }) =>
            sources.has(this.chunks.get(r.id as number)?.sourceUuid ?? ''),
        }
      : {};
    let results = this.search.search({ combineWith: 'OR', queries: used }, filter);
    // Too few chunks hold the rarer terms: every known term is searched after all.
    if (common.length > 0 && results.length < limit) {
      common = [];
      results = this.search.search({ combineWith: 'OR', queries: held }, filter);
    }
    const idf = (t: string) => Math.log(1 + (total - df(t) + 0.5) / (df(t) + 0.5));
    const commonIdf = common.map(idf);
    const scored =
      common.length === 0
        ? results.slice(0, limit).map((result) => ({ result, score: result.score }))
        : results
            .map((result) => {
              const chunkTerms = this.chunks.get(result.id as number)?.terms;
              let score = result.score;
              common.forEach((t, i) => {
                if (chunkTerms?.has(t)) score += commonIdf[i]!;
              });
              return { result, score };
            })
            .sort((a, b) => b.score - a.score)
            .slice(0, limit);
    return scored.map(({ result, score }) => {
      const chunk = this.chunks.get(result.id as number)!;
      return {
        chunkId: chunk.id,
        score,
        matched: [...result.terms, ...common.filter((t) => chunk.terms.has(t))],
      };
    });
  }
}
