import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SearchIndex } from '../../src/server/knowledge/search.js';
import type { ChunkRow, Store } from '../../src/server/store/types.js';

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
      const { hits } = index.search('bot', `marker${i}`);
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
    assert.deepEqual(index.search('bot', 'marker899').hits, []);
    assert.equal(index.search('bot', 'marker898').hits[0]?.chunkId, 899);
  });

  it('matches other forms of a word and ignores stop words', () => {
    const index = new SearchIndex(
      storeWith([chunk(1, 'Alice talked about pizza.'), chunk(2, 'Bob walks to work.')]),
    );
    const { hits, terms } = index.search('bot', 'What did Alice talk about?');
    assert.deepEqual(terms, ['alic', 'talk']);
    assert.equal(hits[0]?.chunkId, 1);
    assert.deepEqual(index.search('bot', 'what is it about').hits, []);
  });

  it('restricts results to the given sources', () => {
    const index = new SearchIndex(storeWith([chunk(1, 'Cats purr.'), chunk(2, 'Cats hiss.')]));
    const { hits } = index.search('bot', 'cats', { sources: new Set(['s2']) });
    assert.deepEqual(
      hits.map((h) => h.chunkId),
      [2],
    );
  });

  it('on a large index, still ranks the chunk holding a rare and a common query word first', () => {
    const chunks = Array.from({ length: 400 }, (_, i) =>
      chunk(i + 1, `Report ${i}: the pizza oven was cleaned on day ${i}.`),
    );
    chunks.push(
      chunk(401, 'Alice mentioned the weather.'),
      chunk(402, 'Alice talked about pizza.'),
    );
    const index = new SearchIndex(storeWith(chunks));
    const { hits } = index.search('bot', 'Alice pizza');
    assert.equal(hits[0]?.chunkId, 402);
  });
});
