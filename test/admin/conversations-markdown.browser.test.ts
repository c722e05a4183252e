import { expect } from '@open-wc/testing';
import { mountConversations, type Panel } from './conversations-helpers.js';
import { apiClient, button, deep, newChatbot, until } from './helpers.js';

/** Whether the page has fetched the chat's markdown renderer (the dev server serves it as is). */
const fetched = () =>
  performance
    .getEntriesByType('resource')
    .some((entry) => entry.name.includes('/src/chat/answer-chunk.'));

/**
 * A chatbot whose Q&A answers `question` with `answer` as written (the reference server stores
 * and answers a Q&A's text as it is), and one conversation that asked it.
 */
async function askedQa(question: string, answer: string) {
  const client = await apiClient();
  const bot = await newChatbot(client, 'Markdown bot');
  await client.sources.createQa(bot.uuid, { question, answer });
  const session = await client.sessions.create(bot.uuid);
  await client.messages.send(session.uuid, question);
  const [message] = await client.messages.list(session.uuid);
  expect(message!.response, 'the answer as stored').to.equal(answer);
  return { client, bot };
}

async function openTranscript(panel: Panel, question: string) {
  await until(() => button(panel, `Open session: ${question}`));
  button(panel, `Open session: ${question}`)!.click();
  return until(() => deep(panel, '[part=transcript]'));
}

const MARKDOWN = [
  '**Hold** the reset button for *five* seconds [1]:',
  '',
  '- unplug the kiosk',
  '- plug it back in',
  '',
  '```sh',
  `kiosk-reset --hard --really-long-flag-${'x'.repeat(200)}`,
  '```',
  '',
  '| step | what happens |',
  '| --- | --- |',
  `| 1 | ${'dark'.repeat(60)} |`,
].join('\n');

// A file of its own: once any test has opened a transcript, the renderer stays loaded.
describe('<chatbot-admin> transcript answers as the visitor saw them', () => {
  afterEach(() => history.replaceState(null, '', location.pathname + location.search));

  it('should render an answer’s markdown once a transcript opens, fetching the renderer only then', async () => {
    const question = 'How do I **reset** the kiosk?';
    const { client, bot } = await askedQa(question, MARKDOWN);
    const { el, panel } = await mountConversations(client, bot);
    await until(() => button(panel, `Open session: ${question}`));
    expect(fetched(), 'the renderer before a transcript opens').to.equal(false);

    const transcript = await openTranscript(panel, question);
    const answer = await until(() =>
      transcript.querySelector<HTMLElement>('[part~=assistant-message]:has(strong)'),
    );
    expect(fetched()).to.equal(true);
    expect(answer.querySelector('strong')!.textContent).to.equal('Hold');
    expect(answer.querySelector('em')!.textContent).to.equal('five');
    expect(
      [...answer.querySelectorAll('ul > li')].map((li) => li.textContent?.trim()),
    ).to.deep.equal(['unplug the kiosk', 'plug it back in']);
    expect(answer.querySelector('pre code')!.textContent).to.contain('kiosk-reset --hard');
    expect(answer.querySelector('table th')!.textContent?.trim()).to.equal('step');
    expect(answer.textContent).to.not.contain('**').and.not.to.contain('```');
    expect(answer.getAttribute('dir')).to.equal('auto');
    // The chat's copy buttons have nothing to do in a record of what was said.
    expect([...answer.querySelectorAll('button')].filter((b) => b.offsetParent)).to.have.length(0);

    // The question is what the visitor typed, as text.
    const asked = transcript.querySelector<HTMLElement>('[part~=user-message]')!;
    expect(asked.textContent).to.equal(question);
    expect(asked.children).to.have.length(0);

    // The marker points at its source in the list below, without touching the page's hash.
    const hash = location.hash;
    const marker = answer.querySelector<HTMLAnchorElement>('a.citation')!;
    expect(marker.textContent).to.equal('[1]');
    marker.click();
    const source = await until(() => {
      const focused = panel.shadowRoot!.activeElement;
      return focused?.closest('[part=sources]') && focused;
    });
    expect(source.getAttribute('value')).to.equal('1');
    expect(location.hash).to.equal(hash);
    // The passage it quoted, as its source writes it: drawn, not its markdown's marks.
    const passage = source.querySelector<HTMLElement>('details .passage')!;
    expect(passage.querySelector('strong')?.textContent).to.equal('Hold');
    expect(passage.querySelector('pre code')?.textContent).to.contain('kiosk-reset --hard');
    expect(passage.textContent).to.not.contain('**').and.not.to.contain('```');

    // Wide code and a wide table scroll inside the answer; the card keeps its width.
    const card = deep(panel, 'section.detail')!.getBoundingClientRect();
    // (A table scrolls in a box of its own, at its columns' natural widths.)
    const scrollers = answer.querySelectorAll<HTMLElement>('pre, .table');
    expect(scrollers).to.have.length(2);
    for (const wide of scrollers) {
      expect(wide.scrollWidth, wide.className).to.be.greaterThan(wide.clientWidth);
      expect(wide.getBoundingClientRect().right, wide.className).to.be.at.most(card.right);
      expect(getComputedStyle(wide).overflowX, wide.className).to.equal('auto');
    }

    // The owner corrects the answer as it is written, markdown and all.
    button(transcript, `Add as Q&A: ${question}`)!.click();
    const field = await until(() =>
      transcript.querySelector<HTMLTextAreaElement>('form.qa-form [name=answer]'),
    );
    expect(field.value).to.equal(MARKDOWN);
    await expect(el).to.be.accessible();
  });

  it('should let no script or event handler of a stored answer reach the page', async () => {
    const question = 'Is the kiosk open?';
    const stored = [
      'It is **open** <img src=x onerror="window.adminXss = 1"> today.',
      '',
      '<script>window.adminXss = 2</script>',
      '',
      '<div onmouseover="window.adminXss = 3"><a href="javascript:window.adminXss = 4">hours</a></div>',
      '',
      '[more](javascript:window.adminXss=5)',
    ].join('\n');
    const { client, bot } = await askedQa(question, stored);
    const { panel } = await mountConversations(client, bot);
    const transcript = await openTranscript(panel, question);
    // Rendered, its raw HTML through the sanitizer (until that has loaded it shows as text).
    const answer = await until(() => {
      const node = transcript.querySelector<HTMLElement>('[part~=assistant-message]');
      return node?.querySelector('strong') && !node.textContent?.includes('<img') && node;
    });
    expect(answer.textContent).to.contain('today.').and.to.contain('hours');
    // A block the sanitizer would keep nothing of shows as the text it is, as in the chat.
    expect(answer.textContent).to.contain('<script>window.adminXss = 2</script>');
    expect(answer.querySelector('img, script, [onmouseover], [onerror]')).to.equal(null);
    for (const link of answer.querySelectorAll('a')) {
      expect(link.getAttribute('href') ?? '').to.not.match(/^javascript:/i);
    }
    // A broken image of this page's own has failed to load by now, so the answer's would have.
    const probe = new Image();
    const failed = new Promise((done) => probe.addEventListener('error', done));
    probe.src = 'x';
    await failed;
    expect((window as { adminXss?: number }).adminXss).to.equal(undefined);
  });
});
