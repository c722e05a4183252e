import { css } from 'lit';

/**
 * The focus ring and the visually-hidden helper, for every shadow root of both elements,
 * including the admin's nested panels, which inherit the tokens instead of declaring them.
 */
export const baseStyles = css`
  :host *:focus-visible {
    outline: 2px solid var(--_focus);
    outline-offset: 2px;
  }

  .visually-hidden {
    position: absolute;
    width: 1px;
    height: 1px;
    padding: 0;
    margin: -1px;
    overflow: hidden;
    clip: rect(0 0 0 0);
    white-space: nowrap;
    border: 0;
  }
`;

const dark = css`
      --_accent: var(--chatbot-accent, #60a5fa);
      --_accent-text: var(--chatbot-accent-text, #0b1220);
      --_surface: var(--chatbot-surface, #111827);
      --_surface-2: var(--chatbot-surface-2, #1f2937);
      --_text: var(--chatbot-text, #f9fafb);
      --_muted: var(--chatbot-muted, #9ca3af);
      --_border: var(--chatbot-border, #374151);
      --_danger: var(--chatbot-danger, #fca5a5);
      --_danger-surface: var(--chatbot-danger-surface, #3b0d0d);
      --_success: var(--chatbot-success, #86efac);
      --_focus: var(--chatbot-focus, #93c5fd);
      color-scheme: dark;
`;

/**
 * Design tokens shared by <chatbot-chat> and <chatbot-admin>. Every token is a `--chatbot-*`
 * custom property with a default, so a host page restyles both elements from `:root`.
 * Dark values apply under `prefers-color-scheme: dark`, or when the element has `theme="dark"`;
 * `theme="light"` forces light.
 */
export const tokens = css`
  :host {
    --_accent: var(--chatbot-accent, #2563eb);
    --_accent-text: var(--chatbot-accent-text, #ffffff);
    --_surface: var(--chatbot-surface, #ffffff);
    --_surface-2: var(--chatbot-surface-2, #f3f4f6);
    --_text: var(--chatbot-text, #111827);
    --_muted: var(--chatbot-muted, #4b5563);
    --_border: var(--chatbot-border, #d1d5db);
    --_danger: var(--chatbot-danger, #b91c1c);
    --_danger-surface: var(--chatbot-danger-surface, #fef2f2);
    --_success: var(--chatbot-success, #15803d);
    --_focus: var(--chatbot-focus, #2563eb);
    --_font: var(--chatbot-font, system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif);
    --_font-size: var(--chatbot-font-size, 15px);
    --_mono: var(--chatbot-mono, ui-monospace, SFMono-Regular, Menlo, Consolas, monospace);
    --_radius: var(--chatbot-radius, 12px);
    --_shadow: var(--chatbot-shadow, 0 8px 30px rgb(0 0 0 / 0.18));
    color-scheme: light;
    font-family: var(--_font);
    font-size: var(--_font-size);
    color: var(--_text);
  }

  @media (prefers-color-scheme: dark) {
    :host(:not([theme='light'])) {
      ${dark}
    }
  }

  :host([theme='dark']) {
    ${dark}
  }

  ${baseStyles}
`;
