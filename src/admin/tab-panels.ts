import { html, nothing } from 'lit';
import { literal, type StaticValue, html as staticHtml } from 'lit/static-html.js';
import type { ChatbotClient } from '../api/client.js';
import {
  type Chatbot,
  DEFAULT_RATE_LIMIT,
  OWNER_TEST_MEMBER,
  type SessionData,
} from '../api/types.js';
import { fill } from '../ui/i18n.js';
import type { AdminStrings } from '../ui/strings/admin.js';
import type { FilterDraft } from './conversation-filters.js';
import type { AdminTab } from './events.js';
import { formatNumber, visibilityLabel } from './format.js';
import { loadChat, loadInsights } from './lazy-tab.js';

/**
 * Every tab: its label, and the panel element it shows (each given the same client, chatbot,
 * strings and language), with what defines that element when the tab first opens if it is not
 * part of the admin's first load. "Try it" has no panel of its own: it is drawn here, and its
 * chat is defined when it first opens.
 */
export const TABS: Record<
  AdminTab,
  { label: keyof AdminStrings; panel?: StaticValue; load?: () => Promise<void> }
> = {
  agents: { label: 'tabAgents', panel: literal`chatbot-admin-agents` },
  sources: { label: 'tabSources', panel: literal`chatbot-admin-sources` },
  tags: { label: 'tabTags', panel: literal`chatbot-admin-tags` },
  sessions: { label: 'tabSessions', panel: literal`chatbot-admin-sessions` },
  insights: { label: 'tabInsights', panel: literal`chatbot-admin-insights`, load: loadInsights },
  settings: { label: 'tabSettings', panel: literal`chatbot-admin-settings` },
  try: { label: 'tabTry', load: loadChat },
};

/** Parts of the panels that a host page may style, re-exported through each panel. */
const PANEL_PARTS =
  'form, input, button, primary, danger, error, dialog, table, row, cell, header-cell, toolbar, card, swatch, transcript, exchange, message, user-message, assistant-message, sources, progress, dropzone';

/** What a tab's content is drawn from: the admin's state as of this render. */
export interface TabContext {
  readonly client?: ChatbotClient;
  readonly chatbot: Chatbot;
  readonly strings: AdminStrings;
  readonly language: string;
  readonly theme?: 'light' | 'dark';
  /** The tab on screen. */
  readonly shown: AdminTab;
  /** The source table's tag filter, from the hash. */
  readonly tagFilter: string;
  /** The Conversations tab's search and filters, from the hash. */
  readonly conversationFilters: FilterDraft;
  /** Called when a tab's code does not arrive: the tab goes, not the admin. */
  readonly unavailable: (tab: AdminTab) => void;
}

/**
 * Scrolls `box` just enough to show `item` whole: the row of tabs when it is wider than the admin
 * (a phone; a link straight to Try it, the last tab, showed the first three and no selected one),
 * the chatbot list when it is taller than its box (a link to the last chatbot of many). Not
 * `scrollIntoView`, which also scrolls the page to a box still below the fold.
 */
export function showInBox(item: HTMLElement, box: HTMLElement): void {
  const at = item.getBoundingClientRect();
  const view = box.getBoundingClientRect();
  const by = (start: number, end: number, boxStart: number, boxEnd: number) =>
    start < boxStart ? start - boxStart : end > boxEnd ? end - boxEnd : 0;
  const left = by(at.left, at.right, view.left, view.right);
  const top = by(at.top, at.bottom, view.top, view.bottom);
  if (left || top) box.scrollBy({ left, top });
}

/** The content of `tab`: its panel element, or the "Try it" chat. */
export function renderTabPanel(tab: AdminTab, context: TabContext) {
  const { panel, load } = TABS[tab];
  // A module that does not arrive (not deployed beside the bundle) costs its tab, not the admin.
  load?.().catch(() => context.unavailable(tab));
  if (!panel) return renderTry(context);
  // Only the source table takes a tag filter, and only Conversations its filters; `nothing`
  // leaves the others' property unset.
  return staticHtml`<${panel}
    exportparts=${PANEL_PARTS}
    .client=${context.client}
    .chatbot=${context.chatbot}
    .strings=${context.strings}
    .active=${tab === context.shown}
    .tagFilter=${tab === 'sources' ? context.tagFilter : nothing}
    .filters=${tab === 'sessions' ? context.conversationFilters : nothing}
    lang=${context.language}
  ></${panel}>`;
}

/**
 * What Try it's chat creates its sessions with: the owner's test, which the review leaves out.
 * One object for every render, so the chat does not check it again each time.
 */
const TRY_IT_DATA: SessionData = Object.freeze({ [OWNER_TEST_MEMBER]: true });

/** "Try it": a <chatbot-chat> talking to the chatbot, and the chatbot's settings that shape it. */
function renderTry({ client, chatbot, strings: t, language, theme }: TabContext) {
  const [messages, seconds] = chatbot.meta?.rate_limit ?? DEFAULT_RATE_LIMIT;
  return html`<div class="try">
    <p class="help">${t.tryItHelp}</p>
    <chatbot-chat
      part="chat"
      .client=${client}
      chatbot-uuid=${chatbot.uuid}
      .sessionData=${TRY_IT_DATA}
      persist="none"
      greeting=${t.tryItGreeting}
      theme=${theme ?? nothing}
      lang=${language}
    ></chatbot-chat>
    <section class="card" part="card" aria-labelledby="try-heading">
      <h3 id="try-heading">${t.tryItSettings}</h3>
      <dl class="summary">
        <dt>${t.name}</dt>
        <dd dir="auto">${chatbot.name}</dd>
        <dt>${t.rateLimit}</dt>
        <dd>${fill(t.rateLimitSummary, { messages: formatNumber(messages, language), seconds: formatNumber(seconds, language) })}</dd>
        <dt>${t.rateLimitMessage}</dt>
        <dd>${chatbot.meta?.rate_limit_message ?? ''}</dd>
        <dt>${t.showCitations}</dt>
        <dd>${chatbot.meta?.show_citations ? t.citationsOn : t.citationsOff}</dd>
        <dt>${t.visibility}</dt>
        <dd>${visibilityLabel(chatbot.meta?.visibility ?? '', t)}</dd>
      </dl>
    </section>
  </div>`;
}
