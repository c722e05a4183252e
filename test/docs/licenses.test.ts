import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { bundledPackages, LICENSES_FILE } from './licenses.js';
import { root } from './reference.js';

// The bundles carry lit, marked and DOMPurify without their license comments (the minifier
// drops them), so the notices those licences require travel in a file of their own.
describe('dist/THIRD-PARTY-LICENSES.md', () => {
  it('holds the licence of every package a bundle includes, as `npm run build` writes it', () => {
    assert.ok(existsSync(LICENSES_FILE), 'run npm run build first: it writes the file');
    const text = readFileSync(LICENSES_FILE, 'utf8');
    const bundled = bundledPackages(join(root, 'dist'));
    assert.ok(bundled.includes('lit-html') && bundled.includes('marked'), bundled.join());
    for (const name of bundled) {
      const { version } = JSON.parse(
        readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8'),
      );
      assert.ok(text.includes(`## ${name} ${version}\n`), `${name} ${version} is missing`);
    }
    // The notices themselves, not only the names.
    assert.match(text, /Copyright \(c\) 2017 Google LLC/);
    assert.match(text, /Christopher Jeffrey/);
    assert.match(text, /Cure53/);
    // Copied, not bundled: the icons' paths.
    assert.match(text, /held by Lucide Contributors/);
  });
});
