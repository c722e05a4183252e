import { expect } from '@open-wc/testing';
import {
  apiClient,
  button,
  deep,
  deepAll,
  deepText,
  mountAdmin,
  newChatbot,
  type,
  until,
} from './helpers.js';

describe('<chatbot-admin> settings: allowed origins', () => {
  afterEach(() => history.replaceState(null, '', location.pathname + location.search));

  /** The Settings tab of a new chatbot, which lists `origins` already. */
  async function settingsOf(origins: string[] = []) {
    const client = await apiClient();
    const bot = await newChatbot(client);
    if (origins.length > 0) await client.chatbots.update(bot.uuid, { allowed_origins: origins });
    const el = await mountAdmin(client, bot, 'settings');
    const panel = await until(() => deep(el, 'chatbot-admin-settings'));
    const form = await until(() => deep<HTMLFormElement>(panel, 'form'));
    const field = form.querySelector<HTMLTextAreaElement>('textarea[name=allowed-origins]')!;
    return { client, bot, el, panel, form, field };
  }

  /** What a screen reader reads with `field`: the text of each element describing it. */
  const described = (panel: Element, field: Element) =>
    (field.getAttribute('aria-describedby') ?? '')
      .split(/\s+/)
      .map((id) => panel.shadowRoot!.getElementById(id)?.textContent ?? '')
      .join(' ');

  /** How many times `text` is shown in `panel`. */
  const times = (panel: Element, text: string) => deepText(panel).split(text).length - 1;

  it('should show an empty list, explained, for a chatbot that allows any origin', async () => {
    const { panel, field } = await settingsOf();
    expect(field.value).to.equal('');
    expect(field.getAttribute('aria-invalid')).to.equal('false');
    const help = deep(panel, `#${field.getAttribute('aria-describedby')}`)!;
    expect(help.textContent).to.contain('One per line');
  });

  it('should name the line that is not an origin beside the field, refuse to save, and keep the typed text', async () => {
    const { client, bot, panel, field } = await settingsOf();
    const typed = 'https://shop.example\nshop.example/checkout\n';
    type(field, typed);
    const error = await until(() => deep(panel, '#origins-error'));
    expect(error.textContent).to.contain('Line 2');
    expect(error.textContent).to.contain('shop.example/checkout');
    expect(field.getAttribute('aria-invalid')).to.equal('true');
    expect(field.getAttribute('aria-describedby')).to.contain('origins-error');

    button(panel, 'Save')!.click();
    await until(() => panel.shadowRoot!.activeElement === field);
    expect(described(panel, field)).to.contain('Line 2');
    expect(field.value).to.equal(typed);
    expect((await client.chatbots.get(bot.uuid)).meta.allowed_origins).to.equal(undefined);
  });

  it('should name every line that is not an origin, and the origin a line with a path holds', async () => {
    const { client, bot, panel, field } = await settingsOf();
    const typed = 'https://shop.example\nnot a url\nhttps://ok.example/path\nhttps://*.example';
    type(field, typed);
    const error = await until(() => deep(panel, '#origins-error'));
    const items = [...error.querySelectorAll('li')].map((li) => li.textContent?.trim());
    expect(error.textContent).to.contain('3 lines are not origins');
    expect(items).to.have.length(3);
    expect(items[0]).to.contain('Line 2').and.contain('not a url');
    expect(items[1]).to.equal(
      'Line 3: “https://ok.example/path” is more than an origin. Write only https://ok.example.',
    );
    // A wildcard matches no site: origins are compared as text.
    expect(items[2]).to.contain('Line 4').and.contain('is not an origin');
    expect(field.getAttribute('aria-describedby')).to.contain('origins-error');

    button(panel, 'Save')!.click();
    await until(() => panel.shadowRoot!.activeElement === field);
    expect(described(panel, field)).to.contain('Line 2').and.contain('Line 3');
    expect(field.value).to.equal(typed);
    expect((await client.chatbots.get(bot.uuid)).meta.allowed_origins).to.equal(undefined);
  });

  it('should say the lines that are not origins once, beside the field, and nothing once it is corrected', async () => {
    const { client, bot, panel, field } = await settingsOf();
    type(field, 'https://shop.example/path\nnope');
    await until(() => deep(panel, '#origins-error'));
    button(panel, 'Save')!.click();
    // Refused: focus goes to the field, read with its problems; they are not said again.
    await until(() => panel.shadowRoot!.activeElement === field);
    expect(described(panel, field)).to.contain('Line 1').and.contain('Line 2');
    expect(times(panel, 'Line 1:'), 'Line 1 shown').to.equal(1);
    expect(times(panel, 'Line 2:'), 'Line 2 shown').to.equal(1);

    type(field, 'https://shop.example');
    await until(() => field.getAttribute('aria-invalid') === 'false');
    expect(deepAll(panel, '.error').map((e) => e.textContent?.trim())).to.deep.equal([]);
    expect(deepText(panel)).not.to.contain('Line ');
    expect((await client.chatbots.get(bot.uuid)).meta.allowed_origins).to.equal(undefined);
  });

  it('should save the list to the server, show it as the server keeps it, and clear it again', async () => {
    const { client, bot, el, panel, field } = await settingsOf();
    type(field, 'HTTPS://Shop.Example\n\n  http://localhost:8080  \n');
    await until(() => !deep(panel, '#origins-error'));
    button(panel, 'Save')!.click();
    await until(() => deep(panel, '.ok')?.textContent?.includes('Saved'));
    const saved = await client.chatbots.get(bot.uuid);
    expect(saved.meta.allowed_origins).to.deep.equal([
      'https://shop.example',
      'http://localhost:8080',
    ]);
    // The record the admin reloads after saving: origins as browsers send them.
    await until(() => field.value === 'https://shop.example\nhttp://localhost:8080');
    await expect(el).to.be.accessible();

    type(field, '');
    button(panel, 'Save')!.click();
    await until(
      async () => (await client.chatbots.get(bot.uuid)).meta.allowed_origins === undefined,
    );
  });

  it('should leave the list alone when other settings are saved', async () => {
    const { client, bot, panel, form, field } = await settingsOf(['https://shop.example']);
    await until(() => field.value === 'https://shop.example');
    type(form.querySelector<HTMLInputElement>('input[name=name]')!, 'Renamed with origins');
    button(panel, 'Save')!.click();
    await until(() => deep(panel, '.ok')?.textContent?.includes('Saved'));
    const saved = await client.chatbots.get(bot.uuid);
    expect(saved.name).to.equal('Renamed with origins');
    expect(saved.meta.allowed_origins).to.deep.equal(['https://shop.example']);
  });
});
