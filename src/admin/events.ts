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

export type AdminTab = 'agents' | 'sources' | 'tags' | 'sessions' | 'settings' | 'try';

export const ADMIN_TABS: readonly AdminTab[] = [
  'agents',
  'sources',
  'tags',
  'sessions',
  'settings',
  'try',
];

export type AdminChangeEvent = CustomEvent<AdminChangeDetail>;
export type AdminErrorEvent = CustomEvent<AdminErrorDetail>;
export type AdminNavigateEvent = CustomEvent<AdminNavigateDetail>;

/** Every admin event bubbles out of the shadow roots, so a host page listens on the element. */
export function emit<T>(target: EventTarget, type: string, detail: T): boolean {
  return target.dispatchEvent(
    new CustomEvent<T>(type, { detail, bubbles: true, composed: true, cancelable: false }),
  );
}

declare global {
  interface HTMLElementEventMap {
    'chatbot-admin-change': AdminChangeEvent;
    'chatbot-admin-error': AdminErrorEvent;
    'chatbot-admin-navigate': AdminNavigateEvent;
  }
}
