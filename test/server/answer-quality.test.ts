/**
 * The mechanisms behind honest answers without an LLM, each on a small case of its own: what the
 * index reads as words, how questions find passages, and when an answer is refused.
 * `npm run bench:answers` measures them together on labelled questions.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { chunkMarkdown, markdownBlocks } from '../../src/server/knowledge/markdown.js';
import { SearchIndex } from '../../src/server/knowledge/search.js';
import { terms, tokenize } from '../../src/server/knowledge/text.js';
import type { ChunkRow, Store } from '../../src/server/store/types.js';

function indexOf(chunks: Array<Omit<ChunkRow, 'id'> | string>): SearchIndex {
  const rows: ChunkRow[] = chunks.map((c, i) =>
    typeof c === 'string' ? { id: i + 1, sourceUuid: 'doc', text: c } : { id: i + 1, ...c },
  );
  return new SearchIndex({
    listChunks: () => rows,
    chatbotsWithChunks: () => ['bot'],
  } as unknown as Store);
}

describe('words as the index reads them', () => {
  it('a camelCase identifier is also its parts, so plain words find it', () => {
    assert.deepEqual(tokenize('ipaddr.isValid(x)'), ['ipaddr', 'isvalid', 'is', 'valid', 'x']);
    // A capitalised name stays whole: "MiniSearch" is no question about searching.
    assert.deepEqual(tokenize('MiniSearch JavaScript'), ['minisearch', 'javascript']);
    const index = indexOf([
      '`ipaddr.parse(string)` reads an address and throws when it cannot.',
      '`ipaddr.isValid(string)` checks a string without throwing.',
    ]);
    const { hits } = index.search('bot', 'Is this string valid?');
    assert.equal(hits[0]?.chunkId, 2);
  });

  it('a link counts by its text, not by the words of its address', () => {
    const index = indexOf([
      'Cookies can be signed with [Keygrip](https://www.npmjs.com/package/keygrip).',
      'Install the package with npm.',
    ]);
    assert.deepEqual(
      index.search('bot', 'npmjs package').hits.map((h) => h.chunkId),
      [2],
    );
    assert.equal(index.search('bot', 'keygrip').hits[0]?.chunkId, 1);
  });

  it('a stem that is a stop word is dropped with it ("one" stems to "on")', () => {
    assert.deepEqual([...terms('Which one will work?')], ['work']);
  });

  it('a paragraph of badges or a lone screenshot is no block, and headings lose their badges', () => {
    const blocks = markdownBlocks(
      '# tool [![CI](https://ci.test/b.svg)](https://ci.test)\n\n' +
        '[![npm](https://b.test/npm.svg)](https://npm.test) [![size][size-img]][size-url]\n\n' +
        '![The tool at work](shot.png)\n\nThe tool does one thing.\n\n## Use\n\nRun it.\n',
    );
    assert.deepEqual(
      blocks.map((b) => [b.kind, b.text]),
      [
        ['heading', '# tool'],
        ['paragraph', 'The tool does one thing.'],
        ['heading', '## Use'],
        ['paragraph', 'Run it.'],
      ],
    );
    assert.equal(chunkMarkdown('# A [![x](y)](z)\n\ntext\n\n## B\n\nmore\n').at(-1)?.heading, 'B');
  });
});
