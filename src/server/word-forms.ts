import { stemmer } from 'stemmer';

const INFLECTED = /^(.{2,}?)(ing|ed|es|s)$/;
/** "embedd|ing", "stopp|ed": a consonant doubled by the spelling of the inflection. */
const DOUBLED = /([^aeiouls])\1$/;
const CONSONANT_Y = /[^aeiou]y$/;

/**
 * A word's forms that the Porter stemmer (ours, and SQLite FTS5's `porter` tokenizer) brings to
 * different stems, one form per stem, the word itself first. Porter does not always bring a
 * word's forms together: "embed" is "emb" but "embedding" and "embedded" are "embed"; "try" and
 * "trying" are "try" but "tried" and "tries" are "tri". Searching each of these forms finds the
 * others. Lower case.
 */
export function wordForms(word: string): string[] {
  const lower = word.toLowerCase();
  const bases = new Set([lower]);
  const [, base, suffix] = INFLECTED.exec(lower) ?? [];
  if (base) {
    bases.add(base);
    if (DOUBLED.test(base)) bases.add(base.slice(0, -1));
    if (suffix !== 'ing' && base.endsWith('i')) bases.add(`${base.slice(0, -1)}y`);
  }
  const byStem = new Map([[stemmer(lower), lower]]);
  for (const b of bases) {
    const forms = [b, `${b}ed`, `${b}ing`];
    if (CONSONANT_Y.test(b)) forms.push(`${b.slice(0, -1)}ied`);
    for (const form of forms) {
      const stem = stemmer(form);
      if (!byStem.has(stem)) byStem.set(stem, form);
    }
  }
  return [...byStem.values()];
}
