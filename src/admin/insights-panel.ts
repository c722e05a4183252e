import { html } from 'lit';
import { AdminPanel } from './panel.js';

/** What the chatbot's conversations say over a period. */
export class AdminInsightsPanel extends AdminPanel {
  override render() {
    return html`<p class="pending">${this.strings.loading}</p>`;
  }
}

/** Registers the tag; the admin calls it once the module has loaded (see insights-loader.ts). */
export function defineInsightsPanel(): void {
  if (!customElements.get('chatbot-admin-insights')) {
    customElements.define('chatbot-admin-insights', AdminInsightsPanel);
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'chatbot-admin-insights': AdminInsightsPanel;
  }
}
