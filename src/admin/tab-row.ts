import { html } from 'lit';
import type { AdminStrings } from '../ui/strings/admin.js';
import type { AdminTab } from './events.js';
import { TABS } from './tab-panels.js';

/**
 * Where a key pressed in the tab list moves the selection among `count` tabs from `index`:
 * the arrows wrap around, each toward the tab drawn on its side (right to left, the next tab is
 * on the left), Home and End go to either end; -1 for any other key.
 */
export function tabAfterKey(key: string, index: number, count: number, rtl = false): number {
  switch (key) {
    case rtl ? 'ArrowLeft' : 'ArrowRight':
      return (index + 1) % count;
    case rtl ? 'ArrowRight' : 'ArrowLeft':
      return (index + count - 1) % count;
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    default:
      return -1;
  }
}

export interface TabRowOptions {
  tabs: readonly AdminTab[];
  shown: AdminTab;
  /** The row's accessible name, after the chatbot. */
  label: string;
  strings: AdminStrings;
  /** A tab chosen: by a click, or by a key (when focus should follow it). */
  go: (tab: AdminTab, byKey: boolean) => void;
}

/** The row of tabs: one tab stop, the arrow keys, Home and End moving the selection. */
export function renderTabRow({ tabs, shown, label, strings, go }: TabRowOptions) {
  const keydown = (event: KeyboardEvent) => {
    const rtl = getComputedStyle(event.currentTarget as Element).direction === 'rtl';
    const next = tabAfterKey(event.key, tabs.indexOf(shown), tabs.length, rtl);
    if (next < 0) return;
    event.preventDefault();
    go(tabs[next], true);
  };
  return html`<div role="tablist" part="tablist" aria-label=${label} @keydown=${keydown}>
    ${tabs.map(
      (tab) => html`<button
        type="button"
        role="tab"
        part="tab"
        id="tab-${tab}"
        aria-controls="panel-${tab}"
        aria-selected=${tab === shown ? 'true' : 'false'}
        tabindex=${tab === shown ? '0' : '-1'}
        @click=${() => go(tab, false)}
      >
        ${strings[TABS[tab].label]}
      </button>`,
    )}
  </div>`;
}
