import { sentences, terms } from './text.js';

export type UnitKind = 'sentence' | 'item' | 'code' | 'table' | 'quote';

/** A piece of a chunk an answer quotes whole (or cut at a word): see `quotableUnits`. */
export interface Unit {
  kind: UnitKind;
  text: string;
  /** Sentences of one paragraph share it: they are joined by single line breaks. */
  block: number;
  /** The distinct topic terms of `text`, to count a question's words in it. */
  terms: readonly string[];
  /** Those of its bold lead ("**Retries** are…"), which counts twice: it names the paragraph. */
  leadTerms: readonly string[];
}

/** Most units have no bold lead: one shared empty list for them (there are ~10 per chunk). */
const NO_TERMS: readonly string[] = Object.freeze([]);

/**
 * A chunk as quotable units: fenced code and tables whole, list items and quote lines one each,
 * paragraphs as sentences. Headings are left out (the lead-in names the section), and so is
 * markup debris from older, flattened chunks. The search index keeps these with each chunk, so
 * answering a question does not split and stem its passages again.
 */
export function quotableUnits(chunk: string): Unit[] {
  const out: Unit[] = [];
  const push = (kind: UnitKind, text: string, block: number) =>
    out.push({
      kind,
      text,
      block,
      terms: [...terms(text)],
      leadTerms: text.includes('**') ? [...terms(boldLead(text))] : NO_TERMS,
    });
  const lines = (
    chunk.includes('<!--') ? chunk.replace(/<!--[\s\S]*?(?:-->|$)/g, '') : chunk
  ).split('\n');
  let block = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    block++;
    const open = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (open) {
      const body = [line.trim()];
      let j = i + 1;
      while (j < lines.length && !lines[j]!.trim().startsWith(open)) body.push(lines[j++]!);
      body.push(open);
      i = j;
      if (body.length > 2) push('code', body.join('\n'), block);
      continue;
    }
    if (/^\s*\|.*\|\s*$/.test(line)) {
      const rows = [line.trim()];
      while (i + 1 < lines.length && /^\s*\|.*\|\s*$/.test(lines[i + 1]!))
        rows.push(lines[++i]!.trim());
      push('table', rows.join('\n'), block);
      continue;
    }
    if (/^\s*#{1,6}\s/.test(line) || !line.trim()) continue;
    const item = /^(\s*)(?:[-*+•]|(\d+)[.)])\s+(.*)$/.exec(line);
    if (item) {
      const text = clean(item[3]!);
      const indent = item[1]!.replace(/\t/g, '  ');
      if (text) push('item', `${indent}${item[2] ? `${item[2]}.` : '-'} ${text}`, block);
      continue;
    }
    if (/^\s*>/.test(line)) {
      const text = clean(line.replace(/^\s*>\s?/, ''));
      if (text) push('quote', `> ${text}`, block);
      continue;
    }
    for (const sentence of sentences(line)) {
      const text = clean(sentence);
      if (text) push('sentence', text, block);
    }
  }
  return out;
}

/** "**Retries** are…": the bold words that open a unit, if any. */
const boldLead = (text: string) =>
  text.includes('**') ? (/^(?:[-+]\s+|\d+\.\s+)?\*\*([^*\n]+)\*\*/.exec(text)?.[1] ?? '') : '';

/** Characters some rule of `clean` looks for; prose without any of them only has its spaces tidied. */
const MARKUP = /[`<|#*_+•[\d-]/;

/** Prose without markup debris: stray heading marks, rules, fences, pipes and HTML. */
function clean(sentence: string): string {
  if (!MARKUP.test(sentence)) return sentence.replace(/\s+/g, ' ').trim();
  return (
    sentence
      // A fence inside a sentence is debris from a flattened chunk, not code.
      .replace(/`{3,}\w*/g, ' ')
      // Code spans keep their text (`<chatbot-chat>`, `a|b`); only the prose around is cleaned.
      .split(/(`[^`\n]*`)/)
      .map((part, i) =>
        i % 2 === 1
          ? part
          : part
              .replace(/<!--[\s\S]*?(?:-->|$)/g, ' ')
              .replace(/<\/?[a-zA-Z][\w-]*(?:\s[^<>]*)?\/?>/g, ' ')
              .replace(/\|/g, ' '),
      )
      .join('')
      .replace(/^\s*#{1,6}\s+/, '')
      .replace(/(?:^|\s)#{1,6}(?=\s)/g, ' ')
      .replace(/(?:^|\s)(?:-{3,}|\*{3,}|_{3,})(?=\s|$)/g, ' ')
      .replace(/^\s*(?:[-*+•]|\d+[.)])\s+/, '')
      .replace(/\[(\d+)\]/g, '($1)')
      .replace(/\s+/g, ' ')
      .trim()
  );
}
