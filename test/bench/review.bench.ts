/**
 * `npm run bench:review`: the review routes on a store of 100,000 messages in 10,000 sessions.
 *
 * The store is seeded straight through the SQLite store's own insert (one transaction), then the
 * app answers in this process through `app.request()`, so each figure is the server's own time,
 * with no network and no client in it. Beside each figure: its budget, and floors measured in the
 * same run (a route that does no work, a bare `SELECT count(*)`) so a loaded machine shows as
 * such. The export's memory is this process's, sampled at every chunk it sends; the chunks are
 * read and dropped as a client would write them to disk.
 *
 * Budgets are printed beside the figures; nothing here fails a build. `seed()` is exported for
 * test/bench/review-admin.bench.ts, which measures the admin's list on the same store; importing
 * this file runs nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import pg from 'pg';
import { createServerApp } from '../../src/server/main.js';
import { agentDefaults } from '../../src/server/routes/agents.js';
import { openPostgresStore } from '../../src/server/store/postgres.js';
import { accountQueries } from '../../src/server/store/sqlite/accounts.js';
import { chatbotQueries } from '../../src/server/store/sqlite/chatbots.js';
import { preparedSql } from '../../src/server/store/sqlite/db.js';
import { migrate } from '../../src/server/store/sqlite/schema.js';
import { sessionQueries } from '../../src/server/store/sqlite/sessions.js';
import { sourceQueries } from '../../src/server/store/sqlite/sources.js';
import type {
  AgentRow,
  ChatbotRow,
  MessageRow,
  SessionRow,
  SourceRow,
} from '../../src/server/store/types.js';
import { mulberry32 } from '../random.js';
import { mb, median, ms, reportBudgets } from './figures.js';
import { freshPostgres } from './postgres.js';

export const SESSIONS = 10_000;
export const MESSAGES = 100_000;
const SOURCES = 50;
const DAYS = 60;
const RUNS = 25;
const KEY = 'bench-review-key';
const CHATBOT = '00000000-0000-4000-8000-00000000b0b0';

/** Reset by `seedRows`, so each store is seeded with the same rows. */
let random = mulberry32(14);
const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;

const WORDS = `the a to of and in is it you that for on with as be at this have from or by not
but can your all will one about more if when there use which how do out up time so what get
make like just know take see come think look want give first new way find long day work order
account shipping delivery parcel refund return payment invoice price cost plan subscription
password login email address phone support team hours store warranty repair exchange size color
stock discount coupon code gift card checkout cart tracking number carrier package damaged late
early weekend holiday international customs duty tax receipt cancel change update upgrade
downgrade trial free premium business personal family student member points reward program
install setup configure connect device app browser mobile desktop printer network error message
screen button page link download upload file photo video music book ticket event booking seat
room hotel flight train bus car parking map location opening closing branch office manager`
  .split(/\s+/)
  .filter(Boolean);
const TOPICS = WORDS.slice(40);
/** The questions visitors ask: 800 of them, some much more often than others. */
const QUESTIONS = Array.from({ length: 800 }, () => {
  const [a, b] = [pick(TOPICS), pick(TOPICS)];
  return pick([
    `How do I change my ${a} ${b}?`,
    `What is the ${a} for ${b}?`,
    `Can I get a ${a} on my ${b}?`,
    `Where is my ${a}?`,
    `Why is the ${a} ${b} not working`,
  ]);
});
const question = () => {
  const q = QUESTIONS[Math.floor(QUESTIONS.length * random() ** 3)]!;
  // The same question in other cases and punctuation, as visitors type it.
  return random() < 0.3 ? q.toLowerCase().replace(/[?!.]$/, '') : q;
};
const sentence = () => {
  const words = Array.from({ length: 10 + Math.floor(random() * 14) }, () =>
    random() < 0.6 ? WORDS[Math.floor(40 * random() ** 2)]! : pick(WORDS),
  );
  return `${words.join(' ')}.`;
};

const ts = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** What a seeded store holds, in the order it is written: through either store's own inserts. */
interface Seed {
  user: string;
  chatbot: (userId: number) => ChatbotRow;
  agent: AgentRow;
  sources: SourceRow[];
  sessions: Array<{ session: SessionRow; messages: MessageRow[] }>;
}

/**
 * One chatbot of `user` (the one whose API key will read it) with SOURCES Q&A sources, SESSIONS
 * sessions over DAYS days and MESSAGES messages among them, some rated, cited, escalated or
 * failed; one session in a hundred the owner's test. Drawn from the fixed seed, so both stores hold the same rows.
 */
function seedRows({ user = 'bench', chatbot = CHATBOT } = {}): Seed {
  random = mulberry32(15);
  const start = Date.now() - DAYS * 86_400_000;
  const t = ts(start);
  const sourceUuids = Array.from({ length: SOURCES }, () => crypto.randomUUID());
  const perSession = MESSAGES / SESSIONS;
  return {
    user,
    chatbot: (userId) => ({
      uuid: chatbot,
      userId,
      name: 'Reviewed at scale',
      rate_limit: [20, 240],
      rate_limit_message: '',
      show_citations: true,
      visibility: 'private',
      created_at: t,
      modified_at: t,
    }),
    // As every chatbot starts: insights judge each gap through it (answered_now).
    agent: { ...agentDefaults(chatbot, 'user-facing', t), name: 'Assistant', enabled: true },
    sources: sourceUuids.map((uuid, i) => ({
      uuid,
      chatbotUuid: chatbot,
      title: `Help article ${i + 1}`,
      type: 'qa',
      status: 'success',
      file_name: '',
      file_size: 0,
      tokens: 0,
      meta: {},
      created_at: t,
      modified_at: t,
    })),
    sessions: Array.from({ length: SESSIONS }, (_, s) => {
      const sessionUuid = crypto.randomUUID();
      let at = start + Math.floor((s / SESSIONS) * DAYS * 86_400_000);
      const session = {
        uuid: sessionUuid,
        chatbotUuid: chatbot,
        meta: null,
        // The owner's tries in Try it, which every review read leaves out by default.
        test: s % 100 === 0,
        created_at: ts(at),
        modified_at: ts(at),
      };
      const messages = Array.from({ length: perSession }, (): MessageRow => {
        at += 5_000 + Math.floor(random() * 60_000);
        const covered = random() < 0.7;
        const cited = covered
          ? [pick(sourceUuids), ...(random() < 0.4 ? [pick(sourceUuids.slice(0, 10))] : [])]
          : [];
        const citeData = Object.fromEntries(
          cited.map((uuid, i) => [
            String(i + 1),
            { data_source_uuid: uuid, title: 'Help article', text: '', file_name: '', type: 'qa' },
          ]),
        );
        const r = random();
        const rating = r < 0.05 ? 'up' : r < 0.08 ? 'down' : null;
        const escalated = random() < 0.01;
        return {
          uuid: crypto.randomUUID(),
          sessionUuid,
          query: question(),
          response: Array.from({ length: 2 + Math.floor(random() * 3) }, sentence).join(' '),
          finish_reason: 'stop',
          cite_data: citeData,
          meta: escalated ? { agent_type: 'human-escalation' } : { rule: 'passages' },
          error_message: random() < 0.005 ? 'the answer failed: timeout' : '',
          feedback: rating
            ? {
                rating,
                ...(rating === 'down' ? { reason: pick(['wrong', 'incomplete'] as const) } : {}),
                at: ts(at),
              }
            : null,
          created_at: ts(at),
          modified_at: ts(at),
        };
      });
      return { session, messages };
    }),
  };
}

/**
 * Seeds the SQLite store at `path` in one transaction through the store's own insert (see
 * `seedRows`).
 */
export function seed(
  path: string,
  options: { user?: string; chatbot?: string } = {},
): { seconds: number } {
  const t0 = performance.now();
  const rows = seedRows(options);
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  migrate(db);
  const sql = preparedSql(db);
  const accounts = accountQueries(sql);
  const chatbots = chatbotQueries(sql);
  const sources = sourceQueries(sql, chatbots);
  const sessions = sessionQueries(sql);
  db.transaction(() => {
    chatbots.createChatbot(rows.chatbot(accounts.ensureUser(rows.user).id));
    chatbots.createAgent(rows.agent);
    for (const source of rows.sources) sources.createSource(source, null);
    for (const { session, messages } of rows.sessions) {
      sessions.createSession(session);
      for (const message of messages) sessions.createMessage(message);
    }
  })();
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.exec('ANALYZE');
  db.close();
  return { seconds: (performance.now() - t0) / 1000 };
}

/**
 * Seeds a PostgreSQL database through the store's own inserts, 20 sessions at a time (their
 * messages in order), then VACUUM ANALYZE.
 */
export async function seedPostgres(url: string): Promise<{ seconds: number }> {
  const t0 = performance.now();
  const rows = seedRows();
  const store = await openPostgresStore(url);
  try {
    await store.createChatbot(rows.chatbot((await store.ensureUser(rows.user)).id));
    await store.createAgent(rows.agent);
    for (const source of rows.sources) await store.createSource(source, null);
    const queue = [...rows.sessions];
    const writer = async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        await store.createSession(next.session);
        for (const message of next.messages) await store.createMessage(message);
      }
    };
    await Promise.all(Array.from({ length: 20 }, writer));
  } finally {
    await store.close();
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  // As autovacuum leaves a table soon after a bulk insert: without the visibility map it sets,
  // every index-only scan of the review reads the table too.
  await client.query('VACUUM ANALYZE');
  await client.end();
  return { seconds: (performance.now() - t0) / 1000 };
}

const max = (values: number[]) => Math.max(...values);
function row(label: string, value: string, budget = '') {
  console.log(`  ${label.padEnd(44)} ${value.padStart(22)}   ${budget}`);
}

/** The budgets missed, named by store and measure, for the verdict at the end. */
const missed: string[] = [];

/** A budget's words beside a figure, with whether it was met (and noted when not). */
function verdict(name: string, budget: string, met: boolean): string {
  if (!met) missed.push(name);
  return `${budget}: ${met ? 'met' : 'MISSED'}`;
}

/** The review routes' figures on a seeded store: `open` starts the server on it. */
async function measure(
  label: string,
  server: Awaited<ReturnType<typeof createServerApp>>,
  bareCount: () => Promise<unknown> | unknown,
) {
  const headers = { Authorization: `Bearer ${KEY}` };
  const base = `/api/v1/chatbot/${CHATBOT}`;
  const request = async (path: string) => {
    const response = await server.app.request(path, { headers });
    if (response.status !== 200)
      throw new Error(`${path}: ${response.status} ${await response.text()}`);
    return response;
  };
  /** Server time of a JSON answer, read whole; two warm-up runs first. */
  const time = async (path: string, runs = RUNS) => {
    const times: number[] = [];
    for (let i = 0; i < runs + 2; i++) {
      const t0 = performance.now();
      await (await request(path)).text();
      if (i >= 2) times.push(performance.now() - t0);
    }
    return times;
  };
  /** The median of `times` beside its budget in ms, when it has one. */
  const figure = (name: string, times: number[], budgetMs?: number) =>
    row(
      name,
      `${ms(median(times))} (max ${ms(max(times))})`,
      budgetMs === undefined
        ? ''
        : verdict(`${label} ${name}`, `budget ≤ ${budgetMs} ms`, median(times) <= budgetMs),
    );

  const countTimes: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    await bareCount();
    countTimes.push(performance.now() - t0);
  }

  console.log(`${label}: server time, median of ${RUNS} runs (max beside it):`);
  figure('floor: GET /chatbot/{uuid} (no work)', await time(base));
  figure('floor: bare SELECT count(*) FROM messages', countTimes);
  figure('conversations, first page (50)', await time(`${base}/conversations`), 50);
  figure('messages, first page (50)', await time(`${base}/messages`), 50);
  figure(
    'conversations, not helpful, first page',
    await time(`${base}/conversations?rating=down`),
    50,
  );
  figure(
    "conversations, the owner's tests (test=only)",
    await time(`${base}/conversations?test=only`),
    50,
  );
  figure('search "refund" (common word), messages', await time(`${base}/messages?q=refund`), 50);
  figure('search "refund", conversations', await time(`${base}/conversations?q=refund`), 50);
  figure(
    'search "damaged parcel" (two words)',
    await time(`${base}/messages?q=damaged%20parcel`),
    50,
  );
  figure('insights, last 30 days', await time(`${base}/insights`, 10), 250);
  figure(
    'insights, 60 days (every message)',
    await time(`${base}/insights?from=${ts(Date.now() - 61 * 86_400_000)}`, 10),
    250,
  );
  figure(
    'insights, 60 days, days of Europe/Berlin (tz)',
    await time(`${base}/insights?from=${ts(Date.now() - 61 * 86_400_000)}&tz=Europe/Berlin`, 10),
    250,
  );

  console.log(
    '\nFull export of every message, CSV then JSON (memory: this process, sampled at each chunk):',
  );
  for (const format of ['csv', 'json'] as const) {
    globalThis.gc?.();
    const before = process.memoryUsage();
    let peakRss = before.rss;
    let peakHeap = before.heapUsed;
    const t0 = performance.now();
    const response = await request(`${base}/messages/export?format=${format}`);
    const total = Number(response.headers.get('x-total-count'));
    let bytes = 0;
    let newlines = 0;
    const body = response.body!.getReader();
    for (;;) {
      const { done, value } = await body.read();
      if (done) break;
      bytes += value.byteLength;
      if (format === 'csv') for (const b of value) if (b === 10) newlines++;
      const now = process.memoryUsage();
      peakRss = Math.max(peakRss, now.rss);
      peakHeap = Math.max(peakHeap, now.heapUsed);
    }
    const seconds = (performance.now() - t0) / 1000;
    if (format === 'csv' && newlines < total) {
      throw new Error(`the CSV export has ${newlines} line ends for ${total} rows`);
    }
    const name = `${format.toUpperCase()} export`;
    row(
      `${name}: ${total.toLocaleString('en')} rows, ${mb(bytes)}`,
      `${Math.round(total / seconds).toLocaleString('en')} rows/s`,
      verdict(`${label} ${name} rows/s`, 'budget ≥ 50,000 rows/s', total / seconds >= 50_000),
    );
    row(
      `  in ${seconds.toFixed(2)} s; RSS growth (peak − before)`,
      mb(peakRss - before.rss),
      verdict(`${label} ${name} memory`, 'budget < 50 MB', peakRss - before.rss < 50 * 1024 * 1024),
    );
    row('  heap growth (peak − before)', mb(peakHeap - before.heapUsed), '');
  }
}

async function main() {
  const stores = process.env.BENCH_REVIEW_STORES ?? 'sqlite,postgres';
  console.log(
    `Seeding ${MESSAGES.toLocaleString('en')} messages in ${SESSIONS.toLocaleString('en')} sessions (${SESSIONS / 100} of them the owner's tests)…`,
  );
  if (stores.includes('sqlite')) {
    const dir = mkdtempSync(join(tmpdir(), 'bench-review-'));
    const path = join(dir, 'review.sqlite');
    try {
      const seeded = seed(path);
      console.log(
        `  SQLite: seeded in ${seeded.seconds.toFixed(1)} s (one transaction, the store's own insert)\n`,
      );
      const reader = new Database(path, { readonly: true });
      const bare = reader.prepare('SELECT count(*) AS n FROM messages');
      const server = await createServerApp({ db: path, apiKeys: `bench:${KEY}`, log: false });
      try {
        await measure('SQLite', server, () => bare.get());
      } finally {
        reader.close();
        await server.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  if (stores.includes('postgres')) {
    const database = await freshPostgres();
    if (typeof database === 'string') {
      console.log(`\nPostgreSQL: skipped (${database})`);
    } else {
      try {
        const seeded = await seedPostgres(database.url);
        console.log(
          `\n  PostgreSQL: seeded in ${seeded.seconds.toFixed(1)} s (the store's own inserts, 20 sessions at a time)\n`,
        );
        const reader = new pg.Client({ connectionString: database.url });
        await reader.connect();
        const server = await createServerApp({
          databaseUrl: database.url,
          apiKeys: `bench:${KEY}`,
          log: false,
        });
        try {
          await measure('PostgreSQL', server, () => reader.query('SELECT count(*) FROM messages'));
        } finally {
          await reader.end();
          await server.close();
        }
      } finally {
        await database.drop();
      }
    }
  }
  const load = loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
  console.log(
    `\nLoad average during the run: ${load} (the machine is shared; compare with the floors).`,
  );
  reportBudgets(missed);
}

// Run when started, not when imported for its seeder.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
