import { Hono } from 'hono';
import { OWNER_TEST_MEMBER, type SessionData } from '../../api/types.js';
import { readJsonBody } from '../body.js';
import { type AppEnv, ownedChatbot, ownedSession, type ServerContext } from '../context.js';
import { badInput, excerptOf, Fields, newUuid, notFound, now } from '../http.js';
import { sessionRecord, sessionSummary } from '../records.js';
import { clientAddress, rateLimited, takeVisitor, type VisitorSettings } from '../visitors.js';

/** The longest member name session data keeps: as long as an agent variable's name may be. */
const SESSION_DATA_NAME_CHARS = 200;

/** Initial session data is a flat object: scalar values only, one level deep. */
function parseSessionData(value: unknown): SessionData {
  const fields = new Fields(value);
  // No prototype: assigning a member named `__proto__` to a plain object sets its prototype (or
  // does nothing), and the member would be dropped; here it is kept as any other name is.
  const data: SessionData = Object.create(null);
  const entries = Object.entries(fields.raw);
  if (entries.length > 100) throw badInput('the session data may have at most 100 members');
  for (const [key, v] of entries) {
    if (key.length > SESSION_DATA_NAME_CHARS) {
      throw badInput(
        `session data member name "${excerptOf(key)}…" must be at most ${SESSION_DATA_NAME_CHARS} characters`,
      );
    }
    if (v !== null && !['string', 'number', 'boolean'].includes(typeof v)) {
      throw badInput(
        `${key} must be a string, number, boolean or null: session data is a flat object`,
      );
    }
    if (typeof v === 'string' && v.length > 10_000)
      throw badInput(`${key} must be at most 10000 characters`);
    // 1e400 reads as Infinity, which JSON can only store as null.
    if (typeof v === 'number' && !Number.isFinite(v))
      throw badInput(`${key} must be a finite number`);
    data[key] = v as SessionData[string];
  }
  return data;
}

export function sessionRoutes(ctx: ServerContext, visitors: VisitorSettings) {
  const { store } = ctx;
  return new Hono<AppEnv>()
    .post('/api/v1/chatbot/:uuid/session/create', async (c) => {
      const auth = c.get('auth');
      const chatbot = await ownedChatbot(ctx, auth, c.req.param('uuid'));
      // A new session counts in its visitor's window, as a message does (visitors.ts).
      const address = clientAddress(c, visitors.trustProxy);
      const full = await takeVisitor(store, visitors, auth, chatbot, address, Date.now());
      if (full) throw rateLimited(chatbot, full.retryAfter);
      // Public clients send a bare POST; only a body makes the response carry the stored data.
      const body = await readJsonBody(c);
      const meta = body === undefined ? null : parseSessionData(body);
      const t = now();
      const uuid = newUuid();
      await store.createSession({
        uuid,
        chatbotUuid: chatbot.uuid,
        meta,
        // The owner's test, kept out of the review. Not from a chat-only key: a public page's
        // visitor must not hide a conversation from the owner. There, as on the hosted service,
        // the member is data like any other, kept in meta as the interface says.
        test: auth.chatOnly === null && meta?.[OWNER_TEST_MEMBER] === true,
        created_at: t,
        modified_at: t,
      });
      const row = (await store.getSession(uuid))!;
      return c.json(meta === null ? sessionSummary(row) : sessionRecord(row));
    })
    .get('/api/v1/session/:uuid', async (c) =>
      c.json(
        sessionRecord(
          // Its time as the last answer through any instance set it (store/types.ts).
          await ownedSession(ctx, c.get('auth'), c.req.param('uuid'), {
            fresh: store.shared,
          }),
        ),
      ),
    )
    .get('/api/v1/chatbot/:uuid/sessions', async (c) => {
      const chatbot = await ownedChatbot(ctx, c.get('auth'), c.req.param('uuid'));
      return c.json((await store.listSessions(chatbot.uuid)).map(sessionSummary));
    })
    .on(['POST', 'DELETE'], '/api/v1/session/:uuid/delete', async (c) => {
      const session = await ownedSession(ctx, c.get('auth'), c.req.param('uuid'));
      if (!(await store.deleteSession(session.uuid))) throw notFound('session');
      return c.json({ success: true });
    });
}
