import { Hono } from 'hono';
import {
  AGENT_TYPES,
  type AgentMeta,
  type AgentTag,
  type AgentType,
  type AgentVariable,
  type HumanEscalationSettings,
} from '../../api/types.js';
import { jsonBody } from '../body.js';
import {
  type AppEnv,
  ownedAgent,
  ownedChatbot,
  ownSourceUuids,
  type ServerContext,
} from '../context.js';
import { badInput, Fields, newUuid, notFound, now } from '../http.js';
import { agentRecord, defaultEscalationSettings, defaultMeta, META_MEMBERS } from '../records.js';
import type { AgentRow } from '../store/types.js';

export function agentDefaults(chatbotUuid: string, type: AgentType, t: string): AgentRow {
  return {
    uuid: newUuid(),
    chatbotUuid,
    name: '',
    type,
    description: '',
    prompt: '',
    enabled: false,
    meta: defaultMeta(type),
    data_source_uuids: [],
    human_escalation_settings: type === 'human-escalation' ? defaultEscalationSettings() : null,
    variables: [],
    created_at: t,
    modified_at: t,
  };
}

/**
 * Type-specific settings, inside `meta` or top-level (public clients send them top-level; a
 * top-level member wins). Members that do not apply to the agent's type are ignored, so a client
 * that sends every member for every type is not refused.
 */
function parseMeta(fields: Fields, type: AgentType): AgentMeta {
  const sources = [fields.object('meta'), fields].filter((f): f is Fields => f !== undefined);
  const meta: AgentMeta = {};
  for (const f of sources) {
    const model = f.string('model', { max: 200, nonEmpty: true });
    const temperature = f.number('temperature', { min: 0, max: 1 });
    const useAll = f.boolean('use_all_sources');
    const bias = f.number('bias', { min: -1, max: 1 });
    const stickness = f.number('stickness', { min: 0, max: 1 });
    const message = f.string('default_message', { max: 10_000 });
    const tags = parseTags(f);
    if (model !== undefined) meta.model = model;
    if (temperature !== undefined) meta.temperature = temperature;
    if (useAll !== undefined) meta.use_all_sources = useAll;
    if (bias !== undefined) meta.bias = bias;
    if (stickness !== undefined) meta.stickness = stickness;
    if (message !== undefined) meta.default_message = message;
    if (tags !== undefined) meta.tags = tags;
  }
  const allowed = new Set<string>(META_MEMBERS[type]);
  return Object.fromEntries(Object.entries(meta).filter(([k]) => allowed.has(k))) as AgentMeta;
}

/**
 * How many tags and variables an agent may have: bounded as monitored messages are
 * (MONITORED_MAX), since each is stored and sent back in the agent's records (tags in every
 * agents list); a hundred is far more than one agent's prompt can use.
 */
const TAGS_MAX = 100;
const VARIABLES_MAX = 100;

function parseTags(fields: Fields): AgentTag[] | undefined {
  const list = fields.array('tags', { max: TAGS_MAX });
  return list?.map((item, i) => {
    const tag = new Fields(item, `${fields.prefix}tags[${i}].`);
    return {
      name: tag.string('name', { required: true, max: 200 }),
      color: tag.color('color', true)!,
      criteria: tag.string('criteria', { max: 2000 }) ?? '',
    };
  });
}

function parseVariables(fields: Fields): AgentVariable[] | undefined {
  return fields.array('variables', { max: VARIABLES_MAX })?.map((item, i) => {
    const v = new Fields(item, `${fields.prefix}variables[${i}].`);
    const defaults = v.object('default_value');
    const isStatic = defaults?.flag('static');
    return {
      name: v.string('name', { required: true, max: 200 }),
      description: v.string('description', { max: 2000 }) ?? '',
      example: v.string('example', { max: 2000 }) ?? '',
      type: v.string('type', { max: 50, nonEmpty: true }) ?? 'string',
      default_value: {
        content: defaults?.string('content', { max: 10_000 }) ?? '',
        static: isStatic ? 1 : 0,
      },
    };
  });
}

/** Items a list of monitored messages holds, and how deep one may nest (a string is 0 deep). */
const MONITORED_MAX = 1000;
const MONITORED_DEPTH = 4;

/**
 * The interface does not show what a monitored message is, so any JSON value is kept; but as a
 * stored value the agents list reads back on every request, each is bounded: at most
 * MONITORED_DEPTH levels of nesting and 10,000 characters.
 */
function monitoredMessages(f: Fields): unknown[] | undefined {
  const list = f.array('monitored_messages');
  if (!list) return undefined;
  const name = 'human_escalation_settings.monitored_messages';
  if (list.length > MONITORED_MAX) {
    throw badInput(`${name} must have at most ${MONITORED_MAX} items`);
  }
  list.forEach((item, i) => {
    if (depthOf(item) > MONITORED_DEPTH) {
      throw badInput(`${name}[${i}] must be nested at most ${MONITORED_DEPTH} levels deep`);
    }
    if (JSON.stringify(item).length > 10_000) {
      throw badInput(`${name}[${i}] must be at most 10000 characters as JSON`);
    }
  });
  return list;
}

/** How deep a parsed JSON value nests, counted without recursion (a scalar is 0). */
function depthOf(value: unknown): number {
  let deepest = 0;
  const open: Array<[unknown, number]> = [[value, 0]];
  for (let next = open.pop(); next; next = open.pop()) {
    const [item, depth] = next;
    if (typeof item !== 'object' || item === null) continue;
    deepest = Math.max(deepest, depth + 1);
    for (const member of Object.values(item)) open.push([member, depth + 1]);
  }
  return deepest;
}

function parseEscalation(
  fields: Fields,
  current: HumanEscalationSettings,
): HumanEscalationSettings | undefined {
  const f = fields.object('human_escalation_settings');
  if (!f) return undefined;
  const text = (name: keyof HumanEscalationSettings) => f.string(name, { max: 10_000 });
  const flag = (name: 'notifications_enabled' | 'sound_enabled') => {
    const value = f.flag(name);
    return value === undefined ? current[name] : value ? 1 : 0;
  };
  return {
    human_requested_message: text('human_requested_message') ?? current.human_requested_message,
    live_chat_start_announcement:
      text('live_chat_start_announcement') ?? current.live_chat_start_announcement,
    live_chat_end_announcement:
      text('live_chat_end_announcement') ?? current.live_chat_end_announcement,
    monitored_messages: monitoredMessages(f) ?? current.monitored_messages,
    notifications_enabled: flag('notifications_enabled'),
    sound_enabled: flag('sound_enabled'),
  };
}

const createBody = (fields: Fields) => {
  const name = fields.string('name', { required: true, max: 200 });
  const type = fields.string('type', { required: true });
  if (!AGENT_TYPES.includes(type as AgentType)) {
    throw badInput(`type must be one of ${AGENT_TYPES.join(', ')}`);
  }
  // Refused when malformed whatever the type, and kept only on human-escalation agents.
  parseEscalation(fields, defaultEscalationSettings());
  return {
    fields,
    name,
    type: type as AgentType,
    description: fields.string('description', { max: 10_000 }),
    prompt: fields.string('prompt', { max: 100_000 }),
    meta: parseMeta(fields, type as AgentType),
    variables: parseVariables(fields),
    data_source_uuids: fields.strings('data_source_uuids'),
  };
};

/**
 * The body is read against the agent's type, which only the handler knows; parse there. As the
 * type-specific meta members are (parseMeta), `human_escalation_settings` is read whatever the
 * type, and refused when malformed, but kept only on human-escalation agents: the hosted
 * service's update takes it with no word of the type, and records carry it only where it applies.
 */
const updateBody = (fields: Fields) => {
  fields.string('name', { max: 200, nonEmpty: true });
  fields.string('description', { max: 10_000 });
  fields.string('prompt', { max: 100_000 });
  fields.string('type');
  fields.flag('enabled');
  fields.strings('data_source_uuids');
  parseVariables(fields);
  parseEscalation(fields, defaultEscalationSettings());
  return fields;
};

export function agentRoutes(ctx: ServerContext) {
  const { store } = ctx;

  return new Hono<AppEnv>()
    .post('/api/v1/chatbot/:uuid/agent/create', jsonBody(createBody), async (c) => {
      const chatbot = await ownedChatbot(ctx, c.get('auth'), c.req.param('uuid'));
      const body = c.get('body');
      const base = agentDefaults(chatbot.uuid, body.type, now());
      const escalation =
        body.type === 'human-escalation'
          ? parseEscalation(body.fields, base.human_escalation_settings!)
          : undefined;
      const row: AgentRow = {
        ...base,
        name: body.name,
        description: body.description ?? '',
        prompt: body.prompt ?? '',
        meta: { ...base.meta, ...body.meta },
        human_escalation_settings: escalation ?? base.human_escalation_settings,
        variables: body.variables ?? [],
        data_source_uuids: (await ownSourceUuids(ctx, chatbot.uuid, body.data_source_uuids)) ?? [],
      };
      await store.createAgent(row);
      return c.json(agentRecord((await store.getAgent(row.uuid))!, 'create'));
    })
    .get('/api/v1/chatbot/:uuid/agents', async (c) => {
      const chatbot = await ownedChatbot(ctx, c.get('auth'), c.req.param('uuid'));
      return c.json((await store.listAgents(chatbot.uuid)).map((a) => agentRecord(a, 'list')));
    })
    .post('/api/v1/agent/:uuid/update', jsonBody(updateBody), async (c) => {
      const agent = await ownedAgent(ctx, c.get('auth'), c.req.param('uuid'));
      const fields = c.get('body');
      // Sent back unchanged, as in a record read before, the type is no change; another is one
      // the agent cannot make: its settings and its place in answering are its type's.
      const type = fields.string('type');
      if (type !== undefined && !AGENT_TYPES.includes(type as AgentType)) {
        throw badInput(`type must be one of ${AGENT_TYPES.join(', ')}`);
      }
      if (type !== undefined && type !== agent.type) {
        throw badInput(
          `type cannot be changed (the agent is ${agent.type}): create an agent of that type instead`,
        );
      }
      const patch: Partial<AgentRow> = {};
      const name = fields.string('name');
      const description = fields.string('description');
      const prompt = fields.string('prompt');
      const enabled = fields.flag('enabled');
      const variables = parseVariables(fields);
      const sources = await ownSourceUuids(
        ctx,
        agent.chatbotUuid,
        fields.strings('data_source_uuids'),
      );
      const escalation =
        agent.type === 'human-escalation' && agent.human_escalation_settings
          ? parseEscalation(fields, agent.human_escalation_settings)
          : undefined;
      if (name !== undefined) patch.name = name;
      if (description !== undefined) patch.description = description;
      if (prompt !== undefined) patch.prompt = prompt;
      if (enabled !== undefined) patch.enabled = enabled;
      if (variables !== undefined) patch.variables = variables;
      if (sources !== undefined) patch.data_source_uuids = sources;
      if (escalation !== undefined) patch.human_escalation_settings = escalation;
      patch.meta = { ...agent.meta, ...parseMeta(fields, agent.type) };
      await store.updateAgent(agent.uuid, patch, now());
      return c.json(agentRecord((await store.getAgent(agent.uuid))!, 'update'));
    })
    .on(['POST', 'DELETE'], '/api/v1/agent/:uuid/delete', async (c) => {
      const agent = await ownedAgent(ctx, c.get('auth'), c.req.param('uuid'));
      if (!(await store.deleteAgent(agent.uuid))) throw notFound('agent');
      return c.json({ success: true });
    });
}
