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
    ].join('\n\n')}\n`,
  );
  return packages;
}

if (import.meta.url === `file://${process.argv[1]}`) writeLicenses();
