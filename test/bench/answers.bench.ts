/**
 * `npm run bench:answers`: how honestly the reference server answers from its sources with no
 * LLM. The labelled questions of test/fixtures/answers/questions.json go to the real server, each
 * in a session of its own, through the non-stream message endpoint, on five chatbots:
 *
 * - demo: the demo bot as `npm start` seeds it (demo/seed.ts's Q&A pairs and this README);
 * - packages: six package READMEs none of us wrote (test/fixtures/answers/corpus/);
 * - both: one chatbot holding both. Past 200 chunks the index leaves common query terms out of
 *   its search (search.ts), a size neither corpus reaches alone and most real ones pass;
 * - held-out: three more package READMEs, with questions written in one sitting before anything
 *   was run against them. Printed apart, in no overall figure and no half: a method tuned on the
 *   others shows here what it does with text it has not met. Keep it out of tuning.
 * - packages-2: three more (debug, semver, qs), their questions also written in one sitting
 *   before any run (session 17), then used to judge one change (test/bench/README.md). Printed
 *   apart too, in no overall figure and no half; a bot of its own, as its READMEs joined to
 *   `packages` would pass 200 chunks and change how the old questions are searched.
 *
 * An answer is a refusal when its message record's meta_json says `covered: false` (or, for
 * records without that member, rule `not-covered` or a canned reply), or when it holds the
 * server's NOT_COVERED wording. An answer to a covered question is right when it holds one of
 * the question's evidence strings: words only the passage holding the answer contains.
 * Budgets are printed beside the figures. It exits 0 whatever they say (it is a report), and 1
 * only when the harness itself fails.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEMO_QA } from '../../demo/seed.js';
import { type CiteData, createClient, type QaSourceCreate } from '../../src/api/index.js';
import { NOT_COVERED } from '../../src/server/knowledge/answer.js';
import { startServer } from '../../src/server/main.js';
import { mulberry32 } from '../random.js';
import { reportBudgets } from './figures.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const fixtures = join(root, 'test/fixtures/answers');
const KEY = 'bench-answers-key';
const BUDGETS = { wrong: 5, refusedCovered: 15, offTopicAnswered: 5 };
const SHOWN_CHARS = 120;
/**
 * The set's two halves: methods are tuned on A and checked on B (held out), so a change that
 * only fits these questions shows as a gain on A alone. Fixed seed, split within each corpus and
 * kind of question so both halves hold as many of each.
 */
const SPLIT_SEED = 14;

type CorpusName = 'demo' | 'packages' | 'held-out' | 'packages-2';

interface Question {
  id: string;
  corpus: CorpusName;
  question: string;
  covered: boolean;
  /** Covered questions: asked in the documents' own words, or as a newcomer would. */
  phrasing?: 'document' | 'paraphrase';
  /** Uncovered questions: plausible for the bot but not in its sources, or unrelated. */
  kind?: 'absent' | 'off-topic';
  /** File names or Q&A questions that hold the answer. */
  sources?: string[];
  /** Any one of these in an answer shows it quotes the passage holding the answer. */
  evidence?: string[];
}

interface SourceFile {
  name: string;
  text: string;
  referenceSourceLink?: string;
}

interface Corpus {
  qa: QaSourceCreate[];
  files: SourceFile[];
}

const readText = (path: string) => readFileSync(path, 'utf8');

/** Package READMEs copied into test/fixtures/answers/corpus/, by the name before `.README.md`. */
const readmes = (names: string[]): SourceFile[] =>
  names.map((name) => ({
    name: `${name}.README.md`,
    text: readText(join(fixtures, 'corpus', `${name}.README.md`)),
  }));

const CORPORA: Record<CorpusName, Corpus> = {
  // As demo/start.ts's seed() adds them.
  demo: {
    qa: DEMO_QA,
    files: [
      {
        name: 'README.md',
        text: readText(join(root, 'README.md')),
        referenceSourceLink: 'https://www.npmjs.com/package/chatbot-elements',
      },
    ],
  },
  packages: {
    qa: [],
    files: readmes(['hono', 'better-sqlite3', 'minisearch', 'papaparse', 'cookies', 'ipaddr.js']),
  },
  'held-out': { qa: [], files: readmes(['ws', 'chokidar', 'hono-node-server']) },
  'packages-2': { qa: [], files: readmes(['debug', 'semver', 'qs']) },
};

const BOTS: Array<{ label: string; corpora: CorpusName[] }> = [
  { label: 'demo', corpora: ['demo'] },
  { label: 'packages', corpora: ['packages'] },
  { label: 'both corpora in one chatbot', corpora: ['demo', 'packages'] },
  { label: 'held-out', corpora: ['held-out'] },
  { label: 'packages-2', corpora: ['packages-2'] },
];

/** Lower case without the marks markdown adds around words, so quoting and source compare alike. */
function plain(text: string): string {
  return text
    .toLowerCase()
    .replace(/[‘’]/g, "'")
    .replace(/[“”]/g, '"')
    .replace(/[*`]/g, '')
    .replace(/(^|[^\p{L}\p{N}])_+|_+(?=[^\p{L}\p{N}]|$)/gu, '$1')
    .replace(/\s+/g, ' ');
}

/** Whether `text` holds `evidence` as whole words: "synchronous api" is not in "asynchronous api". */
function holds(text: string, evidence: string): boolean {
  const word = /[\p{L}\p{N}]/u;
  const needle = plain(evidence);
  const wordStart = word.test(needle[0] ?? '');
  const wordEnd = word.test(needle.at(-1) ?? '');
  for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + 1)) {
    const before = text[at - 1] ?? ' ';
    const after = text[at + needle.length] ?? ' ';
    if ((!wordStart || !word.test(before)) && (!wordEnd || !word.test(after))) return true;
  }
  return false;
}

function loadQuestions(): Question[] {
  const { questions } = JSON.parse(readText(join(fixtures, 'questions.json'))) as {
    questions: Question[];
  };
  const ids = new Set<string>();
  for (const q of questions) {
    if (ids.has(q.id)) throw new Error(`questions.json: id ${q.id} is used twice`);
    ids.add(q.id);
    if (!(q.corpus in CORPORA)) throw new Error(`questions.json: ${q.id} names no known corpus`);
    if (q.covered && !(q.sources?.length && q.evidence?.length && q.phrasing)) {
      throw new Error(`questions.json: covered question ${q.id} needs sources, evidence, phrasing`);
    }
    if (!q.covered && !q.kind) throw new Error(`questions.json: ${q.id} needs a kind`);
  }
  return questions;
}

/** Which half each question is in, by id: shuffled with SPLIT_SEED, then dealt per stratum. */
function halves(questions: Question[]): Map<string, 'A' | 'B'> {
  const next = mulberry32(SPLIT_SEED);
  const shuffled = questions
    .map((q) => ({ q, key: next() }))
    .sort((a, b) => a.key - b.key)
    .map(({ q }) => q);
  const dealt = new Map<string, number>();
  const half = new Map<string, 'A' | 'B'>();
  for (const q of shuffled) {
    const stratum = `${q.corpus}/${q.phrasing ?? q.kind}`;
    const n = dealt.get(stratum) ?? 0;
    dealt.set(stratum, n + 1);
    half.set(q.id, n % 2 === 0 ? 'A' : 'B');
  }
  return half;
}

/**
 * Covered questions whose evidence is in none of their sources: the README changes, and a label
 * that no longer holds would count a right answer as wrong. They are left out and listed.
 */
function staleQuestions(questions: Question[]): Map<string, string> {
  const texts = new Map<string, string>();
  for (const corpus of Object.values(CORPORA)) {
    for (const qa of corpus.qa) texts.set(qa.question, plain(`${qa.question}\n\n${qa.answer}`));
    for (const file of corpus.files) texts.set(file.name, plain(file.text));
  }
  const stale = new Map<string, string>();
  for (const q of questions.filter((q) => q.covered)) {
    const unknown = q.sources!.filter((s) => !texts.has(s));
    if (unknown.length > 0) stale.set(q.id, `no source named ${unknown.join(', ')}`);
    else if (!q.evidence!.some((e) => q.sources!.some((s) => holds(texts.get(s)!, e)))) {
      stale.set(q.id, `no evidence string is in ${q.sources!.join(' or ')} any more`);
    }
  }
  return stale;
}

type Outcome = 'correct' | 'wrong' | 'refused' | 'honest' | 'answered';

interface Result {
  question: Question;
  outcome: Outcome;
  response: string;
  /** Names of the cited sources (file name, or title for Q&A). */
  cited: string[];
  /** The record's meta_json `rule`, which names the path the answer took. */
  rule: string;
  ms: number;
  /**
   * A covered question refused: whether one of the topics the refusal offered, asked next in the
   * same session as a visitor's click on it asks it, is answered with the question's evidence.
   */
  offeredAnswers?: boolean;
}

/**
 * `covered` is the record's own say. Records from before it: the not-covered rule, no agent, or a
 * canned reply (a pre-canned agent answers instead of the sources), or NOT_COVERED's text.
 */
const isRefusal = (meta: Record<string, unknown>, response: string) =>
  typeof meta.covered === 'boolean'
    ? !meta.covered
    : ['not-covered', 'no-agent', 'pre-canned'].includes(String(meta.rule)) ||
      response.startsWith(NOT_COVERED);

function classify(question: Question, refused: boolean, response: string): Outcome {
  if (!question.covered) return refused ? 'honest' : 'answered';
  if (refused) return 'refused';
  const text = plain(response);
  return question.evidence!.some((e) => holds(text, e)) ? 'correct' : 'wrong';
}

type Client = ReturnType<typeof createClient>;

/** A chatbot with the corpora's sources added as the routes take them, once they are ready. */
async function seedBot(
  api: Client,
  idle: () => Promise<void>,
  label: string,
  corpora: CorpusName[],
) {
  // The demo seed's settings (demo/start.ts), for every bot: citations on, its rate limit.
  const bot = await api.chatbots.create({
    name: `bench: ${label}`,
    show_citations: true,
    rate_limit: [20, 240],
    rate_limit_message:
      'You are sending messages quickly. Please wait a moment before asking again.',
  });
  for (const name of corpora) {
    for (const qa of CORPORA[name].qa) await api.sources.createQa(bot.uuid, qa);
    for (const file of CORPORA[name].files) {
      await api.sources.upload(
        bot.uuid,
        new File([file.text], file.name, { type: 'text/markdown' }),
        { referenceSourceLink: file.referenceSourceLink },
      );
    }
  }
  await idle();
  const sources = await api.sources.list(bot.uuid);
  const failed = sources.filter((s) => s.status !== 'success');
  if (failed.length > 0) {
    throw new Error(`sources not ready: ${failed.map((s) => `${s.title} (${s.status})`)}`);
  }
  return { uuid: bot.uuid, sources };
}

/** One question in a session of its own, classified from its message record. */
async function ask(
  api: Client,
  chatbotUuid: string,
  names: Map<string, string>,
  question: Question,
): Promise<Result> {
  const session = await api.sessions.create(chatbotUuid);
  const t0 = performance.now();
  const { response } = await api.messages.send(session.uuid, question.question);
  const ms = performance.now() - t0;
  const record = (await api.messages.list(session.uuid)).at(-1);
  if (!record) throw new Error(`no message record for ${question.id}`);
  const meta = JSON.parse(record.meta_json || '{}') as Record<string, unknown>;
  const citeData = JSON.parse(record.cite_data_json || '{}') as CiteData;
  const cited = Array.isArray(meta.sources)
    ? meta.sources.map((uuid) => names.get(String(uuid)) ?? String(uuid))
    : Object.values(citeData).map((c) => c.file_name || c.title);
  const outcome = classify(question, isRefusal(meta, response), response);
  const result = { question, outcome, response, cited, rule: String(meta.rule ?? ''), ms };
  if (outcome !== 'refused') return result;
  const offered = Array.isArray(meta.suggestions) ? meta.suggestions.map(String) : [];
  for (const topic of offered) {
    const next = await api.messages.send(session.uuid, topic);
    if (classify(question, false, next.response) === 'correct') {
      return { ...result, offeredAnswers: true };
    }
  }
  return { ...result, offeredAnswers: false };
}

async function main(): Promise<void> {
  const began = performance.now();
  const questions = loadQuestions();
  const stale = staleQuestions(questions);
  const asked = questions.filter((q) => !stale.has(q.id));
  const server = await startServer({
    port: 0,
    db: ':memory:',
    apiKeys: `bench:${KEY}`,
    log: false,
    streamDelayMs: 0,
  });
  const api = createClient({ baseUrl: server.url, apiKey: KEY, retry: false });
  const runs: Array<{ label: string; results: Result[] }> = [];
  const titles = new Map<string, string>();
  try {
    for (const { label, corpora } of BOTS) {
      const bot = await seedBot(api, () => server.idle(), label, corpora);
      for (const s of bot.sources) if (s.file_name) titles.set(s.file_name, s.title);
      const names = new Map(bot.sources.map((s) => [s.uuid, s.file_name || s.title]));
      const results: Result[] = [];
      for (const question of asked.filter((q) => corpora.includes(q.corpus))) {
        results.push(await ask(api, bot.uuid, names, question));
      }
      runs.push({ label, results });
    }
  } finally {
    await server.close();
  }

  printHeader(questions, stale, titles);
  for (const { label, results } of runs.slice(0, 2)) printRun(label, results);
  const separate = runs.slice(0, 2).flatMap((r) => r.results);
  printTable('overall (demo + packages)', separate);
  printCombined(runs[2]!.label, runs[2]!.results, separate);
  const half = halves(questions.filter((q) => q.corpus === 'demo' || q.corpus === 'packages'));
  printHalves(half, separate, runs[2]!.results);
  console.log('\nHeld out (written before any run; not for tuning):');
  printRun(runs[3]!.label, runs[3]!.results);
  console.log('\nA second set (written before any run, then used to judge one change):');
  printRun(runs[4]!.label, runs[4]!.results);
  if (process.env.BENCH_ANSWERS_OUT) {
    // Per question and bot, for comparing two runs of a change question by question.
    const rows = runs.flatMap(({ label, results }) =>
      results.map((r) => ({
        bot: label,
        id: r.question.id,
        half: half.get(r.question.id),
        outcome: r.outcome,
        offeredAnswers: r.offeredAnswers,
        cited: r.cited,
        response: r.response,
      })),
    );
    writeFileSync(process.env.BENCH_ANSWERS_OUT, `${JSON.stringify(rows, null, 1)}\n`);
  }
  const times = runs.flatMap((r) => r.results.map((x) => x.ms)).sort((a, b) => a - b);
  console.log(
    `\nElapsed: ${((performance.now() - began) / 1000).toFixed(1)} s for ${times.length} answers` +
      ` (answer time median ${times[times.length >> 1]!.toFixed(1)} ms, max ${times.at(-1)!.toFixed(1)} ms)`,
  );
  reportBudgets(missed);
}

function printHeader(
  questions: Question[],
  stale: Map<string, string>,
  titles: Map<string, string>,
) {
  const covered = questions.filter((q) => q.covered).length;
  console.log(
    `bench:answers — ${questions.length} questions: ${covered} covered by the sources, ` +
      `${questions.length - covered} not (${pct(questions.length - covered, questions.length)}); no LLM`,
  );
  for (const [id, why] of stale) console.log(`  left out, label out of date: ${id}: ${why}`);
  console.log('\nTitles the server gave the uploaded files:');
  for (const file of Object.values(CORPORA).flatMap((c) => c.files)) {
    const title = titles.get(file.name) ?? '?';
    const section = new RegExp(`^#{2,6}\\s+${escapeRegExp(title)}\\s*$`, 'm').test(file.text);
    const shown = title.length > 72 ? `${title.slice(0, 71)}…` : title;
    console.log(`  ${file.name.padEnd(26)} ${shown}${section ? '   (a section heading)' : ''}`);
  }
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const pct = (n: number, of: number) => (of === 0 ? '–' : `${((100 * n) / of).toFixed(1)} %`);
const count = (results: Result[], outcome: Outcome) =>
  results.filter((r) => r.outcome === outcome).length;

/** Budgets over, by table and line, for the verdict at the end. */
const missed: string[] = [];
let table = '';

function line(label: string, n: number, of?: number, budget?: number) {
  const share = of === undefined ? '' : pct(n, of);
  const over = budget !== undefined && of !== undefined && of > 0 && (100 * n) / of > budget;
  if (over) missed.push(`${table}: ${label}`);
  const verdict =
    budget === undefined || of === undefined
      ? ''
      : `≤ ${String(budget).padStart(2)} %  ${over ? 'OVER' : 'PASS'}`;
  console.log(
    `  ${label.padEnd(40)} ${String(n).padStart(4)}  ${share.padStart(8)}   ${verdict}`.trimEnd(),
  );
}

function printTable(label: string, results: Result[]) {
  table = label;
  const answerable = results.filter((r) => r.question.covered);
  const offTopic = results.filter((r) => !r.question.covered);
  const a = answerable.length;
  console.log(`\n${label}${' '.repeat(Math.max(1, 44 - label.length))}count     share   budget`);
  line('covered questions', a);
  line('answered correctly', count(answerable, 'correct'), a);
  // The issue asks for answers that quote only passages that answer: not budgeted, but shown.
  const padded = answerable.filter(
    (r) => r.outcome === 'correct' && r.cited.some((c) => !r.question.sources!.includes(c)),
  );
  line('  of which cite another source too', padded.length, a);
  line('answered wrongly (passage lacks it)', count(answerable, 'wrong'), a, BUDGETS.wrong);
  line('refused, though covered', count(answerable, 'refused'), a, BUDGETS.refusedCovered);
  // Not budgeted: a refusal that offers the section holding the answer is one click from it.
  const offered = answerable.filter((r) => r.offeredAnswers).length;
  line('  of which a topic it offers answers it', offered, a);
  line('questions no source covers', offTopic.length);
  line('refused honestly', count(offTopic, 'honest'), offTopic.length);
  line('answered anyway', count(offTopic, 'answered'), offTopic.length, BUDGETS.offTopicAnswered);
  const phrased = (p: Question['phrasing']) => {
    const of = answerable.filter((r) => r.question.phrasing === p);
    return `${count(of, 'correct')}/${of.length} (${pct(count(of, 'correct'), of.length)})`;
  };
  console.log(
    `  answered correctly by phrasing: documents' wording ${phrased('document')}, ` +
      `paraphrase ${phrased('paraphrase')}`,
  );
}

const OUTCOME_NAMES: Record<Outcome, string> = {
  correct: 'correct',
  wrong: 'WRONG',
  refused: 'REFUSED',
  honest: 'refused',
  answered: 'ANSWERED',
};

function detail(r: Result): string {
  const text = r.response.replace(/\s+/g, ' ').trim();
  const shown = text.length > SHOWN_CHARS ? `${text.slice(0, SHOWN_CHARS - 1)}…` : text;
  const expected = r.question.sources ? `; expected ${r.question.sources.join(' or ')}` : '';
  return (
    `  ${OUTCOME_NAMES[r.outcome].padEnd(8)} ${r.question.id}: ${r.question.question}\n` +
    `           cited ${r.cited.length ? r.cited.join(', ') : 'nothing'} (rule ${r.rule || '–'})${expected}\n` +
    `           "${shown}"`
  );
}

const failing = (r: Result) => r.outcome !== 'correct' && r.outcome !== 'honest';

function printRun(label: string, results: Result[]) {
  const { qa, files } = CORPORA[label as CorpusName];
  const holding = [qa.length ? `${qa.length} Q&A pairs` : '', ...files.map((f) => f.name)];
  printTable(`${label}: ${qa.length + files.length} sources`, results);
  console.log(`  sources: ${holding.filter(Boolean).join(', ')}`);
  const failures = results.filter(failing);
  if (failures.length > 0) console.log(`\n  Failing (${failures.length}):`);
  for (const r of failures) console.log(detail(r));
}

/** The combined bot's table, and only what went differently from the same question alone. */
function printCombined(label: string, results: Result[], separate: Result[]) {
  printTable(label, results);
  const before = new Map(separate.map((r) => [r.question.id, r]));
  const changed = results.filter((r) => before.get(r.question.id)?.outcome !== r.outcome);
  if (changed.length === 0) return;
  console.log(
    `\n  Different from the same question in its own corpus's chatbot (${changed.length}):`,
  );
  for (const r of changed) {
    console.log(
      `${detail(r)}\n           alone: ${OUTCOME_NAMES[before.get(r.question.id)!.outcome]}`,
    );
  }
}

/** The budgeted shares of each half: tuned on A, held out B. */
function printHalves(half: Map<string, 'A' | 'B'>, separate: Result[], combined: Result[]) {
  console.log(
    `\nBy half (seed ${SPLIT_SEED}; tune on A, check on B)      right    wrong  refused  off-topic answered`,
  );
  for (const [label, results] of [
    ['separate bots', separate],
    ['both in one chatbot', combined],
  ] as const) {
    for (const h of ['A', 'B'] as const) {
      const of = results.filter((r) => half.get(r.question.id) === h);
      const covered = of.filter((r) => r.question.covered);
      const uncovered = of.filter((r) => !r.question.covered);
      const share = (n: number, all: number) => pct(n, all).padStart(8);
      console.log(
        `  ${`${label}, half ${h} (${covered.length} + ${uncovered.length})`.padEnd(44)}` +
          share(count(covered, 'correct'), covered.length) +
          share(count(covered, 'wrong'), covered.length) +
          share(count(covered, 'refused'), covered.length) +
          share(count(uncovered, 'answered'), uncovered.length),
      );
    }
  }
}

main().catch((error: unknown) => {
  console.error('bench:answers failed:', error);
  process.exit(1);
});
