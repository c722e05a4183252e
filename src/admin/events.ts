import type { DataSource } from '../api/types.js';
import type { FilterDraft } from './conversation-filters.js';

/** What changed on the server, as reported by `chatbot-admin-change`. */
export interface AdminChangeDetail {
  readonly kind: 'chatbot' | 'agent' | 'source' | 'tag' | 'session' | 'message';
  readonly action: 'create' | 'update' | 'delete';
  readonly uuids: readonly string[];
}

/** A failed request, as reported by `chatbot-admin-error`. */
export interface AdminErrorDetail {
  /** What the user was doing, e.g. `agents.update`. */
  readonly operation: string;
  readonly error: unknown;
  /** The text shown to the user. */
  readonly message: string;
}

/** The chatbot and tab on screen, as reported by `chatbot-admin-navigate`. */
export interface AdminNavigateDetail {
  readonly chatbotUuid: string | null;
  readonly tab: AdminTab;
}

export type AdminTab = 'agents' | 'sources' | 'tags' | 'sessions' | 'insights' | 'settings' | 'try';

export const ADMIN_TABS: readonly AdminTab[] = [
  'agents',
  'sources',
  'tags',
  'sessions',
  'insights',
  'settings',
  'try',
];

export type AdminChangeEvent = CustomEvent<AdminChangeDetail>;
export type AdminErrorEvent = CustomEvent<AdminErrorDetail>;
export type AdminNavigateEvent = CustomEvent<AdminNavigateDetail>;

/** (internal) The source table's tag filter changed; `detail` is the tag's uuid, or '' for all. */
export type AdminTagFilterEvent = CustomEvent<string>;
/**
 * (internal) The Conversations tab asked for a list under other filters; `detail` is its
 * controls as set.
 */
export type AdminConversationFilterEvent = CustomEvent<FilterDraft>;
/** (internal) Show the sources of a tag; `detail` is its uuid. */
export type AdminShowTagEvent = CustomEvent<string>;
/** (internal) Sources were created; `detail` is the created records. */
export type AdminSourcesAddedEvent = CustomEvent<readonly DataSource[]>;
/**
 * (internal) The server lacks what a tab shows (its route answered 404 or 405, as the hosted
 * service does for this project's additions); `detail` is the tab, hidden for the element's life.
 */
export type AdminTabUnavailableEvent = CustomEvent<AdminTab>;
/**
 * (internal) "Ask again in Try it": `detail` is the question, which the admin sends from the Try
 * it tab's chat. Composed, as it starts inside a panel's form; the admin stops it there.
 */
export type AdminAskAgainEvent = CustomEvent<string>;

/** The events `<chatbot-admin>` fires, by name: they bubble and leave its shadow root. */
export interface AdminEventMap {
  'chatbot-admin-change': AdminChangeEvent;
  'chatbot-admin-error': AdminErrorEvent;
  'chatbot-admin-navigate': AdminNavigateEvent;
}

declare global {
  interface DocumentEventMap extends AdminEventMap {}
  interface WindowEventMap extends AdminEventMap {}
  interface HTMLElementEventMap extends AdminEventMap {
    // The panels' own events: they bubble to <chatbot-admin> but never leave its shadow root.
    'admin-tag-filter': AdminTagFilterEvent;
    'admin-conversation-filter': AdminConversationFilterEvent;
    'admin-show-tag': AdminShowTagEvent;
    'admin-sources-added': AdminSourcesAddedEvent;
    'admin-tab-unavailable': AdminTabUnavailableEvent;
    'admin-ask-again': AdminAskAgainEvent;
  }
}
