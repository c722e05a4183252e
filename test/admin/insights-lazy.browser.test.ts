import { expect } from '@open-wc/testing';
import { apiClient, deep, mountAdmin, newChatbot, until } from './helpers.js';

/** Whether the page has fetched the Insights panel's module (the dev server serves it as is). */
const fetched = () =>
  performance
    .getEntriesByType('resource')
    .some((entry) => entry.name.includes('/src/admin/insights-panel.'));

// A file of its own: once any test has opened the tab, the module stays loaded for the page.
describe('<chatbot-admin> insights loading', () => {
  afterEach(() => history.replaceState(null, '', location.pathname + location.search));

  it('should fetch the Insights panel only when its tab first opens', async () => {
    const client = await apiClient();
    const bot = await newChatbot(client);
    const el = await mountAdmin(client, bot, 'sessions');
    expect(deep(el, '#tab-insights')).to.not.equal(null);
    expect(customElements.get('chatbot-admin-insights')).to.equal(undefined);
    expect(fetched()).to.equal(false);

    deep<HTMLButtonElement>(el, '#tab-insights')!.click();
    await until(() => customElements.get('chatbot-admin-insights'));
    expect(fetched()).to.equal(true);
    const panel = await until(() => deep(el, '#panel-insights chatbot-admin-insights'));
    await until(() => deep(panel, 'dl.stats'));
    await expect(el).to.be.accessible();
  });
});
