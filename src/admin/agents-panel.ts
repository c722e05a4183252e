import { html, nothing } from 'lit';
import { state } from 'lit/decorators.js';
import { repeat } from 'lit/directives/repeat.js';
import {
  AGENT_TYPES,
  type Agent,
  type AgentCreate,
  type AgentTag,
  type AgentType,
  type AgentUpdate,
  type AgentVariable,
  type DataSource,
  type HumanEscalationSettings,
  type ToolFunction,
} from '../api/types.js';
import { fill } from '../ui/i18n.js';
import { HEX_COLOR, isEnabled, swatch, unitNumber } from './format.js';
import { AdminPanel } from './panel.js';

/** Which type-specific settings apply to which agent type (hosted-service-notes.md). */
const APPLIES = {
  model: ['user-facing', 'background'],
  temperature: ['user-facing'],
  bias: ['user-facing', 'human-escalation', 'pre-canned', 'spam-defense'],
  stickness: ['user-facing', 'human-escalation', 'pre-canned', 'spam-defense'],
  default_message: ['pre-canned', 'spam-defense'],
  tags: ['background'],
  use_all_sources: ['user-facing'],
} satisfies Record<string, AgentType[]>;

const applies = (setting: keyof typeof APPLIES, type: AgentType) =>
  (APPLIES[setting] as AgentType[]).includes(type);

interface CreateDraft {
  name: string;
  type: AgentType;
  description: string;
  prompt: string;
  model: string;
  temperature: string;
  bias: string;
  stickness: string;
  default_message: string;
  tags: AgentTag[];
  use_all_sources: boolean;
}

interface EditDraft {
  name: string;
  description: string;
  prompt: string;
  model: string;
  temperature: string;
  use_all_sources: boolean;
  variables: AgentVariable[];
  /** List items carry no variables: sending [] would erase the agent's, so only send on edit. */
  variablesTouched: boolean;
  /** False when the agent came only from the list, whose items omit its variables. */
  variablesKnown: boolean;
  data_source_uuids: string[];
  escalation?: HumanEscalationSettings;
}

const emptyCreate = (): CreateDraft => ({
  name: '',
  type: 'user-facing',
  description: '',
  prompt: '',
  model: '',
  temperature: '',
  bias: '',
  stickness: '',
  default_message: '',
  tags: [],
  use_all_sources: false,
});

const emptyVariable = (): AgentVariable => ({
  name: '',
  description: '',
  example: '',
  type: 'string',
  default_value: { content: '', static: 0 },
});

const emptyEscalation = (): HumanEscalationSettings => ({
  human_requested_message: '',
  live_chat_start_announcement: '',
  live_chat_end_announcement: '',
  monitored_messages: [],
  notifications_enabled: 0,
  sound_enabled: 0,
});

function editDraftOf(agent: Agent): EditDraft {
  return {
    name: agent.name,
    description: agent.description ?? '',
    prompt: agent.prompt ?? '',
    model: agent.meta?.model ?? '',
    temperature: agent.meta?.temperature === undefined ? '' : String(agent.meta.temperature),
    use_all_sources: Boolean(agent.meta?.use_all_sources),
    variables: (agent.variables ?? []).map((v) => ({
      ...v,
      default_value: { ...v.default_value },
    })),
    variablesTouched: false,
    variablesKnown: agent.variables !== undefined,
    data_source_uuids: [...(agent.data_source_uuids ?? [])],
    escalation:
      agent.type === 'human-escalation'
        ? { ...emptyEscalation(), ...agent.human_escalation_settings }
        : undefined,
  };
}

const value = (e: Event) => (e.target as HTMLInputElement).value;
const checked = (e: Event) => (e.target as HTMLInputElement).checked;

/** The agents of the selected chatbot: list, enable, create by type, edit, delete. */
export class AdminAgentsPanel extends AdminPanel {
  @state() private agents: Agent[] = [];
  @state() private sources: DataSource[] = [];
  @state() private editing: string | null = null;
  @state() private editDraft?: EditDraft;
  @state() private createDraft: CreateDraft = emptyCreate();
  @state() private savedUuid: string | null = null;

  private readonly agentsTask = this.chatbotList(
    (client, uuid, signal) => client.agents.list(uuid, { signal }),
    (agents) => {
      // The list lacks `variables`; keep those already learnt from create/update answers.
      const known = new Map(this.agents.map((a) => [a.uuid, a.variables]));
      this.agents = agents.map((a) => ({ ...a, variables: a.variables ?? known.get(a.uuid) }));
    },
  );

  private readonly sourcesTask = this.sourceList((sources) => {
    this.sources = sources;
  });

  /** Reloads the agents and the sources they may answer from. */
  override refresh(): void {
    void this.agentsTask.run();
    void this.sourcesTask.run();
  }

  private replaceAgent(uuid: string, next: Agent | undefined): void {
    this.agents = next
      ? this.agents.map((a) => (a.uuid === uuid ? next : a))
      : this.agents.filter((a) => a.uuid !== uuid);
  }

  private async handleEnabledChange(agent: Agent, enabled: boolean): Promise<void> {
    const client = this.client;
    if (!client) return;
    // Optimistic: the switch moves at once and moves back if the server refuses.
    this.replaceAgent(agent.uuid, { ...agent, enabled });
    const result = await this.run(`enabled-${agent.uuid}`, 'agents.update', () =>
      client.agents.update(agent.uuid, { enabled }),
    );
    const current = this.agents.find((a) => a.uuid === agent.uuid);
    if (!current) return;
    if (result.ok) {
      this.replaceAgent(agent.uuid, { ...current, ...result.value });
      this.changed({ kind: 'agent', action: 'update', uuids: [agent.uuid] });
    } else {
      this.replaceAgent(agent.uuid, { ...current, enabled: agent.enabled });
    }
  }

  private handleEditClick(agent: Agent): void {
    if (this.editing === agent.uuid) {
      this.editing = null;
      return;
    }
    this.editing = agent.uuid;
    this.editDraft = editDraftOf(agent);
    this.savedUuid = null;
  }

  private patchEdit(patch: Partial<EditDraft>): void {
    this.editDraft = { ...this.editDraft!, ...patch };
    this.savedUuid = null;
  }

  private patchVariable(index: number, patch: Partial<AgentVariable>): void {
    const variables = this.editDraft!.variables.map((v, i) =>
      i === index ? { ...v, ...patch } : v,
    );
    this.patchEdit({ variables, variablesTouched: true });
  }

  private async handleEditSubmit(event: SubmitEvent, agent: Agent): Promise<void> {
    event.preventDefault();
    const d = this.editDraft;
    const client = this.client;
    if (!d || !client) return;
    const s = this.strings;
    const key = `edit-${agent.uuid}`;
    if (!d.name.trim()) return this.invalid(key, s.nameRequired);
    const body: AgentUpdate = {
      name: d.name.trim(),
      description: d.description,
      prompt: d.prompt,
      data_source_uuids: d.data_source_uuids,
    };
    if (applies('model', agent.type)) body.model = d.model;
    if (applies('temperature', agent.type)) {
      const temperature = unitNumber(d.temperature);
      if (temperature === null)
        return this.invalid(key, fill(s.rangeInvalid, { field: s.temperature }));
      if (temperature !== undefined) body.temperature = temperature;
    }
    if (applies('use_all_sources', agent.type)) body.use_all_sources = d.use_all_sources;
    if (d.variablesTouched || agent.variables) {
      body.variables = d.variables.filter((v) => v.name.trim());
    }
    if (d.escalation) body.human_escalation_settings = d.escalation;
    const result = await this.run(key, 'agents.update', () =>
      client.agents.update(agent.uuid, body),
    );
    if (!result.ok) return;
    const current = this.agents.find((a) => a.uuid === agent.uuid) ?? agent;
    const updated = { ...current, ...result.value };
    this.replaceAgent(agent.uuid, updated);
    this.editDraft = editDraftOf(updated);
    this.savedUuid = agent.uuid;
    this.changed({ kind: 'agent', action: 'update', uuids: [agent.uuid] });
  }

  private async handleDeleteClick(agent: Agent): Promise<void> {
    const client = this.client;
    if (!client) return;
    if (!(await this.confirm.ask(fill(this.strings.confirmDeleteAgent, { name: agent.name })))) {
      return;
    }
    const result = await this.run(`delete-${agent.uuid}`, 'agents.delete', () =>
      client.agents.delete(agent.uuid),
    );
    if (!result.ok) return;
    this.replaceAgent(agent.uuid, undefined);
    if (this.editing === agent.uuid) this.editing = null;
    this.changed({ kind: 'agent', action: 'delete', uuids: [agent.uuid] });
  }

  private patchCreate(patch: Partial<CreateDraft>): void {
    this.createDraft = { ...this.createDraft, ...patch };
  }

  private async handleCreateSubmit(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const d = this.createDraft;
    const client = this.client;
    const chatbot = this.chatbot;
    if (!client || !chatbot) return;
    const s = this.strings;
    if (!d.name.trim()) return this.invalid('create', s.nameRequired);
    const body: AgentCreate = {
      name: d.name.trim(),
      type: d.type,
      description: d.description,
      prompt: d.prompt,
    };
    if (applies('model', d.type) && d.model.trim()) body.model = d.model.trim();
    for (const field of ['temperature', 'bias', 'stickness'] as const) {
      if (!applies(field, d.type)) continue;
      const parsed = unitNumber(d[field]);
      if (parsed === null) return this.invalid('create', fill(s.rangeInvalid, { field: s[field] }));
      if (parsed !== undefined) body[field] = parsed;
    }
    if (applies('default_message', d.type)) body.default_message = d.default_message;
    if (applies('tags', d.type)) {
      const tags = d.tags.filter((t) => t.name.trim());
      if (tags.some((t) => !HEX_COLOR.test(t.color))) return this.invalid('create', s.colorInvalid);
      body.tags = tags;
    }
    if (applies('use_all_sources', d.type)) body.use_all_sources = d.use_all_sources;
    const result = await this.run('create', 'agents.create', () =>
      client.agents.create(chatbot.uuid, body),
    );
    if (!result.ok) return;
    this.agents = [...this.agents, result.value];
    this.createDraft = { ...emptyCreate(), type: d.type };
    this.changed({ kind: 'agent', action: 'create', uuids: [result.value.uuid] });
  }

  override render() {
    const s = this.strings;
    const pending = this.agentsTask.render({
      pending: () => (this.agents.length ? nothing : this.renderPending()),
      error: (error) => this.renderLoadError(error, () => this.agentsTask.run()),
      complete: () => (this.agents.length ? nothing : html`<p class="empty">${s.noAgents}</p>`),
    });
    return html`
      <h2 class="visually-hidden">${s.agents}</h2>
      ${pending}
      <ul class="plain">
        ${repeat(
          this.agents,
          // Keyed: each card's buttons stay its agent's while the list changes under a pointer.
          (agent) => agent.uuid,
          (agent) => html`<li>${this.renderAgent(agent)}</li>`,
        )}
      </ul>
      ${this.renderCreateForm()} ${this.confirm.render()}
    `;
  }

  private renderAgent(agent: Agent) {
    const s = this.strings;
    const on = isEnabled(agent.enabled);
    const open = this.editing === agent.uuid;
    const headingId = `agent-${agent.uuid}`;
    return html`<article class="card" part="card" aria-labelledby=${headingId}>
      <div class="row center">
        <h3 id=${headingId} class="user-text flush">${agent.name}</h3>
        <span class="badge">${agent.type}</span>
        <span class="spacer"></span>
        <label class="inline"
          ><input
            type="checkbox"
            role="switch"
            aria-label=${fill(s.enabledFor, { name: agent.name })}
            .checked=${on}
            aria-checked=${on ? 'true' : 'false'}
            ?disabled=${this.busy.has(`enabled-${agent.uuid}`)}
            @change=${(e: Event) => this.handleEnabledChange(agent, checked(e))}
          />${s.enabled}</label
        >
        <button
          type="button"
          part="button"
          aria-expanded=${open ? 'true' : 'false'}
          aria-label=${fill(s.editAgent, { name: agent.name })}
          @click=${() => this.handleEditClick(agent)}
        >
          ${s.edit}
        </button>
        <button
          type="button"
          class="danger"
          part="button danger"
          aria-label=${`${s.delete} ${agent.name}`}
          ?disabled=${this.busy.has(`delete-${agent.uuid}`)}
          @click=${() => this.handleDeleteClick(agent)}
        >
          ${s.delete}
        </button>
      </div>
      ${agent.description ? html`<p class="muted user-text">${agent.description}</p>` : nothing}
      ${this.renderError(`enabled-${agent.uuid}`)} ${this.renderError(`delete-${agent.uuid}`)}
      ${this.renderToolFunctions(agent.tool_functions ?? [])}
      ${open && this.editDraft ? this.renderEditForm(agent, this.editDraft) : nothing}
    </article>`;
  }

  private renderToolFunctions(tools: ToolFunction[]) {
    const s = this.strings;
    if (!tools.length) return nothing;
    return html`<details>
      <summary>${s.toolFunctions} (${tools.length})</summary>
      ${tools.map(
        (tool) => html`<div class="card" part="card">
          <h4 class="user-text">${tool.name} <span class="badge">${tool.method}</span>
            <span class="badge">${isEnabled(tool.enabled) ? s.enabled : '—'}</span></h4>
          ${tool.description ? html`<p class="muted user-text">${tool.description}</p>` : nothing}
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

  private renderEditForm(agent: Agent, d: EditDraft) {
    const s = this.strings;
    const key = `edit-${agent.uuid}`;
    return html`<form
      part="form"
      aria-label=${fill(s.editAgent, { name: agent.name })}
      @submit=${(e: SubmitEvent) => this.handleEditSubmit(e, agent)}
      novalidate
    >
      <label>${s.name}<input part="input" name="name" .value=${d.name} @input=${(e: Event) => this.patchEdit({ name: value(e) })} /></label>
      <label>${s.description}<input part="input" name="description" .value=${d.description} @input=${(e: Event) => this.patchEdit({ description: value(e) })} /></label>
      <label>${s.prompt}<textarea part="input" class="prompt" name="prompt" rows="10" spellcheck="false" .value=${d.prompt} @input=${(e: Event) => this.patchEdit({ prompt: value(e) })}></textarea></label>
      <div class="row">
        ${applies('model', agent.type) ? html`<label>${s.model}<input part="input" name="model" .value=${d.model} @input=${(e: Event) => this.patchEdit({ model: value(e) })} /></label>` : nothing}
        ${applies('temperature', agent.type) ? html`<label>${s.temperature}<input part="input" name="temperature" type="number" min="0" max="1" step="0.05" .value=${d.temperature} aria-invalid=${unitNumber(d.temperature) === null ? 'true' : 'false'} @input=${(e: Event) => this.patchEdit({ temperature: value(e) })} /></label>` : nothing}
      </div>
      ${applies('use_all_sources', agent.type) ? html`<label class="inline"><input type="checkbox" name="use_all_sources" .checked=${d.use_all_sources} @change=${(e: Event) => this.patchEdit({ use_all_sources: checked(e) })} />${s.useAllSources}</label>` : nothing}
      ${this.renderReadOnlyMeta(agent)}
      ${this.renderVariables(d)}
      ${this.renderSourcePicker(d)}
      ${d.escalation ? this.renderEscalation(d.escalation) : nothing}
      ${this.renderError(key)}
      <div class="actions">
        <button type="submit" class="primary" part="button primary" ?disabled=${this.busy.has(key)}>${s.save}</button>
        <span role="status" class="ok">${this.savedUuid === agent.uuid ? s.saved : ''}</span>
      </div>
    </form>`;
  }

  /** Create-time settings the update endpoint does not take: shown so nothing is hidden. */
  private renderReadOnlyMeta(agent: Agent) {
    const s = this.strings;
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
            <dd>${tags.map((t) => html`<span class="badge"><span class="swatch" part="swatch" ${swatch(t.color)}></span> <span class="user-text">${t.name}</span>: <span class="user-text">${t.criteria}</span></span> `)}</dd>`
          : nothing
      }
    </dl>`;
  }

  private renderVariables(d: EditDraft) {
    const s = this.strings;
    return html`<fieldset>
      <legend>${s.variables}</legend>
      ${
        d.variablesKnown
          ? d.variables.length === 0
            ? html`<p class="empty">${s.noVariables}</p>`
            : nothing
          : html`<p class="muted">${s.variablesUnknown}</p>`
      }
      ${d.variables.map(
        (v, i) => html`<div class="row" role="group" aria-label="${s.variables} ${i + 1}">
          <label>${s.variableName}<input part="input" name="variable-name" .value=${v.name} @input=${(e: Event) => this.patchVariable(i, { name: value(e) })} /></label>
          <label>${s.variableDescription}<input part="input" name="variable-description" .value=${v.description} @input=${(e: Event) => this.patchVariable(i, { description: value(e) })} /></label>
          <label>${s.example}<input part="input" name="variable-example" .value=${v.example} @input=${(e: Event) => this.patchVariable(i, { example: value(e) })} /></label>
          <label>${s.variableType}<input part="input" name="variable-type" list="variable-types" .value=${v.type} @input=${(e: Event) => this.patchVariable(i, { type: value(e) })} /></label>
          <label>${s.defaultValue}<input part="input" name="variable-default" .value=${v.default_value?.content ?? ''} @input=${(e: Event) => this.patchVariable(i, { default_value: { ...v.default_value, content: value(e) } })} /></label>
          <button type="button" part="button" aria-label=${fill(s.removeRow, { n: i + 1 })} @click=${() => this.patchEdit({ variables: d.variables.filter((_, j) => j !== i), variablesTouched: true })}>✕</button>
        </div>`,
      )}
      <datalist id="variable-types"><option value="string"></option><option value="number"></option><option value="boolean"></option></datalist>
      <button type="button" part="button" @click=${() => this.patchEdit({ variables: [...d.variables, emptyVariable()], variablesTouched: true })}>${s.addVariable}</button>
    </fieldset>`;
  }

  private renderSourcePicker(d: EditDraft) {
    const s = this.strings;
    const chosen = new Set(d.data_source_uuids);
    return html`<fieldset>
      <legend>${s.answersFrom}</legend>
      ${
        this.sources.length === 0
          ? html`<p class="empty">${s.noSourcesYet}</p>`
          : html`<div class="checklist">
            ${this.sources.map(
              (source) => html`<label class="inline"><input
                  type="checkbox"
                  name="data-source"
                  .checked=${chosen.has(source.uuid)}
                  @change=${(e: Event) => {
                    const next = new Set(chosen);
                    if (checked(e)) next.add(source.uuid);
                    else next.delete(source.uuid);
                    this.patchEdit({ data_source_uuids: [...next] });
                  }}
                /><span class="user-text">${source.title || source.file_name}</span></label>`,
            )}
          </div>`
      }
    </fieldset>`;
  }

  private renderEscalation(h: HumanEscalationSettings) {
    const s = this.strings;
    const patch = (p: Partial<HumanEscalationSettings>) =>
      this.patchEdit({ escalation: { ...this.editDraft!.escalation!, ...p } });
    return html`<fieldset>
      <legend>${s.escalation}</legend>
      <label>${s.humanRequestedMessage}<textarea part="input" rows="2" .value=${h.human_requested_message} @input=${(e: Event) => patch({ human_requested_message: value(e) })}></textarea></label>
      <label>${s.liveChatStart}<textarea part="input" rows="2" .value=${h.live_chat_start_announcement} @input=${(e: Event) => patch({ live_chat_start_announcement: value(e) })}></textarea></label>
      <label>${s.liveChatEnd}<textarea part="input" rows="2" .value=${h.live_chat_end_announcement} @input=${(e: Event) => patch({ live_chat_end_announcement: value(e) })}></textarea></label>
      <label class="inline"><input type="checkbox" .checked=${isEnabled(h.notifications_enabled)} @change=${(e: Event) => patch({ notifications_enabled: checked(e) ? 1 : 0 })} />${s.notificationsEnabled}</label>
      <label class="inline"><input type="checkbox" .checked=${isEnabled(h.sound_enabled)} @change=${(e: Event) => patch({ sound_enabled: checked(e) ? 1 : 0 })} />${s.soundEnabled}</label>
    </fieldset>`;
  }

  private renderCreateForm() {
    const s = this.strings;
    const d = this.createDraft;
    const numberField = (field: 'temperature' | 'bias' | 'stickness') =>
      applies(field, d.type)
        ? html`<label>${s[field]}<input part="input" name=${field} type="number" min="0" max="1" step="0.05" .value=${d[field]} aria-invalid=${unitNumber(d[field]) === null ? 'true' : 'false'} @input=${(e: Event) => this.patchCreate({ [field]: value(e) })} /></label>`
        : nothing;
    return html`<form class="card" part="form card" aria-labelledby="new-agent" @submit=${this.handleCreateSubmit} novalidate>
      <h3 id="new-agent">${s.newAgent}</h3>
      <div class="row">
        <label>${s.name}<input part="input" name="name" autocomplete="off" .value=${d.name} @input=${(e: Event) => this.patchCreate({ name: value(e) })} /></label>
        <label>${s.type}<select part="input" name="type" .value=${d.type} @change=${(e: Event) => this.patchCreate({ type: value(e) as AgentType })}>
          ${AGENT_TYPES.map((t) => html`<option value=${t} ?selected=${t === d.type}>${t}</option>`)}
        </select></label>
      </div>
      <label>${s.description}<input part="input" name="description" .value=${d.description} @input=${(e: Event) => this.patchCreate({ description: value(e) })} /></label>
      <label>${s.prompt}<textarea part="input" class="prompt" name="prompt" rows="6" spellcheck="false" .value=${d.prompt} @input=${(e: Event) => this.patchCreate({ prompt: value(e) })}></textarea></label>
      <div class="row">
        ${applies('model', d.type) ? html`<label>${s.model}<input part="input" name="model" .value=${d.model} @input=${(e: Event) => this.patchCreate({ model: value(e) })} /></label>` : nothing}
        ${numberField('temperature')} ${numberField('bias')} ${numberField('stickness')}
      </div>
      ${applies('default_message', d.type) ? html`<label>${s.defaultMessage}<textarea part="input" name="default_message" rows="2" .value=${d.default_message} @input=${(e: Event) => this.patchCreate({ default_message: value(e) })}></textarea></label>` : nothing}
      ${applies('use_all_sources', d.type) ? html`<label class="inline"><input type="checkbox" name="use_all_sources" .checked=${d.use_all_sources} @change=${(e: Event) => this.patchCreate({ use_all_sources: checked(e) })} />${s.useAllSources}</label>` : nothing}
      ${applies('tags', d.type) ? this.renderCreateTags(d) : nothing}
      ${this.renderError('create')}
      <div class="actions">
        <button type="submit" class="primary" part="button primary" ?disabled=${this.busy.has('create')}>${s.createAgent}</button>
      </div>
    </form>`;
  }

  private renderCreateTags(d: CreateDraft) {
    const s = this.strings;
    // Handlers read the current draft, not this render's: several edits may land before a render.
    const patchTag = (i: number, p: Partial<AgentTag>) =>
      this.patchCreate({
        tags: this.createDraft.tags.map((t, j) => (j === i ? { ...t, ...p } : t)),
      });
    return html`<fieldset>
      <legend>${s.agentTags}</legend>
      ${d.tags.map(
        (t, i) => html`<div class="row" role="group" aria-label="${s.agentTags} ${i + 1}">
          <label>${s.tagName}<input part="input" name="tag-name" .value=${t.name} @input=${(e: Event) => patchTag(i, { name: value(e) })} /></label>
          <label>${s.color}<input part="input" name="tag-color" .value=${t.color} placeholder="#RRGGBB" aria-invalid=${HEX_COLOR.test(t.color) ? 'false' : 'true'} @input=${(e: Event) => patchTag(i, { color: value(e) })} /></label>
          <input type="color" aria-label=${s.colorPicker} .value=${HEX_COLOR.test(t.color) ? t.color.toLowerCase() : '#000000'} @input=${(e: Event) => patchTag(i, { color: value(e) })} />
          <label>${s.criteria}<input part="input" name="tag-criteria" .value=${t.criteria} @input=${(e: Event) => patchTag(i, { criteria: value(e) })} /></label>
          <button type="button" part="button" aria-label=${fill(s.removeRow, { n: i + 1 })} @click=${() => this.patchCreate({ tags: d.tags.filter((_, j) => j !== i) })}>✕</button>
        </div>`,
      )}
      <button type="button" part="button" @click=${() => this.patchCreate({ tags: [...d.tags, { name: '', color: '#2563eb', criteria: '' }] })}>${s.addTag}</button>
    </fieldset>`;
  }
}
