import { html, nothing, type TemplateResult } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import type { Chatbot } from '../api/types.js';
import { fill } from '../ui/i18n.js';
import type { AdminStrings } from '../ui/strings/admin.js';
import { formatDate, visibilityLabel } from './format.js';

export interface ChatbotListOptions {
  strings: AdminStrings;
  language: string;
  chatbots: readonly Chatbot[];
  /** The chatbot on screen, marked `aria-current` in the list. */
  current: string | null;
  /** What the list's own request says: loading, refreshing, an error with Retry, or empty. */
  status: unknown;
  create: () => void;
  choose: (uuid: string) => void;
}

/** The sidebar: the chatbots as cards, with New chatbot above them. */
export function renderChatbotList(options: ChatbotListOptions): TemplateResult {
  const { strings: t, language, current, choose } = options;
  return html`<nav class="sidebar" part="sidebar" aria-labelledby="chatbots-heading">
    <div class="header" part="header">
      <h2 id="chatbots-heading" tabindex="-1">${t.chatbots}</h2>
      <button type="button" class="primary" part="button primary" @click=${options.create}>
        ${t.newChatbot}
      </button>
    </div>
    ${options.status ?? nothing}
    <ul class="plain chatbot-list">
      ${repeat(
        options.chatbots,
        (c) => c.uuid,
        (c) => html`<li>
          <button
            type="button"
            part="button"
            aria-current=${c.uuid === current ? 'true' : 'false'}
            @click=${() => choose(c.uuid)}
          >
            <span class="name" dir="auto">${c.name}</span>
            <span class="meta">
              <span>${fill(t.created, { date: formatDate(c.created_at, language) })}</span>
              <span class="badge">${c.meta?.show_citations ? t.citationsOn : t.citationsOff}</span>
              <span class="badge">${visibilityLabel(c.meta?.visibility ?? '', t)}</span>
            </span>
          </button>
        </li>`,
      )}
    </ul>
  </nav>`;
}
