import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  BAD_AUTHORIZATIONS,
  BAD_QUERIES,
  badJsonBodies,
  badUploads,
  CONTENT_TYPES,
  ENDPOINTS,
  type Endpoint,
  fill,
  type Ids,
  ODD_UUIDS,
  prng,
  type Rng,
  routeOf,
  WRONG_VALUES,
} from './fuzz-cases.js';
import { ADMIN_KEY, ask, type Harness, OTHER_KEY, startHarness } from './helpers.js';
import { type KeptDatabase, keptDatabase } from './stores.js';

const SEED = Number(process.env.FUZZ_SEED ?? 20261124);
const CASES = Number(process.env.FUZZ_CASES ?? 440);
const SECRET = 'ALICE-SECRET';

interface Case {
  label: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** Made with a key of someone who must learn nothing of alice's first chatbot. */
  foreign: boolean;
}

interface Answer {
  status: number;
  type: string;
  text: string;
}

/** Over node:http, so bodies are bytes as given and headers as written. */
function send(url: string, c: Case): Promise<Answer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const headers = { ...c.headers };
    if (c.body) headers['Content-Length'] = String(c.body.length);
    const req = request(
      { host: hostname, port, method: c.method, path: c.path, headers },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (d: Buffer) => chunks.push(d));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            type: String(res.headers['content-type'] ?? ''),
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(c.body);
  });
}

/** Every row of every table, hashed: what a refused request must leave as it was. */
async function snapshot(database: KeptDatabase): Promise<string> {
  const hash = createHash('sha256');
  for (const { table, rows } of await database.dump()) {
    hash.update(table);
    for (const row of rows) hash.update(row);
  }
  return hash.digest('hex');
}

describe('a seeded fuzz of every endpoint', () => {
  let database: KeptDatabase;
  let h: Harness;
  let ids: Ids;
  let chatKeyOfSecond: string;
  let secrets: string[];

  before(async () => {
    database = await keptDatabase();
    h = await startHarness({ ...database.serverOptions, allowPrivateUrls: true });
    const bot = await h.api.chatbots.create({ name: `${SECRET} bot` });
    const second = await h.api.chatbots.create({ name: 'Second bot' });
    await h.other.chatbots.create({ name: 'Bob bot' });
    const agent = await h.api.agents.create(bot.uuid, {
      name: `${SECRET} agent`,
      type: 'background',
    });
    const source = await h.api.sources.createQa(bot.uuid, {
      question: `${SECRET} question?`,
      answer: `${SECRET} answer.`,
    });
    const link = await h.api.sources.createUrl(bot.uuid, { url: 'http://127.0.0.1:9/' });
    const tag = await h.api.tags.create(bot.uuid, { name: `${SECRET} tag`, color: '#123456' });
    await h.server.idle();
    const session = await h.api.sessions.create(bot.uuid, { page: SECRET });
    const message = await ask(h.api, session.uuid, `${SECRET} question?`);
    await h.api.messages.feedback(message.messageUuid!, { rating: 'down', comment: SECRET });
    ids = {
      chatbot: bot.uuid,
      agent: agent.uuid,
      source: source.uuid,
      tag: tag.uuid,
      session: session.uuid,
      message: message.messageUuid!,
      second: second.uuid,
      link: link.uuid,
    };
    chatKeyOfSecond = await h.server.createKey('alice', { chatOnly: second.uuid });
    secrets = [SECRET, bot.uuid, agent.uuid, source.uuid, tag.uuid, session.uuid, ids.message];
    await h.server.idle();
  });
  after(async () => {
    await h?.close();
    await database?.close();
  });

  const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });

  /** One request for `e`, of a kind that applies to it; refused by construction, or a read. */
  function makeCase(rng: Rng, e: Endpoint): Case {
    const own = bearer(ADMIN_KEY);
    const valid = e.body?.(ids) ?? {};
    const json = (body: unknown) => Buffer.from(JSON.stringify(body));
    const base = { method: e.method, path: fill(e.path, ids), foreign: false };
    const kinds: Array<() => Case> = [
      () => ({
        ...base,
        label: 'no or a bad key',
        headers: authHeader(rng.pick(BAD_AUTHORIZATIONS)),
      }),
      () => ({
        ...base,
        label: 'a chat-only key of another chatbot',
        headers: bearer(chatKeyOfSecond),
        body: json(valid),
        foreign: true,
      }),
      () => ({
        ...base,
        label: 'a wrong method',
        method: rng.pick(['PUT', 'PATCH']),
        headers: own,
      }),
    ];
    if (!e.unowned) {
      kinds.push(() => ({
        ...base,
        label: "another user's key",
        headers: bearer(OTHER_KEY),
        body: json(valid),
        foreign: true,
      }));
    }
    if (e.path.includes(':')) {
      // Or a real uuid of another kind of resource than the route takes.
      const uuid = rng.pick([...ODD_UUIDS, e.path.includes(':chatbot') ? ids.agent : ids.chatbot]);
      kinds.push(() => ({
        ...base,
        label: `the uuid ${uuid.slice(0, 40)}`,
        path: fill(e.path, ids, uuid),
        headers: own,
        body: json(valid),
      }));
    }
    if (e.typed) {
      const [member, type] = rng.pick(Object.entries(e.typed));
      const value = rng.pick(WRONG_VALUES[type]);
      kinds.push(() => ({
        ...base,
        label: `${member}: ${JSON.stringify(value)}`,
        headers: { ...own, 'Content-Type': 'application/json' },
        body: json({ ...valid, [member]: value }),
      }));
      const bad = rng.pick(badJsonBodies(rng, valid));
      kinds.push(() => ({
        ...base,
        label: `the body ${bad.subarray(0, 40).toString('latin1')}`,
        headers: { ...own, 'Content-Type': rng.pick(CONTENT_TYPES) },
        body: bad,
      }));
      if (rng.int(4) === 0) {
        kinds.push(() => ({
          ...base,
          label: 'a body over 1 MiB',
          headers: own,
          body: json({ ...valid, pad: 'x'.repeat(1024 * 1024) }),
        }));
      }
    }
    if (e.upload) {
      const bad = rng.pick(badUploads(rng));
      kinds.push(() => ({
        ...base,
        label: `the upload ${bad.body.subarray(0, 60).toString('latin1')}`,
        headers: { ...own, 'Content-Type': bad.type },
        body: bad.body,
      }));
    }
    if (e.query) {
      const query = rng.pick(BAD_QUERIES);
      kinds.push(() => ({
        ...base,
        label: `the query ${query.slice(0, 40)}`,
        path: base.path + query,
        headers: own,
      }));
    }
    if (e.method === 'GET') {
      const odd = rng.pick<Record<string, string>>([
        { Accept: 'text/html' },
        { 'Accept-Encoding': 'br, gzip' },
        { Origin: 'null' },
        { 'Content-Type': 'application/json' },
        { Cookie: 'a='.padEnd(8000, 'x') },
        { 'X-Forwarded-For': '10.0.0.1' },
      ]);
      kinds.push(() => ({
        ...base,
        label: `a read with ${Object.keys(odd)[0]}`,
        headers: { ...own, ...odd },
      }));
    }
    return rng.pick(kinds)();
  }

  const authHeader = (value: string | undefined): Record<string, string> =>
    value === undefined ? {} : { Authorization: value };

  it('should cover every route of src/server/routes', () => {
    const routes = new Set<string>();
    for (const file of readdirSync('src/server/routes')) {
      const source = readFileSync(join('src/server/routes', file), 'utf8');
      for (const [, path] of source.matchAll(/'(\/api\/[^']+)'/g)) routes.add(path!);
    }
    const fuzzed = new Set(ENDPOINTS.map(routeOf));
    assert.deepEqual(
      [...routes].filter((r) => !fuzzed.has(r)),
      [],
    );
  });

  it(`should answer ${CASES} hostile requests (seed ${SEED}) without a 5xx, with the JSON error shape, no leak and nothing stored changed`, async (t) => {
    const rng = prng(SEED);
    const keys = [ADMIN_KEY, OTHER_KEY, chatKeyOfSecond];
    const statuses = new Map<number, number>();
    for (let i = 0; i < CASES; i++) {
      const endpoint = ENDPOINTS[i % ENDPOINTS.length]!;
      const c = makeCase(rng, endpoint);
      const label = `case ${i} (seed ${SEED}): ${c.method} ${c.path.slice(0, 120)} with ${c.label}`;
      const before = await snapshot(database);
      const answer = await send(h.url, c);
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      assert.ok(answer.status < 500, `${label}: ${answer.status} ${answer.text.slice(0, 200)}`);
      if (answer.status >= 400) {
        assert.match(answer.type, /^application\/json/, label);
        const body = JSON.parse(answer.text) as { error: { code: string; message: string } };
        assert.deepEqual(Object.keys(body), ['error'], label);
        assert.deepEqual(Object.keys(body.error).sort(), ['code', 'message'], label);
        assert.ok(typeof body.error.code === 'string' && body.error.code !== '', label);
        assert.ok(typeof body.error.message === 'string' && body.error.message !== '', label);
      }
      const asked = `${c.path} ${c.body?.toString('utf8') ?? ''}`;
      for (const key of keys)
        assert.ok(!answer.text.includes(key), `${label}: a key in the answer`);
      if (c.foreign) {
        for (const secret of secrets) {
          if (!asked.includes(secret))
            assert.ok(!answer.text.includes(secret), `${label}: leaks ${secret}`);
        }
      }
      assert.equal(await snapshot(database), before, `${label}: changed what is stored`);
    }
    const counts = [...statuses].sort(([a], [b]) => a - b).map(([s, n]) => `${s}×${n}`);
    t.diagnostic(`statuses: ${counts.join(', ')}`);
    // Most are refusals; the reads with odd headers and a few foreign bulk calls answer 200.
    const refused = [...statuses].filter(([s]) => s >= 400).reduce((n, [, count]) => n + count, 0);
    assert.ok(refused > CASES * 0.8, `only ${refused} of ${CASES} refused: ${[...statuses]}`);
  });
});
