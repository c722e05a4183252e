import { expect } from '@open-wc/testing';
import { Lexer } from 'marked';
import { loadRawHtml, MarkdownView } from '../../src/chat/markdown.js';
import { appendBlocks } from '../../src/chat/markdown-dom.js';
import { sanitize } from '../../src/chat/raw-html.js';

const SAMPLE = `# Title

Some *emphasis* and **strong** text with a [link](https://example.com) and \`code\`.

- one
- two
  - nested

1. first
2. second

3. third after a blank line

\`\`\`js
const x = 1 < 2;
\`\`\`

| a | b |
|---|---|
| 1 | 2 |

> quoted [1]

Final paragraph.`;

function streamInto(view: MarkdownView, text: string, size: number): void {
  for (let end = size; end < text.length + size; end += size) view.update(text.slice(0, end));
  view.finish();
}

const normalized = (view: MarkdownView) =>
  view.root.innerHTML.replace(/<div class="block(?: open)?">|<\/div>/g, '');

/**
 * Markdown without raw HTML, every kind of block and inline mark, entities and odd links: built
 * as DOM from the tokens, it must be what marked's HTML renderer and DOMPurify make of it.
 */
const WITHOUT_HTML = [
  SAMPLE,
  '## Heading with `code` and **bold *nested em***\n\nText ~~gone~~ and a hard  \nbreak.',
  'Entities: &amp; &lt;tag&gt; &copy; &#169; &#x00A9; &nbsp;x AT&T &unknown; &amp',
  'Escapes: \\*not em\\* \\<b\\> \\& \\[1\\]',
  '[titled](https://a.example/?q=1&amp;r=2 "A &amp; B") [space](https://a.example/a b) [bad](javascript:alert(1)) [rel](./x)',
  'Autolinks: https://a.example/?q=1&amp;r=2 <https://b.example> mail@c.example <mailto:d@e.example>',
  '![alt &amp; text](https://e.example/i.png "T") ![](https://e.example/j.png) ![x](javascript:alert(1))',
  '1. one\n2. two\n\n   loose paragraph\n3. three',
  '7. starts at seven\n8. eight',
  '- a\n  - b\n    - c\n- d\n\n> quote\n> > nested\n\n---',
  '| left | center | right | none |\n|:---|:---:|---:|---|\n| `a` | **b** | [c](https://c.example) | d \\| e |\n| 1 | 2 | 3 | 4 |',
  '| only head |\n|---|',
  '```\nplain < & >\n```\n\n```ts title="x"\nconst a = 1;\n```\n\n```c++\nx\n```\n\n    indented code',
  'Setext\n======\n\nSub\n---\n\n###### six\n\n####### seven',
  '[ref link][r] and [r]\n\n[r]: https://r.example "Ref"',
  'Emoji 😀, dashes — and “quotes” ‘here’.',
];

describe('markdown', () => {
  before(() => loadRawHtml());

  it('should build the same DOM from tokens as marked’s HTML and DOMPurify make', async () => {
    const { renderHtml } = await import('../../src/chat/raw-html.js');
    for (const text of WITHOUT_HTML) {
      const tokens = new Lexer().lex(text);
      const reference = document.createElement('div');
      reference.append(renderHtml(tokens));
      const built = document.createElement('div');
      appendBlocks(built, tokens);
      expect(built.innerHTML, text).to.equal(reference.innerHTML);
    }
  });

  it('should keep a list’s start and a cell’s alignment, also where raw HTML is in the block', () => {
    const view = MarkdownView.render('7. seven\n8. eight\n\n| n |\n|--:|\n| <b>1</b> |');
    expect(view.root.querySelector('ol')?.getAttribute('start')).to.equal('7');
    expect(view.root.querySelector('b')?.textContent).to.equal('1');
    expect(view.root.querySelector('td')?.getAttribute('align')).to.equal('right');
  });

  it('should show task list boxes, checked or not, that cannot be changed', () => {
    const view = MarkdownView.render('- [x] done\n- [ ] to do');
    const boxes = [...view.root.querySelectorAll('input')];
    expect(boxes.map((b) => [b.type, b.checked, b.disabled])).to.deep.equal([
      ['checkbox', true, true],
      ['checkbox', false, true],
    ]);
    expect(view.plainText).to.equal('done to do');
  });

  it('should give the start of a long answer to announce, cut at a word', () => {
    const view = MarkdownView.render(`**Opening hours**\n\n${'word '.repeat(100)}end`);
    const said = view.plainText;
    expect(said.startsWith('Opening hours word word')).to.equal(true);
    expect(said.length).to.be.at.most(241);
    expect(said.endsWith('word…')).to.equal(true);
    expect(MarkdownView.render('  short \n answer ').plainText).to.equal('short answer');
  });

  it('should render the same DOM incrementally as in one pass, for every chunk size', () => {
    const whole = MarkdownView.render(SAMPLE);
    for (const size of [1, 3, 7, 10, 64]) {
      const view = new MarkdownView();
      streamInto(view, SAMPLE, size);
      expect(normalized(view), `chunk size ${size}`).to.equal(normalized(whole));
    }
  });

  it('should read CRLF and CR line endings as LF, also when a CRLF is split between chunks', () => {
    const whole = MarkdownView.render(SAMPLE);
    const crlf = SAMPLE.replace(/\n/g, '\r\n');
    for (const size of [1, 2, 5]) {
      const view = new MarkdownView();
      streamInto(view, crlf, size);
      expect(normalized(view), `CRLF, chunk size ${size}`).to.equal(normalized(whole));
    }
    const view = new MarkdownView();
    streamInto(view, SAMPLE.replace(/\n/g, '\r'), 3);
    expect(normalized(view), 'CR').to.equal(normalized(whole));
  });

  it('should keep completed blocks as the same nodes while the answer grows', () => {
    const view = new MarkdownView();
    view.update('# Heading\n\nFirst paragraph.\n\nSecond');
    const heading = view.root.querySelector('h1');
    view.update('# Heading\n\nFirst paragraph.\n\nSecond paragraph grows');
    expect(view.root.querySelector('h1')).to.equal(heading);
  });

  it('should drop the empty item an answer stopped after a list marker leaves, bullet or number', () => {
    for (const [text, items] of [
      ['Bring:\n\n- a map\n- ', 1],
      ['Bring:\n\n- a map\n-', 1],
      ['Steps:\n\n1. open it\n2. ', 1],
      ['Bring:\n\n- ', 0],
    ] as const) {
      const view = new MarkdownView();
      view.update(text);
      view.finish();
      expect(view.root.querySelectorAll('li').length, JSON.stringify(text)).to.equal(items);
      // Nor read as a heading's underline ("- a map" over "-").
      expect(view.root.querySelector('h2'), JSON.stringify(text)).to.equal(null);
      expect(view.root.textContent, JSON.stringify(text)).to.contain(text.split(':')[0]);
    }
    // A number ending a paragraph's line is no list marker: kept.
    const view = new MarkdownView();
    view.update('It opened in\n2024.');
    view.finish();
    expect(view.root.textContent).to.contain('2024.');
  });

  it('should open links in a new tab without opener and drop unsafe schemes', () => {
    const view = MarkdownView.render(
      '[a](https://a.example) [b](javascript:alert(1)) [c](mailto:x@y.z) [d](tel:+123) [e](/relative) [f](data:text/html,x)',
    );
    const links = [...view.root.querySelectorAll('a')];
    expect(links.map((a) => a.getAttribute('href'))).to.deep.equal([
      'https://a.example',
      'mailto:x@y.z',
      'tel:+123',
    ]);
    // The others are their text, not links that look clickable and do nothing.
    expect(view.root.textContent?.trim()).to.equal('a b c d e f');
    for (const a of links) {
      expect(a.target).to.equal('_blank');
      expect(a.rel).to.equal('noopener noreferrer');
    }
  });

  it('should show images as links named by their alt text, never loading them', () => {
    const view = MarkdownView.render(
      [
        '![Harbour map](https://e.example/map.png "The map") in text',
        '',
        '- ![Relative](docs/shot.png)',
        '',
        '| a |',
        '|---|',
        '| ![](javascript:alert(1)) |',
      ].join('\n'),
    );
    expect(view.root.querySelector('img')).to.equal(null);
    const links = [...view.root.querySelectorAll('a')].map((a) => ({
      text: a.textContent,
      href: a.getAttribute('href'),
      title: a.title,
    }));
    expect(links).to.deep.equal([
      { text: 'Harbour map', href: 'https://e.example/map.png', title: 'The map' },
    ]);
    expect(view.plainText).to.equal('Harbour map in text Relative a javascript:alert(1)');
  });

  it('should strip script, event handlers, styles and iframes from raw HTML', () => {
    const fragment = sanitize(
      '<p style="color:red" onclick="x()">a</p><script>x()</script><iframe src="https://e.com"></iframe><img src=x onerror=alert(1)><svg onload=alert(1)></svg>',
    );
    const div = document.createElement('div');
    div.append(fragment);
    expect(div.innerHTML).to.equal('<p>a</p>');
  });

  it('should keep no class but a code block’s language, and treat raw-HTML links as markdown ones, however written', () => {
    // Each rendered alone, so that each is sanitized alone.
    const attribute = (markdown: string, selector: string, name: string) =>
      MarkdownView.render(markdown).root.querySelector(selector)!.getAttribute(name);
    expect(attribute('<em class="send-button">Send</em>', 'em', 'class')).to.equal(null);
    expect(attribute('Then <STRONG CLASS = "chip">x</STRONG>', 'strong', 'class')).to.equal(null);
    expect(attribute('```js\nconst a = 1;\n```', 'pre code', 'class')).to.equal('language-js');
    const safe = MarkdownView.render('<A HREF="https://a.example">safe</A>').root.querySelector(
      'a',
    )!;
    expect(safe.getAttribute('href')).to.equal('https://a.example');
    expect(safe.target).to.equal('_blank');
    expect(safe.rel).to.equal('noopener noreferrer');
    const unsafe = MarkdownView.render('Then <a\nhref="javascript:alert(1)">unsafe</a>').root;
    expect(unsafe.querySelector('a')).to.equal(null);
    expect(unsafe.textContent?.trim()).to.equal('Then unsafe');
  });

  it('should set each finished code block under a bar with its language and a copy button', () => {
    const view = MarkdownView.render('```\ncode\n```\n\n```html\n<p>hi</p>\n```\n\ntext', {
      copyCodeLabel: () => 'Copy code',
    });
    const [plain, html] = [...view.root.querySelectorAll('.code-block')];
    for (const block of [plain, html]) {
      expect(block!.querySelector('.code-head > button.copy-code')?.textContent).to.equal(
        'Copy code',
      );
    }
    expect(plain!.querySelector('.code-head')!.textContent, 'no language named').to.equal(
      'Copy code',
    );
    expect(plain!.querySelector(':scope > pre')?.textContent).to.equal('code\n');
    expect(html!.querySelector('.code-lang')?.textContent).to.equal('html');
    expect(html!.querySelector(':scope > pre')?.textContent).to.equal('<p>hi</p>\n');
  });

  it('should link citation markers to known sources only, never inside code', () => {
    const citations = [
      { n: 1, data_source_uuid: 'a', title: 'Bakery', type: 'qa' },
      { n: 2, data_source_uuid: 'b', title: 'Site', type: 'link', url: 'https://site.example' },
    ];
    const view = MarkdownView.render('Open [1] and [2] but not [3]. `[1]`', {
      citations: () => citations,
      idPrefix: 'x1',
    });
    const markers = [...view.root.querySelectorAll('a.citation')];
    expect(markers.map((a) => a.getAttribute('href'))).to.deep.equal([
      '#x1-source-1',
      'https://site.example',
    ]);
    expect(view.root.textContent).to.contain('[3]');
    expect(view.root.querySelector('code')?.textContent).to.equal('[1]');
  });

  it('should start over when a new text does not extend the old one', () => {
    const view = new MarkdownView();
    view.update('# One\n\nTwo');
    view.update('Other');
    view.finish();
    expect(view.root.querySelector('h1')).to.equal(null);
    expect(view.plainText).to.equal('Other');
  });
});
