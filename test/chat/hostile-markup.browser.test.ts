import { expect, fixture, html } from '@open-wc/testing';
import type { ChatbotChat } from '../../src/chat/chatbot-chat.js';
import { loadRawHtml, MarkdownView } from '../../src/chat/markdown.js';
import { sanitize } from '../../src/chat/raw-html.js';
import '../../src/chat/index.js';
import { answers, fakeService, until } from './helpers.js';

/**
 * Answers whose markup the sanitizer cannot place in a body (it returns null or an empty
 * fragment for some), or that switch the HTML parser into another mode: every one must render.
 */
const HOSTILE = [
  '<frameset>',
  '<frameset><frame src=x></frameset>',
  '<frameset onload=alert(1)>',
  '<html><frameset>',
  '<html><head></head><frameset><frame src="javascript:alert(1)"></frameset></html>',
  '<!doctype html><frameset>',
  '<body>',
  '<body onload=alert(1)>text after body',
  '<html><body><script>alert(1)</script></body></html>',
  '<head><script>alert(1)</script></head>',
  '<template><script>alert(1)</script></template>',
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>">',
  '<plaintext><script>alert(1)</script>',
  '<xmp><script>alert(1)</script></xmp>',
  '<svg><foreignObject><script>alert(1)</script></foreignObject></svg>',
  '<math><mi><mglyph><style><img src=x onerror=alert(1)>',
  '<table><frameset>',
  '<select><frameset>',
  '<frame src=x>',
  '<iframe srcdoc="<script>alert(1)</script>">',
  'Before\n\n<frameset>\n\nAfter',
  '<frameset>\n\n# Heading\n\ntext',
];

/** Nothing that can run reached the rendered DOM. */
function expectInert(root: ParentNode, what: string): void {
  expect(root.querySelector('script, frameset, frame, iframe, svg, math, template'), what).to.not
    .exist;
  for (const node of root.querySelectorAll('*')) {
    for (const { name } of node.attributes) expect(name, what).to.not.match(/^on/i);
  }
}

describe('markdown with markup the sanitizer cannot place', () => {
  before(() => loadRawHtml());
  let errors: unknown[] = [];
  const onError = (event: ErrorEvent) => errors.push(event.error ?? event.message);
  beforeEach(() => {
    errors = [];
    window.addEventListener('error', onError);
  });
  afterEach(() => {
    window.removeEventListener('error', onError);
  });

  it('should always return a fragment from sanitize', () => {
    for (const text of HOSTILE) {
      const fragment = sanitize(text);
      expect(fragment, text).to.be.instanceOf(DocumentFragment);
      expectInert(fragment, text);
    }
  });

  it('should render every answer, showing what the sanitizer refuses whole as text', () => {
    for (const text of HOSTILE) {
      const view = MarkdownView.render(text);
      expectInert(view.root, text);
    }
    const frameset = MarkdownView.render('<frameset><frame src=x></frameset>');
    expect(frameset.plainText).to.equal('<frameset><frame src=x></frameset>');
    const around = MarkdownView.render('Before\n\n<frameset>\n\nAfter');
    expect(around.plainText).to.equal('Before <frameset> After');
    const body = MarkdownView.render('<body onload=alert(1)>text after body');
    expect(body.plainText).to.contain('text after body');
  });

  it('should render them while they stream, in every split', () => {
    for (const text of HOSTILE) {
      for (const size of [1, 2, 5]) {
        const view = new MarkdownView();
        for (let end = size; end < text.length + size; end += size) view.update(text.slice(0, end));
        view.finish();
        expectInert(view.root, `${text} by ${size}`);
        expect(view.plainText, `${text} by ${size}`).to.equal(MarkdownView.render(text).plainText);
      }
    }
    expect(errors).to.deep.equal([]);
  });

  it('should show a whole answer holding a frameset in the element, with no page error', async () => {
    const service = fakeService(
      HOSTILE.slice(0, 6).map((text) => ({ chunks: [text.slice(0, 4), text.slice(4)] })),
    );
    const el = await fixture<ChatbotChat>(html`<chatbot-chat
      chatbot-uuid="bot-1"
      persist="none"
      .client=${service.client}
    ></chatbot-chat>`);
    for (const [index, text] of HOSTILE.slice(0, 6).entries()) {
      await el.send(`question ${index}`);
      await until(() => answers(el)[index]?.querySelector('.markdown'), `answer ${index}`);
      await until(() => !el.shadowRoot!.querySelector('[aria-busy="true"]'), `end of ${index}`);
      const markdown = answers(el)[index]!.querySelector('.markdown')!;
      expectInert(markdown, text);
      expect(markdown.textContent?.replace(/\s+/g, ' ').trim(), text).to.equal(
        MarkdownView.render(text).plainText,
      );
    }
    expect(errors).to.deep.equal([]);
  });
});
