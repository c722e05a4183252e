import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { titleFrom } from '../../src/server/knowledge/text.js';

describe('titles derived from content', () => {
  it('keep a question exactly as written, angle brackets and underscores included', () => {
    assert.equal(titleFrom('Is <b>parking</b> free?', 'Question'), 'Is <b>parking</b> free?');
    assert.equal(titleFrom('What does max_tokens do?', 'Question'), 'What does max_tokens do?');
    assert.equal(titleFrom('Is 3 > 2?', 'Question'), 'Is 3 > 2?');
  });

  it('drop markdown syntax: the heading marks, a quote or list marker, emphasis and code marks', () => {
    assert.equal(titleFrom('intro\n## The **API** module', 'File'), 'The API module');
    assert.equal(titleFrom('> Quoted `code` line', 'File'), 'Quoted code line');
    assert.equal(titleFrom('- first item', 'File'), 'first item');
  });

  it('fall back when there is no text, and shorten long lines at a word', () => {
    assert.equal(titleFrom('  \n ', 'Question'), 'Question');
    const long = titleFrom('word '.repeat(60), 'File');
    assert.ok(long.length <= 118 && long.endsWith('…'));
  });
});
