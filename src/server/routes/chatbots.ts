import { Hono } from 'hono';
import { DEFAULT_RATE_LIMIT } from '../../api/types.js';
import { jsonBody } from '../body.js';
import { type AppEnv, ownedChatbot, type ServerContext } from '../context.js';
import { badInput, type Fields, newUuid, notFound, now } from '../http.js';
import { parseOrigin } from '../origins.js';
import { chatbotRecord } from '../records.js';
import type { ChatbotSettings } from '../store/types.js';
import { agentDefaults } from './agents.js';

export const DEFAULT_RATE_LIMIT_MESSAGE =
  'You are sending messages too fast. Please wait a moment and try again.';

/**
 * The largest `rate_limit` taken, [messages, seconds]: a million messages, or a window of a year,
 * is already no limit, and past them a number only breaks the limit (a 429 with `Retry-After:
 * Infinity`). Fractions are refused too: a count of messages, or of the seconds a 429 names, is
 * whole, as the admin's settings panel asks for.
 */
export const RATE_LIMIT_MAX: [number, number] = [1_000_000, 31_536_000];

function parseRateLimit(fields: Fields): [number, number] | undefined {
  const value = fields.array('rate_limit');
  if (value === undefined) return undefined;
  const [messages, seconds] = RATE_LIMIT_MAX;
  if (value.length !== 2 || !wholeUpTo(value[0], messages) || !wholeUpTo(value[1], seconds)) {
    throw badInput(
      `rate_limit must be [messages, seconds], two whole numbers: messages from 1 to ${messages}, seconds from 1 to ${seconds} (a year)`,
    );
  }
  return value as [number, number];
}

const wholeUpTo = (n: unknown, max: number) =>
  Number.isInteger(n) && 1 <= (n as number) && (n as number) <= max;

function parseSettings(fields: Fields) {
  const rateLimit = parseRateLimit(fields);
  const settings: Partial<ChatbotSettings> = {};
  if (rateLimit) settings.rate_limit = rateLimit;
  const message = fields.string('rate_limit_message', { max: 1000 });
  if (message !== undefined) settings.rate_limit_message = message;
  const citations = fields.boolean('show_citations');
  if (citations !== undefined) settings.show_citations = citations;
  const visibility = fields.string('visibility', { max: 50, nonEmpty: true });
  if (visibility !== undefined) settings.visibility = visibility;
  const origins = parseOrigins(fields);
  if (origins !== undefined) settings.allowed_origins = origins;
  return settings;
}

/** `allowed_origins`: each entry an origin, kept as browsers send it, without repeats. */
function parseOrigins(fields: Fields): string[] | undefined {
  const entries = fields.strings('allowed_origins', { max: 100 });
  const origins = entries?.map((entry, i) => {
    const origin = entry.length <= 300 ? parseOrigin(entry.trim()) : null;
    if (!origin) {
      const shown = JSON.stringify(entry.length > 80 ? `${entry.slice(0, 80)}…` : entry);
      // Origins are compared as text, never as patterns: a `*` would match no page at all.
      const fix = entry.includes('*')
        ? 'wildcards are not supported; list each origin, such as https://shop.example'
        : 'write scheme://host[:port] without a path, such as https://shop.example';
      throw badInput(`allowed_origins[${i}] ${shown} is not an origin: ${fix}`);
    }
    return origin;
  });
  return origins && [...new Set(origins)];
}

const createBody = (fields: Fields) => ({
  name: fields.string('name', { required: true, max: 200 }),
  ...parseSettings(fields),
});
const updateBody = (fields: Fields) => ({
  name: fields.string('name', { max: 200, nonEmpty: true }),
  ...parseSettings(fields),
});

export function chatbotRoutes(ctx: ServerContext) {
  const { store } = ctx;
  return new Hono<AppEnv>()
    .get('/api/v1/chatbots', async (c) =>
      c.json((await store.listChatbots(c.get('auth').userId)).map(chatbotRecord)),
    )
    .post('/api/v1/chatbot/create', jsonBody(createBody), async (c) => {
      const body = c.get('body');
      const t = now();
      const uuid = newUuid();
      await store.createChatbot({
        uuid,
        userId: c.get('auth').userId,
        name: body.name,
        rate_limit: body.rate_limit ?? [...DEFAULT_RATE_LIMIT],
        rate_limit_message: body.rate_limit_message ?? DEFAULT_RATE_LIMIT_MESSAGE,
        show_citations: body.show_citations ?? true,
        visibility: body.visibility ?? 'private',
        allowed_origins: body.allowed_origins ?? [],
        created_at: t,
        modified_at: t,
      });
      // Chatting works at once: every new chatbot starts with an enabled user-facing agent.
      await store.createAgent({
        ...agentDefaults(uuid, 'user-facing', t),
        name: 'Assistant',
        description: 'Answers visitors from the chatbot’s sources.',
        enabled: true,
      });
      return c.json(chatbotRecord((await store.getChatbot(uuid))!));
    })
    .get('/api/v1/chatbot/:uuid', async (c) =>
      c.json(chatbotRecord(await ownedChatbot(ctx, c.get('auth'), c.req.param('uuid')))),
    )
    .post('/api/v1/chatbot/:uuid/update', jsonBody(updateBody), async (c) => {
      const chatbot = await ownedChatbot(ctx, c.get('auth'), c.req.param('uuid'));
      const { name, ...settings } = c.get('body');
      await store.updateChatbot(
        chatbot.uuid,
        { ...(name !== undefined ? { name } : {}), ...settings },
        now(),
      );
      return c.json(chatbotRecord((await store.getChatbot(chatbot.uuid))!));
    })
    .on(['POST', 'DELETE'], '/api/v1/chatbot/:uuid/delete', async (c) => {
      const chatbot = await ownedChatbot(ctx, c.get('auth'), c.req.param('uuid'));
      // Another request may have deleted it since it was read: then this one found nothing.
      if (!(await store.deleteChatbot(chatbot.uuid))) throw notFound('chatbot');
      ctx.knowledge.forgetChatbot(chatbot.uuid);
      return c.json({ success: true });
    });
}
