import { expect } from '@open-wc/testing';
import {
  AnswerViewsController,
  type AnswerViewsOptions,
} from '../../src/chat/answer-views-controller.js';
import { answerViews } from '../../src/chat/renderer.js';
import type { Exchange } from '../../src/chat/transcript-store.js';
import { TestHost, until } from './helpers.js';

const exchange = (i: number, response = `## Answer ${i}\n\n- **one**\n- two`): Exchange => ({
  id: `x${i}`,
  query: `question ${i}`,
  response,
  state: 'done',
});
const conversation = (count: number) => Array.from({ length: count }, (_, i) => exchange(i));

/** A host with a conversation; `visible` stands for an inline chat or an open launcher. */
function setup(options: Partial<AnswerViewsOptions> & { exchanges?: () => Exchange[] } = {}) {
  const host = new TestHost();
  let list: Exchange[] = [];
  const answers = new AnswerViewsController(host, {
    exchanges: () => list,
    copyCodeLabel: () => 'Copy code',
    visible: () => true,
    ...options,
  });
  return {
    host,
    answers,
    set: (exchanges: Exchange[]) => {
      list = exchanges;
    },
  };
}

// The renderer is loaded once per page: the first test sees the page without it.
describe('AnswerViewsController', () => {
  const hosts: TestHost[] = [];
  afterEach(() => {
    for (const host of hosts.splice(0)) host.disconnect();
  });

  it('should leave the renderer unloaded for a hidden conversation until one is expected', async () => {
    const { host, answers, set } = setup({ visible: () => false });
    hosts.push(host);
    host.connect();
    host.update();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(answerViews(), 'not for a closed launcher').to.equal(undefined);
    set([exchange(0)]);
    expect(answers.viewFor(exchange(0))).to.equal(undefined);
    answers.expect();
    await until(() => answerViews(), 'the renderer, once the page idles');
    await until(() => answers.shown.length === 1 && host.updates > 0, 'the update that shows it');
  });

  it('should give each exchange one view, with its answer rendered and finished', () => {
    const { answers } = setup();
    const first = exchange(1, 'Some **bold** text');
    const view = answers.viewFor(first)!;
    expect(view.root.querySelector('strong')?.textContent).to.equal('bold');
    expect(view.plainText).to.equal('Some bold text');
    expect(answers.viewFor(first)).to.equal(view);
    answers.forget(first.id);
    expect(answers.viewFor(first)).to.not.equal(view);
  });

  it('should show a long conversation newest first, then the older exchanges a task at a time', async () => {
    const keepPlace: string[] = [];
    const { host, answers, set } = setup({
      keepPlace: () => {
        keepPlace.push('noted');
        return () => keepPlace.push('restored');
      },
    });
    hosts.push(host);
    host.connect();
    const all = conversation(400);
    set(all);
    answers.showNewest();
    expect(answers.shown.length).to.be.within(1, 399);
    expect(answers.shown.at(-1)).to.equal(all.at(-1));
    await until(() => answers.shown.length === 400, 'the whole conversation');
    expect(answers.shown).to.deep.equal(all);
    expect(keepPlace[0]).to.equal('noted');
    expect(keepPlace).to.include('restored');
  });

  it('should stop revealing when its host leaves, and carry on when it returns', async () => {
    const { host, answers, set } = setup();
    host.connect();
    set(conversation(400));
    answers.showNewest();
    const shown = answers.shown.length;
    host.disconnect();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(answers.shown.length).to.equal(shown);
    hosts.push(host);
    host.connect();
    await until(() => answers.shown.length === 400, 'the whole conversation');
  });

  it("should keep the views of answers the server's list confirms, and as many exchanges shown", () => {
    const { answers, set } = setup();
    const before = conversation(3);
    set(before);
    answers.showNewest();
    const shown = answers.shown.length;
    const views = before.map((e) => answers.viewFor(e));
    const changed = { ...before[1]!, response: 'Edited.' };
    const after = [exchange(9), before[0]!, changed, before[2]!];
    set(after);
    answers.replaced(before);
    expect(answers.shown).to.deep.equal(after.slice(after.length - shown));
    expect(answers.viewFor(before[0]!)).to.equal(views[0]);
    expect(answers.viewFor(changed)).to.not.equal(views[1]);
    expect(answers.viewFor(changed)!.plainText).to.equal('Edited.');
    expect(answers.viewFor(before[2]!)).to.equal(views[2]);
  });

  it('should start over on clear()', () => {
    const { answers, set } = setup();
    const list = conversation(2);
    set(list);
    const view = answers.viewFor(list[0]!);
    answers.clear();
    expect(answers.viewFor(list[0]!)).to.not.equal(view);
    set([]);
    expect(answers.shown).to.deep.equal([]);
  });
});
