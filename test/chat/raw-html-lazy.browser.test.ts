import { expect } from '@open-wc/testing';
import { loadRawHtml, MarkdownView } from '../../src/chat/markdown.js';

/**
 * Its own page (one per test file): here the sanitizer for raw HTML (raw-html.ts) has not been
 * loaded when the first answer with raw HTML is drawn.
 */
describe('raw HTML in an answer before its sanitizer has loaded', () => {
  it('should show the block as text at once, then draw it sanitized, streamed or whole', async () => {
    const whole = MarkdownView.render('Intro.\n\nSay <b>bold</b> <img src=x onerror=alert(1)>.');
    expect(whole.root.querySelector('b, img')).to.equal(null);
    expect(whole.plainText).to.equal('Intro. Say <b>bold</b> <img src=x onerror=alert(1)>.');

    const streamed = new MarkdownView();
    streamed.update('Open <sub>2</sub>');
    expect(streamed.root.querySelector('sub')).to.equal(null);

    await loadRawHtml();
    expect(whole.root.querySelector('b')?.textContent).to.equal('bold');
    expect(whole.root.querySelector('img')).to.equal(null);
    expect(whole.plainText).to.equal('Intro. Say bold .');
    expect(streamed.root.querySelector('sub')?.textContent).to.equal('2');
    streamed.update('Open <sub>2</sub> and more');
    streamed.finish();
    expect(streamed.plainText).to.equal('Open 2 and more');
  });

  it('should not draw an open block again from tokens a later update replaced', async () => {
    await loadRawHtml();
    const view = new MarkdownView();
    view.update('A <b>x</b>');
    view.update('Plain now');
    view.finish();
    await loadRawHtml();
    expect(view.plainText).to.equal('Plain now');
  });
});
