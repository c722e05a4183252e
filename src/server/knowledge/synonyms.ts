import { processTerm } from './text.js';

/**
 * Words a visitor and a document use for the same thing, one group per line: a question in the
 * visitor's words ("Is there a cap on…", "the separator") finds the passage in the document's
 * ("limit", "delimiter"). Only words that can stand for each other in a question about a software
 * product or a library, in any sense either is commonly used in: a word with a second, different
 * meaning in such documents stays out ("token": a key and a piece of text; "console": the admin
 * and the browser's log; "run": start and a test run), and related words are not synonyms
 * ("email" and "message"), or a question about something the sources lack would be answered from
 * its neighbour. British and American spellings count as one word. Written from common usage,
 * not from bench:answers's questions; measured on its halves (README, Answers).
 */
const GROUPS = `
website site webpage
chatbot bot assistant
password passphrase
secure safe
delete remove erase
stop cancel abort interrupt halt
start launch begin
execute invoke
install installation
configure configuration config settings
customise customize
colour color
theme branding brand skin
price pricing cost fee
fast quick quickly rapid speedy
small tiny lightweight compact
big large huge enormous
limit cap quota ceiling
backup snapshot
separator delimiter
convert transform
check verify
computer machine laptop pc
dashboard backoffice
cloud saas
signup register registration
login signin logon
email mail
language locale
translate translation localize localise localization localisation i18n l10n
llm gpt openai chatgpt
feedback rating
async asynchronous
sync synchronous
javascript js
typescript ts
database db
repository repo
documentation docs
directory folder dir
example sample
argument parameter param arg
environment env
licence license
behaviour behavior
organise organize
optimise optimize
accessibility a11y
font typeface
image picture photo
memory ram
cpu processor
concurrent concurrency parallel simultaneous simultaneously
human person
latest newest
show display
change modify alter edit
`;

let table: Map<string, readonly string[]> | undefined;

function build(): Map<string, readonly string[]> {
  const out = new Map<string, Set<string>>();
  for (const line of GROUPS.split('\n')) {
    const stems = [...new Set(line.split(/\s+/).flatMap((word) => processTerm(word) ?? []))];
    for (const stem of stems) {
      const others = out.get(stem) ?? new Set<string>();
      for (const other of stems) if (other !== stem) others.add(other);
      out.set(stem, others);
    }
  }
  return new Map([...out].map(([stem, others]) => [stem, [...others]]));
}

/** The other terms (stemmed, as `processTerm` gives them) that mean what `term` does. */
export function synonymsOf(term: string): readonly string[] {
  table ??= build();
  return table.get(term) ?? [];
}
