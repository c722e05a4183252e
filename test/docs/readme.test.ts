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

  it('lists exactly the events each element documents, and no other', () => {
    const events = (tag: string) => {
      const element = manifest.modules
        .flatMap((m) => m.declarations ?? [])
        .find((d) => (d as { tagName?: string }).tagName === tag) as
        | { events?: { name: string }[] }
        | undefined;
      return (element?.events ?? []).map((event) => event.name).sort();
    };
    assert.deepEqual(events('chatbot-chat'), [
      'chatbot-answer-finished',
      'chatbot-error',
      'chatbot-feedback',
      'chatbot-message-send',
      'chatbot-session-created',
    ]);
    assert.deepEqual(events('chatbot-admin'), [
      'chatbot-admin-change',
      'chatbot-admin-error',
      'chatbot-admin-navigate',
    ]);
  });

  it('is the one generated from the elements\' documentation (run "npm run docs" to update it)', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    assert.equal(readmeSection(readme), renderReference(manifest));
  });
});
