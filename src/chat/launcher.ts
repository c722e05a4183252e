import { html, svg, type TemplateResult } from 'lit';

export interface LauncherOptions {
  label: string;
  open: boolean;
  onClick: () => void;
  /** A pointer over the button, or focus on it: the reader may be about to open the chat. */
  onIntent: () => void;
  /** Escape on the launcher closes the panel too. */
  onKeyDown: (event: KeyboardEvent) => void;
}

/** The floating button of launcher mode; its name stays "Open chat", aria-expanded tells the state. */
export function renderLauncher({
  label,
  open,
  onClick,
  onIntent,
  onKeyDown,
}: LauncherOptions): TemplateResult {
  return html`<button
    type="button"
    class="launcher"
    part="launcher"
    aria-label=${label}
    aria-expanded=${open ? 'true' : 'false'}
    aria-controls="panel"
    @click=${onClick}
    @pointerenter=${onIntent}
    @focus=${onIntent}
    @keydown=${onKeyDown}
  >
    <svg viewBox="0 0 24 24" width="26" height="26" fill="currentColor" aria-hidden="true">
      ${
        // A fragment interpolated into <svg> must come from the svg tag: html would parse
        // <path> in the HTML namespace, where it never paints.
        open
          ? svg`<path d="M18.3 5.7a1 1 0 0 0-1.4 0L12 10.6 7.1 5.7a1 1 0 1 0-1.4 1.4l4.9 4.9-4.9 4.9a1 1 0 1 0 1.4 1.4l4.9-4.9 4.9 4.9a1 1 0 0 0 1.4-1.4L13.4 12l4.9-4.9a1 1 0 0 0 0-1.4z"/>`
          : svg`<path d="M4 4h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H8l-4 4V6a2 2 0 0 1 2-2zm2 4v2h12V8H6zm0 4v2h8v-2H6z"/>`
      }
    </svg>
  </button>`;
}
