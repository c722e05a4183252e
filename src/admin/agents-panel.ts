import { html, nothing } from 'lit';
import { state } from 'lit/decorators.js';
import { repeat } from 'lit/directives/repeat.js';
import {
  AGENT_TYPES,
  type Agent,
  type AgentTag,
  type AgentType,
  type AgentVariable,
  type DataSource,
  type HumanEscalationSettings,
} from '../api/types.js';
import { fill } from '../ui/i18n.js';
import type { AdminStrings } from '../ui/strings/admin.js';
import {
  applies,
  type CreateDraft,
  createBody,
  createProblems,
  type EditDraft,
  editDraftOf,
  emptyCreate,
  emptyVariable,
  updateBody,
  updateProblems,
} from './agent-drafts.js';
import { renderReadOnlyMeta, renderToolFunctions } from './agent-views.js';
import {
  type FieldProblem,
  type FieldProblems,
  focusFirstInvalid,
  problemOf,
} from './field-problems.js';
import { HEX_COLOR, isEnabled } from './format.js';
import { AdminPanel, ariaDisabled } from './panel.js';
import { textField } from './text-field.js';

/** An agent's type in the admin's language; its value (the API's) stays in the select. */
const TYPE_NAMES = {
  'user-facing': 'typeUserFacing',
  background: 'typeBackground',
  'human-escalation': 'typeHumanEscalation',
  'pre-canned': 'typePreCanned',
  'spam-defense': 'typeSpamDefense',
} as const satisfies Record<AgentType, keyof AdminStrings>;
const typeName = (type: AgentType, s: AdminStrings) => s[TYPE_NAMES[type]] ?? type;

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
  /** Forms (`create`, `edit-<uuid>`) refused once: a blank name is a problem from then on. */
  @state() private refused: ReadonlySet<string> = new Set();

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

  /** The problems form `key` shows: a wrong value at once, a missing name once refused. */
  private shownProblems(key: string, name: string, problems: FieldProblems): FieldProblems {
    if (this.refused.has(key) || name.trim()) return problems;
    const { name: _notYet, ...typed } = problems;
    return typed;
  }

  private setRefused(key: string, refused: boolean): void {
    const next = new Set(this.refused);
    if (refused) next.add(key);
    else next.delete(key);
    this.refused = next;
  }

  /** Marks every problem of `form` at once and takes the user to the first. */
  private async refuse(key: string, form: HTMLFormElement): Promise<void> {
    this.setRefused(key, true);
    await focusFirstInvalid(this, form);
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
    this.setRefused(`edit-${agent.uuid}`, false);
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
    const key = `edit-${agent.uuid}`;
    const request = updateBody(agent, d, this.strings, this.lang);
    if ('invalid' in request) return this.refuse(key, event.target as HTMLFormElement);
    const { body } = request;
    const result = await this.run(key, 'agents.update', () =>
      client.agents.update(agent.uuid, body),
    );
    if (!result.ok) return;
    const current = this.agents.find((a) => a.uuid === agent.uuid) ?? agent;
    const updated = { ...current, ...result.value };
    this.replaceAgent(agent.uuid, updated);
    this.editDraft = editDraftOf(updated);
    this.savedUuid = agent.uuid;
    this.setRefused(key, false);
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
    void this.removeRow('li.agent', '#new-agent', () => {
      this.replaceAgent(agent.uuid, undefined);
      if (this.editing === agent.uuid) this.editing = null;
    });
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
    const request = createBody(d, this.strings, this.lang);
    if ('invalid' in request) return this.refuse('create', event.target as HTMLFormElement);
    const { body } = request;
    const result = await this.run('create', 'agents.create', () =>
      client.agents.create(chatbot.uuid, body),
    );
    if (!result.ok) return;
    const agent = result.value;
    this.agents = [...this.agents, agent];
    this.createDraft = { ...emptyCreate(), type: d.type, enable: d.enable };
    this.setRefused('create', false);
    this.changed({ kind: 'agent', action: 'create', uuids: [agent.uuid] });
    // Refused, the new row's switch stays off with the reason under it, as a click on it would.
    if (d.enable && !isEnabled(agent.enabled)) await this.handleEnabledChange(agent, true);
  }

  override render() {
    const s = this.strings;
    const pending = this.agentsTask.render({
      pending: () => (this.agents.length ? nothing : this.renderPending()),
      error: (error) => this.renderLoadError(error, () => this.agentsTask.run(), 'agents.list'),
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
          (agent) => html`<li class="agent">${this.renderAgent(agent)}</li>`,
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
        <h3 id=${headingId} class="user-text flush" dir="auto">${agent.name}</h3>
        <span class="badge">${typeName(agent.type, s)}</span>
        <span class="spacer"></span>
        <span class="controls">
          <label class="inline"
            ><input
              type="checkbox"
              role="switch"
              aria-label=${fill(s.enabledFor, { name: agent.name })}
              .checked=${on}
              aria-checked=${on ? 'true' : 'false'}
              aria-disabled=${ariaDisabled(this.busy.has(`enabled-${agent.uuid}`))}
              @change=${(e: Event) => this.handleEnabledChange(agent, checked(e))}
            />${s.enabled}</label
          >
          <span class="controls">
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
              aria-label=${fill(s.deleteAgent, { name: agent.name })}
              aria-disabled=${ariaDisabled(this.busy.has(`delete-${agent.uuid}`))}
              @click=${() => this.handleDeleteClick(agent)}
            >
              ${s.delete}
            </button>
          </span>
        </span>
      </div>
      ${agent.description ? html`<p class="muted user-text" dir="auto">${agent.description}</p>` : nothing}
      ${this.renderError(`enabled-${agent.uuid}`)} ${this.renderError(`delete-${agent.uuid}`)}
      ${renderToolFunctions(agent.tool_functions ?? [], s)}
      ${open && this.editDraft ? this.renderEditForm(agent, this.editDraft) : nothing}
    </article>`;
  }

  private renderEditForm(agent: Agent, d: EditDraft) {
    const s = this.strings;
    const key = `edit-${agent.uuid}`;
    const problems = this.shownProblems(key, d.name, updateProblems(agent.type, d, s, this.lang));
    const p = (field: string) => problemOf(key, field, problems);
    return html`<form
      part="form"
      aria-label=${fill(s.editAgent, { name: agent.name })}
      @submit=${(e: SubmitEvent) => this.handleEditSubmit(e, agent)}
      novalidate
    >
      ${textField({ label: s.name, name: 'name', dir: 'auto', required: true, value: d.name, problem: p('name'), onInput: (name) => this.patchEdit({ name }) })}
      ${textField({ label: s.description, name: 'description', dir: 'auto', value: d.description, problem: p('description'), onInput: (description) => this.patchEdit({ description }) })}
      ${textField({ label: s.prompt, name: 'prompt', rows: 10, dir: 'auto', class: 'prompt', spellcheck: false, value: d.prompt, problem: p('prompt'), onInput: (prompt) => this.patchEdit({ prompt }) })}
      <div class="row">
        ${applies('model', agent.type) ? textField({ label: s.model, name: 'model', value: d.model, problem: p('model'), onInput: (model) => this.patchEdit({ model }) }) : nothing}
        ${applies('temperature', agent.type) ? textField({ label: s.temperature, name: 'temperature', inputmode: 'decimal', autocomplete: 'off', value: d.temperature, problem: p('temperature'), onInput: (temperature) => this.patchEdit({ temperature }) }) : nothing}
      </div>
      ${applies('use_all_sources', agent.type) ? html`<label class="inline"><input type="checkbox" name="use_all_sources" .checked=${d.use_all_sources} @change=${(e: Event) => this.patchEdit({ use_all_sources: checked(e) })} />${s.useAllSources}</label>` : nothing}
      ${renderReadOnlyMeta(agent, s)}
      ${this.renderVariables(d, p)}
      ${this.renderSourcePicker(d)}
      ${d.escalation ? this.renderEscalation(d.escalation, p) : nothing}
      ${this.renderError(key)}
      <div class="actions">
        <button type="submit" class="primary" part="button primary" aria-disabled=${ariaDisabled(this.busy.has(key))}>${s.save}</button>
        <span role="status" class="ok">${this.savedUuid === agent.uuid ? s.saved : ''}</span>
      </div>
    </form>`;
  }

  private renderVariables(d: EditDraft, p: (field: string) => FieldProblem) {
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
          ${textField({ label: s.variableName, name: 'variable-name', value: v.name, problem: p(`variable-name-${i}`), onInput: (name) => this.patchVariable(i, { name }) })}
          ${textField({ label: s.variableDescription, name: 'variable-description', dir: 'auto', value: v.description, problem: p(`variable-description-${i}`), onInput: (description) => this.patchVariable(i, { description }) })}
          ${textField({ label: s.example, name: 'variable-example', dir: 'auto', value: v.example, problem: p(`variable-example-${i}`), onInput: (example) => this.patchVariable(i, { example }) })}
          ${textField({ label: s.variableType, name: 'variable-type', list: 'variable-types', value: v.type, problem: p(`variable-type-${i}`), onInput: (type) => this.patchVariable(i, { type }) })}
          ${textField({ label: s.defaultValue, name: 'variable-default', dir: 'auto', value: v.default_value?.content ?? '', problem: p(`variable-default-${i}`), onInput: (content) => this.patchVariable(i, { default_value: { ...v.default_value, content } }) })}
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
                /><span class="user-text" dir="auto">${source.title || source.file_name}</span></label>`,
            )}
          </div>`
      }
    </fieldset>`;
  }

  private renderEscalation(h: HumanEscalationSettings, p: (field: string) => FieldProblem) {
    const s = this.strings;
    const patch = (change: Partial<HumanEscalationSettings>) =>
      this.patchEdit({ escalation: { ...this.editDraft!.escalation!, ...change } });
    const message = (
      field:
        | 'human_requested_message'
        | 'live_chat_start_announcement'
        | 'live_chat_end_announcement',
      label: string,
    ) =>
      textField({
        label,
        name: field,
        rows: 2,
        dir: 'auto',
        value: h[field],
        problem: p(field),
        onInput: (text) => patch({ [field]: text }),
      });
    return html`<fieldset>
      <legend>${s.escalation}</legend>
      ${message('human_requested_message', s.humanRequestedMessage)}
      ${message('live_chat_start_announcement', s.liveChatStart)}
      ${message('live_chat_end_announcement', s.liveChatEnd)}
      <label class="inline"><input type="checkbox" .checked=${isEnabled(h.notifications_enabled)} @change=${(e: Event) => patch({ notifications_enabled: checked(e) ? 1 : 0 })} />${s.notificationsEnabled}</label>
      <label class="inline"><input type="checkbox" .checked=${isEnabled(h.sound_enabled)} @change=${(e: Event) => patch({ sound_enabled: checked(e) ? 1 : 0 })} />${s.soundEnabled}</label>
    </fieldset>`;
  }

  private renderCreateForm() {
    const s = this.strings;
    const d = this.createDraft;
    const problems = this.shownProblems('create', d.name, createProblems(d, s, this.lang));
    const p = (field: string) => problemOf('create', field, problems);
    const numberField = (field: 'temperature' | 'bias' | 'stickness') =>
      applies(field, d.type)
        ? textField({
            label: s[field],
            name: field,
            inputmode: 'decimal',
            autocomplete: 'off',
            value: d[field],
            problem: p(field),
            onInput: (text) => this.patchCreate({ [field]: text }),
          })
        : nothing;
    return html`<form class="card" part="form card" aria-labelledby="new-agent" @submit=${this.handleCreateSubmit} novalidate>
      <h3 id="new-agent" tabindex="-1">${s.newAgent}</h3>
      <div class="row">
        ${textField({ label: s.name, name: 'name', dir: 'auto', required: true, autocomplete: 'off', value: d.name, problem: p('name'), onInput: (name) => this.patchCreate({ name }) })}
        <label>${s.type}<select part="input" name="type" .value=${d.type} @change=${(e: Event) => this.patchCreate({ type: value(e) as AgentType })}>
          ${AGENT_TYPES.map((t) => html`<option value=${t} ?selected=${t === d.type}>${typeName(t, s)}</option>`)}
        </select></label>
      </div>
      ${textField({ label: s.description, name: 'description', dir: 'auto', value: d.description, problem: p('description'), onInput: (description) => this.patchCreate({ description }) })}
      ${textField({ label: s.prompt, name: 'prompt', rows: 6, dir: 'auto', class: 'prompt', spellcheck: false, value: d.prompt, problem: p('prompt'), onInput: (prompt) => this.patchCreate({ prompt }) })}
      <div class="row">
        ${applies('model', d.type) ? textField({ label: s.model, name: 'model', value: d.model, problem: p('model'), onInput: (model) => this.patchCreate({ model }) }) : nothing}
        ${numberField('temperature')} ${numberField('bias')} ${numberField('stickness')}
      </div>
      ${applies('default_message', d.type) ? textField({ label: s.defaultMessage, name: 'default_message', rows: 2, dir: 'auto', value: d.default_message, problem: p('default_message'), onInput: (default_message) => this.patchCreate({ default_message }) }) : nothing}
      ${applies('use_all_sources', d.type) ? html`<label class="inline"><input type="checkbox" name="use_all_sources" .checked=${d.use_all_sources} @change=${(e: Event) => this.patchCreate({ use_all_sources: checked(e) })} />${s.useAllSources}</label>` : nothing}
      ${applies('tags', d.type) ? this.renderCreateTags(d, p) : nothing}
      <label class="inline"><input type="checkbox" name="enable" aria-describedby="enable-help" .checked=${d.enable} @change=${(e: Event) => this.patchCreate({ enable: checked(e) })} />${s.enableCreated}</label>
      <p class="help" id="enable-help">${s.enableCreatedHelp}</p>
      ${this.renderError('create')}
      <div class="actions">
        <button type="submit" class="primary" part="button primary" aria-disabled=${ariaDisabled(this.busy.has('create'))}>${s.createAgent}</button>
      </div>
    </form>`;
  }

  private renderCreateTags(d: CreateDraft, p: (field: string) => FieldProblem) {
    const s = this.strings;
    // Handlers read the current draft, not this render's: several edits may land before a render.
    const patchTag = (i: number, change: Partial<AgentTag>) =>
      this.patchCreate({
        tags: this.createDraft.tags.map((t, j) => (j === i ? { ...t, ...change } : t)),
      });
    return html`<fieldset>
      <legend>${s.agentTags}</legend>
      ${d.tags.map(
        (t, i) => html`<div class="row" role="group" aria-label="${s.agentTags} ${i + 1}">
          ${textField({ label: s.tagName, name: 'tag-name', dir: 'auto', value: t.name, problem: p(`tag-name-${i}`), onInput: (name) => patchTag(i, { name }) })}
          ${textField({ label: s.color, name: 'tag-color', placeholder: '#RRGGBB', value: t.color, problem: p(`tag-color-${i}`), onInput: (color) => patchTag(i, { color }) })}
          <input type="color" aria-label=${s.colorPicker} .value=${HEX_COLOR.test(t.color) ? t.color.toLowerCase() : '#000000'} @input=${(e: Event) => patchTag(i, { color: value(e) })} />
          ${textField({ label: s.criteria, name: 'tag-criteria', dir: 'auto', value: t.criteria, problem: p(`tag-criteria-${i}`), onInput: (criteria) => patchTag(i, { criteria }) })}
          <button type="button" part="button" aria-label=${fill(s.removeRow, { n: i + 1 })} @click=${() => this.patchCreate({ tags: d.tags.filter((_, j) => j !== i) })}>✕</button>
        </div>`,
      )}
      <button type="button" part="button" @click=${() => this.patchCreate({ tags: [...d.tags, { name: '', color: '#2563eb', criteria: '' }] })}>${s.addTag}</button>
    </fieldset>`;
  }
}
