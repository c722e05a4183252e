import { css, unsafeCSS } from 'lit';

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

/**
 * The colour tokens' dark values, as declarations for the two rules that apply them. Written as
 * a string, not a css`` literal: the build's CSS minifier reads a literal as a stylesheet, which
 * a list of declarations is not.
 */
const darkColors = {
  accent: '#60a5fa',
  'accent-text': '#0b1220',
  surface: '#111827',
  'surface-2': '#1f2937',
  text: '#f9fafb',
  muted: '#9ca3af',
  border: '#374151',
  danger: '#fca5a5',
  'danger-surface': '#3b0d0d',
  success: '#86efac',
  focus: '#93c5fd',
};
const dark = unsafeCSS(
  `${Object.entries(darkColors)
    .map(([name, value]) => `--_${name}:var(--chatbot-${name},${value});`)
    .join('')}color-scheme:dark;`,
);

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
