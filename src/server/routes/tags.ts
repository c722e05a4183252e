import { Hono } from 'hono';
import { jsonBody } from '../body.js';
import {
  type AppEnv,
  ownedChatbot,
  ownedTag,
  ownSourceUuids,
  type ServerContext,
} from '../context.js';
import { type Fields, newUuid, notFound, now } from '../http.js';
import { tagRecord } from '../records.js';

const createBody = (fields: Fields) => ({
  name: fields.string('name', { required: true, max: 200 }),
  color: fields.color('color', true)!,
  data_source_uuids: fields.strings('data_source_uuids'),
});
const updateBody = (fields: Fields) => ({
  name: fields.string('name', { max: 200, nonEmpty: true }),
  color: fields.color('color'),
  data_source_uuids: fields.strings('data_source_uuids'),
});

export function tagRoutes(ctx: ServerContext) {
  const { store } = ctx;

  return new Hono<AppEnv>()
    .get('/api/v1/chatbot/:uuid/source-tags', async (c) => {
      const chatbot = await ownedChatbot(ctx, c.get('auth'), c.req.param('uuid'));
      return c.json((await store.listTags(chatbot.uuid)).map(tagRecord));
    })
    .post('/api/v1/chatbot/:uuid/source-tag/create', jsonBody(createBody), async (c) => {
      const chatbot = await ownedChatbot(ctx, c.get('auth'), c.req.param('uuid'));
      const body = c.get('body');
      const t = now();
      const uuid = newUuid();
      await store.createTag({
        uuid,
        chatbotUuid: chatbot.uuid,
        name: body.name,
        color: body.color,
        data_source_uuids: (await ownSourceUuids(ctx, chatbot.uuid, body.data_source_uuids)) ?? [],
        created_at: t,
        modified_at: t,
      });
      return c.json(tagRecord((await store.getTag(uuid))!));
    })
    .post('/api/v1/source-tag/:uuid/update', jsonBody(updateBody), async (c) => {
      const tag = await ownedTag(ctx, c.get('auth'), c.req.param('uuid'));
      const body = c.get('body');
      const sources = await ownSourceUuids(ctx, tag.chatbotUuid, body.data_source_uuids);
      await store.updateTag(
        tag.uuid,
        {
          ...(body.name !== undefined ? { name: body.name } : {}),
          ...(body.color !== undefined ? { color: body.color } : {}),
          ...(sources !== undefined ? { data_source_uuids: sources } : {}),
        },
        now(),
      );
      return c.json(tagRecord((await store.getTag(tag.uuid))!));
    })
    .on(['POST', 'DELETE'], '/api/v1/source-tag/:uuid/delete', async (c) => {
      const tag = await ownedTag(ctx, c.get('auth'), c.req.param('uuid'));
      if (!(await store.deleteTag(tag.uuid))) throw notFound('source tag');
      return c.json({ success: true });
    });
}
