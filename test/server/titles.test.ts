import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { markdownTitle } from '../../src/server/knowledge/markdown.js';
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

describe('Markdown titles', () => {
  it('a Setext title names the document', () => {
    assert.equal(
      markdownTitle('Cookies\n=======\n\nCookies is a module.\n\n## Install\n'),
      'Cookies',
    );
  });

  it('take the first top-level heading, without the badges beside it', () => {
    assert.equal(
      markdownTitle(
        '# better-sqlite3 [![Build Status](https://ci.test/badge.svg)](https://ci.test/build)\n\nFast.\n\n# License\n',
      ),
      'better-sqlite3',
    );
    assert.equal(markdownTitle('# The [**API**](https://x.test) module\n'), 'The API module');
  });

  it('are empty when the document has no top-level heading: a section is no title', () => {
    assert.equal(markdownTitle('<div><img alt="Logo"></div>\n\nIntro.\n\n## Quick Start\n'), '');
  });
});
