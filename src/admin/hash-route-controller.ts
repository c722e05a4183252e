import type { ReactiveController, ReactiveControllerHost } from 'lit';
import {
  FILTER_MEMBERS,
  type FilterDraft,
  filtersFromHash,
  filtersToHash,
  NO_FILTERS,
  sameFilters,
} from './conversation-filters.js';
import { ADMIN_TABS, type AdminTab } from './events.js';

/**
 * Where the admin is: the selected chatbot, its tab, the source table's tag filter, and the
 * search and filters of its Conversations.
 */
export interface AdminRoute {
  readonly chatbotUuid: string | null;
  readonly tab: AdminTab;
  /** Uuid of the tag the source table is filtered by, or '' for all. */
  readonly tagFilter: string;
  readonly conversationFilters: FilterDraft;
}

/** An element that may opt out of the hash (`no-hash`). */
export interface HashRouteHost extends ReactiveControllerHost {
  noHash: boolean;
}

/** The hash members the admin writes. */
const OURS = ['chatbot', 'tab', 'tag', ...FILTER_MEMBERS];

const START: AdminRoute = {
  chatbotUuid: null,
  tab: 'agents',
  tagFilter: '',
  conversationFilters: NO_FILTERS,
};

/**
 * The admin's route, kept in `location.hash` (`chatbot=…&tab=…&tag=…&search=…&rating=…`) so a
 * reload, Back or a shared link opens the same place, its list filtered as it was: read on connection and on every `hashchange` (Back, a link), written
 * on navigation with `replaceState`, so moving between tabs adds no history entries. The host
 * page's own hash members are left as they are, and a hash that is only the page's (an anchor
 * link followed) leaves the route where it was. With `noHash` the route lives only in memory.
 */
export class HashRouteController implements ReactiveController {
  private route: AdminRoute = START;

  constructor(
    private readonly host: HashRouteHost,
    /** Told of a route the hash brought (Back, a link, the page's own script), not of `go()`. */
    private readonly followed: (route: AdminRoute) => void = () => {},
  ) {
    host.addController(this);
  }

  /** The route in effect. */
  get value(): AdminRoute {
    return this.route;
  }

  hostConnected(): void {
    window.addEventListener('hashchange', this.handleHashChange);
    this.read();
  }

  hostDisconnected(): void {
    window.removeEventListener('hashchange', this.handleHashChange);
  }

  /** Moves to `route` and writes it to the hash. */
  go(route: AdminRoute): void {
    this.set(route);
    this.write();
  }

  private readonly handleHashChange = (): void => {
    if (this.host.noHash) return;
    // A hash with none of our members is the page's own (a click on its `<a href="#faq">`), not
    // a way back to no chatbot: stay, and put our members back after it for a reload.
    const params = new URLSearchParams(location.hash.slice(1));
    if (!OURS.some((name) => params.has(name))) {
      this.write();
      return;
    }
    const before = this.route;
    this.read();
    if (this.route !== before) this.followed(this.route);
  };

  private read(): void {
    if (this.host.noHash) return;
    const params = new URLSearchParams(location.hash.slice(1));
    const tab = params.get('tab') as AdminTab | null;
    this.set({
      chatbotUuid: params.get('chatbot') || null,
      tab: tab && ADMIN_TABS.includes(tab) ? tab : 'agents',
      tagFilter: params.get('tag') ?? '',
      conversationFilters: filtersFromHash(params),
    });
  }

  private set(route: AdminRoute): void {
    const { chatbotUuid, tab, tagFilter, conversationFilters } = this.route;
    if (
      route.chatbotUuid === chatbotUuid &&
      route.tab === tab &&
      route.tagFilter === tagFilter &&
      sameFilters(route.conversationFilters, conversationFilters)
    ) {
      return;
    }
    this.route = route;
    this.host.requestUpdate();
  }

  private write(): void {
    if (this.host.noHash) return;
    const { chatbotUuid, tab, tagFilter, conversationFilters } = this.route;
    // The page's own parts of the hash stay as written, byte for byte: an anchor (`#faq`) or a
    // hash router's path (`#!/bots?x=1`) read back through URLSearchParams would be re-encoded.
    const parts = location.hash
      .slice(1)
      .split('&')
      .filter((part) => part && !OURS.includes(part.split('=')[0]!));
    for (const [name, value] of [
      ['chatbot', chatbotUuid],
      // Without a chatbot there is no tab, and the tag filter belongs to that chatbot's tags.
      ['tab', chatbotUuid ? tab : null],
      ['tag', chatbotUuid && tagFilter ? tagFilter : null],
      // Filters belong to that chatbot's conversations too.
      ...(chatbotUuid ? filtersToHash(conversationFilters) : []),
    ] as const) {
      if (value) parts.push(`${name}=${encodeURIComponent(value)}`);
    }
    const hash = parts.join('&');
    if (hash !== location.hash.slice(1)) {
      history.replaceState(
        history.state,
        '',
        `${location.pathname}${location.search}${hash ? `#${hash}` : ''}`,
      );
    }
  }
}
