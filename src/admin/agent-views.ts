import { html, nothing } from 'lit';
import type { Agent, ToolFunction } from '../api/types.js';
import type { AdminStrings } from '../ui/strings/admin.js';
import { isEnabled, swatch } from './format.js';

// What an agent card shows but no form edits: its tool functions and create-time settings.

/** The agent's tool functions, folded: name, method, address and parameters of each. */
export function renderToolFunctions(tools: readonly ToolFunction[], s: AdminStrings) {
  if (!tools.length) return nothing;
  return html`<details>
    <summary>${s.toolFunctions} (${tools.length})</summary>
    ${tools.map(
      (tool) => html`<div class="card" part="card">
        <h4><span class="user-text">${tool.name}</span> <span class="badge">${tool.method}</span> <span class="badge">${isEnabled(tool.enabled) ? s.enabled : '—'}</span></h4>
        ${tool.description ? html`<p class="muted user-text" dir="auto">${tool.description}</p>` : nothing}
        <p><span class="muted">${s.url}:</span> <code class="user-text">${tool.external_url}</code></p>
        <table class="simple">
          <caption class="visually-hidden">${s.parameters}: ${tool.name}</caption>
          <thead><tr><th scope="col">${s.name}</th><th scope="col">${s.type}</th><th scope="col">${s.description}</th></tr></thead>
          <tbody>
            ${Object.entries(tool.parameters?.properties ?? {}).map(
              ([name, param]) => html`<tr>
                <td><code class="user-text">${name}</code>${
                  tool.parameters.required?.includes(name)
                    ? html` <span class="badge">${s.required}</span>`
                    : nothing
                }</td>
                <td>${param.type}</td>
                <td class="user-text">${param.description}</td>
              </tr>`,
            )}
          </tbody>
        </table>
      </div>`,
    )}
  </details>`;
}

/** Create-time settings the update endpoint does not take: shown so nothing is hidden. */
export function renderReadOnlyMeta(agent: Agent, s: AdminStrings) {
  const meta = agent.meta ?? {};
  const rows: [string, string][] = [];
  if (meta.bias !== undefined) rows.push([s.bias, String(meta.bias)]);
  if (meta.stickness !== undefined) rows.push([s.stickness, String(meta.stickness)]);
  if (meta.default_message !== undefined) rows.push([s.defaultMessage, meta.default_message]);
  const tags = meta.tags ?? [];
  if (!rows.length && !tags.length) return nothing;
  return html`<dl class="muted">
    ${rows.map(([k, v]) => html`<dt>${k}</dt><dd class="user-text">${v}</dd>`)}
    ${
      tags.length
        ? html`<dt>${s.agentTags}</dt>
          <dd>${tags.map((t) => html`<span class="badge"><span class="swatch" part="swatch" ${swatch(t.color)}></span> <span class="user-text" dir="auto">${t.name}</span>: <span class="user-text" dir="auto">${t.criteria}</span></span> `)}</dd>`
        : nothing
    }
  </dl>`;
}
