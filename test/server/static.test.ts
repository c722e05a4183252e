import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type Harness, startHarness } from './helpers.js';

describe('static directories', () => {
  const root = mkdtempSync(join(tmpdir(), 'chatbot-static-'));
  const site = join(root, 'site');
  const dist = join(root, 'dist');
  let h: Harness;
  before(async () => {
    mkdirSync(join(site, 'docs'), { recursive: true });
    mkdirSync(dist);
    writeFileSync(join(site, 'index.html'), '<h1>Home</h1>');
    writeFileSync(join(site, 'docs', 'index.html'), '<h1>Docs</h1>');
    writeFileSync(join(site, 'style.css'), 'body{}');
    writeFileSync(join(dist, 'chatbot-chat.js'), 'export {};');
    writeFileSync(join(root, 'secret.txt'), 'do not serve');
    h = await startHarness({
      staticDirs: [
        { prefix: '/', dir: site },
        { prefix: '/dist', dir: dist },
      ],
    });
  });
  after(async () => {
    await h.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('serves files with their content types, without a key, and index.html for a directory', async () => {
    const cases: Array<[string, string, RegExp]> = [
      ['/', '<h1>Home</h1>', /^text\/html/],
      ['/docs/', '<h1>Docs</h1>', /^text\/html/],
      ['/style.css', 'body{}', /^text\/css/],
      ['/dist/chatbot-chat.js', 'export {};', /^text\/javascript/],
    ];
    for (const [path, body, type] of cases) {
      const response = await fetch(h.url + path);
      assert.equal(response.status, 200, path);
      assert.match(response.headers.get('content-type') ?? '', type, path);
      assert.equal(await response.text(), body);
    }
  });

  it('lets other origins import scripts, and only scripts', async () => {
    const origin = { Origin: 'https://shop.example' };
    const script = await fetch(`${h.url}/dist/chatbot-chat.js`, { headers: origin });
    assert.equal(script.headers.get('access-control-allow-origin'), '*');
    for (const path of ['/', '/style.css']) {
      const response = await fetch(h.url + path, { headers: origin });
      assert.equal(response.headers.get('access-control-allow-origin'), null, path);
    }
  });

  it('serves nothing outside its directories', async () => {
    for (const path of [
      '/../secret.txt',
      '/%2e%2e/secret.txt',
      '/dist/..%2f..%2fsecret.txt',
      '/missing.js',
    ]) {
      const response = await fetch(h.url + path);
      assert.equal(response.status, 404, path);
    }
  });

  it('leaves API routes to the API', async () => {
    const response = await fetch(`${h.url}/api/v1/chatbots`);
    assert.equal(response.status, 401);
  });
});
