import { expect } from '@open-wc/testing';
import {
  capturedConsole,
  listRequests,
  mountConversations,
  QUESTIONS,
  recordingClient,
  seedConversations,
} from './conversations-helpers.js';
import { deep, deepAll, deepText, until } from './helpers.js';

/** A server without the review routes, as the hosted service answers them. */
const without = (status: number) => (url: string, response: Response) =>
  new URL(url).pathname.endsWith('/conversations')
    ? new Response(JSON.stringify({ error: { code: 'not_found', message: 'Not Found' } }), {
        status,
        headers: { 'Content-Type': 'application/json' },
      })
    : response;

describe('<chatbot-admin> conversations without the review routes', () => {
  const logged = capturedConsole();

  afterEach(() => history.replaceState(null, '', location.pathname + location.search));

  for (const status of [404, 405]) {
    it(`should fall back to the session list after a ${status}, without search, filters or export, and say nothing in the console`, async () => {
      const { bot } = await seedConversations();
      const { client, urls } = await recordingClient(without(status));
      const { el, panel } = await mountConversations(client, bot);
      const rows = await until(() => {
        const found = deepAll(panel, '.tbody [role=row]');
        return found.length === 3 && found;
      });
      for (const row of rows) {
        expect(row.querySelector('.title')!.textContent).to.match(/^Session started /);
        expect(row.querySelector('.num')!.textContent).to.equal('—');
        expect(row.querySelector('button')!.ariaLabel).to.match(/^Open session started /);
      }
      expect(deep(panel, 'input[type=search]')).to.equal(null);
      expect(deep(panel, 'select[name=rating]')).to.equal(null);
      expect(deep(panel, 'input[type=date]')).to.equal(null);
      expect(deep(panel, '.export')).to.equal(null);
      expect(deep(panel, '[role=alert]')).to.equal(null);
      // Insights is one of the same routes: its tab goes too, before anyone opens it.
      expect(deepAll(el, '[role=tab]').map((t) => t.id)).to.not.include('tab-insights');
      await expect(el).to.be.accessible();

      // The transcript comes from the session's own messages, as before the review routes.
      rows[0]!.querySelector('button')!.click();
      const transcript = await until(() => deep(panel, '[part=transcript] article'));
      expect(Object.values(QUESTIONS)).to.include(transcript.ariaLabel);

      // Once missing, the route is not asked again.
      (panel as HTMLElement & { refresh(): void }).refresh();
      await until(() => deepText(panel).includes('3 shown'));
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(listRequests(urls)).to.have.length(1);
      expect(logged).to.deep.equal([]);
    });
  }
});
