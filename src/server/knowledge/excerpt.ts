import { quotableUnits, type Unit } from './quotable.js';
import { terms } from './text.js';

/** The room a passage of a composed answer has, and the default of an excerpt. */
export const EXCERPT_CHARS = 480;

export function excerpt(chunk: string, queryTerms: Set<string>, max = EXCERPT_CHARS): string {
  return quote(quotableUnits(chunk), queryTerms, max, new Set());
}

/**
 * The excerpt of one chunk; `quoted` holds the units earlier passages quoted (chunks overlap, and
 * a sentence said once is enough), and receives this one's.
 */
export function quote(
  units: readonly Unit[],
  queryTerms: Set<string>,
  max: number,
  quoted: Set<string>,
): string {
  // The first passage has nothing quoted before it: no need to read every unit's text for that.
  const all = quoted.size === 0 ? units : units.filter((u) => !quoted.has(u.text));
  if (all.length === 0) return '';
  const scores = all.map((u) => matches(u.terms, queryTerms) + matches(u.leadTerms, queryTerms));
  let best = 0;
  for (let i = 1; i < all.length; i++) if (scores[i]! > scores[best]!) best = i;
  const picked = new Map<number, string>([[best, fit(all[best]!, max, queryTerms)]]);
  let start = best;
  let end = best + 1;
  let length = picked.get(best)!.length;
  // Grow forward first (what follows a matching sentence usually explains it), then back.
  while (true) {
    const next = all[end];
    if (next !== undefined && length + next.text.length + 2 <= max) {
      picked.set(end, next.text);
      length += next.text.length + 2;
      end++;
      continue;
    }
    const previous = all[start - 1];
    // Back only within the paragraph or list: an earlier block is another topic's end.
    const sameBlock =
      previous !== undefined &&
      (previous.block === all[start]!.block ||
        (previous.kind === 'item' && all[start]!.kind === 'item'));
    if (
      previous !== undefined &&
      sameBlock &&
      length + previous.text.length + 2 <= max &&
      scores[start - 1]! > 0
    ) {
      picked.set(start - 1, previous.text);
      length += previous.text.length + 2;
      start--;
      continue;
    }
    break;
  }
  // Sentences of a paragraph one a line (the same paragraph in Markdown, and easier for clients
  // that read lines), items of a list on consecutive lines, a blank line around anything else.
  let text = '';
  for (let i = start; i < end; i++) {
    const unit = all[i]!;
    const previous = all[i - 1];
    const joined =
      i === start
        ? ''
        : (unit.kind === 'sentence' &&
              previous?.kind === 'sentence' &&
              previous.block === unit.block) ||
            (unit.kind === 'item' && previous?.kind === 'item') ||
            (unit.kind === 'quote' && previous?.kind === 'quote')
          ? '\n'
          : '\n\n';
    text += joined + picked.get(i)!;
  }
  const last = all[end - 1]!;
  if (last.kind === 'sentence' && !/[.!?…:"')\]*`]$/.test(text)) text += '.';
  for (let i = start; i < end; i++) quoted.add(all[i]!.text);
  return text;
}

/** How many of the question's terms a unit holds (its terms are distinct). */
function matches(unitTerms: readonly string[], queryTerms: Set<string>): number {
  let n = 0;
  for (const term of unitTerms) if (queryTerms.has(term)) n++;
  return n;
}

/** One unit cut to `max` characters without leaving a fence, table or inline markup open. */
function fit(unit: Unit, max: number, queryTerms: Set<string>): string {
  if (unit.text.length <= max) return unit.text;
  if (unit.kind === 'code') {
    const lines = unit.text.split('\n');
    const fenceLine = lines.pop()!;
    const kept: string[] = [];
    let length = fenceLine.length + 1;
    for (const line of lines) {
      if (length + line.length + 1 > max && kept.length > 1) break;
      kept.push(line);
      length += line.length + 1;
    }
    return [...kept, fenceLine].join('\n');
  }
  if (unit.kind === 'table') {
    // Too wide to quote whole: its best rows as readable lines, "- first cell — header: cell".
    const rows = unit.text.split('\n').map(cells);
    const header = rows[0] ?? [];
    const body = rows.slice(/^[\s|:-]+$/.test(unit.text.split('\n')[1] ?? '') ? 2 : 1);
    const lines = body.map(
      (row) =>
        `- ${row[0] ?? ''}${row
          .slice(1)
          .map((cell, i) => (cell ? ` — ${header[i + 1] ? `${header[i + 1]}: ` : ''}${cell}` : ''))
          .join('')}`,
    );
    const ranked = lines
      .map((line, i) => ({ i, score: matches([...terms(line)], queryTerms) }))
      .sort((a, b) => b.score - a.score || a.i - b.i);
    const kept = new Set<number>();
    let length = 0;
    for (const { i } of ranked) {
      const line = lines[i]!.length > max ? truncate(lines[i]!, max) : lines[i]!;
      if (kept.size > 0 && length + line.length + 1 > max) continue;
      lines[i] = line;
      kept.add(i);
      length += line.length + 1;
    }
    return lines.filter((_, i) => kept.has(i)).join('\n');
  }
  return truncate(unit.text, max);
}

const cells = (row: string) =>
  row
    .trim()
    .replace(/^\||\|$/g, '')
    .split(/(?<!\\)\|/)
    .map((c) => c.replace(/\\\|/g, '|').trim());

/** Cut at a word, with an ellipsis, closing any code span or bold the cut left open. */
function truncate(text: string, max: number): string {
  let out = `${text.slice(0, max - 1).replace(/\s+\S*$/, '')}…`;
  if ((out.match(/`/g) ?? []).length % 2 === 1) out = out.replace(/…$/, '`…');
  if ((out.match(/\*\*/g) ?? []).length % 2 === 1) out = out.replace(/…$/, '**…');
  return out;
}
