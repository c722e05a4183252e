import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { chunkMarkdown } from '../../src/server/knowledge/markdown.js';
import { createIndex, indexChunks } from '../../src/server/knowledge/postings.js';
import { SearchIndex } from '../../src/server/knowledge/search.js';
import { terms } from '../../src/server/knowledge/text.js';
import type { ChunkRow, Store } from '../../src/server/store/types.js';
import { MiniSearchReference } from './minisearch-reference.js';

/** The two store calls an index makes, over a fixed list of chunks. */
function storeWith(chunks: ChunkRow[]): Store {
  return {
    listChunks: () => chunks,
    chatbotsWithChunks: () => ['bot'],
  } as unknown as Store;
}

const chunk = (id: number, text: string): ChunkRow => ({ id, sourceUuid: `s${id % 3}`, text });

describe('the search index', () => {
  it('builds a large index in batches and finds every chunk once ready', async () => {
    const chunks = Array.from({ length: 1000 }, (_, i) =>
      chunk(i + 1, `Passage ${i} mentions marker${i} and gardens.`),
    );
    const index = new SearchIndex(storeWith(chunks));
    await index.warm(['bot']);
    for (const i of [0, 499, 999]) {
      const { hits } = await index.search('bot', `marker${i}`);
      assert.equal(hits[0]?.chunkId, i + 1);
    }
  });

  it('forgets a chunk removed while the index is still being built', async () => {
    const chunks = Array.from({ length: 1000 }, (_, i) =>
      chunk(i + 1, `Passage ${i} mentions marker${i}.`),
    );
    const index = new SearchIndex(storeWith(chunks));
    const ready = index.ready('bot');
    index.removeChunks('bot', [900]);
    await ready;
    assert.deepEqual((await index.search('bot', 'marker899')).hits, []);
    assert.equal((await index.search('bot', 'marker898')).hits[0]?.chunkId, 899);
  });

  it('applies the changes made while its chunks were being read, whichever way the read went', async () => {
    for (const readAfterWrite of [false, true]) {
      let answer!: (rows: ChunkRow[]) => void;
      const index = new SearchIndex({
        listChunks: () =>
          new Promise<ChunkRow[]>((resolve) => {
            answer = resolve;
          }),
      } as unknown as Store);
      const ready = index.ready('bot');
      // Source s1's chunk 1 is replaced by chunk 3, and chunk 2 deleted, before the read answers.
      const fresh = { id: 3, sourceUuid: 's1', text: 'Otters juggle pebbles.' };
      index.setChunks('bot', 's1', [fresh], [1]);
      index.removeChunks('bot', [2]);
      answer(
        readAfterWrite
          ? [fresh]
          : [
              { id: 1, sourceUuid: 's1', text: 'Otters sleep holding hands.' },
              { id: 2, sourceUuid: 's2', text: 'Otters eat clams.' },
            ],
      );
      await ready;
      const { hits } = await index.search('bot', 'otters');
      assert.deepEqual(
        hits.map((h) => h.chunkId),
        [3],
        `read ${readAfterWrite ? 'after' : 'before'} the writes`,
      );
    }
  });

  it('matches other forms of a word and ignores stop words', async () => {
    const index = new SearchIndex(
      storeWith([chunk(1, 'Alice talked about pizza.'), chunk(2, 'Bob walks to work.')]),
    );
    const { hits, terms } = await index.search('bot', 'What did Alice talk about?');
    assert.deepEqual(terms, ['alic', 'talk']);
    assert.equal(hits[0]?.chunkId, 1);
    assert.deepEqual((await index.search('bot', 'what is it about')).hits, []);
  });

  it('restricts results to the given sources', async () => {
    const index = new SearchIndex(storeWith([chunk(1, 'Cats purr.'), chunk(2, 'Cats hiss.')]));
    const { hits } = await index.search('bot', 'cats', { sources: new Set(['s2']) });
    assert.deepEqual(
      hits.map((h) => h.chunkId),
      [2],
    );
  });

  it('on a large index, still ranks the chunk holding a rare and a common query word first', async () => {
    const chunks = Array.from({ length: 400 }, (_, i) =>
      chunk(i + 1, `Report ${i}: the pizza oven was cleaned on day ${i}.`),
    );
    chunks.push(
      chunk(401, 'Alice mentioned the weather.'),
      chunk(402, 'Alice talked about pizza.'),
    );
    const index = new SearchIndex(storeWith(chunks));
    const { hits } = await index.search('bot', 'Alice pizza');
    assert.equal(hits[0]?.chunkId, 402);
  });

  it('on a large index, a question whose only rare word is unknown still finds the passage', async () => {
    const chunks = Array.from({ length: 400 }, (_, i) =>
      chunk(i + 1, `Note ${i}: the server restarted at ${i} o'clock.`),
    );
    chunks.push({
      ...chunk(401, 'The server keeps everything in one SQLite file.'),
      heading: 'Server',
    });
    const index = new SearchIndex(storeWith(chunks));
    // "backend" is in no chunk: it used to be the whole search, and found nothing.
    const { hits, terms, df } = await index.search('bot', 'Which backend does the server have?', {
      limit: 3,
    });
    assert.deepEqual(terms, ['backend', 'server']);
    assert.deepEqual(df, [0, 401]);
    assert.equal(hits[0]?.chunkId, 401);
  });

  it('on a large index, searches the common words too when the rarer ones find too few chunks', async () => {
    const chunks = Array.from({ length: 300 }, (_, i) =>
      chunk(i + 1, `Guide page ${i} explains the widget setup, step ${i}.`),
    );
    chunks.push(chunk(301, 'Widget colours follow the theme.'));
    const index = new SearchIndex(storeWith(chunks));
    // "colour" finds one chunk; the twelve asked for are filled from "widget".
    const { hits } = await index.search('bot', 'widget colours', { limit: 12 });
    assert.equal(hits.length, 12);
    assert.equal(hits[0]?.chunkId, 301);
    assert.ok(hits.slice(1).every((h) => h.matched.includes('widget')));
  });

  it('holds every term of a chunk’s quotable units among the chunk’s own terms', () => {
    // relevance.ts looks for a question's words in a hit's units only among those the search
    // found in the chunk: a unit term the chunk's fields lacked would never count.
    const dir = 'test/fixtures/answers/corpus';
    const files = [...readdirSync(dir).map((name) => join(dir, name)), 'README.md', 'SECURITY.md'];
    const index = createIndex([]);
    let id = 0;
    for (const file of files) {
      const chunks = chunkMarkdown(readFileSync(file, 'utf8'));
      indexChunks(
        index,
        chunks.map((c) => ({ id: id++, sourceUuid: file, text: c.text, heading: c.heading })),
      );
    }
    let checked = 0;
    for (const entry of index.chunks.values()) {
      const own = new Set([...entry.fieldTerms[0], ...entry.fieldTerms[1]]);
      for (const unit of entry.units) {
        for (const term of [...unit.terms, ...unit.leadTerms]) {
          checked++;
          assert.ok(own.has(term), `${term} of "${unit.text}" is not a term of its chunk`);
        }
      }
    }
    assert.ok(checked > 10_000, `${checked} terms checked`);
  });

  it('ranks and scores exactly as the MiniSearch search it replaced', async () => {
    const { chunks, queries } = generated(1, 1500);
    // Chunks that are the same text score the same: ties must fall the same way.
    chunks.push({ ...chunks[10]!, id: 5001 }, { ...chunks[20]!, id: 5002, sourceUuid: 's4' });
    // Questions of more than 32 distinct terms, whose later terms take another path.
    for (let i = 0; i < 12; i++) queries.push(queries.slice(i * 24, i * 24 + 24).join(' '));
    assert.ok(queries.filter((q) => terms(q).size > 32).length >= 6);
    const index = new SearchIndex(storeWith(chunks));
    const reference = new MiniSearchReference(chunks);
    for (const [i, query] of queries.entries()) {
      const opts = {
        limit: [5, 12, 40][i % 3],
        sources: i % 4 === 0 ? new Set(['s1', 's3']) : undefined,
      };
      const expected = reference.find(query, opts);
      const actual = (await index.search('bot', query, opts)).hits;
      assert.deepEqual(
        actual.map((h) => [h.chunkId, h.score, [...h.matched].sort()]),
        expected.map((h) => [h.chunkId, h.score, [...h.matched].sort()]),
        query,
      );
    }
  });

  it('after sources are replaced, ranks as an index built from the remaining chunks', async () => {
    const { chunks, queries } = generated(2, 900);
    const replaced = chunks.filter((c) => c.sourceUuid === 's2');
    const kept = chunks.filter((c) => c.sourceUuid !== 's2');
    const fresh = generated(3, 300).chunks.map((c, i) => ({
      ...c,
      id: 10_000 + i,
      sourceUuid: 's2',
    }));
    const index = new SearchIndex(storeWith(chunks));
    await index.ready('bot');
    index.setChunks(
      'bot',
      's2',
      fresh,
      replaced.map((c) => c.id),
    );
    index.removeChunks('bot', [kept[0]!.id, kept[1]!.id]);
    const reference = new MiniSearchReference([...kept.slice(2), ...fresh]);
    // The mean field lengths were updated step by step: equal up to rounding.
    const rounded = (hits: Array<{ chunkId: number; score: number }>) =>
      hits.map((h) => `${h.chunkId} ${h.score.toFixed(9)}`).sort();
    for (const query of queries) {
      assert.deepEqual(
        rounded((await index.search('bot', query, { limit: 12 })).hits),
        rounded(reference.find(query, { limit: 12 })),
        query,
      );
    }
  });
  it('when re-reading changed sources fails, stops quoting them at once and reads only them again', async () => {
    let rows: ChunkRow[] = [
      { id: 1, sourceUuid: 'rewritten', text: 'Otters sleep holding hands.' },
      { id: 2, sourceUuid: 'kept', text: 'Otters eat clams.' },
    ];
    let wholeReads = 0;
    let failures = 1;
    const index = new SearchIndex({
      listChunks: () => {
        wholeReads++;
        return rows;
      },
      listSourceChunks: async (sourceUuid: string) => {
        if (failures-- > 0) throw new Error('connection terminated');
        return rows.filter((r) => r.sourceUuid === sourceUuid);
      },
    } as unknown as Store);
    await index.ready('bot');
    const ids = async () => (await index.search('bot', 'otters')).hits.map((h) => h.chunkId);
    // Another instance rewrote a source; this instance's read of it fails.
    rows = [rows[1]!, { id: 3, sourceUuid: 'rewritten', text: 'Otters juggle pebbles.' }];
    await index.refreshSources('bot', ['rewritten']);
    // The next question is answered at once from the chatbot's other sources, not after reading
    // every chunk again (seconds on a large chatbot), and never from the old text.
    assert.deepEqual(await ids(), [2]);
    assert.equal(wholeReads, 1);
    // A second later the source is read again, on its own.
    const deadline = Date.now() + 20_000;
    while (!(await ids()).includes(3) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.deepEqual((await ids()).sort(), [2, 3]);
    assert.equal(wholeReads, 1);
    index.close();
  });
});

/**
 * Chunks over a Zipf-distributed vocabulary, some with a section path or bold leads (the topic
 * field), some with numbers; and queries of one to four words, stop words and unknown words among
 * them. Seeded, so a failure repeats.
 */
function generated(seed: number, count: number): { chunks: ChunkRow[]; queries: string[] } {
  let state = seed;
  const random = () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
  const words = Array.from({ length: 800 }, (_, i) => `w${i.toString(36)}ord${'aeiou'[i % 5]}`);
  const zipf = () => words[Math.floor(words.length ** random()) - 1]!;
  const sentence = () =>
    `${Array.from({ length: 4 + Math.floor(random() * 12) }, () =>
      random() < 0.1 ? String(Math.floor(random() * 50)) : zipf(),
    ).join(' ')}.`;
  const chunks: ChunkRow[] = [];
  for (let i = 0; i < count; i++) {
    const lines = Array.from({ length: 1 + Math.floor(random() * 6) }, () =>
      random() < 0.2 ? `- **${zipf()} ${zipf()}** ${sentence()}` : `The ${sentence()}`,
    );
    chunks.push({
      id: i + 1,
      sourceUuid: `s${i % 5}`,
      text: lines.join('\n'),
      heading: random() < 0.3 ? `Guide › ${zipf()} ${zipf()}` : '',
    });
  }
  const queries = Array.from({ length: 300 }, () =>
    Array.from({ length: 1 + Math.floor(random() * 4) }, () =>
      random() < 0.1 ? 'the' : random() < 0.05 ? 'unknownword' : zipf(),
    ).join(' '),
  );
  return { chunks, queries };
}
