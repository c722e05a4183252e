import { Hono } from 'hono';
import { jsonBody } from '../body.js';
import { type AppEnv, ownedChatbot, type ServerContext } from '../context.js';
import { badInput, type Fields, newUuid, now } from '../http.js';
import { parseOrigin } from '../origins.js';
import { chatbotRecord } from '../records.js';
import type { ChatbotSettings } from '../store/types.js';
import { agentDefaults } from './agents.js';

export const DEFAULT_RATE_LIMIT: [number, number] = [20, 240];
export const DEFAULT_RATE_LIMIT_MESSAGE =
  'You are sending messages too fast. Please wait a moment and try again.';

function parseSettings(fields: Fields) {
  const rateLimit = fields.array('rate_limit');
  if (rateLimit !== undefined) {
    if (
      rateLimit.length !== 2 ||
      !rateLimit.every((n) => typeof n === 'number' && Number.isFinite(n) && n > 0)
    ) {
      throw badInput('rate_limit must be two positive numbers: [messages, seconds]');
    }
  }
  const settings: Partial<ChatbotSettings> = {};
  if (rateLimit) settings.rate_limit = rateLimit as [number, number];
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
      throw badInput(
        `allowed_origins[${i}] ${shown} is not an origin: write scheme://host[:port] without a path, such as https://shop.example`,
      );
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
        rate_limit: body.rate_limit ?? DEFAULT_RATE_LIMIT,
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
      await store.deleteChatbot(chatbot.uuid);
      ctx.knowledge.forgetChatbot(chatbot.uuid);
      return c.json({ success: true });
    });
}
