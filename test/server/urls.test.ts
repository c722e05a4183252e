import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import {
  fetchSite,
  isPrivateAddress,
  RefusedAddressError,
} from '../../src/server/knowledge/fetch-url.js';
import { ask, type Harness, settled, startHarness } from './helpers.js';

/** A small site on 127.0.0.1 whose pages the tests change as they go. */
function site() {
  let motto = 'Our motto is slow and steady.';
  const server: Server = createServer((req, res) => {
    const page = (title: string, body: string) => {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end(
        `<!doctype html><html><head><title>${title}</title></head><body>${body}</body></html>`,
      );
    };
    switch (req.url) {
      case '/article':
        return page(
          'Bakery news',
          `<nav><a href="/">Home</a></nav><article><h1>Bakery news</h1><p>The bakery on Elm Street sells sourdough every Saturday.</p><p>${motto}</p>
           <a href="/about">About us</a> <a href="/missing">Old page</a> <a href="http://localhost:${port()}/elsewhere">Elsewhere</a>
           <a href="/about#team">Team</a></article>`,
        );
      case '/about':
        return page('About', '<main><p>The bakery was founded in 1999 by two sisters.</p></main>');
      case '/elsewhere':
        return page('Elsewhere', '<p>Zebras graze on another origin.</p>');
      case '/redirect':
        res.writeHead(302, { Location: '/article' });
        return res.end();
      case '/redirect-private':
        res.writeHead(302, { Location: `http://127.0.0.2:${port()}/secret` });
        return res.end();
      case '/notes.txt':
        res.writeHead(200, { 'Content-Type': 'text/plain' });
        return res.end('Plain notes: the ovens are cleaned on Mondays.');
      case '/big':
        res.writeHead(200, { 'Content-Type': 'text/html' });
        return res.end(`<p>${'x'.repeat(20_000)}</p>`);
      case '/slow':
        return; // never answers
      default:
        res.writeHead(404, { 'Content-Type': 'text/plain' });
        return res.end('not found');
    }
  });
  const port = () => (server.address() as AddressInfo).port;
  return {
    server,
    url: (path: string) => `http://127.0.0.1:${port()}${path}`,
    port,
    setMotto(text: string) {
      motto = text;
    },
    start: () => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve)),
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('URL sources', () => {
  const pages = site();
  let h: Harness;
  before(async () => {
    await pages.start();
    h = await startHarness({
      allowPrivateUrls: true,
      fetchLimits: { maxBytes: 10_000, timeoutMs: 2_000 },
    });
  });
  after(async () => {
    await h.close();
    await pages.stop();
  });

  it('scrapes a page: readable text, the page title, and same-origin links within the limits', async () => {
    const bot = await h.api.chatbots.create({ name: 'Bakery' });
    const created = await h.api.sources.createUrl(bot.uuid, {
      url: pages.url('/article'),
      reference_source_link: 'https://bakery.example/news',
    });
    assert.equal(created.type, 'link');
    assert.equal(created.status, 'await');
    const source = await settled(h, bot.uuid, created.uuid);
    assert.equal(source.status, 'success', source.meta_json);
    assert.equal(source.title, 'Bakery news');
    assert.ok(source.tokens > 0);
    assert.ok(source.file_size > 0);
    const meta = JSON.parse(source.meta_json);
    assert.equal(meta.url, pages.url('/article'));
    assert.equal(meta.reference_source_link, 'https://bakery.example/news');
    assert.deepEqual(meta.pages, [pages.url('/article'), pages.url('/about')]);

    const session = await h.api.sessions.create(bot.uuid);
    const sourdough = await ask(h.api, session.uuid, 'When is sourdough sold?');
    assert.match(sourdough.text, /every Saturday/);
    assert.equal(sourdough.citations?.[0]?.url, 'https://bakery.example/news');
    assert.match((await ask(h.api, session.uuid, 'When was the bakery founded?')).text, /1999/);
    assert.doesNotMatch(
      (await ask(h.api, session.uuid, 'Where do zebras graze?')).text,
      /another origin/,
    );
  });

  it('follows redirects to the final page', async () => {
    const bot = await h.api.chatbots.create({ name: 'Redirect' });
    const created = await h.api.sources.createUrl(bot.uuid, { url: pages.url('/redirect') });
    const source = await settled(h, bot.uuid, created.uuid);
    assert.equal(source.status, 'success');
    assert.equal(JSON.parse(source.meta_json).final_url, pages.url('/article'));
  });

  it('takes a plain-text address as text', async () => {
    const bot = await h.api.chatbots.create({ name: 'Text' });
    const created = await h.api.sources.createUrl(bot.uuid, { url: pages.url('/notes.txt') });
    assert.equal((await settled(h, bot.uuid, created.uuid)).status, 'success');
    const session = await h.api.sessions.create(bot.uuid);
    assert.match((await ask(h.api, session.uuid, 'When are the ovens cleaned?')).text, /Mondays/);
  });

  it('fails with the reason when the page is missing, too large, or too slow', async () => {
    const bot = await h.api.chatbots.create({ name: 'Failures' });
    const expectations: Array<[string, RegExp]> = [
      ['/nowhere', /HTTP 404/],
      ['/big', /larger than 10000 bytes/],
      ['/slow', /longer than 2 s/],
    ];
    for (const [path, reason] of expectations) {
      const created = await h.api.sources.createUrl(bot.uuid, { url: pages.url(path) });
      const source = await settled(h, bot.uuid, created.uuid);
      assert.equal(source.status, 'fail', path);
      assert.match(JSON.parse(source.meta_json).error, reason);
    }
  });

  it('re-scrape fetches the page again and answers from the new content', async () => {
    pages.setMotto('Our motto is slow and steady.');
    const bot = await h.api.chatbots.create({ name: 'Rescrape' });
    const created = await h.api.sources.createUrl(bot.uuid, { url: pages.url('/article') });
    await settled(h, bot.uuid, created.uuid);
    const session = await h.api.sessions.create(bot.uuid);
    assert.match((await ask(h.api, session.uuid, 'What is the motto?')).text, /slow and steady/);

    pages.setMotto('Our motto is fresh every morning.');
    const qa = await h.api.sources.createQa(bot.uuid, { question: 'q?', answer: 'a.' });
    const results = await h.api.sources.rescrape([created.uuid, qa.uuid]);
    assert.deepEqual(results, [
      { uuid: created.uuid, status: 'restarted scraping' },
      { uuid: qa.uuid, error: 'invalid data source' },
    ]);
    assert.equal((await settled(h, bot.uuid, created.uuid)).status, 'success');
    const answer = await ask(h.api, session.uuid, 'What is the motto?');
    assert.match(answer.text, /fresh every morning/);
    assert.doesNotMatch(answer.text, /slow and steady/);
  });
});

describe('URL sources refused by default', () => {
  const pages = site();
  let h: Harness;
  before(async () => {
    await pages.start();
    h = await startHarness();
  });
  after(async () => {
    await h.close();
    await pages.stop();
  });

  it('refuses an address on 127.0.0.1 or localhost at once with a 422 naming the reason', async () => {
    const bot = await h.api.chatbots.create({ name: 'Safe' });
    for (const url of [
      pages.url('/article'),
      `http://localhost:${pages.port()}/article`,
      'http://[::1]/',
      'http://169.254.169.254/latest/meta-data',
    ]) {
      const response = await h.raw(`/api/v1/chatbot/${bot.uuid}/data-source/url`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ url }),
      });
      assert.equal(response.status, 422, url);
      const body = (await response.json()) as { error: { code: string; message: string } };
      assert.equal(body.error.code, 'private_address');
      assert.match(body.error.message, /private or local address/);
    }
    assert.deepEqual(await h.api.sources.list(bot.uuid), []);
  });

  it('refuses a host name that resolves to a private address when fetching', async () => {
    await assert.rejects(
      fetchSite(`http://localhost:${pages.port()}/article`, { allowPrivate: false }),
      RefusedAddressError,
    );
  });

  it('refuses a redirect to a private address even when the first address was allowed', async () => {
    // Only 127.0.0.1 counts as public here, so the redirect's 127.0.0.2 must be refused.
    const policy = (address: string) => address === '127.0.0.1';
    const fetched = await fetchSite(pages.url('/article'), { allowPrivate: false, policy });
    assert.match(fetched.pages[0]!.text, /sourdough/);
    await assert.rejects(
      fetchSite(pages.url('/redirect-private'), { allowPrivate: false, policy }),
      (error: Error) => {
        assert.ok(error instanceof RefusedAddressError);
        assert.match(error.message, /127\.0\.0\.2/);
        return true;
      },
    );
  });

  it('classifies loopback, private, link-local, unique-local, CGNAT and mapped addresses as private', () => {
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      'fd00::1',
      'fe80::1',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
      '::127.0.0.1',
      '::7f00:1',
      '::10.0.0.1',
    ]) {
      assert.equal(isPrivateAddress(address), true, address);
    }
    for (const address of ['93.184.216.34', '8.8.8.8', '2606:4700::1111']) {
      assert.equal(isPrivateAddress(address), false, address);
    }
  });
});
