import { AdminAgentsPanel } from './agents-panel.js';
import { ChatbotAdmin } from './chatbot-admin.js';
import { AdminSessionsPanel } from './sessions-panel.js';
import { AdminSettingsPanel } from './settings-panel.js';
import { AdminSourceAddPanel } from './source-add-panel.js';
import { AdminSourcesPanel } from './sources-panel.js';
import { AdminTagsPanel } from './tags-panel.js';

export type { AdminStrings } from '../ui/strings/admin.js';
export type {
  AdminChangeDetail,
  AdminChangeEvent,
  AdminErrorDetail,
  AdminErrorEvent,
  AdminEventMap,
  AdminNavigateDetail,
  AdminNavigateEvent,
  AdminTab,
} from './events.js';
export { ChatbotAdmin };

const tags: [string, CustomElementConstructor][] = [
  ['chatbot-admin', ChatbotAdmin],
  ['chatbot-admin-settings', AdminSettingsPanel],
  ['chatbot-admin-agents', AdminAgentsPanel],
  ['chatbot-admin-sources', AdminSourcesPanel],
  ['chatbot-admin-source-add', AdminSourceAddPanel],
  ['chatbot-admin-tags', AdminTagsPanel],
  ['chatbot-admin-sessions', AdminSessionsPanel],
];

// A page may load the bundle twice (npm and a CDN copy): the first definition wins quietly.
for (const [name, element] of tags) {
  if (!customElements.get(name)) customElements.define(name, element);
}

declare global {
  interface HTMLElementTagNameMap {
    'chatbot-admin-settings': AdminSettingsPanel;
    'chatbot-admin-agents': AdminAgentsPanel;
    'chatbot-admin-sources': AdminSourcesPanel;
    'chatbot-admin-source-add': AdminSourceAddPanel;
    'chatbot-admin-tags': AdminTagsPanel;
    'chatbot-admin-sessions': AdminSessionsPanel;
  }
}
