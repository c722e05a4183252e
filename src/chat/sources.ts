import type { TemplateResult } from 'lit';
import type { Citation } from '../api/types.js';
import { html, nothing } from './lazy-lit.js';
import { safeUrl } from './links.js';
import type { Exchange } from './transcript-store.js';

/**
 * The sources an answer cites, listed under it. Each item has an id the answer's citation
 * markers point at, and takes focus when one is followed.
 */
export function renderSources(exchange: Exchange, label: string): TemplateResult | typeof nothing {
  const citations = citedSources(exchange);
  if (!citations.length) return nothing;
  return html`<ol class="sources" part="sources" aria-label=${label}>
    ${citations.map((citation) => {
      const url = safeUrl(citation.url);
      const label = `[${citation.n}] ${citation.title}`;
      return html`<li id=${`${exchange.id}-source-${citation.n}`} tabindex="-1">${
        url
          ? html`<a href=${url} target="_blank" rel="noopener noreferrer">${label}</a>`
          : html`<span>${label}</span>`
      }</li>`;
    })}
  </ol>`;
}

/** The sources to list under an answer: those it cites, or all when it has no markers. */
export function citedSources(exchange: Exchange): Citation[] {
  const citations = exchange.citations ?? [];
  if (!citations.length) return [];
  const cited = new Set([...exchange.response.matchAll(/\[(\d{1,3})\]/g)].map((m) => Number(m[1])));
  const used = citations.filter((c) => cited.has(c.n));
  return used.length ? used : citations;
}
