import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { analyze, readmeSection, renderReference, root } from './reference.js';

describe('README reference', () => {
  const manifest = analyze();

  it('documents both public elements', () => {
    const tags = manifest.modules
      .flatMap((m) => m.declarations ?? [])
      .map((d) => (d as { tagName?: string }).tagName);
    assert.ok(tags.includes('chatbot-chat'), 'chatbot-chat is in custom-elements.json');
    assert.ok(tags.includes('chatbot-admin'), 'chatbot-admin is in custom-elements.json');
  });

  it('is the one generated from the elements\' documentation (run "npm run docs" to update it)', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    assert.equal(readmeSection(readme), renderReference(manifest));
  });
});
