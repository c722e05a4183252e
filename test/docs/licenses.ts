/**
 * dist/THIRD-PARTY-LICENSES.md: the notices of the libraries bundled into dist (part of
 * `npm run build`, after every bundle). The minifier drops their license comments to keep the
 * first load small, and lit's BSD-3-Clause and marked's MIT licence ask that the notice travel
 * with every copy, so each package a bundle holds (read from the bundles' source maps, so
 * nothing bundled is missed and nothing unbundled is named) is listed with its licence text.
 *
 *   node --import tsx test/docs/licenses.ts
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { root } from './reference.js';

export const LICENSES_FILE = join(root, 'dist/THIRD-PARTY-LICENSES.md');

/** Each package the source maps under `dir` name (scoped ones whole), with its files bundled. */
function bundledFiles(dir: string, found = new Map<string, Set<string>>()) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      bundledFiles(path, found);
    } else if (name.endsWith('.js.map')) {
      const { sources } = JSON.parse(readFileSync(path, 'utf8')) as { sources: string[] };
      for (const source of sources) {
        const at = source.lastIndexOf('node_modules/');
        if (at < 0) continue;
        const file = source.slice(at + 'node_modules/'.length);
        const [scope, base] = file.split('/');
        const pkg = scope!.startsWith('@') ? `${scope}/${base}` : scope!;
        found.set(pkg, (found.get(pkg) ?? new Set()).add(file));
      }
    }
  }
  return found;
}

export const bundledPackages = (dir: string): string[] => [...bundledFiles(dir).keys()].sort();

/** The license comments the bundled files began with (DOMPurify's copyright is only there). */
function notices(files: Set<string>): string[] {
  const found = new Set<string>();
  for (const file of files) {
    const head = readFileSync(join(root, 'node_modules', file), 'utf8').slice(0, 2000);
    const comment = head.match(/^\s*\/\*[\s\S]*?\*\//)?.[0];
    if (comment && /@license|copyright|\(c\)|^\s*\/\*!/i.test(comment)) found.add(comment.trim());
  }
  return [...found];
}

function licenseTexts(dir: string): string[] {
  return readdirSync(dir)
    .filter((name) => /^(licen[cs]e|copying)/i.test(name))
    .sort()
    .map((name) => readFileSync(join(dir, name), 'utf8').trim());
}

/**
 * Work copied into our own source rather than bundled from a package, so no source map names
 * it: the icon paths of the admin's conversation marks (src/admin/icons.ts) and of an answer's
 * actions (src/chat/action-icons.ts).
 */
const COPIED = `## Lucide (icon paths, copied into the bundles)

License: ISC

\`\`\`text
ISC License

Copyright (c) for portions of Lucide are held by Cole Bemis 2013-2022 as part of Feather (MIT). All other copyright (c) for Lucide are held by Lucide Contributors 2022.

Permission to use, copy, modify, and/or distribute this software for any
purpose with or without fee is hereby granted, provided that the above
copyright notice and this permission notice appear in all copies.

THE SOFTWARE IS PROVIDED "AS IS" AND THE AUTHOR DISCLAIMS ALL WARRANTIES
WITH REGARD TO THIS SOFTWARE INCLUDING ALL IMPLIED WARRANTIES OF
MERCHANTABILITY AND FITNESS. IN NO EVENT SHALL THE AUTHOR BE LIABLE FOR
ANY SPECIAL, DIRECT, INDIRECT, OR CONSEQUENTIAL DAMAGES OR ANY DAMAGES
WHATSOEVER RESULTING FROM LOSS OF USE, DATA OR PROFITS, WHETHER IN AN
ACTION OF CONTRACT, NEGLIGENCE OR OTHER TORTIOUS ACTION, ARISING OUT OF
OR IN CONNECTION WITH THE USE OR PERFORMANCE OF THIS SOFTWARE.
\`\`\``;

export function writeLicenses(): string[] {
  const bundled = bundledFiles(join(root, 'dist'));
  const packages = [...bundled.keys()].sort();
  const sections = packages.map((name) => {
    const dir = join(root, 'node_modules', name);
    const meta = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    const texts = licenseTexts(dir);
    if (!texts.length) throw new Error(`${name} ships no licence file to copy`);
    return [
      `## ${name} ${meta.version}`,
      `License: ${meta.license}`,
      ...[...notices(bundled.get(name)!), ...texts].map((text) => `\`\`\`text\n${text}\n\`\`\``),
    ].join('\n\n');
  });
  writeFileSync(
    LICENSES_FILE,
    `${[
      '# Third-party licences',
      'The bundles in this folder include code of these packages, under these licences.',
      ...sections,
      COPIED,
    ].join('\n\n')}\n`,
  );
  return packages;
}

if (import.meta.url === `file://${process.argv[1]}`) writeLicenses();
