/**
 * The mechanisms behind honest answers without an LLM, each on a small case of its own: what the
 * index reads as words, how questions find passages, and when an answer is refused.
 * `npm run bench:answers` measures them together on labelled questions.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { chunkMarkdown, markdownBlocks } from '../../src/server/knowledge/markdown.js';
import { quotableUnits } from '../../src/server/knowledge/quotable.js';
import {
  matchQa,
  namesIn,
  relevant,
  scopeOf,
  termWeights,
} from '../../src/server/knowledge/relevance.js';
import { SearchIndex, type SearchResult } from '../../src/server/knowledge/search.js';
import { queryTerms, terms, tokenize } from '../../src/server/knowledge/text.js';
import type { AgentRow, ChunkRow, SourceRow, Store } from '../../src/server/store/types.js';

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
  it('a camelCase identifier is also its parts, so plain words find it', async () => {
    assert.deepEqual(tokenize('ipaddr.isValid(x)'), ['ipaddr', 'isvalid', 'is', 'valid', 'x']);
    // A capitalised name stays whole: "MiniSearch" is no question about searching.
    assert.deepEqual(tokenize('MiniSearch JavaScript'), ['minisearch', 'javascript']);
    const index = indexOf([
      '`ipaddr.parse(string)` reads an address and throws when it cannot.',
      '`ipaddr.isValid(string)` checks a string without throwing.',
    ]);
    const { hits } = await index.search('bot', 'Is this string valid?');
    assert.equal(hits[0]?.chunkId, 2);
  });

  it('a link counts by its text, not by the words of its address', async () => {
    const index = indexOf([
      'Cookies can be signed with [Keygrip](https://www.npmjs.com/package/keygrip).',
      'Install the package with npm.',
    ]);
    assert.deepEqual(
      (await index.search('bot', 'npmjs package')).hits.map((h) => h.chunkId),
      [2],
    );
    assert.equal((await index.search('bot', 'keygrip')).hits[0]?.chunkId, 1);
    // A reference-style link's label is not a word either, in a sentence as in its chunk.
    assert.deepEqual(tokenize('See the [server][server-report] results.'), [
      'see',
      'the',
      'server',
      'results',
    ]);
  });

  it('a bare address is no words at all: a connection string is not about passwords', async () => {
    assert.deepEqual(tokenize('Set `postgres://user:password@host/db` first.'), ['set', 'first']);
    const index = indexOf([
      'Set DATABASE_URL to postgres://user:password@host:5432/db to use PostgreSQL.',
      'Change your password on the account page.',
    ]);
    const { hits } = await index.search('bot', 'password', { limit: 5 });
    assert.deepEqual(
      hits.map((h) => h.chunkId),
      [2],
    );
  });

  it('a stem that is a stop word is dropped with it ("one" stems to "on")', () => {
    assert.deepEqual([...terms('Which one will work?')], ['work']);
  });

  it('words the stemmer would take to another word’s stem keep their own', () => {
    assert.deepEqual(
      [...terms('customers custom containers contains news new')],
      ['customer', 'custom', 'container', 'contain', 'news', 'new'],
    );
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

/**
 * A search result as the index reports it, for a question and the hits it ranked (in that order),
 * over a knowledge base of `total` chunks in which each term has the given document frequency.
 */
function found(
  query: string,
  hits: Array<{ text: string; heading?: string; source?: string; score: number }>,
  df: Record<string, number>,
  total = 100,
): SearchResult {
  const asked = [...terms(query)];
  return {
    terms: asked,
    df: asked.map((t) => df[t] ?? 0),
    total,
    hits: hits.map((h, i) => {
      const held = terms(`${h.heading ?? ''} ${h.text}`);
      return {
        chunkId: i + 1,
        sourceUuid: h.source ?? 'guide',
        text: h.text,
        heading: h.heading ?? '',
        score: h.score,
        matched: asked.filter((t) => held.has(t)),
        units: quotableUnits(h.text),
        headingTerms: [...terms(h.heading ?? '')],
      };
    }),
  };
}

const source = (uuid: string, title: string, extra: Partial<SourceRow> = {}): SourceRow => ({
  uuid,
  chatbotUuid: 'bot',
  title,
  type: 'file',
  status: 'success',
  file_name: `${uuid}.md`,
  file_size: 0,
  tokens: 0,
  meta: {},
  created_at: '',
  modified_at: '',
  ...extra,
});

const everySource = {
  meta: { use_all_sources: true },
  data_source_uuids: [],
} as unknown as AgentRow;
const guide = scopeOf([source('guide', 'Guide')], everySource);
const kept = (result: SearchResult, query: string, scope = guide) =>
  relevant(result, query, scope).hits.map((h) => h.chunkId);

describe('which passages answer a question', () => {
  it('a wrong first hit does not hide a better second, and kept hits go by the share they hold', () => {
    const result = found(
      'Which port does the server listen on?',
      [
        { text: 'The server starts quickly, and the server logs every request.', score: 10 },
        { text: 'Logs of the server say which port it chose.', score: 6 },
        { text: 'By default the server listens on port 8787.', score: 5 },
      ],
      { port: 2, server: 40, listen: 1 },
    );
    assert.deepEqual(kept(result, 'Which port does the server listen on?'), [3, 2]);
  });

  it('quotes another document only when it answers as fully as the best one', () => {
    const scope = scopeOf(
      [source('sqlite', 'SQLite guide'), source('app', 'Our app')],
      everySource,
    );
    const query = 'How do I enable WAL mode for faster writes?';
    const result = found(
      query,
      [
        {
          text: "Enable WAL mode for faster writes: `db.pragma('journal_mode = WAL')`.",
          source: 'sqlite',
          score: 9,
        },
        { text: 'Our app enables WAL mode.', source: 'app', score: 8 },
        { text: 'WAL mode lets readers work while a writer writes.', source: 'sqlite', score: 6 },
      ],
      { enabl: 3, wal: 4, mode: 9, faster: 2, write: 6 },
    );
    assert.deepEqual(kept(result, query, scope), [1, 3]);
  });

  it('reads shares a hair apart as equal: each document answers, the better-ranked first', () => {
    const scope = scopeOf([source('alpha', 'Alpha'), source('beta', 'Beta')], everySource);
    const query = 'zebra lion tiger panda';
    // "lion" is in one passage more than "tiger": beta's passage holds 0.7 % more of the weight,
    // which one more passage using a word would undo.
    const result = found(
      query,
      [
        { text: 'The zebra, the lion and the panda.', source: 'alpha', score: 9 },
        { text: 'The zebra, the tiger and the panda.', source: 'beta', score: 5 },
      ],
      { zebra: 2, lion: 20, tiger: 19, panda: 60 },
    );
    assert.deepEqual(kept(result, query, scope), [1, 2]);
  });

  it('judges a hit by the sentences an answer would quote, not by words scattered over it', () => {
    const query = 'How do I rotate the signing keys?';
    const df = { rotat: 2, sign: 3, kei: 3 };
    const scattered = found(
      query,
      [
        {
          text: 'Signing happens at the edge. Nothing else is kept. Keys are stored hashed. The log shows requests. Tiles rotate slowly.',
          score: 9,
        },
      ],
      df,
    );
    assert.deepEqual(kept(scattered, query), []);
    const together = found(
      query,
      [
        {
          text: 'Keys are stored hashed. To rotate signing keys, add the new key first.',
          score: 4,
        },
      ],
      df,
    );
    assert.deepEqual(kept(together, query), [1]);
  });

  it('words that only frame a question ("What happens if I want to make…") need not be in the answer', async () => {
    const query = 'What happens if I want to make the launcher open by itself?';
    assert.deepEqual([...queryTerms(query)], ['launcher', 'open']);
    // Only questions lose them: a passage keeps every word.
    assert.deepEqual([...terms('Make a backup')], ['make', 'backup']);
    // The sources use the framing words once each, so as rare words they outweighed the topic.
    const index = indexOf([
      'The launcher opens by itself after 30 seconds on the page.',
      'Make a backup before you upgrade: whatever happens, you want a copy.',
    ]);
    const found = await index.search('bot', query, { limit: 12 });
    assert.deepEqual(found.terms, ['launcher', 'open']);
    assert.deepEqual(kept(found, query), [1]);
  });

  it('a question whose topic word no passage holds is not answered from its commoner words', () => {
    const query = 'Does the server support websockets?';
    const result = found(
      query,
      [{ text: 'The server has support for streaming over HTTP.', score: 8 }],
      { server: 40, support: 10 },
    );
    assert.deepEqual(kept(result, query), []);
  });

  it('a passage holding one of two equally rare words is half an answer, and not quoted', () => {
    // "reset" and "password" each in two passages, never together: none is about resetting one.
    const query = 'How do I reset my password?';
    const df = { reset: 2, password: 2 };
    const halves = found(
      query,
      [
        { text: 'Connect with postgres://user:password@host/db.', score: 8 },
        { text: 'Delete the file to reset the demo.', score: 7 },
      ],
      df,
    );
    assert.deepEqual(kept(halves, query), []);
    const whole = found(query, [{ text: 'Reset a password from the account page.', score: 9 }], df);
    assert.deepEqual(kept(whole, query), [1]);
  });

  it('a word only quoted as an example is not what a passage is about: half a question is no answer', () => {
    // The demo bot quoted its search's stemming example to "Do you deliver pizza?".
    const query = 'Do you deliver pizza?';
    const df = { pizza: 1 };
    const example = {
      text: 'Stemmed words match, so "What did Alice talk about?" finds "Alice talked about pizza".',
      score: 8,
    };
    assert.deepEqual(kept(found(query, [example], df), query), []);
    const curly = { text: 'Search finds “Alice talked about pizza” too.', score: 8 };
    assert.deepEqual(kept(found(query, [curly], df), query), []);
    // Said rather than quoted, it is half an answer the sources hold, as "Is the lift working?".
    const menu = { text: 'Every pizza is baked to order.', score: 8 };
    assert.deepEqual(kept(found(query, [menu], df), query), [1]);
  });

  it('a question of one known word is answered only by a passage about that word', () => {
    const query = 'What does it cost?';
    const incidental = { text: 'The chat bundle costs 21 KB gzipped.', score: 5 };
    assert.deepEqual(kept(found(query, [incidental], { cost: 3 }), query), []);
    const section = { ...incidental, heading: 'Pricing › Costs' };
    assert.deepEqual(kept(found(query, [section], { cost: 3 }), query), [1]);
    // The only passage that mentions it is about it too ("How much is the toaster?").
    assert.deepEqual(kept(found(query, [incidental], { cost: 1 }), query), [1]);
  });

  it('a question naming another document by its title is not answered from this one', () => {
    const scope = scopeOf(
      [source('elements', 'chatbot-elements'), source('minisearch', 'MiniSearch')],
      everySource,
    );
    const query = 'How do I sort MiniSearch results by date?';
    const result = found(
      query,
      [
        {
          text: 'Sort the sources by date; the results update live.',
          source: 'elements',
          score: 9,
        },
        { text: 'Results come sorted by score, then by date.', source: 'minisearch', score: 4 },
      ],
      { sort: 2, minisearch: 20, result: 8, date: 5 },
    );
    assert.deepEqual(kept(result, query, scope), [2]);
    // Nor is it close: a refusal offers the document the question names.
    assert.deepEqual([...relevant(result, query, scope).closeness.keys()], ['minisearch']);
  });

  it('a question using a name is not answered from a document that never says it', async () => {
    const index = indexOf([
      { sourceUuid: 'csv', text: 'Papa Parse reads CSV files in the browser.' },
      { sourceUuid: 'csv', text: 'Papa Parse works out the delimiter when none is given.' },
      {
        sourceUuid: 'ip',
        text: 'Parse an IPv6 address; the groups are written with a colon as separator.',
      },
    ]);
    const scope = scopeOf([source('csv', 'CSV parser'), source('ip', 'IP addresses')], everySource);
    // Answered from the Papa Parse document, in its own word for a separator (synonyms.ts), never
    // from the other one, which says "separator".
    const query = 'What is the separator in Papa Parse?';
    const result = await index.search('bot', query, { limit: 12 });
    assert.deepEqual(kept(result, query, scope), [2]);
    // The same words without the name are a question the other document answers.
    const unnamed = 'What is the separator in parse?';
    assert.deepEqual(kept(await index.search('bot', unnamed, { limit: 12 }), unnamed, scope), [3]);
  });

  it('a question that is a section’s heading gets that section, from the sources it may use', async () => {
    const index = indexOf([
      { sourceUuid: 'manual', text: 'Pump the tyres before a ride.', heading: 'Manual › Tyres' },
      { sourceUuid: 'manual', text: 'Check them weekly.', heading: 'Manual › Tyres' },
      { sourceUuid: 'old', text: 'Tyres of the old model.', heading: 'Old manual › Tyres' },
    ]);
    // "old" is being processed again: it keeps its chunks in the index, but is not answered from.
    const scope = scopeOf(
      [source('manual', 'Manual'), source('old', 'Old manual', { status: 'processing' })],
      everySource,
    );
    const result = await index.search('bot', 'Tyres?', { limit: 12 });
    assert.deepEqual(kept(result, 'Tyres?', scope), [1, 2]);
    assert.deepEqual(
      kept(await index.search('bot', 'Manual › Tyres'), 'Manual › Tyres', scope),
      [1, 2],
    );
    // Its own heading does not bring it back (the rest of the path leaves it out, as judge() does).
    const asked = await index.search('bot', 'Old manual › Tyres');
    const usable = { ...asked, hits: asked.hits.filter((h) => scope.allowed.has(h.sourceUuid)) };
    assert.ok(!kept(usable, 'Old manual › Tyres', scope).includes(3));
  });

  it('a question naming something no passage holds ("Python") is not answered', () => {
    const hit = { text: 'Run the server with Node, or in Docker instead.', score: 7 };
    const df = { run: 20, server: 40, instead: 6, node: 10 };
    const named = 'Can I run the server with Python instead of Node?';
    assert.deepEqual(kept(found(named, [hit], df), named), []);
    // Without the capital it is a word like any other, weighed by the share it takes.
    const plain = 'can i run the server with python instead of node?';
    assert.deepEqual(kept(found(plain, [hit], df), plain), [1]);
  });

  it('finds names by their capitals, except where every word has one', () => {
    assert.deepEqual([...namesIn('Does it work with Vue?')], ['vue']);
    assert.deepEqual([...namesIn('WordPress plugin? Is the GDPR met?')], ['wordpress', 'gdpr']);
    assert.deepEqual([...namesIn('How Do I Reset My Password?')], []);
    assert.deepEqual([...namesIn('Where do I start? I read the guide.')], []);
  });

  it('a question in other words than the document’s finds it through a synonym', async () => {
    const index = indexOf([
      'The delimiter is guessed from the first lines when none is given.',
      'Quoted fields may hold line breaks.',
      'Rows are read in chunks of 10 MB.',
    ]);
    const query = 'Is the separator guessed?';
    const result = await index.search('bot', query, { limit: 12 });
    assert.deepEqual(result.alternatives?.get('separ'), ['delimit']);
    assert.deepEqual(kept(result, query), [1]);
    // The document's own word is still found the same way.
    const own = 'Is the delimiter guessed?';
    assert.deepEqual(kept(await index.search('bot', own, { limit: 12 }), own), [1]);
  });

  it('a synonym counts for less than the word itself, and no more than the word asked', async () => {
    const index = indexOf([
      'The delimiter of each row is a comma.',
      'The separator of each row is a comma.',
      'A header row names the columns.',
      'Blank lines are skipped.',
    ]);
    const query = 'What is the separator of a row?';
    const result = await index.search('bot', query, { limit: 12 });
    // "separator" is a word of the sources: it weighs as they use it (one passage), not as its
    // synonym does, and a passage saying "delimiter" holds less of it than one saying it.
    assert.equal(result.df[result.terms.indexOf('separ')], 1);
    const { hits } = relevant(result, query, guide);
    assert.deepEqual(
      hits.map((h) => h.chunkId),
      [2, 1],
    );
  });

  it('a word with another meaning in software documents has no synonyms', async () => {
    const index = indexOf(['Each key of the object is copied.', 'Credentials are sent with CORS.']);
    const result = await index.search('bot', 'Which key is copied?', { limit: 12 });
    assert.equal(result.alternatives?.has('kei'), false);
  });

  it('a Q&A question in other words is matched through synonyms', async () => {
    const index = indexOf([
      { sourceUuid: 'qa', text: 'How do I delete my chatbot?\n\nOpen Settings and press Delete.' },
      { sourceUuid: 'doc', text: 'The chatbot answers from its sources.' },
    ]);
    const query = 'How can I remove my bot?';
    const result = await index.search('bot', query, { limit: 12 });
    const qaSources = [
      {
        source: source('qa', 'How do I delete my chatbot?', { type: 'qa' }),
        question: terms('How do I delete my chatbot?'),
      },
    ];
    assert.equal(matchQa(termWeights(result), qaSources, result.alternatives)?.uuid, 'qa');
    // Without them the two questions share no word.
    assert.equal(matchQa(termWeights(result), qaSources), undefined);
  });

  it('a Q&A question answers verbatim only when the words it shares carry the user’s question', () => {
    const qa = (question: string) => [
      { source: source('qa', question, { type: 'qa' }), question: terms(question) },
    ];
    const weights = (query: string, df: Record<string, number>) =>
      termWeights(found(query, [], df));
    const df = {
      chatbot: 70,
      element: 45,
      custom: 18,
      us: 30,
      reset: 3,
      lamp: 60,
      timer: 2,
      schedul: 2,
    };
    // They share half the words, but those are the product's name, in most passages.
    assert.equal(
      matchQa(
        weights('How many customers use chatbot-elements?', df),
        qa('What is chatbot-elements?'),
      ),
      undefined,
    );
    assert.equal(
      matchQa(weights('How can I reset my lamp?', df), qa('How do I reset the lamp?'))?.uuid,
      'qa',
    );
    assert.equal(
      matchQa(
        weights('How do I reset the lamp timer schedule?', df),
        qa('How do I reset the lamp?'),
      ),
      undefined,
    );
  });
});
