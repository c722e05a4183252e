import { lookup } from 'node:dns/promises';
import { Hono } from 'hono';
import type { RescrapeResult } from '../../api/types.js';
import { jsonBody, readBody, refuseDeclaredLength } from '../body.js';
import {
  type AppEnv,
  findOwnedSource,
  ownedChatbot,
  ownedSource,
  type ServerContext,
} from '../context.js';
import { badInput, Fields, HttpError, newUuid, notFound, now } from '../http.js';
import { isPrivateAddress } from '../knowledge/fetch-url.js';
import { fileKind } from '../knowledge/parse.js';
import { countTokens, titleFrom } from '../knowledge/text.js';
import { sourceRecord } from '../records.js';
import type { SourceRow } from '../store/types.js';
import {
  fileTypeNotAllowed,
  multipartType,
  readUploadForm,
  uploadFileName,
} from '../upload-form.js';

const uuidsBody = (fields: Fields) => ({ uuids: fields.strings('uuids', { required: true })! });

/**
 * Every source's `reference_source_link`, whichever route made it: each answer citing the source
 * carries it in its `X-Citations` header, which clients refuse past a few kilobytes.
 */
const referenceLink = (fields: Fields) => fields.string('reference_source_link', { max: 2000 });

const qaBody = (fields: Fields) => ({
  question: fields.string('question', { required: true, max: 10_000 }),
  answer: fields.string('answer', { required: true, max: 100_000 }),
  reference_source_link: referenceLink(fields),
});

const urlBody = (fields: Fields) => {
  const url = fields.string('url', { required: true, max: 2000 }).trim();
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw badInput('url must be an absolute http or https address');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw badInput('url must be an absolute http or https address');
  }
  return {
    url: parsed.href,
    reference_source_link: referenceLink(fields),
  };
};

export function sourceRoutes(ctx: ServerContext, opts: { allowPrivateUrls: boolean }) {
  const { store, knowledge } = ctx;

  const create = async (
    row: Omit<SourceRow, 'uuid' | 'status' | 'created_at' | 'modified_at'>,
    content: Uint8Array | null,
  ) => {
    const t = now();
    const uuid = newUuid();
    await store.createSource(
      { ...row, uuid, status: 'await', created_at: t, modified_at: t },
      content,
    );
    const record = sourceRecord((await store.getSource(uuid))!);
    await knowledge.enqueue(uuid);
    return record;
  };

  /** Refuses at once what would be refused in the background; redirects are checked on fetch. */
  const refusePrivate = async (url: string) => {
    if (opts.allowPrivateUrls) return;
    const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
    let addresses: string[];
    try {
      addresses = (await lookup(host, { all: true })).map((a) => a.address);
    } catch {
      return; // Unresolvable now; the fetch will say why it failed.
    }
    if (addresses.some(isPrivateAddress)) {
      throw new HttpError(
        422,
        'private_address',
        'url resolves to a private or local address; URL sources may only reach public addresses',
      );
    }
  };

  const deleteSources = async (uuids: string[]) => {
    const byChatbot = new Map<string, number[]>();
    for (const uuid of uuids) {
      const source = await store.getSource(uuid);
      if (!source) continue;
      const ids = byChatbot.get(source.chatbotUuid) ?? [];
      ids.push(...(await store.chunkIds(uuid)));
      byChatbot.set(source.chatbotUuid, ids);
    }
    const deleted = await store.deleteSources(uuids, now());
    for (const [chatbotUuid, ids] of byChatbot) knowledge.forgetChunks(chatbotUuid, ids);
    return deleted;
  };

  return new Hono<AppEnv>()
    .get('/api/v1/chatbot/:uuid/data-sources', async (c) => {
      const chatbot = await ownedChatbot(ctx, c.get('auth'), c.req.param('uuid'));
      return c.json((await store.listSources(chatbot.uuid)).map(sourceRecord));
    })
    .post('/api/v1/chatbot/:uuid/data-source/upload', async (c) => {
      refuseDeclaredLength(c, ctx.uploadLimitBytes, 'the upload');
      const chatbot = await ownedChatbot(ctx, c.get('auth'), c.req.param('uuid'));
      const type = multipartType(c.req.header('content-type'));
      const form = await readUploadForm(
        type,
        await readBody(c, ctx.uploadLimitBytes, 'the upload'),
        ['reference_source_link'],
      );
      const { file } = form;
      // The form's text fields are read as a JSON body's members, with the same limits.
      const link = referenceLink(new Fields(form));
      const name = uploadFileName(file);
      if (!fileKind(name)) {
        throw fileTypeNotAllowed(name);
      }
      if (file.size === 0) throw badInput('file is empty');
      const bytes = new Uint8Array(await file.arrayBuffer());
      return c.json(
        await create(
          {
            chatbotUuid: chatbot.uuid,
            title: name,
            type: 'file',
            file_name: name,
            file_size: bytes.length,
            tokens: 0,
            meta: { reference_source_link: link ?? '', content_type: file.type || '' },
          },
          bytes,
        ),
      );
    })
    .post('/api/v1/chatbot/:uuid/data-source/qa', jsonBody(qaBody), async (c) => {
      const chatbot = await ownedChatbot(ctx, c.get('auth'), c.req.param('uuid'));
      const { question, answer, reference_source_link } = c.get('body');
      if (!answer.trim()) throw badInput('answer must not be empty');
      const text = `${question}\n\n${answer}`;
      return c.json(
        await create(
          {
            chatbotUuid: chatbot.uuid,
            title: titleFrom(question, 'Question'),
            type: 'qa',
            file_name: '',
            file_size: new TextEncoder().encode(text).length,
            tokens: countTokens(text),
            meta: { question, answer, reference_source_link: reference_source_link ?? '' },
          },
          null,
        ),
      );
    })
    .post('/api/v1/chatbot/:uuid/data-source/url', jsonBody(urlBody), async (c) => {
      const chatbot = await ownedChatbot(ctx, c.get('auth'), c.req.param('uuid'));
      const { url, reference_source_link } = c.get('body');
      await refusePrivate(url);
      return c.json(
        await create(
          {
            chatbotUuid: chatbot.uuid,
            title: url,
            type: 'link',
            file_name: url,
            file_size: 0,
            tokens: 0,
            meta: { url, reference_source_link: reference_source_link ?? '' },
          },
          null,
        ),
      );
    })
    .post(
      '/api/v1/data-source/:uuid/update',
      jsonBody((f) => ({ title: f.string('title', { required: true, max: 500 }) })),
      async (c) => {
        const source = await ownedSource(ctx, c.get('auth'), c.req.param('uuid'));
        const { title } = c.get('body');
        await store.updateSource(
          source.uuid,
          { title: title.trim(), meta: { ...source.meta, title_set_by_user: true } },
          now(),
        );
        return c.json(sourceRecord((await store.getSource(source.uuid))!));
      },
    )
    .on(['POST', 'DELETE'], '/api/v1/data-source/:uuid/delete', async (c) => {
      const source = await ownedSource(ctx, c.get('auth'), c.req.param('uuid'));
      // Another request may have deleted it since it was read: then this one found nothing.
      if ((await deleteSources([source.uuid])) === 0) throw notFound('data source');
      return c.json({ success: true });
    })
    .on(['POST', 'DELETE'], '/api/v1/data-sources/delete', jsonBody(uuidsBody), async (c) => {
      const { uuids } = c.get('body');
      // All or nothing: one unknown uuid deletes none, so a typo cannot half-apply.
      const sources = [];
      for (const uuid of uuids) sources.push(await ownedSource(ctx, c.get('auth'), uuid));
      await deleteSources(sources.map((s) => s.uuid));
      return c.json({ success: true });
    })
    .post('/api/v1/data-sources/url/re-scrape', jsonBody(uuidsBody), async (c) => {
      const results: RescrapeResult[] = [];
      for (const uuid of c.get('body').uuids) {
        const source = await findOwnedSource(ctx, c.get('auth'), uuid);
        if (!source || source.type !== 'link') {
          results.push({ uuid, error: 'invalid data source' });
          continue;
        }
        await store.updateSource(uuid, { status: 'await' }, now());
        await knowledge.enqueue(uuid);
        results.push({ uuid, status: 'restarted scraping' });
      }
      return c.json(results);
    })
    .post('/api/data-sources/restart', jsonBody(uuidsBody), async (c) => {
      const results: RescrapeResult[] = [];
      for (const uuid of c.get('body').uuids) {
        const source = await findOwnedSource(ctx, c.get('auth'), uuid);
        if (!source) {
          results.push({ uuid, error: 'invalid data source' });
          continue;
        }
        await store.updateSource(uuid, { status: 'await' }, now());
        await knowledge.enqueue(uuid);
        results.push({ uuid, status: 'restarted processing' });
      }
      return c.json(results);
    });
}
