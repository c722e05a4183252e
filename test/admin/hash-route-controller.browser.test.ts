import { expect } from '@open-wc/testing';
import { NO_FILTERS } from '../../src/admin/conversation-filters.js';
import { HashRouteController } from '../../src/admin/hash-route-controller.js';
import { BareHost } from './bare-host.js';

class RoutedHost extends BareHost {
  noHash = false;
}

function routed(noHash = false) {
  const host = new RoutedHost();
  host.noHash = noHash;
  const route = new HashRouteController(host);
  return { host, route };
}

const setHash = (hash: string) =>
  history.replaceState(null, '', `${location.pathname}${location.search}${hash}`);

describe('HashRouteController', () => {
  afterEach(() => setHash(''));

  it('should start on the agents tab of no chatbot', () => {
    const { route } = routed();
    expect(route.value).to.deep.equal({
      chatbotUuid: null,
      tab: 'agents',
      tagFilter: '',
      conversationFilters: NO_FILTERS,
    });
  });

  it('should read the route from the hash when the host connects', () => {
    setHash('#chatbot=c1&tab=sources&tag=t1');
    const { host, route } = routed();
    host.connect();
    expect(route.value).to.deep.equal({
      chatbotUuid: 'c1',
      tab: 'sources',
      tagFilter: 't1',
      conversationFilters: NO_FILTERS,
    });
    expect(host.updates).to.equal(1);
    host.disconnect();
  });

  it('should fall back to the agents tab for a tab it does not know', () => {
    setHash('#chatbot=c1&tab=nonsense');
    const { host, route } = routed();
    host.connect();
    expect(route.value.tab).to.equal('agents');
    host.disconnect();
  });

  it('should follow hashchange while connected, and stop listening once disconnected', () => {
    const { host, route } = routed();
    host.connect();
    setHash('#chatbot=c2&tab=tags');
    window.dispatchEvent(new HashChangeEvent('hashchange'));
    expect(route.value).to.include({ chatbotUuid: 'c2', tab: 'tags' });
    host.disconnect();
    setHash('#chatbot=c3&tab=sessions');
    window.dispatchEvent(new HashChangeEvent('hashchange'));
    expect(route.value).to.include({ chatbotUuid: 'c2', tab: 'tags' });
  });

  it('should ask for an update only when the route really changes', () => {
    setHash('#chatbot=c1&tab=tags');
    const { host, route } = routed();
    host.connect();
    const before = host.updates;
    // The host page changing its own hash members is not a navigation of ours.
    setHash('#chatbot=c1&tab=tags&page=2');
    window.dispatchEvent(new HashChangeEvent('hashchange'));
    route.go({ chatbotUuid: 'c1', tab: 'tags', tagFilter: '', conversationFilters: NO_FILTERS });
    expect(host.updates).to.equal(before);
    host.disconnect();
  });

  it("should write the route beside the page's own members, without a history entry", () => {
    setHash('#page=2');
    const { host, route } = routed();
    host.connect();
    const entries = history.length;
    route.go({
      chatbotUuid: 'c1',
      tab: 'sources',
      tagFilter: 't9',
      conversationFilters: NO_FILTERS,
    });
    const params = new URLSearchParams(location.hash.slice(1));
    expect(Object.fromEntries(params)).to.deep.equal({
      page: '2',
      chatbot: 'c1',
      tab: 'sources',
      tag: 't9',
    });
    expect(history.length).to.equal(entries);
    route.go({
      chatbotUuid: null,
      tab: 'agents',
      tagFilter: 't9',
      conversationFilters: NO_FILTERS,
    });
    expect(location.hash).to.equal('#page=2');
    host.disconnect();
  });

  it("should leave the page's own anchor or router path in the hash as written", () => {
    for (const own of ['faq', '!/bots?x=1', 'section-2&lang=de%20CH']) {
      setHash(`#${own}`);
      const { host, route } = routed();
      host.connect();
      route.go({
        chatbotUuid: 'c1',
        tab: 'sources',
        tagFilter: '',
        conversationFilters: NO_FILTERS,
      });
      expect(location.hash).to.equal(`#${own}&chatbot=c1&tab=sources`);
      route.go({
        chatbotUuid: null,
        tab: 'agents',
        tagFilter: '',
        conversationFilters: NO_FILTERS,
      });
      expect(location.hash).to.equal(`#${own}`);
      host.disconnect();
    }
  });

  it("should stay where it was when the page's own anchor link replaces the whole hash", async () => {
    setHash('#chatbot=c1&tab=sources&tag=t1');
    const { host, route } = routed();
    host.connect();
    const before = host.updates;
    // A click on the page's <a href="#faq">: the hash is the anchor alone.
    const anchor = Object.assign(document.createElement('a'), { href: '#faq' });
    document.body.append(anchor);
    const followed = new Promise((resolve) =>
      addEventListener('hashchange', resolve, { once: true }),
    );
    anchor.click();
    await followed;
    anchor.remove();
    expect(route.value).to.include({ chatbotUuid: 'c1', tab: 'sources', tagFilter: 't1' });
    expect(host.updates).to.equal(before);
    // Written back after the anchor, so a reload still opens the same place.
    expect(location.hash).to.equal('#faq&chatbot=c1&tab=sources&tag=t1');
    // A hash holding our members is still followed (a shared link, Back).
    setHash('#faq&chatbot=c2&tab=tags');
    window.dispatchEvent(new HashChangeEvent('hashchange'));
    expect(route.value).to.include({ chatbotUuid: 'c2', tab: 'tags', tagFilter: '' });
    host.disconnect();
  });

  it('should read and write the Conversations filters as members of their own', () => {
    setHash('#chatbot=c1&tab=sessions&search=late%20ferry&rating=none&flags=error,not-covered');
    const { host, route } = routed();
    host.connect();
    expect(route.value.conversationFilters).to.deep.equal({
      ...NO_FILTERS,
      q: 'late ferry',
      rating: 'none',
      notCovered: true,
      error: true,
    });
    route.go({
      ...route.value,
      conversationFilters: { ...NO_FILTERS, q: ' a&b=c ', from: '2026-11-01', escalated: true },
    });
    expect(location.hash).to.equal(
      '#chatbot=c1&tab=sessions&search=a%26b%3Dc&from=2026-11-01&flags=escalated',
    );
    // Without a chatbot there is no list to filter.
    route.go({ ...route.value, chatbotUuid: null });
    expect(location.hash).to.equal('');
    host.disconnect();
  });

  it('should keep the route in memory only when the host has no-hash', () => {
    setHash('#chatbot=c1&tab=tags');
    const { host, route } = routed(true);
    host.connect();
    expect(route.value.chatbotUuid).to.equal(null);
    route.go({
      chatbotUuid: 'c5',
      tab: 'settings',
      tagFilter: '',
      conversationFilters: NO_FILTERS,
    });
    expect(route.value).to.include({ chatbotUuid: 'c5', tab: 'settings' });
    expect(location.hash).to.equal('#chatbot=c1&tab=tags');
    host.disconnect();
  });
});
