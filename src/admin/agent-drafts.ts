import type {
  Agent,
  AgentCreate,
  AgentTag,
  AgentType,
  AgentUpdate,
  AgentVariable,
  HumanEscalationSettings,
} from '../api/types.js';
import { fill } from '../ui/i18n.js';
import type { AdminStrings } from '../ui/strings/admin.js';
import { type FieldProblems, tooLong } from './field-problems.js';
import { HEX_COLOR, unitNumber } from './format.js';

// The agents panel's forms as data: what each holds while the user types, and the request body
// it becomes once checked. Which settings a form offers depends on the agent's type.

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

export const applies = (setting: keyof typeof APPLIES, type: AgentType) =>
  (APPLIES[setting] as AgentType[]).includes(type);

export interface CreateDraft {
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
  /** The service creates every agent disabled: enable it at once after creating (a second request). */
  enable: boolean;
}

export interface EditDraft {
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

export const emptyCreate = (): CreateDraft => ({
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
  enable: false,
});

export const emptyVariable = (): AgentVariable => ({
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

export function editDraftOf(agent: Agent): EditDraft {
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

/**
 * The longest text the server takes in each field of an agent (src/server/routes/agents.ts);
 * past it the whole save is refused with a 400, so each is said beside its field first.
 */
const TEXT_MAX = {
  name: 200,
  description: 10_000,
  prompt: 100_000,
  model: 200,
  default_message: 10_000,
  tagName: 200,
  criteria: 2000,
  variableName: 200,
  variableDescription: 2000,
  example: 2000,
  variableType: 50,
  defaultValue: 10_000,
  escalationMessage: 10_000,
} as const;

const ESCALATION_MESSAGES = [
  'human_requested_message',
  'live_chat_start_announcement',
  'live_chat_end_announcement',
] as const;

/** Collects the problems of a form, one per field, keyed as `FieldProblems` are. */
class Problems {
  readonly found: Record<string, string> = {};

  constructor(
    private readonly s: AdminStrings,
    private readonly lang: string,
  ) {}

  /** The name as it is sent (trimmed): required, and no longer than the server takes. */
  name(name: string): void {
    const trimmed = name.trim();
    if (!trimmed) this.found.name = this.s.nameRequired;
    else this.length('name', trimmed, TEXT_MAX.name);
  }

  length(key: string, text: string, max: number): void {
    const problem = tooLong(text, max, this.s, this.lang);
    if (problem) this.found[key] = problem;
  }
}

/** A request body, or every field the user must correct first. */
export type Checked<T> = { readonly body: T } | { readonly invalid: FieldProblems };

const NUMBER_FIELDS = ['temperature', 'bias', 'stickness'] as const;

/** Every problem of a create form at once, so the user corrects them in one pass. */
export function createProblems(d: CreateDraft, s: AdminStrings, lang = 'en'): FieldProblems {
  const problems = new Problems(s, lang);
  const { found } = problems;
  problems.name(d.name);
  problems.length('description', d.description, TEXT_MAX.description);
  problems.length('prompt', d.prompt, TEXT_MAX.prompt);
  if (applies('model', d.type)) problems.length('model', d.model.trim(), TEXT_MAX.model);
  for (const field of NUMBER_FIELDS) {
    if (applies(field, d.type) && unitNumber(d[field]) === null) {
      found[field] = fill(s.rangeInvalid, { field: s[field] });
    }
  }
  if (applies('default_message', d.type)) {
    problems.length('default_message', d.default_message, TEXT_MAX.default_message);
  }
  if (applies('tags', d.type)) {
    // Unnamed rows are dropped on create, so nothing else in them can be wrong.
    d.tags.forEach((t, i) => {
      if (!t.name.trim()) return;
      problems.length(`tag-name-${i}`, t.name, TEXT_MAX.tagName);
      if (!HEX_COLOR.test(t.color)) found[`tag-color-${i}`] = s.colorInvalid;
      problems.length(`tag-criteria-${i}`, t.criteria, TEXT_MAX.criteria);
    });
  }
  return found;
}

/** Every problem of the edit form of an agent of `type`. */
export function updateProblems(
  type: AgentType,
  d: EditDraft,
  s: AdminStrings,
  lang = 'en',
): FieldProblems {
  const problems = new Problems(s, lang);
  const { found } = problems;
  problems.name(d.name);
  problems.length('description', d.description, TEXT_MAX.description);
  problems.length('prompt', d.prompt, TEXT_MAX.prompt);
  if (applies('model', type)) problems.length('model', d.model, TEXT_MAX.model);
  if (applies('temperature', type) && unitNumber(d.temperature) === null) {
    found.temperature = fill(s.rangeInvalid, { field: s.temperature });
  }
  // Unnamed rows are dropped on save, as on create.
  d.variables.forEach((v, i) => {
    if (!v.name.trim()) return;
    problems.length(`variable-name-${i}`, v.name, TEXT_MAX.variableName);
    problems.length(`variable-description-${i}`, v.description, TEXT_MAX.variableDescription);
    problems.length(`variable-example-${i}`, v.example, TEXT_MAX.example);
    problems.length(`variable-type-${i}`, v.type, TEXT_MAX.variableType);
    const content = v.default_value?.content ?? '';
    problems.length(`variable-default-${i}`, content, TEXT_MAX.defaultValue);
  });
  if (d.escalation) {
    for (const key of ESCALATION_MESSAGES) {
      problems.length(key, d.escalation[key], TEXT_MAX.escalationMessage);
    }
  }
  return found;
}

const hasProblems = (problems: FieldProblems) => Object.keys(problems).length > 0;

/** The body that creates an agent from the draft: only the settings its type takes. */
export function createBody(d: CreateDraft, s: AdminStrings, lang = 'en'): Checked<AgentCreate> {
  const problems = createProblems(d, s, lang);
  if (hasProblems(problems)) return { invalid: problems };
  const body: AgentCreate = {
    name: d.name.trim(),
    type: d.type,
    description: d.description,
    prompt: d.prompt,
  };
  if (applies('model', d.type) && d.model.trim()) body.model = d.model.trim();
  for (const field of NUMBER_FIELDS) {
    const parsed = applies(field, d.type) ? unitNumber(d[field]) : undefined;
    if (parsed != null) body[field] = parsed;
  }
  if (applies('default_message', d.type)) body.default_message = d.default_message;
  if (applies('tags', d.type)) body.tags = d.tags.filter((t) => t.name.trim());
  if (applies('use_all_sources', d.type)) body.use_all_sources = d.use_all_sources;
  return { body };
}

/** The body that saves the edit form of `agent`: what its type lets the update endpoint change. */
export function updateBody(
  agent: Agent,
  d: EditDraft,
  s: AdminStrings,
  lang = 'en',
): Checked<AgentUpdate> {
  const problems = updateProblems(agent.type, d, s, lang);
  if (hasProblems(problems)) return { invalid: problems };
  const body: AgentUpdate = {
    name: d.name.trim(),
    description: d.description,
    prompt: d.prompt,
    data_source_uuids: d.data_source_uuids,
  };
  if (applies('model', agent.type)) body.model = d.model;
  const temperature = applies('temperature', agent.type) ? unitNumber(d.temperature) : undefined;
  if (temperature != null) body.temperature = temperature;
  if (applies('use_all_sources', agent.type)) body.use_all_sources = d.use_all_sources;
  if (d.variablesTouched || agent.variables) {
    body.variables = d.variables.filter((v) => v.name.trim());
  }
  if (d.escalation) body.human_escalation_settings = d.escalation;
  return { body };
}
