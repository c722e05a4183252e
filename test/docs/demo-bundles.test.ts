import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';

// `npm start` builds the bundles it lists when they are missing (demo/start.ts); a fresh clone's
// demo lacked the attachments and raw-HTML files its pages load beside the chat.
describe('npm start', () => {
  it('builds every file the chat and admin load, the lazily loaded ones included', () => {
    const start = readFileSync('demo/start.ts', 'utf8');
    const listed = start.slice(
      start.indexOf('const BUNDLES'),
      start.indexOf('};', start.indexOf('const BUNDLES')),
    );
    const built = new Set([...listed.matchAll(/'(chatbot-[\w-]+\.js)'/g)].map((m) => m[1]));
    const vite = readFileSync('vite.config.ts', 'utf8');
    const files = [...vite.matchAll(/fileName: '(chatbot-[\w-]+)'/g)].map((m) => `${m[1]}.js`);
    assert.ok(files.length >= 6, files.join());
    assert.deepEqual(
      files.filter((file) => !built.has(file)),
      [],
    );
  });
});
