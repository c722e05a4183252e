import { css, html, type SVGTemplateResult, svg } from 'lit';

/*
 * The marks of a conversation (its ratings, answers not covered, escalations, errors) as inline
 * SVG, drawn in the text's colour. They were emoji and symbol characters: where the page's font
 * lacks one, the browser looks for another font for it on every layout of the row, which made
 * each frame of a scrolled Conversations list cost 12 ms of layout instead of 5 (bench:review,
 * Linux without an emoji font, which then showed empty boxes), and they looked different on every
 * system. Paths from Lucide (lucide-static 1.62, ISC licence, https://lucide.dev): thumbs-up,
 * thumbs-down, ban, hand, triangle-alert.
 */

const icon = (paths: SVGTemplateResult) =>
  html`<svg class="icon" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true" focusable="false">${paths}</svg>`;

export const icons = {
  up: icon(
    svg`<path d="M15 5.88 14 10h5.83a2 2 0 0 1 1.92 2.56l-2.33 8A2 2 0 0 1 17.5 22H4a2 2 0 0 1-2-2v-8a2 2 0 0 1 2-2h2.76a2 2 0 0 0 1.79-1.11L12 2a3.13 3.13 0 0 1 3 3.88Z" /><path d="M7 10v12" />`,
  ),
  down: icon(
    svg`<path d="M9 18.12 10 14H4.17a2 2 0 0 1-1.92-2.56l2.33-8A2 2 0 0 1 6.5 2H20a2 2 0 0 1 2 2v8a2 2 0 0 1-2 2h-2.76a2 2 0 0 0-1.79 1.11L12 22a3.13 3.13 0 0 1-3-3.88Z" /><path d="M17 14V2" />`,
  ),
  notCovered: icon(svg`<circle cx="12" cy="12" r="10" /><path d="M4.929 4.929 19.07 19.071" />`),
  escalated: icon(
    svg`<path d="M18 11V6a2 2 0 0 0-2-2a2 2 0 0 0-2 2" /><path d="M14 10V4a2 2 0 0 0-2-2a2 2 0 0 0-2 2v2" /><path d="M10 10.5V6a2 2 0 0 0-2-2a2 2 0 0 0-2 2v8" /><path d="M18 8a2 2 0 1 1 4 0v6a8 8 0 0 1-8 8h-2c-2.8 0-4.5-.86-5.99-2.34l-3.6-3.6a2 2 0 0 1 2.83-2.82L7 15" />`,
  ),
  error: icon(
    svg`<path d="m21.73 18-8-14a2 2 0 0 0-3.48 0l-8 14A2 2 0 0 0 4 21h16a2 2 0 0 0 1.73-3" /><path d="M12 9v4" /><path d="M12 17h.01" />`,
  ),
};

export const iconStyles = css`
  .icon {
    width: 1.1em;
    height: 1.1em;
    vertical-align: -0.2em;
    flex: none;
  }
`;
