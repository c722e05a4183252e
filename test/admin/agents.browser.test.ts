import { expect, oneEvent } from '@open-wc/testing';
import { setViewport } from '@web/test-runner-commands';
import type { Agent, ToolFunction } from '../../src/api/types.js';
import {
  apiClient,
  button,
  confirmDialog,
  deep,
  deepAll,
  deepText,
  loaded,
  mountAdmin,
  newChatbot,
  slowListClient,
  type,
  until,
} from './helpers.js';

const fieldNames = (form: Element) =>
  [...form.querySelectorAll<HTMLInputElement>('[name]')].map((f) => f.name);

async function agentsPanel(tab = 'agents') {
  const client = await apiClient();
  const bot = await newChatbot(client);
  const el = await mountAdmin(client, bot, tab);
  const panel = await until(() => deep(el, 'chatbot-admin-agents'));
  return { client, bot, el, panel };
}

const card = (panel: Element, name: string) =>
  until(() =>
    deepAll(panel, 'article').find((a) => a.querySelector('h3')?.textContent?.trim() === name),
  );

describe('<chatbot-admin> agents', () => {
  afterEach(() => history.replaceState(null, '', location.pathname + location.search));

  it('should list the agents with their type and an enabled switch, and be accessible', async () => {
    const { el, panel } = await agentsPanel();
    const assistant = await card(panel, 'Assistant');
    expect(assistant.querySelector('.badge')!.textContent).to.equal('User-facing');
    const toggle = assistant.querySelector<HTMLInputElement>('[role=switch]')!;
    // The list answers `enabled: 1`: the switch reads it as on.
    expect(toggle.checked).to.equal(true);
    expect(toggle.getAttribute('aria-label')).to.equal('Enabled: Assistant');
    await expect(el).to.be.accessible();
    // The type in the admin's language, in the list and in the new agent's select.
    el.lang = 'de';
    await until(() => assistant.querySelector('.badge')!.textContent === 'Für Besucher');
    const options = [...deepAll(panel, 'select[name=type] option')];
    expect(options.map((o) => o.textContent)).to.deep.equal([
      'Für Besucher',
      'Hintergrund',
      'Übergabe an Menschen',
      'Vorgefertigt',
      'Spam-Abwehr',
    ]);
    expect(options.map((o) => (o as HTMLOptionElement).value)).to.include('user-facing');
    el.lang = '';
  });

  it('should adapt the create form to the agent type', async () => {
    const { panel } = await agentsPanel();
    const form = await until(() => deep<HTMLFormElement>(panel, 'form[aria-labelledby=new-agent]'));
    const select = form.querySelector<HTMLSelectElement>('select[name=type]')!;
    const expected: Record<string, string[]> = {
      'user-facing': ['model', 'temperature', 'bias', 'stickness', 'use_all_sources'],
      background: ['model'],
      'human-escalation': ['bias', 'stickness'],
      'pre-canned': ['bias', 'stickness', 'default_message'],
      'spam-defense': ['bias', 'stickness', 'default_message'],
    };
    const specific = [
      'model',
      'temperature',
      'bias',
      'stickness',
      'default_message',
      'use_all_sources',
    ];
    for (const [agentType, fields] of Object.entries(expected)) {
      select.value = agentType;
      select.dispatchEvent(new Event('change'));
      await (panel as HTMLElement & { updateComplete: Promise<unknown> }).updateComplete;
      const shown = fieldNames(form).filter((n) => specific.includes(n));
      expect(shown, agentType).to.have.members(fields);
      expect(deepText(form).includes('Add tag'), agentType).to.equal(agentType === 'background');
    }
  });

  it('should create an agent of every type, disabled, and enable each with the switch', async () => {
    const { client, bot, panel } = await agentsPanel();
    const form = await until(() => deep<HTMLFormElement>(panel, 'form[aria-labelledby=new-agent]'));
    const types = ['user-facing', 'background', 'human-escalation', 'pre-canned', 'spam-defense'];
    for (const agentType of types) {
      const select = form.querySelector<HTMLSelectElement>('select[name=type]')!;
      select.value = agentType;
      select.dispatchEvent(new Event('change'));
      await (panel as HTMLElement & { updateComplete: Promise<unknown> }).updateComplete;
      type(form.querySelector('input[name=name]')!, `Agent ${agentType}`);
      type(form.querySelector('textarea[name=prompt]')!, `Prompt of ${agentType}`);
      if (agentType === 'user-facing') type(form.querySelector('input[name=temperature]')!, '0.4');
      if (agentType === 'pre-canned')
        type(form.querySelector('textarea[name=default_message]')!, 'Canned');
      if (agentType === 'background') {
        button(form, 'Add tag')!.click();
        await (panel as HTMLElement & { updateComplete: Promise<unknown> }).updateComplete;
        type(form.querySelector('input[name=tag-name]')!, 'Billing');
        type(form.querySelector('input[name=tag-color]')!, '#ff8800');
        type(form.querySelector('input[name=tag-criteria]')!, 'Mentions an invoice');
      }
      button(form, 'Create agent')!.click();
      const created = await card(panel, `Agent ${agentType}`);
      expect(created.querySelector<HTMLInputElement>('[role=switch]')!.checked).to.equal(false);
      expect(form.querySelector<HTMLInputElement>('input[name=name]')!.value).to.equal('');
    }
    const stored = await client.agents.list(bot.uuid);
    const byName = new Map(stored.map((a) => [a.name, a]));
    expect(byName.get('Agent user-facing')!.meta.temperature).to.equal(0.4);
    expect(byName.get('Agent pre-canned')!.meta.default_message).to.equal('Canned');
    expect(byName.get('Agent background')!.meta.tags).to.deep.equal([
      { name: 'Billing', color: '#ff8800', criteria: 'Mentions an invoice' },
    ]);

    for (const agentType of types) {
      const created = await card(panel, `Agent ${agentType}`);
      const toggle = created.querySelector<HTMLInputElement>('[role=switch]')!;
      const saved = oneEvent(panel, 'chatbot-admin-change');
      toggle.click();
      await saved;
      await (panel as HTMLElement & { updateComplete: Promise<unknown> }).updateComplete;
      // The update answers `enabled: true` (a boolean): still shown as on once settled.
      expect(toggle.checked, agentType).to.equal(true);
    }
    const after = await client.agents.list(bot.uuid);
    expect(after.every((a) => a.enabled === 1 || a.enabled === true)).to.equal(true);
  });

  it("should stand a tag row's colour picker and remove button level with its fields", async () => {
    const { panel } = await agentsPanel();
    const form = await until(() => deep<HTMLFormElement>(panel, 'form[aria-labelledby=new-agent]'));
    const select = form.querySelector<HTMLSelectElement>('select[name=type]')!;
    select.value = 'background';
    select.dispatchEvent(new Event('change'));
    await until(() => button(form, 'Add tag'));
    button(form, 'Add tag')!.click();
    const row = await until(() =>
      form.querySelector('[role=group] input[name=tag-color]')?.closest('.row'),
    );
    const bottom = (selector: string) =>
      row!.querySelector(selector)!.getBoundingClientRect().bottom;
    try {
      // Wide enough for the row on one line, as on a laptop.
      await setViewport({ width: 1600, height: 800 });
      await until(() => innerWidth === 1600);
      await new Promise((resolve) => requestAnimationFrame(resolve));
      const field = bottom('input[name=tag-color]');
      expect(bottom('input[name=tag-criteria]'), 'one line').to.be.closeTo(field, 0.5);
      expect(bottom('input[type=color]'), 'the picker').to.be.closeTo(field, 0.5);
      expect(bottom('button'), 'the remove button').to.be.closeTo(field, 0.5);
    } finally {
      await setViewport({ width: 800, height: 600 });
    }
  });

  it("should keep an agent's Enabled switch, Edit and Delete together, on a laptop and a phone", async () => {
    const { panel } = await agentsPanel();
    const assistant = await card(panel, 'Assistant');
    const switchLabel = assistant.querySelector('[role=switch]')!.closest('label')!;
    const [edit, remove] = ['Edit Assistant', 'Delete Assistant'].map(
      (name) => button(assistant, name)!,
    );
    try {
      // A laptop, and the narrowest phone (a dashboard's margins leave a 390 px phone as little).
      for (const width of [1280, 320]) {
        await setViewport({ width, height: 800 });
        await until(() => innerWidth === width);
        await new Promise((resolve) => requestAnimationFrame(resolve));
        // The switch and its word, not the label's box, which may stretch to fill its line.
        const words = document.createRange();
        words.selectNodeContents(switchLabel);
        const label = words.getBoundingClientRect();
        const [editBox, removeBox] = [edit!, remove!].map((e) => e.getBoundingClientRect());
        // One group: side by side on one line, 8 px apart.
        expect(editBox.top, `Edit and Delete at ${width}px`).to.be.closeTo(removeBox.top, 0.5);
        expect(removeBox.left - editBox.right, `at ${width}px`).to.be.closeTo(8, 1);
        expect(editBox.left - label.right, `the switch beside Edit at ${width}px`).to.be.closeTo(
          8,
          1,
        );
        // Its word on Edit's line, not lifted by a field label's bottom margin.
        const middle = (box: DOMRect) => box.top + box.height / 2;
        expect(middle(label), `the switch's word at ${width}px`).to.be.closeTo(middle(editBox), 1);
      }
    } finally {
      await setViewport({ width: 800, height: 600 });
    }
  });

  it("should keep an agent's Edit and Delete side by side in German on a phone, the switch above them if need be", async () => {
    const { el, panel } = await agentsPanel();
    el.lang = 'de';
    const assistant = await card(panel, 'Assistant');
    await until(
      () => assistant.querySelector('.controls button')?.textContent?.trim() === 'Bearbeiten',
    );
    try {
      // A dashboard's margins leave a 390 px phone's card as little as the narrowest phone's.
      await setViewport({ width: 320, height: 800 });
      await until(() => innerWidth === 320);
      await new Promise((resolve) => requestAnimationFrame(resolve));
      const [edit, remove] = [...assistant.querySelectorAll<HTMLElement>('.controls button')];
      expect(edit!.textContent!.trim()).to.equal('Bearbeiten');
      expect(remove!.textContent!.trim()).to.equal('Löschen');
      const [editBox, removeBox] = [edit!, remove!].map((e) => e.getBoundingClientRect());
      expect(editBox.top, 'Bearbeiten and Löschen on one line').to.be.closeTo(removeBox.top, 0.5);
      expect(removeBox.left - editBox.right).to.be.closeTo(8, 1);
    } finally {
      el.lang = '';
      await setViewport({ width: 800, height: 600 });
    }
  });

  it("should line up the new agent's name and type, labels and fields", async () => {
    const { panel } = await agentsPanel();
    const form = await until(() => deep<HTMLFormElement>(panel, 'form[aria-labelledby=new-agent]'));
    const controls = ['input[name=name]', 'select[name=type]'].map(
      (selector) => form.querySelector<HTMLElement>(selector)!,
    );
    try {
      // Wide enough for the two side by side, as on a laptop.
      await setViewport({ width: 1280, height: 800 });
      await until(() => innerWidth === 1280);
      await new Promise((resolve) => requestAnimationFrame(resolve));
      const [name, kind] = controls.map((control) => control.getBoundingClientRect());
      const [nameLabel, kindLabel] = controls.map((c) =>
        c.closest('label')!.getBoundingClientRect(),
      );
      expect(kind!.left, 'side by side').to.be.greaterThan(name!.right);
      expect(kind!.top, 'the tops').to.be.closeTo(name!.top, 0.5);
      expect(kind!.bottom, 'the bottoms').to.be.closeTo(name!.bottom, 0.5);
      expect(kindLabel!.top, 'the labels').to.be.closeTo(nameLabel!.top, 0.5);
    } finally {
      await setViewport({ width: 800, height: 600 });
    }
  });

  it('should say a new agent starts disabled, and enable it once created when asked', async () => {
    let refuseUpdates = false;
    const client = await apiClient((input, init) => {
      const url = input instanceof Request ? input.url : String(input);
      return refuseUpdates && url.endsWith('/update')
        ? Promise.resolve(
            Response.json({ error: 'server_error', message: 'Try again' }, { status: 503 }),
          )
        : fetch(input, init);
    });
    const bot = await newChatbot(client);
    const el = await mountAdmin(client, bot, 'agents');
    const panel = await until(() => deep(el, 'chatbot-admin-agents'));
    const form = await until(() => deep<HTMLFormElement>(panel, 'form[aria-labelledby=new-agent]'));
    const enable = form.querySelector<HTMLInputElement>('input[name=enable]')!;
    expect(enable.checked).to.equal(false);
    const help = form.querySelector(`#${enable.getAttribute('aria-describedby')}`)!;
    expect(help.textContent).to.contain('starts disabled');

    enable.click();
    type(form.querySelector('input[name=name]')!, 'Greeter');
    button(form, 'Create agent')!.click();
    const greeter = await card(panel, 'Greeter');
    const switchOf = (row: Element) => row.querySelector<HTMLInputElement>('[role=switch]')!;
    await until(() => switchOf(greeter).checked);
    await until(async () => {
      const [stored] = (await client.agents.list(bot.uuid)).filter((a) => a.name === 'Greeter');
      return stored?.enabled === 1;
    });
    // The choice stays for the next agent; a refused enable leaves it off, saying why.
    expect(enable.checked).to.equal(true);
    refuseUpdates = true;
    type(form.querySelector('input[name=name]')!, 'Helper');
    button(form, 'Create agent')!.click();
    const helper = await card(panel, 'Helper');
    const alert = await until(() => helper.querySelector('[role=alert]'));
    expect(alert.textContent).to.contain('503');
    expect(switchOf(helper).checked).to.equal(false);
    await expect(el).to.be.accessible();
  });

  it('should roll the enabled switch back and say why when the update fails', async () => {
    const { client, bot, panel } = await agentsPanel();
    const agent = await client.agents.create(bot.uuid, { name: 'Vanishing', type: 'background' });
    (panel as HTMLElement & { refresh(): void }).refresh();
    const row = await card(panel, 'Vanishing');
    await client.agents.delete(agent.uuid);
    const toggle = row.querySelector<HTMLInputElement>('[role=switch]')!;
    toggle.click();
    const alert = await until(() => row.querySelector('[role=alert]'));
    expect(alert.textContent).to.contain('404');
    expect(toggle.checked).to.equal(false);
  });

  it('should keep the create form as typed when creating fails', async () => {
    const { client, bot, panel } = await agentsPanel();
    const form = await until(() => deep<HTMLFormElement>(panel, 'form[aria-labelledby=new-agent]'));
    await client.chatbots.delete(bot.uuid);
    type(form.querySelector('input[name=name]')!, 'Never stored');
    type(form.querySelector('textarea[name=prompt]')!, 'A long prompt the user typed');
    button(form, 'Create agent')!.click();
    await until(() => form.querySelector('[role=alert]'));
    expect(form.querySelector<HTMLInputElement>('input[name=name]')!.value).to.equal(
      'Never stored',
    );
    expect(form.querySelector<HTMLTextAreaElement>('textarea[name=prompt]')!.value).to.equal(
      'A long prompt the user typed',
    );
  });

  it('should say beside every field what is wrong with it, all at once, and focus the first', async () => {
    const { client, bot, el, panel } = await agentsPanel();
    const form = await until(() => deep<HTMLFormElement>(panel, 'form[aria-labelledby=new-agent]'));
    const field = (name: string) => form.querySelector<HTMLInputElement>(`[name=${name}]`)!;
    const message = (name: string) => {
      const id = field(name).getAttribute('aria-describedby');
      return id ? panel.shadowRoot!.getElementById(id)?.textContent?.trim() : undefined;
    };
    const before = (await client.agents.list(bot.uuid)).length;
    type(field('temperature'), '1.5');
    type(field('bias'), '-0.2');
    type(field('stickness'), '-0.2');
    // A value typed wrong is said at once; a name not typed yet only once refused.
    await until(() => message('stickness'));
    expect(message('temperature')).to.equal('Temperature (0–1) must be a number between 0 and 1.');
    expect(message('bias')).to.equal('Bias (0–1) must be a number between 0 and 1.');
    expect(message('stickness')).to.equal('Stickiness (0–1) must be a number between 0 and 1.');
    expect(field('name').getAttribute('aria-invalid')).to.equal('false');

    button(form, 'Create agent')!.click();
    await until(() => field('name').getAttribute('aria-invalid') === 'true');
    expect(message('name')).to.equal('Name is required.');
    for (const name of ['temperature', 'bias', 'stickness']) {
      expect(field(name).getAttribute('aria-invalid'), name).to.equal('true');
    }
    expect(panel.shadowRoot!.activeElement === field('name')).to.equal(true);
    await expect(el).to.be.accessible();

    type(field('name'), 'Ranged');
    type(field('bias'), '0.2');
    await until(() => message('bias') === undefined);
    expect(message('name')).to.equal(undefined);
    button(form, 'Create agent')!.click();
    await until(() => panel.shadowRoot!.activeElement === field('temperature'));
    expect(field('stickness').value).to.equal('-0.2');
    expect((await client.agents.list(bot.uuid)).length).to.equal(before);

    type(field('temperature'), '0.5');
    type(field('stickness'), '0');
    button(form, 'Create agent')!.click();
    await card(panel, 'Ranged');
    expect(form.querySelectorAll('[aria-invalid=true]').length).to.equal(0);
  });

  it("should say beside the edit form's temperature what it must be", async () => {
    const { client, bot, panel } = await agentsPanel();
    await client.agents.create(bot.uuid, { name: 'Warm', type: 'user-facing' });
    (panel as HTMLElement & { refresh(): void }).refresh();
    const article = await card(panel, 'Warm');
    button(article, 'Edit Warm')!.click();
    const temperature = await until(() =>
      article.querySelector<HTMLInputElement>('form [name=temperature]'),
    );
    type(temperature, '2');
    button(article, 'Save')!.click();
    await until(() => panel.shadowRoot!.activeElement === temperature);
    const id = temperature.getAttribute('aria-describedby')!;
    expect(panel.shadowRoot!.getElementById(id)?.textContent?.trim()).to.equal(
      'Temperature (0–1) must be a number between 0 and 1.',
    );
  });

  it('should keep a temperature the browser cannot read as typed, and say so instead of saving without it', async () => {
    const { client, bot, panel } = await agentsPanel();
    const created = await client.agents.create(bot.uuid, {
      name: 'Typed',
      type: 'user-facing',
      temperature: 0.3,
    });
    (panel as HTMLElement & { refresh(): void }).refresh();
    const article = await card(panel, 'Typed');
    button(article, 'Edit Typed')!.click();
    const temperature = await until(() =>
      article.querySelector<HTMLInputElement>('form [name=temperature]'),
    );
    // A number field reads "1e" as empty, which saved the agent without its temperature.
    type(temperature, '1e');
    button(article, 'Save')!.click();
    await until(() => panel.shadowRoot!.activeElement === temperature);
    expect(temperature.value).to.equal('1e');
    expect(temperature.getAttribute('aria-invalid')).to.equal('true');
    const listed = async () =>
      (await client.agents.list(bot.uuid)).find((a) => a.uuid === created.uuid)!;
    expect((await listed()).meta?.temperature).to.equal(0.3);

    // A decimal comma, as German keyboards write it, is the same number.
    type(temperature, '0,5');
    button(article, 'Save')!.click();
    await until(async () => (await listed()).meta?.temperature === 0.5);
  });

  it('should write right-to-left text right to left in every text field of the agent forms', async () => {
    const { panel } = await agentsPanel();
    const article = await card(panel, 'Assistant');
    button(article, 'Edit Assistant')!.click();
    const edit = await until(() => article.querySelector('form'));
    const create = await until(() =>
      deep<HTMLFormElement>(panel, 'form[aria-labelledby=new-agent]'),
    );
    const fields = [
      ...edit.querySelectorAll<HTMLInputElement>('[name=name], [name=description], [name=prompt]'),
      ...create.querySelectorAll<HTMLInputElement>(
        '[name=name], [name=description], [name=prompt]',
      ),
    ];
    expect(fields.length).to.equal(6);
    for (const field of fields) type(field, 'مساعد المتجر');
    await until(() => fields.every((f) => f.matches(':dir(rtl)')));
    // A model name is an identifier: it keeps the page's direction.
    const model = edit.querySelector<HTMLInputElement>('[name=model]')!;
    type(model, 'مساعد');
    expect(model.matches(':dir(ltr)')).to.equal(true);
    // Both names are required, as a screen reader announces them.
    const names = [edit, create].map((f) => f.querySelector<HTMLInputElement>('[name=name]')!);
    expect(names.map((n) => n.required)).to.deep.equal([true, true]);
  });

  it('should edit name, prompt, model, variables and the sources an agent answers from', async () => {
    const { client, bot, panel } = await agentsPanel();
    const source = await client.sources.createQa(bot.uuid, {
      question: 'Opening hours?',
      answer: 'Nine to five.',
    });
    (panel as HTMLElement & { refresh(): void }).refresh();
    const row = await card(panel, 'Assistant');
    button(row, 'Edit Assistant')!.click();
    const form = await until(() => row.querySelector('form'));
    type(form.querySelector('input[name=name]')!, 'Front desk');
    type(form.querySelector('textarea[name=prompt]')!, 'Line one\nLine <two>');
    type(form.querySelector('input[name=model]')!, 'small');
    button(form, 'Add variable')!.click();
    await until(() => form.querySelector('input[name=variable-name]'));
    type(form.querySelector('input[name=variable-name]')!, 'customer_name');
    type(form.querySelector('input[name=variable-description]')!, 'Who is asking');
    type(form.querySelector('input[name=variable-example]')!, 'Ada');
    type(form.querySelector('input[name=variable-default]')!, 'friend');
    const sourceBox = await until(() =>
      [...form.querySelectorAll<HTMLInputElement>('input[name=data-source]')].find((b) =>
        b.parentElement?.textContent?.includes('Opening hours?'),
      ),
    );
    sourceBox.click();
    button(form, 'Save')!.click();
    await until(() => form.querySelector('.ok')?.textContent?.includes('Saved'));
    const [stored] = (await client.agents.list(bot.uuid)).filter((a) => a.name === 'Front desk');
    expect(stored!.prompt).to.equal('Line one\nLine <two>');
    expect(stored!.meta.model).to.equal('small');
    expect(stored!.data_source_uuids).to.deep.equal([source.uuid]);
    const updated = await client.agents.update(stored!.uuid, {});
    expect(updated.variables).to.deep.equal([
      {
        name: 'customer_name',
        description: 'Who is asking',
        example: 'Ada',
        type: 'string',
        default_value: { content: 'friend', static: 0 },
      },
    ]);
    expect(row.querySelector('h3')!.textContent).to.equal('Front desk');
  });

  it('should say variables are unknown for an agent known only from the list, not that it has none', async () => {
    const { panel } = await agentsPanel();
    const row = await card(panel, 'Assistant');
    button(row, 'Edit Assistant')!.click();
    const form = await until(() => row.querySelector('form'));
    const legend = [...form.querySelectorAll('legend')].find((l) => l.textContent === 'Variables')!;
    const text = legend.parentElement!.textContent ?? '';
    expect(text).to.include('cannot be shown');
    expect(text).to.include('replace them when you save');
    expect(text).not.to.include('No variables.');
  });

  it('should edit the human-escalation settings of a human-escalation agent', async () => {
    const { client, bot, panel } = await agentsPanel();
    await client.agents.create(bot.uuid, { name: 'Humans', type: 'human-escalation' });
    (panel as HTMLElement & { refresh(): void }).refresh();
    const row = await card(panel, 'Humans');
    button(row, 'Edit Humans')!.click();
    const form = await until(() => row.querySelector('form'));
    expect(deepText(form)).to.contain('Human escalation');
    const [requested] = form.querySelectorAll(
      'fieldset textarea',
    ) as NodeListOf<HTMLTextAreaElement>;
    type(requested!, 'A person is on the way.');
    const notify = [...form.querySelectorAll<HTMLInputElement>('input[type=checkbox]')].find((b) =>
      b.parentElement?.textContent?.includes('Notifications'),
    )!;
    notify.click();
    button(form, 'Save')!.click();
    await until(() => form.querySelector('.ok')?.textContent?.includes('Saved'));
    const stored = (await client.agents.list(bot.uuid)).find((a) => a.name === 'Humans')!;
    expect(stored.human_escalation_settings!.human_requested_message).to.equal(
      'A person is on the way.',
    );
    expect(stored.human_escalation_settings!.notifications_enabled).to.equal(1);
  });

  it('should show tool functions with name, method, URL and parameter schema', async () => {
    // The reference server has no endpoint that creates tool functions: this list is a stand-in.
    const client = await apiClient();
    const bot = await newChatbot(client);
    const tool: ToolFunction = {
      uuid: 't1',
      name: 'lookup_order',
      description: 'Finds an order',
      enabled: 1,
      external_url: 'https://shop.example/api/orders',
      method: 'POST',
      headers: {},
      meta: {},
      parameters: {
        type: 'object',
        properties: { order_id: { type: 'string', description: 'The <order> number' } },
        required: ['order_id'],
      },
      created_at: '2026-11-22T10:00:00Z',
      modified_at: '2026-11-22T10:00:00Z',
    };
    const real = client.agents.list;
    const withTools = {
      ...client,
      agents: {
        ...client.agents,
        list: async (uuid: string) =>
          (await real(uuid)).map((a: Agent) => ({ ...a, tool_functions: [tool] })),
      },
    };
    const el = await mountAdmin(withTools, bot, 'agents');
    const panel = await until(() => deep(el, 'chatbot-admin-agents'));
    const row = await card(panel, 'Assistant');
    const text = deepText(row);
    for (const part of [
      'lookup_order',
      'POST',
      'https://shop.example/api/orders',
      'order_id',
      'The <order> number',
      'required',
    ]) {
      expect(text).to.contain(part);
    }
    // The name and its two badges on one line: a line break of the template's own once showed
    // in the heading, which keeps the white space of the name it holds.
    row.querySelector('details')!.open = true;
    const heading = row.querySelector('details h4')!;
    const tops = [...heading.querySelectorAll('.badge')].map((b) => b.getBoundingClientRect().top);
    expect(tops).to.have.length(2);
    expect(tops[1]).to.be.closeTo(tops[0]!, 1);
    await expect(el).to.be.accessible();
  });

  it('should not bring a deleted agent back when a list asked for before the delete answers after it', async () => {
    const { client, hold, release } = await slowListClient('/agents');
    const bot = await newChatbot(client);
    const el = await mountAdmin(client, bot, 'agents');
    const panel = await until(() => deep(el, 'chatbot-admin-agents'));
    const row = await card(panel, 'Assistant');
    const held = hold();
    (panel as HTMLElement & { refresh(): void }).refresh();
    await held;
    button(row, 'Delete Assistant')!.click();
    await confirmDialog(panel);
    await until(() => !deepAll(panel, 'article h3').some((h) => h.textContent === 'Assistant'));

    release();
    await loaded(panel, 'agentsTask');
    expect(deepAll(panel, 'article h3').map((h) => h.textContent)).to.deep.equal([]);
    expect(deepText(panel)).to.contain('No agents yet.');
  });

  it('should name the agent in its German Delete button as sources and tags do', async () => {
    const { el, panel } = await agentsPanel();
    el.lang = 'de';
    const article = await card(panel, 'Assistant');
    await until(() => button(article, 'Assistant löschen'));
    expect(button(article, 'Assistant löschen')!.textContent!.trim()).to.equal('Löschen');
  });

  it('should delete an agent after a confirmation that names it', async () => {
    const { client, bot, panel } = await agentsPanel();
    const row = await card(panel, 'Assistant');
    button(row, 'Delete Assistant')!.click();
    expect(await confirmDialog(panel)).to.contain('Assistant');
    await until(() => !deepAll(panel, 'article h3').some((h) => h.textContent === 'Assistant'));
    expect(await client.agents.list(bot.uuid)).to.deep.equal([]);
  });

  it('should say beside each text field that it is longer than the server takes, before sending anything', async () => {
    const { client, bot, el, panel } = await agentsPanel();
    const article = await card(panel, 'Assistant');
    button(article, 'Edit Assistant')!.click();
    const form = await until(() => article.querySelector<HTMLFormElement>('form'));
    const field = (name: string) => form.querySelector<HTMLInputElement>(`[name=${name}]`)!;
    const message = (name: string) => {
      const id = field(name).getAttribute('aria-describedby');
      return id ? panel.shadowRoot!.getElementById(id)?.textContent?.trim() : undefined;
    };
    type(field('name'), 'n'.repeat(301));
    type(field('description'), 'd'.repeat(10_001));
    type(field('prompt'), 'p'.repeat(100_001));
    // Said at once, as a number out of range is.
    await until(() => message('name'));
    expect(message('name')).to.equal('At most 200 characters; this has 301.');
    expect(message('description')).to.equal('At most 10,000 characters; this has 10,001.');
    expect(message('prompt')).to.equal('At most 100,000 characters; this has 100,001.');
    for (const name of ['name', 'description', 'prompt']) {
      expect(field(name).getAttribute('aria-invalid'), name).to.equal('true');
    }
    const save = button(form, 'Save')!;
    save.focus();
    save.click();
    await until(() => panel.shadowRoot!.activeElement === field('name'));
    expect(form.querySelector('[role=alert]')).to.equal(null);
    expect((await client.agents.list(bot.uuid)).map((a) => a.name)).to.deep.equal(['Assistant']);
    await expect(el).to.be.accessible();

    el.lang = 'de';
    await until(() => message('name') === 'Höchstens 200 Zeichen; hier sind es 301.');
    expect(message('prompt')).to.equal('Höchstens 100.000 Zeichen; hier sind es 100.001.');
    type(field('name'), 'n'.repeat(200));
    type(field('description'), '');
    type(field('prompt'), 'Short.');
    await until(() => form.querySelectorAll('[aria-invalid=true]').length === 0);
  });

  it('should say beside the new agent’s name, prompt and default message when they are too long', async () => {
    const { client, bot, panel } = await agentsPanel();
    const form = await until(() => deep<HTMLFormElement>(panel, 'form[aria-labelledby=new-agent]'));
    const select = form.querySelector<HTMLSelectElement>('select[name=type]')!;
    select.value = 'pre-canned';
    select.dispatchEvent(new Event('change'));
    await until(() => form.querySelector('[name=default_message]'));
    const field = (name: string) => form.querySelector<HTMLInputElement>(`[name=${name}]`)!;
    type(field('name'), `  ${'n'.repeat(200)}  `);
    type(field('default_message'), 'm'.repeat(10_001));
    await until(() => field('default_message').getAttribute('aria-invalid') === 'true');
    // The name is sent trimmed: 200 characters are enough.
    expect(field('name').getAttribute('aria-invalid')).to.equal('false');
    button(form, 'Create agent')!.click();
    await until(() => panel.shadowRoot!.activeElement === field('default_message'));
    expect((await client.agents.list(bot.uuid)).length).to.equal(1);
  });

  it('should keep focus on the switch, Save and Create agent while they work, refused or not', async () => {
    const { client, bot, panel } = await agentsPanel();
    const active = () => panel.shadowRoot!.activeElement;
    const article = await card(panel, 'Assistant');
    const toggle = article.querySelector<HTMLInputElement>('[role=switch]')!;
    toggle.focus();
    const switched = oneEvent(panel, 'chatbot-admin-change');
    toggle.click();
    await switched;
    await (panel as HTMLElement & { updateComplete: Promise<unknown> }).updateComplete;
    expect(active() === toggle).to.equal(true);

    button(article, 'Edit Assistant')!.click();
    const form = await until(() => article.querySelector<HTMLFormElement>('form'));
    const save = button(form, 'Save')!;
    save.focus();
    save.click();
    await until(() => form.querySelector('[role=status]')?.textContent === 'Saved.');
    await (panel as HTMLElement & { updateComplete: Promise<unknown> }).updateComplete;
    expect(active() === save).to.equal(true);

    const [assistant] = await client.agents.list(bot.uuid);
    await client.agents.delete(assistant!.uuid);
    save.click();
    await until(() => form.querySelector('[role=alert]'));
    expect(active() === save).to.equal(true);

    const create = await until(() =>
      deep<HTMLFormElement>(panel, 'form[aria-labelledby=new-agent]'),
    );
    type(create.querySelector('input[name=name]')!, 'Made by keyboard');
    const submit = button(create, 'Create agent')!;
    submit.focus();
    submit.click();
    await card(panel, 'Made by keyboard');
    await (panel as HTMLElement & { updateComplete: Promise<unknown> }).updateComplete;
    expect(active() === submit).to.equal(true);
  });

  it("should move focus to the next agent's Delete after a delete, the previous one's after the last, then to New agent", async () => {
    const { client, bot, panel } = await agentsPanel();
    await client.agents.create(bot.uuid, { name: 'Alpha', type: 'background' });
    await client.agents.create(bot.uuid, { name: 'Beta', type: 'background' });
    (panel as HTMLElement & { refresh(): void }).refresh();
    await card(panel, 'Beta');
    const active = () => panel.shadowRoot!.activeElement;
    const remove = async (name: string) => {
      const control = button(await card(panel, name), `Delete ${name}`)!;
      control.focus();
      control.click();
      await confirmDialog(panel);
      await until(() => !deepAll(panel, 'article h3').some((h) => h.textContent === name));
    };
    await remove('Alpha');
    await until(() => active()?.getAttribute('aria-label') === 'Delete Beta');
    await remove('Beta');
    await until(() => active()?.getAttribute('aria-label') === 'Delete Assistant');
    (active() as HTMLButtonElement).click();
    await confirmDialog(panel);
    await until(() => active()?.id === 'new-agent');
  });
});
