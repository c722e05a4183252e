import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { excerpt } from '../../src/server/knowledge/answer.js';
import { chunkMarkdown } from '../../src/server/knowledge/markdown.js';
import { extractHtml } from '../../src/server/knowledge/parse.js';
import { SearchIndex } from '../../src/server/knowledge/search.js';
import { terms } from '../../src/server/knowledge/text.js';
import type { ChunkRow, Store } from '../../src/server/store/types.js';
import { ADMIN_KEY, ask, type Harness, startHarness } from './helpers.js';
import { type KeptDatabase, keptDatabase, TEST_STORE, withClient } from './stores.js';

/** A README in the shape of the project's own: a title, sections, lists, code, a table, comments. */
const README = `# Lighthouse kit

A toolkit for keeping lighthouses lit. It runs on any harbour computer.

<!-- start:server -->
<!-- end:server -->

## Installing

Install it with the package manager, then start the lamp service:

\`\`\`sh
npm install lighthouse-kit   # the library
npx lighthouse start          # the lamp service
\`\`\`

## The lamp module

The lamp module talks to the lamp over the serial line.

### Options

- \`port\` — the serial port the lamp listens on
- \`baud\` — the line speed, 9600 unless the lamp says otherwise
- \`colour\` — white, red or green

### Errors

Every failure is one of a small family:

| error | when | carries |
| --- | --- | --- |
| \`LampError\` | the lamp answered with a fault code | \`code\`, \`message\` |
| \`LineError\` | the serial line dropped | \`cause\` |

Messages name the lamp: \`lamp 3 failed with E12: bulb out\`.

**Retries** are for idempotent commands only (status reads and lamp tests), after a line error,
with exponential backoff. Switching commands are never retried.

## Development

<!-- the CI notes live in .ci -->

\`\`\`sh
npm test        # everything CI runs
npm run lint    # Biome
\`\`\`
`;

const fencesBalanced = (text: string) => (text.match(/^\s*```/gm) ?? []).length % 2 === 0;

describe('structure-aware chunking', () => {
  it('keeps lines, section paths and whole code blocks, and drops HTML comments', () => {
    const chunks = chunkMarkdown(README);
    for (const chunk of chunks) {
      assert.doesNotMatch(chunk.text, /<!--|-->|start:server|CI notes/);
      assert.ok(fencesBalanced(chunk.text), `unbalanced fence in:\n${chunk.text}`);
    }
    const options = chunks.find((c) => c.heading === 'The lamp module › Options');
    assert.ok(options, 'a chunk for the Options section');
    assert.match(options.text, /^- `port` — the serial port the lamp listens on$/m);
    assert.match(options.text, /^- `baud` — .*$/m);
    const errors = chunks.find((c) => c.text.includes('LampError'));
    assert.equal(errors?.heading, 'The lamp module › Errors');
    assert.match(errors!.text, /^\| error \| when \| carries \|$/m);
    assert.match(errors!.text, /^\| `LineError` \| the serial line dropped \| `cause` \|$/m);
    const install = chunks.find((c) => c.text.includes('npm install lighthouse-kit'));
    assert.match(install!.text, /```sh\nnpm install lighthouse-kit {3}# the library\n/);
  });

  it('cuts a code block or table bigger than a chunk at line boundaries, each part balanced', () => {
    const code = Array.from({ length: 40 }, (_, i) => `echo "line ${i} of the script"`).join('\n');
    const rows = Array.from({ length: 40 }, (_, i) => `| row ${i} | value ${i} |`).join('\n');
    const chunks = chunkMarkdown(
      `## Script\n\n\`\`\`sh\n${code}\n\`\`\`\n\n## Table\n\n| name | value |\n| --- | --- |\n${rows}\n`,
      300,
      60,
    );
    const script = chunks.filter((c) => c.heading === 'Script');
    assert.ok(script.length > 2);
    for (const chunk of script) {
      assert.ok(fencesBalanced(chunk.text), chunk.text);
      assert.ok(chunk.text.length <= 330, `${chunk.text.length} characters`);
      for (const line of chunk.text.split('\n'))
        assert.match(line, /^(```sh|```|## Script|echo "line \d+ of the script")$/);
    }
    const table = chunks.filter((c) => c.heading === 'Table');
    assert.ok(table.length > 2);
    for (const chunk of table) assert.match(chunk.text, /^\| name \| value \|\n\| --- \| --- \|$/m);
  });

  it('carries the last short blocks of a long section into its next chunk', () => {
    const paragraphs = Array.from(
      { length: 12 },
      (_, i) => `Paragraph ${i} says something about topic ${i}.`,
    );
    const chunks = chunkMarkdown(`## Long\n\n${paragraphs.join('\n\n')}\n`, 200, 60);
    assert.ok(chunks.length > 1);
    for (let i = 1; i < chunks.length; i++) {
      const previousLast = chunks[i - 1]!.text.split('\n').pop()!;
      assert.equal(chunks[i]!.text.split('\n')[0], previousLast);
    }
  });
});

describe('HTML as Markdown blocks', () => {
  it('turns a page into headings, list items, fenced code and table rows, one per line', () => {
    const { main } = extractHtml(`<html><head><title>Guide</title></head><body><article>
      <h1>Guide</h1><p>Read this first.</p><!-- hidden note -->
      <h2>Setup</h2><ul><li>Install the kit</li><li>Start the <b>lamp</b></li></ul>
      <pre><code>npx lighthouse start
  --port 3</code></pre>
      <table><tr><th>error</th><th>when</th></tr><tr><td>LampError</td><td>a fault</td></tr></table>
    </article></body></html>`);
    assert.doesNotMatch(main.text, /hidden note/);
    assert.match(main.text, /^## Setup$/m);
    assert.match(main.text, /^- Install the kit\n- Start the lamp$/m);
    assert.match(main.text, /^```\nnpx lighthouse start\n {2}--port 3\n```$/m);
    assert.match(main.text, /^\| error \| when \|\n\| --- \| --- \|\n\| LampError \| a fault \|$/m);
    const chunks = chunkMarkdown(main.text);
    assert.ok(chunks.some((c) => c.heading === 'Setup' && c.text.includes('- Start the lamp')));
  });
});

describe('HTML nested deeper than a browser builds', () => {
  // Readability's work grows with depth times size (10,000 nested divs held the server's thread
  // for 4 s), and the block walk recursed until the stack ran out; browsers stop at 512 levels.
  it('is read as its plain text, whole page or fragment, instead of refused', () => {
    const deep = (n: number) => `${'<div>'.repeat(n)}Warranty: two years.${'</div>'.repeat(n)}`;
    for (const html of [
      `<html><head><title>Deep</title></head><body><p>Intro.</p>${deep(30_000)}</body></html>`,
      deep(30_000),
    ]) {
      const { main } = extractHtml(html);
      assert.match(main.text, /Warranty: two years\./);
    }
    const { main } = extractHtml(
      `<html><head><title>Deep</title></head><body>${deep(30_000)}</body></html>`,
    );
    assert.equal(main.title, 'Deep');
  });
});

describe('retrieval by section', () => {
  it('ranks the Retries paragraph first for "How are retries handled?"', async () => {
    const rows: ChunkRow[] = chunkMarkdown(README).map((c, i) => ({
      id: i + 1,
      sourceUuid: 'readme',
      ...c,
    }));
    const index = new SearchIndex({
      listChunks: () => rows,
      chatbotsWithChunks: () => ['bot'],
    } as unknown as Store);
    await index.ready('bot');
    const { hits } = await index.search('bot', 'How are retries handled?');
    assert.match(hits[0]!.text, /\*\*Retries\*\* are for idempotent commands/);
    assert.equal(hits[0]!.heading, 'The lamp module › Errors');
  });
});

describe('composed answers as Markdown', () => {
  let h: Harness;
  let bot: string;
  before(async () => {
    h = await startHarness();
    bot = (await h.api.chatbots.create({ name: 'Lighthouse' })).uuid;
    await h.api.sources.upload(bot, new Blob([README]), { fileName: 'README.md' });
    await h.server.idle();
  });
  after(() => h.close());

  const answer = async (question: string) =>
    (await ask(h.api, (await h.api.sessions.create(bot)).uuid, question)).text;

  it('quotes a list as list items, each on its own line, under a lead-in naming the section', async () => {
    const text = await answer('Which options does the lamp module take?');
    assert.match(text, /^From \*Lighthouse kit › Options\*:\n\n/);
    assert.match(text, /^- `port` — the serial port the lamp listens on$/m);
    assert.match(text, /^- `colour` — white, red or green \[1\]$/m);
    assert.doesNotMatch(text, /<!--|^#|---/m);
  });

  it('quotes a code block with its fence opened and closed, and the citation after it', async () => {
    const text = await answer('How do I install and start the lamp service?');
    assert.match(text, /From \*Lighthouse kit › Installing\*:/);
    assert.match(
      text,
      /\n```sh\nnpm install lighthouse-kit {3}# the library\nnpx lighthouse start {10}# the lamp service\n```\n\n\[1\]/,
    );
    assert.ok(fencesBalanced(text));
    assert.doesNotMatch(text, /<!--/);
  });

  it('answers a question about retries from the Retries paragraph first, as whole sentences', async () => {
    const text = await answer('How are retries handled?');
    assert.match(
      text,
      /^From \*Lighthouse kit › Errors\*:\n\n\*\*Retries\*\* are for idempotent commands only/,
    );
    assert.match(text, /\nSwitching commands are never retried\. \[1\]/);
  });

  it('quotes a Q&A pair found in other words with its whole answer, code and all, not its question', async () => {
    const qa = await h.api.sources.createQa(bot, {
      question: 'How do I put the lamp widget on my website?',
      answer:
        'Add one script tag before `</body>`:\n\n```html\n<script src="/lamp-widget.js"></script>\n```\n\nIt shows the lamp in the corner.',
    });
    await h.server.idle();
    // Too few of the pair's words to be it verbatim ("widget" and "website"), enough to be the
    // passage that answers.
    const text = await answer('Wie bette ich das Widget in meine Website ein?');
    assert.match(
      text,
      /^Add one script tag before `<\/body>`:\n\n```html\n<script src="\/lamp-widget\.js"><\/script>\n```\n\nIt shows the lamp in the corner\./,
    );
    assert.doesNotMatch(text, /How do I put the lamp widget/);
    await h.api.sources.delete(qa.uuid);
    await h.server.idle();
  });

  it('names the source of each passage when it quotes several, headings or none', async () => {
    const plain = (await h.api.chatbots.create({ name: 'Harbour' })).uuid;
    await h.api.sources.upload(
      plain,
      new Blob(['The harbour lamp is tested every Monday at dawn.']),
      { fileName: 'lamp-log.txt' },
    );
    await h.api.sources.upload(
      plain,
      new Blob(['A harbour lamp that fails its test is replaced within the day.']),
      { fileName: 'repairs.txt' },
    );
    await h.server.idle();
    const { text } = await ask(
      h.api,
      (await h.api.sessions.create(plain)).uuid,
      'When is the harbour lamp tested?',
    );
    // Without a lead-in the second read as the first one's next sentence (a text file's title
    // is its first line).
    const passages = text.split(/\n\n(?=From \*)/);
    assert.equal(passages.length, 2, text);
    assert.match(
      passages[0]!,
      /^From \*.+\*:\n\nThe harbour lamp is tested every Monday at dawn\. \[1\]$/,
    );
    assert.match(passages[1]!, /^From \*.+\*:\n\nA harbour lamp that fails its test .* \[2\]$/);
    await h.api.chatbots.delete(plain);
  });

  it('names a section as written when its name holds a tag or an underscore', async () => {
    const panel = (await h.api.chatbots.create({ name: 'Panel' })).uuid;
    const doc = `# Lamp parts

## The \`<lamp-panel>\` element

The lamp panel shows the beam of every lamp on the coast at once.

## The \`beam_angle\` setting

The beam angle sets how wide the lamp sweeps, in degrees.
`;
    await h.api.sources.upload(panel, new Blob([doc]), { fileName: 'parts.md' });
    await h.server.idle();
    const asked = async (question: string) =>
      (await ask(h.api, (await h.api.sessions.create(panel)).uuid, question)).text;
    // Not "lamp-panel", nor a tag the reader's sanitizer would drop.
    assert.match(
      await asked('What does the lamp panel show?'),
      /^From \*Lamp parts › The `<lamp-panel>` element\*:\n\n/,
    );
    // Not "beamangle", nor the start of emphasis.
    assert.match(
      await asked('How wide does the beam angle sweep?'),
      /^From \*Lamp parts › The `beam_angle` setting\*:\n\n/,
    );
    await h.api.chatbots.delete(panel);
  });

  it('keeps a table whole, and never repeats a sentence another passage quoted', async () => {
    const text = await answer('Which errors can the lamp module report?');
    assert.match(text, /^\| `LampError` \| the lamp answered with a fault code \| .*\|$/m);
    const lines = text.split('\n').filter((l) => l.length > 20);
    assert.equal(new Set(lines).size, lines.length, text);
  });
});

describe('excerpts', () => {
  it('turns a table too wide to quote into readable lines, keeping the matching rows in table order', () => {
    const rows = Array.from(
      { length: 8 },
      (_, i) =>
        `| \`Error${i}\` | something ${i} went wrong in a long and winding way | \`cause${i}\` |`,
    );
    const chunk = ['| error | when | carries |', '| --- | --- | --- |', ...rows].join('\n');
    const text = excerpt(chunk, terms('what carries cause5'), 200);
    const lines = text.split('\n');
    assert.ok(
      lines.some((l) => l.includes('`cause5`')),
      text,
    );
    for (const line of lines) assert.match(line, /^- `Error\d` — when: .* — carries: `cause\d`$/);
    assert.ok(text.length <= 200);
  });

  it('cleans markup debris out of an old, flattened chunk', () => {
    const old =
      'A delete counts as done. <!-- start:server --> <!-- end:server --> ## Development ```sh npm test # everything CI runs ``` --- Layout: tests mirror the sources.';
    const text = excerpt(old, terms('development layout tests'));
    assert.doesNotMatch(text, /<!--|```|##|---/);
    assert.match(text, /Layout: tests mirror the sources\./);
    // HTML inside a code span is code, not markup to strip.
    assert.equal(
      excerpt('Point an element at it: `<chatbot-chat base-url="x">`.', terms('element')),
      'Point an element at it: `<chatbot-chat base-url="x">`.',
    );
  });
});

describe('re-chunking an old store', () => {
  const what = { sqlite: 'of a version-2 database', postgres: 'a migration queued again' };
  it(`re-chunks stored files ${what[TEST_STORE]} at start`, async () => {
    const database = await keptDatabase();
    try {
      const first = await startHarness(database.serverOptions);
      const bot = (await first.api.chatbots.create({ name: 'Old' })).uuid;
      const source = await first.api.sources.upload(bot, new Blob([README]), {
        fileName: 'README.md',
      });
      await first.server.idle();
      await first.close();

      await makeOld(database, source.uuid, bot);

      const second = await startHarness({
        ...database.serverOptions,
        apiKeys: `alice:${ADMIN_KEY}`,
      });
      try {
        await second.server.idle();
        const [status] = (await second.api.sources.list(bot)).map((s) => s.status);
        assert.equal(status, 'success');
        const session = await second.api.sessions.create(bot);
        const text = (await ask(second.api, session.uuid, 'How are retries handled?')).text;
        assert.match(text, /^From \*Lighthouse kit › Errors\*:\n\n\*\*Retries\*\*/);
      } finally {
        await second.close();
      }
      const chunks = await (await database.openStore()).listChunks(bot);
      assert.ok(chunks.length > 3);
      assert.ok(chunks.every((c) => !c.text.includes('<!--')));
      assert.ok(chunks.some((c) => c.heading === 'The lamp module › Errors'));
    } finally {
      await database.close();
    }
  });
});

/**
 * Leaves the rows an older chunker left: the document flattened onto one line, without a heading.
 * SQLite's version 2 had no heading column either, and its migration to version 3 queues stored
 * files again; PostgreSQL never had that version, so its rows are set as such a migration leaves
 * them (the same UPDATE), which is what recovery at start works from on either store.
 */
async function makeOld(database: KeptDatabase, sourceUuid: string, bot: string) {
  const flat = README.replace(/\s+/g, ' ');
  if ('db' in database.serverOptions) {
    const raw = new Database(database.serverOptions.db);
    raw.exec('DELETE FROM chunks');
    raw.exec('ALTER TABLE chunks DROP COLUMN heading');
    raw
      .prepare('INSERT INTO chunks (source_uuid, chatbot_uuid, seq, text) VALUES (?, ?, 0, ?)')
      .run(sourceUuid, bot, flat);
    raw.pragma('user_version = 2');
    raw.close();
    return;
  }
  await withClient(database.serverOptions.databaseUrl, async (client) => {
    await client.query('DELETE FROM chunks');
    await client.query(
      'INSERT INTO chunks (source_uuid, chatbot_uuid, seq, text) VALUES ($1, $2, 0, $3)',
      [sourceUuid, bot, flat],
    );
    await client.query(`UPDATE data_sources SET status = 'await'
      WHERE status = 'success' AND type = 'file' AND uuid IN (SELECT source_uuid FROM chunks)`);
  });
}
