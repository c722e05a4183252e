/**
 * The built dist/chatbot-admin.js against the real reference server, in a page with a strict
 * Content-Security-Policy: a user's whole path from an empty account back to an empty account.
 * The steps share one page and run in order; each states what it proves.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { axeViolations, type Harness, startHarness, testPage, writeGuard } from './harness.js';

let h: Harness;

/**
 * A new page of the built admin at `hash`, each request's path and console warning noted;
 * `block` fails the load of that file, as a deployment without it would.
 */
async function adminPage(name: string, hash: string, block?: string) {
  const page = await h.newPage({ viewport: { width: 1280, height: 900 } });
  page.setDefaultTimeout(TIMEOUT);
  const fetched: string[] = [];
  page.on('request', (request) => fetched.push(new URL(request.url()).pathname));
  const warnings: string[] = [];
  page.on('console', (m) => m.type() === 'warning' && warnings.push(m.text()));
  if (block) await page.route(`**/${block}`, (route) => route.abort());
  const url = h.page(
    name,
    testPage(
      h.url,
      `<main><chatbot-admin base-url="${h.url}" api-key="${h.apiKey}"></chatbot-admin></main>`,
      '<script type="module" src="/dist/chatbot-admin.js"></script>',
    ),
  );
  await page.goto(`${url}#${hash}`);
  return { page, fetched, warnings };
}
let site: Server;
let siteUrl: string;
let page: Page;
let chatbotUuid: string;
const TIMEOUT = 20_000;

/** A small website the URL sources are scraped from; its text changes on every fetch. */
function startSite(): Promise<void> {
  let fetches = 0;
  site = createServer((_req, res) => {
    fetches += 1;
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><html lang="en"><head><title>Harbour timetable</title></head>
<body><main><h1>Harbour timetable</h1>
<p>The evening ferry to the island leaves the harbour at half past eight (version ${fetches}).</p>
</main></body></html>`);
  });
  return new Promise((resolve) =>
    site.listen(0, '127.0.0.1', () => {
      siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/timetable`;
      resolve();
    }),
  );
}

before(async () => {
  h = await startHarness({ builds: ['api', 'admin'] });
  writeGuard(h);
  await startSite();
  const url = h.page(
    'admin.html',
    testPage(
      h.url,
      `<main><h1>My dashboard</h1>
<chatbot-admin base-url="${h.url}" api-key="${h.apiKey}"></chatbot-admin>
</main>`,
      '<script type="module" src="/dist/chatbot-admin.js"></script>',
    ),
  );
  page = await h.newPage({ viewport: { width: 1280, height: 900 } });
  page.setDefaultTimeout(TIMEOUT);
  await page.goto(url);
});

after(async () => {
  await page?.context().close();
  await h?.close();
  await new Promise((resolve) => site?.close(resolve));
});

const tab = (name: string) => page.getByRole('tab', { name, exact: true });
const panel = (id: string) => page.locator(`#panel-${id}`);
const row = (title: string | RegExp) =>
  page.locator('chatbot-admin-sources .tbody [role=row]').filter({ hasText: title });

/** Polls a server-side condition the UI's last action leads to. */
async function eventually(check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + TIMEOUT;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not reached within ${TIMEOUT} ms: ${check}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Clicks the action button of the open confirmation dialog, after checking what it names. */
async function confirm(scope: Locator, names: string | RegExp): Promise<void> {
  const dialog = scope.locator('dialog.confirm[open]');
  await dialog.waitFor();
  assert.match(
    (await dialog.textContent()) ?? '',
    names instanceof RegExp ? names : new RegExp(names),
  );
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await dialog.waitFor({ state: 'detached' });
}

/** Statuses settle through the table's own polling: no reload, no API call from the test. */
async function waitAllSucceeded(count: number): Promise<void> {
  await page.waitForFunction(
    (n) => {
      const sources = document
        .querySelector('chatbot-admin')
        ?.shadowRoot?.querySelector('chatbot-admin-sources');
      const cells = [
        ...(sources?.shadowRoot?.querySelectorAll('.tbody [role=row] [role=cell]:nth-child(4)') ??
          []),
      ];
      return cells.length === n && cells.every((c) => c.textContent?.trim() === 'Succeeded');
    },
    count,
    { timeout: TIMEOUT },
  );
}

describe('<chatbot-admin> built bundle, a user’s whole path', () => {
  it('should load with no chatbot, no script error and no accessibility violation', async () => {
    await page.getByText('No chatbots yet.').waitFor();
    assert.deepEqual(await axeViolations(page), []);
  });

  it('should create a chatbot and change its settings', async () => {
    await page.getByRole('button', { name: 'New chatbot' }).click();
    const dialog = page.locator('dialog.create');
    await dialog.getByLabel('Name').fill('Harbour helper');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await tab('Settings').waitFor();
    assert.equal(await tab('Settings').getAttribute('aria-selected'), 'true');
    chatbotUuid = new URLSearchParams(new URL(page.url()).hash.slice(1)).get('chatbot')!;
    assert.ok(chatbotUuid);

    const settings = panel('settings');
    await settings.getByLabel('Name').fill('Harbour helper <v2>');
    await settings.getByLabel('Messages').fill('10');
    await settings.getByLabel('Seconds').fill('60');
    await settings.getByLabel('Rate-limit message').fill('Easy, sailor: wait a minute.');
    await settings.getByRole('button', { name: 'Save' }).click();
    await settings.getByText('Saved.').waitFor();
    const stored = await h.client.chatbots.get(chatbotUuid);
    assert.equal(stored.name, 'Harbour helper <v2>');
    assert.deepEqual(stored.meta.rate_limit, [10, 60]);
    assert.equal(stored.meta.rate_limit_message, 'Easy, sailor: wait a minute.');
    assert.deepEqual(await axeViolations(page), []);
  });

  it('should create an agent of each type and enable every one', async () => {
    await tab('Agents').click();
    const agents = panel('agents');
    const form = agents.locator('form[aria-labelledby=new-agent]');
    for (const type of [
      'user-facing',
      'background',
      'human-escalation',
      'pre-canned',
      'spam-defense',
    ]) {
      await form.getByLabel('Type').selectOption(type);
      await form.getByLabel('Name').fill(`Harbour ${type}`);
      await form.getByLabel('Prompt').fill(`You are the ${type} agent of the harbour.`);
      if (type === 'pre-canned' || type === 'spam-defense') {
        await form.getByLabel('Default message').fill('Please ask about the harbour.');
      }
      await form.getByRole('button', { name: 'Create agent' }).click();
      await agents.getByRole('heading', { name: `Harbour ${type}` }).waitFor();
      const toggle = agents.getByRole('switch', { name: `Enabled: Harbour ${type}` });
      assert.equal(await toggle.isChecked(), false);
      await toggle.check();
      await eventually(async () =>
        (await h.client.agents.list(chatbotUuid)).some(
          (a) => a.name === `Harbour ${type}` && (a.enabled === 1 || a.enabled === true),
        ),
      );
    }
    const list = await h.client.agents.list(chatbotUuid);
    // The five created here and the default assistant, all enabled.
    assert.equal(list.length, 6);
    assert.ok(list.every((a) => a.enabled === 1 || a.enabled === true));
  });

  it('should upload files, add a Q&A pair and a URL, and watch every source reach success', async () => {
    await tab('Data sources').click();
    const sources = panel('sources');
    await sources.locator('input[type=file]').setInputFiles([
      {
        name: 'ferries.txt',
        mimeType: 'text/plain',
        buffer: Buffer.from('The morning ferry leaves at seven.'),
      },
      {
        name: 'tickets.md',
        mimeType: 'text/markdown',
        buffer: Buffer.from('# Tickets\n\nA day ticket costs five euros.'),
      },
      { name: 'tool.exe', mimeType: 'application/octet-stream', buffer: Buffer.from([0, 1, 2, 3]) },
    ]);
    await sources.getByText('Uploaded').nth(1).waitFor();
    await sources
      .locator('.uploads')
      .getByText(/file type not allowed/)
      .waitFor();

    await sources.getByLabel('Question').fill('Where do I buy tickets?');
    await sources.getByLabel('Answer').fill('Tickets are sold at the kiosk by pier two.');
    await sources.getByRole('button', { name: 'Add Q&A' }).click();
    await sources.getByLabel('URL', { exact: true }).fill(siteUrl);
    await sources.getByRole('button', { name: 'Add URLs' }).click();
    await sources.getByText('1 added.').waitFor();

    await waitAllSucceeded(4);
    await row('Harbour timetable').waitFor();
    assert.deepEqual(await axeViolations(page), []);
  });

  it('should re-scrape the URL source and show its result', async () => {
    await row('Harbour timetable').getByRole('checkbox').check();
    await panel('sources').getByRole('button', { name: 'Re-scrape' }).click();
    await panel('sources')
      .locator('.results')
      .getByText(/Harbour timetable: restarted scraping/)
      .waitFor();
    await waitAllSucceeded(4);
  });

  it('should tag a source and filter the table by that tag', async () => {
    await tab('Tags').click();
    const tags = panel('tags');
    const form = tags.locator('form.tag-form');
    await form.getByLabel('Name').fill('Tickets');
    await form.getByLabel('Color', { exact: true }).fill('#0088cc');
    await form.getByRole('checkbox', { name: 'Where do I buy tickets?' }).check();
    await form.getByRole('button', { name: 'Create tag' }).click();
    await tags.getByText('1 source', { exact: true }).waitFor();
    await tags.getByRole('button', { name: 'Show sources tagged Tickets' }).click();
    assert.equal(await tab('Data sources').getAttribute('aria-selected'), 'true');
    await panel('sources').getByText('1 of 4 sources').waitFor();
    assert.equal(await row(/./).count(), 1);
    await row('Where do I buy tickets?').waitFor();
    assert.match(page.url(), /tag=/);
  });

  it('should answer in Try it from the chatbot’s sources', async () => {
    await tab('Try it').click();
    const chat = panel('try').locator('chatbot-chat');
    await chat.getByRole('textbox', { name: 'Message' }).fill('Where can I buy tickets?');
    await chat.getByRole('button', { name: 'Send' }).click();
    await chat
      .locator('[part~=assistant-message]')
      .getByText(/kiosk by pier two/)
      .waitFor();
  });

  it("should show Try it's conversation under Conversations as the owner's test, and delete one message", async () => {
    await tab('Conversations').click();
    const sessions = panel('sessions');
    // Not with the visitors' conversations, which are all there are at first.
    await sessions.getByText('No sessions yet.').waitFor();
    await sessions
      .getByRole('combobox', { name: 'Asked by' })
      .selectOption({ label: "The owner's tests (Try it)" });
    await sessions.getByRole('button', { name: /^Open session/ }).click();
    const transcript = sessions.locator('[part=transcript]');
    await transcript.getByText('Where can I buy tickets?').waitFor();
    await transcript
      .getByText(/kiosk by pier two/)
      .first()
      .waitFor();
    await transcript.locator('[part=sources]').getByText('Where do I buy tickets?').waitFor();
    await transcript.getByRole('button', { name: /^Delete message/ }).click();
    await confirm(sessions, 'Where can I buy tickets?');
    await sessions.getByText('No messages.').waitFor();
    const [session] = await h.client.sessions.list(chatbotUuid);
    assert.deepEqual(await h.client.messages.list(session!.uuid), []);
  });

  it('should delete everything: session, sources, tag, agents and the chatbot', async () => {
    const sessions = panel('sessions');
    await sessions.getByRole('button', { name: 'Delete session', exact: true }).click();
    await confirm(sessions, /Delete the session/);
    await sessions.getByText('No conversation matches the filters.').waitFor();

    await tab('Data sources').click();
    const sources = panel('sources');
    await sources.getByLabel('Filter by tag').selectOption('');
    await sources.getByText('4 of 4 sources').waitFor();
    await sources.getByRole('checkbox', { name: 'Select all shown' }).check();
    await sources.getByRole('button', { name: 'Delete selected' }).click();
    await confirm(sources, /Delete 4 data sources/);
    await sources.getByText('No data sources yet.').waitFor();

    await tab('Tags').click();
    await panel('tags').getByRole('button', { name: 'Delete Tickets' }).click();
    await confirm(panel('tags'), 'Tickets');
    await panel('tags').getByText('No tags yet.').waitFor();

    await tab('Agents').click();
    const agents = panel('agents');
    for (const agent of await h.client.agents.list(chatbotUuid)) {
      await agents.getByRole('button', { name: `Delete ${agent.name}`, exact: true }).click();
      await confirm(agents, agent.name);
    }
    await agents.getByText('No agents yet.').waitFor();

    await tab('Settings').click();
    await panel('settings').getByRole('button', { name: 'Delete', exact: true }).click();
    await confirm(panel('settings'), 'Harbour helper <v2>');
    await page.getByText('No chatbots yet.').waitFor();

    assert.deepEqual(await h.client.chatbots.list(), []);
    assert.deepEqual(
      await h.client.agents.list(chatbotUuid).catch((e: { status: number }) => e.status),
      404,
    );
    assert.equal(await page.evaluate(() => (window as unknown as { __pwned: number }).__pwned), 0);
    assert.deepEqual(
      await page.evaluate(() => (window as unknown as { __violations: string[] }).__violations),
      [],
    );
    assert.deepEqual(h.errors, []);
  });

  it('should load its German strings for a German dashboard only', async () => {
    const loads: string[] = [];
    const open = async (name: string, lang: string) => {
      const other = await h.newPage();
      other.on('request', (request) => {
        if (/-de\.js$/.test(request.url()))
          loads.push(`${lang} ${new URL(request.url()).pathname}`);
      });
      await other.goto(
        h.page(
          name,
          testPage(
            h.url,
            `<main lang="${lang}"><chatbot-admin base-url="${h.url}" api-key="${h.apiKey}"></chatbot-admin></main>`,
            '<script type="module" src="/dist/chatbot-admin.js"></script>',
          ),
        ),
      );
      return other;
    };
    const english = await open('admin-en.html', 'en');
    await english.getByRole('button', { name: 'New chatbot' }).waitFor();
    await english.waitForLoadState('networkidle');
    await english.context().close();
    const german = await open('admin-de.html', 'de');
    await german.getByRole('button', { name: 'Neuer Chatbot' }).waitFor();
    assert.deepEqual(loads, ['de /dist/chatbot-admin-de.js']);
    assert.deepEqual(h.errors, []);
    await german.context().close();
  });

  it('should fetch the chat only when Try it first opens, and lose only that tab without it', async () => {
    const bot = await h.client.chatbots.create({ name: 'Lazy harbour' });
    const open = async (name: string, missing: boolean) => {
      const { page: other, fetched } = await adminPage(
        name,
        `chatbot=${bot.uuid}&tab=settings`,
        missing ? 'chatbot-admin-try-chat.js' : undefined,
      );
      await other.getByRole('textbox', { name: 'Name' }).waitFor();
      await other.waitForLoadState('networkidle');
      return { other, fetched };
    };
    const { other, fetched } = await open('admin-lazy-chat.html', false);
    assert.ok(!fetched.some((path) => path.endsWith('-try-chat.js')), fetched.join(' '));
    assert.equal(await other.evaluate(() => customElements.get('chatbot-chat')), undefined);
    await other.getByRole('tab', { name: 'Try it', exact: true }).click();
    await other.locator('chatbot-chat').getByRole('textbox', { name: 'Message' }).waitFor();
    assert.ok(fetched.includes('/dist/chatbot-admin-try-chat.js'));
    await other.context().close();

    const broken = await open('admin-no-chat.html', true);
    const warned = broken.other.waitForEvent('console', (m) => m.type() === 'warning');
    await broken.other.getByRole('tab', { name: 'Try it', exact: true }).click();
    assert.match((await warned).text(), /the chat of Try it .* did not load/);
    await broken.other
      .getByRole('tab', { name: 'Try it', exact: true })
      .waitFor({ state: 'detached' });
    assert.equal(
      await broken.other
        .getByRole('tab', { name: 'Settings', exact: true })
        .getAttribute('aria-selected'),
      'true',
    );
    await broken.other.getByRole('textbox', { name: 'Name' }).waitFor();
    assert.deepEqual(h.errors, []);
    await broken.other.context().close();
    await h.client.chatbots.delete(bot.uuid);
  });

  it('should draw answers with the chat’s renderer once a transcript opens, and as raw text without it', async () => {
    const bot = await h.client.chatbots.create({ name: 'Markdown harbour' });
    const question = 'How do I reset the kiosk?';
    const answer =
      '**Hold** the button <img src=x onerror="window.__pwned=1">:\n\n- unplug it\n- plug it back in';
    await h.client.sources.createQa(bot.uuid, { question, answer });
    const session = await h.client.sessions.create(bot.uuid);
    await h.client.messages.send(session.uuid, question);
    const open = async (name: string, missing: boolean) => {
      const {
        page: other,
        fetched,
        warnings,
      } = await adminPage(
        name,
        `chatbot=${bot.uuid}&tab=sessions`,
        missing ? 'chatbot-markdown.js' : undefined,
      );
      const open = other.getByRole('button', { name: `Open session: ${question}` });
      await open.waitFor();
      await other.waitForLoadState('networkidle');
      assert.ok(!fetched.some((path) => path.endsWith('markdown.js')), fetched.join(' '));
      await open.click();
      return { other, fetched, warnings, shown: other.locator('[part~=assistant-message]') };
    };
    const drawn = await open('admin-markdown.html', false);
    await drawn.shown.locator('strong', { hasText: 'Hold' }).waitFor();
    assert.equal(await drawn.shown.locator('li').count(), 2);
    // The sanitizer's file loads for the raw HTML, which it drops.
    await drawn.other.waitForFunction(() => {
      const shown = document
        .querySelector('chatbot-admin')
        ?.shadowRoot?.querySelector('chatbot-admin-sessions')
        ?.shadowRoot?.querySelector('[part~=assistant-message]');
      return shown && !shown.textContent?.includes('<img');
    });
    assert.equal(await drawn.shown.locator('img').count(), 0);
    for (const file of ['chatbot-admin-transcript-markdown.js', 'chatbot-markdown.js']) {
      assert.ok(drawn.fetched.includes(`/dist/${file}`), drawn.fetched.join(' '));
    }
    assert.equal(
      await drawn.other.evaluate(() => (window as unknown as { __pwned: number }).__pwned),
      0,
    );
    assert.deepEqual(
      await drawn.other.evaluate(
        () => (window as unknown as { __violations: string[] }).__violations,
      ),
      [],
    );
    await drawn.other.context().close();

    const broken = await open('admin-no-markdown.html', true);
    await eventually(async () => broken.warnings.length > 0);
    assert.equal(broken.warnings.length, 1);
    assert.match(broken.warnings[0]!, /the transcript's markdown .* did not load/);
    assert.equal(await broken.shown.innerText(), answer);
    assert.equal(await broken.shown.locator('*').count(), 0);
    assert.deepEqual(h.errors, []);
    await broken.other.context().close();
    await h.client.chatbots.delete(bot.uuid);
  });
});
