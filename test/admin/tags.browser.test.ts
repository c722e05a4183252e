import { expect, oneEvent } from '@open-wc/testing';
import {
  apiClient,
  button,
  confirmDialog,
  deep,
  deepAll,
  mountAdmin,
  newChatbot,
  type,
  until,
} from './helpers.js';

type Panel = HTMLElement & { updateComplete: Promise<unknown>; refresh(): void };

async function tagsPanel() {
  const client = await apiClient();
  const bot = await newChatbot(client);
  const first = await client.sources.createQa(bot.uuid, {
    question: 'Ferry times',
    answer: 'Hourly.',
  });
  const second = await client.sources.createQa(bot.uuid, {
    question: 'Ticket prices',
    answer: 'Five.',
  });
  const el = await mountAdmin(client, bot, 'tags');
  const panel = await until(() => deep<Panel>(el, 'chatbot-admin-tags'));
  const form = await until(() => deep<HTMLFormElement>(panel, 'form.tag-form'));
  return { client, bot, el, panel, form, first, second };
}

const tagItem = (panel: Element, name: string) =>
  until(() =>
    deepAll(panel, 'ul.plain > li').find((li) => li.querySelector('strong')?.textContent === name),
  );

const member = (form: Element, title: string) =>
  until(() =>
    [...form.querySelectorAll<HTMLInputElement>('input[name=member]')].find((b) =>
      b.parentElement?.textContent?.includes(title),
    ),
  );

describe('<chatbot-admin> tags', () => {
  afterEach(() => history.replaceState(null, '', location.pathname + location.search));

  it('should list tags with a colour swatch and a count, as text, and be accessible', async () => {
    const client = await apiClient();
    const bot = await newChatbot(client);
    const source = await client.sources.createQa(bot.uuid, { question: 'Q', answer: 'A' });
    await client.tags.create(bot.uuid, {
      name: '<em>Harbour</em>',
      color: '#aa3300',
      data_source_uuids: [source.uuid],
    });
    const el = await mountAdmin(client, bot, 'tags');
    const panel = await until(() => deep<Panel>(el, 'chatbot-admin-tags'));
    const item = await tagItem(panel, '<em>Harbour</em>');
    expect(item.querySelector('em')).to.equal(null);
    expect(item.textContent).to.contain('1 source').and.not.contain('1 sources');
    expect(getComputedStyle(item.querySelector('.swatch')!).backgroundColor).to.equal(
      'rgb(170, 51, 0)',
    );
    await expect(el).to.be.accessible();
  });

  it('should refuse a colour that is not #RRGGBB beside it, focus it and keep what was typed', async () => {
    const { client, bot, panel, form } = await tagsPanel();
    const color = form.querySelector<HTMLInputElement>('input[name=color]')!;
    type(form.querySelector('input[name=name]')!, 'Bad colour');
    type(color, '#12345');
    button(form, 'Create tag')!.click();
    await until(() => panel.shadowRoot!.activeElement === color);
    expect(color.getAttribute('aria-invalid')).to.equal('true');
    const help = panel.shadowRoot!.getElementById(color.getAttribute('aria-describedby')!)!;
    expect(help.textContent).to.equal('Color must have the form #RRGGBB.');
    expect(form.querySelector<HTMLInputElement>('input[name=name]')!.value).to.equal('Bad colour');
    expect(await client.tags.list(bot.uuid)).to.deep.equal([]);
    await panel.updateComplete;
  });

  it('should line the colour picker up with the colour field, its help under that field, both beside the name', async () => {
    const { form } = await tagsPanel();
    const box = (selector: string) => form.querySelector(selector)!.getBoundingClientRect();
    const name = box('input[name=name]');
    const color = box('input[name=color]');
    const picker = box('input[type=color]');
    const help = box('#color-help');
    const middle = (r: DOMRect) => (r.top + r.bottom) / 2;
    expect(color.top, 'the colour field beside the name').to.be.closeTo(name.top, 0.5);
    expect(middle(picker), 'the picker beside the colour field').to.be.closeTo(middle(color), 1);
    expect(picker.left).to.be.above(color.right);
    expect(help.left, 'the help under the colour field, not under the name').to.be.closeTo(
      color.left,
      1,
    );
    expect(help.top - color.bottom).to.be.within(0, 12);
  });

  it("should keep a tag's Show sources, Edit and Delete together on one line, on a laptop and a phone", async () => {
    const { client, bot, el, panel } = await tagsPanel();
    await client.tags.create(bot.uuid, { name: 'Getting started guides', color: '#16a34a' });
    (panel as Panel).refresh();
    const item = await tagItem(panel, 'Getting started guides');
    const buttons = [...item.querySelectorAll('button')];
    expect(buttons.length).to.equal(3);
    try {
      for (const width of ['1000px', '360px']) {
        el.style.width = width;
        await new Promise((resolve) => requestAnimationFrame(resolve));
        const boxes = buttons.map((b) => b.getBoundingClientRect());
        for (const box of boxes) expect(box.top, `at ${width}`).to.be.closeTo(boxes[0]!.top, 0.5);
      }
    } finally {
      el.style.width = '';
    }
  });

  it('should keep every member checkbox its size beside a name that wraps, on a phone', async () => {
    const { client, bot, el, form } = await tagsPanel();
    await client.sources.createQa(bot.uuid, {
      question: 'How do I run this on my own machine without signing up for anything at all?',
      answer: 'npm start.',
    });
    (deep(el, 'chatbot-admin-tags') as Panel).refresh();
    await until(() => form.querySelectorAll('fieldset input[type=checkbox]').length === 3);
    el.style.width = '320px';
    try {
      await new Promise((resolve) => requestAnimationFrame(resolve));
      const boxes = [...form.querySelectorAll('fieldset input[type=checkbox]')].map((box) =>
        box.getBoundingClientRect(),
      );
      const long = boxes.at(-1)!;
      expect(long.width, 'beside the long question').to.be.closeTo(boxes[0]!.width, 0.5);
      expect(long.height, 'beside the long question').to.be.closeTo(boxes[0]!.height, 0.5);
    } finally {
      el.style.width = '';
    }
  });

  it('should say beside the name that it is longer than the server takes, and focus it', async () => {
    const { client, bot, el, panel, form } = await tagsPanel();
    const name = form.querySelector<HTMLInputElement>('input[name=name]')!;
    const message = () => {
      const id = name.getAttribute('aria-describedby');
      return id ? panel.shadowRoot!.getElementById(id)?.textContent?.trim() : undefined;
    };
    // A name not typed yet is not wrong until the form is refused.
    expect(name.getAttribute('aria-invalid')).to.equal('false');
    type(name, 'x'.repeat(201));
    await until(() => name.getAttribute('aria-invalid') === 'true');
    expect(message()).to.equal('At most 200 characters; this has 201.');
    const create = button(form, 'Create tag')!;
    create.focus();
    create.click();
    await until(() => panel.shadowRoot!.activeElement === name);
    expect(await client.tags.list(bot.uuid)).to.deep.equal([]);
    await expect(el).to.be.accessible();

    type(name, '');
    await until(() => message() === 'Name is required.');
    type(name, 'x'.repeat(200));
    await until(() => message() === undefined);
    expect(name.getAttribute('aria-invalid')).to.equal('false');
  });

  it('should keep focus on Create tag and Save, and take it back to Edit on Cancel', async () => {
    const { client, bot, panel, form } = await tagsPanel();
    const active = () => panel.shadowRoot!.activeElement;
    type(form.querySelector('input[name=name]')!, 'Keyboard tag');
    const create = button(form, 'Create tag')!;
    create.focus();
    create.click();
    await tagItem(panel, 'Keyboard tag');
    await panel.updateComplete;
    expect(active() === create).to.equal(true);

    const edit = button(await tagItem(panel, 'Keyboard tag'), 'Edit Keyboard tag')!;
    edit.focus();
    edit.click();
    const name = form.querySelector<HTMLInputElement>('input[name=name]')!;
    await until(() => active() === name);
    type(name, 'Keyboard tag edited');
    const save = button(form, 'Save')!;
    save.focus();
    save.click();
    await until(() => deep(panel, 'form.tag-form [role=status]')?.textContent === 'Saved.');
    await panel.updateComplete;
    expect(active() === save).to.equal(true);
    expect((await client.tags.list(bot.uuid))[0]!.name).to.equal('Keyboard tag edited');

    const cancel = button(form, 'Cancel')!;
    cancel.focus();
    cancel.click();
    await until(() => !button(form, 'Cancel'));
    await until(() => active()?.getAttribute('aria-label') === 'Edit Keyboard tag edited');
  });

  it("should move focus to the next tag's Delete after a delete, and to the form when none is left", async () => {
    const { client, bot, panel } = await tagsPanel();
    await client.tags.create(bot.uuid, { name: 'First', color: '#111111' });
    await client.tags.create(bot.uuid, { name: 'Second', color: '#222222' });
    panel.refresh();
    const active = () => panel.shadowRoot!.activeElement;
    const remove = button(await tagItem(panel, 'First'), 'Delete First')!;
    remove.focus();
    remove.click();
    await confirmDialog(panel);
    await until(() => active()?.getAttribute('aria-label') === 'Delete Second');
    (active() as HTMLButtonElement).click();
    await confirmDialog(panel);
    await until(() => active()?.id === 'tag-form-heading');
    // The row goes (and focus moves) before the service answers the delete: wait for it there.
    await until(async () => (await client.tags.list(bot.uuid)).length === 0);
  });

  it('should create a tag with a picked colour and member sources', async () => {
    const { client, bot, panel, form, first } = await tagsPanel();
    type(form.querySelector('input[name=name]')!, 'Ferries');
    const picker = form.querySelector<HTMLInputElement>('input[type=color]')!;
    picker.value = '#00aa55';
    picker.dispatchEvent(new Event('input'));
    (await member(form, 'Ferry times')).click();
    button(form, 'Create tag')!.click();
    const item = await tagItem(panel, 'Ferries');
    expect(item.textContent).to.contain('1 source').and.not.contain('1 sources');
    const [stored] = await client.tags.list(bot.uuid);
    expect(stored).to.include({ name: 'Ferries', color: '#00aa55' });
    expect(stored!.data_source_uuids).to.deep.equal([first.uuid]);
    expect(form.querySelector<HTMLInputElement>('input[name=name]')!.value).to.equal('');
  });

  it('should edit name, colour and members of a tag', async () => {
    const { client, bot, panel, form, first, second } = await tagsPanel();
    const tag = await client.tags.create(bot.uuid, {
      name: 'Old',
      color: '#111111',
      data_source_uuids: [first.uuid],
    });
    panel.refresh();
    button(await tagItem(panel, 'Old'), 'Edit Old')!.click();
    await until(() => form.querySelector<HTMLInputElement>('input[name=name]')!.value === 'Old');
    type(form.querySelector('input[name=name]')!, 'New');
    type(form.querySelector('input[name=color]')!, '#222222');
    (await member(form, 'Ticket prices')).click();
    const saved = oneEvent(panel, 'chatbot-admin-change');
    button(form, 'Save')!.click();
    await saved;
    const [stored] = await client.tags.list(bot.uuid);
    expect(stored).to.include({ uuid: tag.uuid, name: 'New', color: '#222222' });
    expect(stored!.data_source_uuids).to.have.members([first.uuid, second.uuid]);
    expect((await tagItem(panel, 'New')).textContent).to.contain('2 sources');
  });

  it('should put the old tag back and keep the form when saving fails', async () => {
    const { client, bot, panel, form } = await tagsPanel();
    const tag = await client.tags.create(bot.uuid, { name: 'Fragile', color: '#333333' });
    panel.refresh();
    button(await tagItem(panel, 'Fragile'), 'Edit Fragile')!.click();
    await until(
      () => form.querySelector<HTMLInputElement>('input[name=name]')!.value === 'Fragile',
    );
    await client.tags.delete(tag.uuid);
    type(form.querySelector('input[name=name]')!, 'Renamed in vain');
    button(form, 'Save')!.click();
    await until(() => form.querySelector('[role=alert]'));
    await tagItem(panel, 'Fragile');
    expect(form.querySelector<HTMLInputElement>('input[name=name]')!.value).to.equal(
      'Renamed in vain',
    );
  });

  it('should delete a tag after a confirmation that names it', async () => {
    const { client, bot, panel } = await tagsPanel();
    await client.tags.create(bot.uuid, { name: 'Temporary', color: '#444444' });
    panel.refresh();
    button(await tagItem(panel, 'Temporary'), 'Delete Temporary')!.click();
    const deleted = oneEvent(panel, 'chatbot-admin-change');
    expect(await confirmDialog(panel)).to.contain('Temporary');
    await deleted;
    expect(await client.tags.list(bot.uuid)).to.deep.equal([]);
  });

  it('should keep focus on a tag’s button when a tag above it goes away on reload', async () => {
    const { client, bot, panel } = await tagsPanel();
    const harbour = await client.tags.create(bot.uuid, { name: 'Harbour', color: '#aa3300' });
    await client.tags.create(bot.uuid, { name: 'Prices', color: '#0033aa' });
    panel.refresh();
    const item = await tagItem(panel, 'Prices');
    button(item, 'Edit Prices')!.focus();
    await client.tags.delete(harbour.uuid);
    panel.refresh();
    await until(
      () => !deepAll(panel, 'ul.plain > li strong').some((n) => n.textContent === 'Harbour'),
    );
    const focused = panel.shadowRoot!.activeElement;
    expect(focused?.getAttribute('aria-label') ?? 'nothing focused').to.equal('Edit Prices');
  });

  it('should say in German which tag a button deletes, and count one source as one', async () => {
    const { client, bot, el, panel, first } = await tagsPanel();
    await client.tags.create(bot.uuid, {
      name: 'Hafen',
      color: '#aa3300',
      data_source_uuids: [first.uuid],
    });
    panel.refresh();
    el.lang = 'de';
    const item = await tagItem(panel, 'Hafen');
    await until(() => button(item, 'Hafen löschen'));
    expect(item.querySelector('.badge')!.textContent).to.equal('1 Quelle');
  });

  it('should open the source table filtered by a tag', async () => {
    const { client, bot, el, panel, first } = await tagsPanel();
    const tag = await client.tags.create(bot.uuid, {
      name: 'Only ferries',
      color: '#555555',
      data_source_uuids: [first.uuid],
    });
    panel.refresh();
    button(await tagItem(panel, 'Only ferries'), 'Show sources tagged Only ferries')!.click();
    await until(() => deep(el, '#tab-sources')?.getAttribute('aria-selected') === 'true');
    expect(location.hash).to.contain(`tag=${tag.uuid}`);
    const sources = await until(() => deep(el, 'chatbot-admin-sources'));
    await until(() => {
      deep(sources, '.tbody')?.scrollIntoView({ block: 'start' });
      const titles = deepAll(sources, '.tbody [role=row] .title').map((t) => t.textContent);
      return titles.length === 1 && titles[0] === first.title;
    });
  });
});
