import { Lexer, type Token } from 'marked';
import type { Citation } from '../api/types.js';
import { safeUrl } from './links.js';
import { appendBlocks, holdsHtml } from './markdown-dom.js';
import { hideOfferedList } from './suggestions.js';

/**
 * Markdown for answers: marked's lexer for parsing, its tokens built as DOM (markdown-dom.ts),
 * and raw HTML, where an answer has any, through marked's HTML renderer and DOMPurify
 * (raw-html.ts, a file of its own, loaded the first time it is needed).
 *
 * Streaming is incremental: blocks that can no longer change are rendered once and kept as DOM;
 * only the open last block is parsed again on each update. An answer of n characters therefore
 * costs O(n) in total rather than O(n²).
 */

const markedOptions = { gfm: true, breaks: false, async: false } as const;

type RawHtml = typeof import('./raw-html.js');
let rawHtml: RawHtml | undefined;
let loadingRawHtml: Promise<RawHtml | undefined> | undefined;

/**
 * Loads the sanitizer for raw HTML, once per page: dist/chatbot-raw-html.js beside this chunk
 * (a relative import resolves against this module's own address, for the embed too). If it
 * cannot be loaded, blocks with raw HTML stay shown as the text they were written as.
 */
export function loadRawHtml(): Promise<RawHtml | undefined> {
  loadingRawHtml ??= import('./raw-html.js').then(
    (module) => {
      rawHtml = module;
      return module;
    },
    (error: unknown) => {
      console.warn(
        'chatbot-chat: the HTML sanitizer (chatbot-raw-html.js, beside the element) did not load; raw HTML in answers shows as text.',
        error,
      );
      return undefined;
    },
  );
  return loadingRawHtml;
}

/** A lone list marker may still become the next item of the list before it. */
const PENDING_LIST_ITEM = /^ {0,3}(?:[-*+]|\d{1,9}[.)]?)$/;

/**
 * The start of an answer, for the live region: a long answer read out whole would hold the
 * screen reader for minutes; the full text is in the log.
 */
export function excerpt(answer: string, max = 240): string {
  const text = answer.replace(/\s+/g, ' ').trim();
  if (text.length <= max) return text;
  const cut = text.lastIndexOf(' ', max);
  return `${text.slice(0, cut > max / 2 ? cut : max)}…`;
}

export interface MarkdownViewOptions {
  /** The answer's citations, to link `[n]` markers; read on every render. */
  citations?: () => readonly Citation[] | undefined;
  /** Accessible name of the copy button on code blocks. */
  copyCodeLabel?: () => string;
  /** Prefix of the ids of the source list items that `[n]` markers point to. */
  idPrefix?: string;
  /** The topics a refusal offers as buttons once it is finished (`AnswerExtras.offer`). */
  offered?: () => readonly string[] | undefined;
}

/**
 * The tokens without the empty item an answer stopped (or cut) just after a list marker ends
 * with, nor its list if that was all of it.
 */
function withoutEmptyLastItem(tokens: Token[]): Token[] {
  const last = tokens.findLast((token) => token.type !== 'space');
  if (last?.type !== 'list' || last.items.at(-1)?.text.trim()) return tokens;
  last.items.pop();
  return last.items.length ? tokens : tokens.filter((token) => token !== last);
}

/**
 * One answer's rendered markdown. `update(text)` takes the whole text so far; `finish()` closes
 * the last block. `root` is the node to place in the page.
 */
export class MarkdownView {
  readonly root: HTMLDivElement;
  readonly #open: HTMLDivElement;
  readonly #options: MarkdownViewOptions;
  /** The text rendered so far, line endings normalized. */
  #text = '';
  /** The text as given; a new text that does not extend it starts over. */
  #raw = '';
  /** Characters of `text` that belong to committed, never re-parsed blocks. */
  #committed = 0;
  /** The tokens the open block shows. */
  #openTokens: Token[] = [];

  constructor(options: MarkdownViewOptions = {}) {
    this.#options = options;
    this.root = document.createElement('div');
    this.root.className = 'markdown';
    this.#open = document.createElement('div');
    this.#open.className = 'block open';
    this.root.append(this.#open);
  }

  /** Renders a finished text at once. */
  static render(text: string, options?: MarkdownViewOptions): MarkdownView {
    const view = new MarkdownView(options);
    view.update(text);
    view.finish();
    return view;
  }

  update(raw: string): void {
    if (!raw.startsWith(this.#raw)) this.#reset();
    if (raw.length === this.#raw.length) return;
    // Normalize only what was added, so a frame costs the new text, not the whole answer;
    // a '\r' that ended the previous text already became the '\n' of a split '\r\n'.
    let added = raw.slice(this.#raw.length);
    if (this.#raw.endsWith('\r') && added.startsWith('\n')) added = added.slice(1);
    this.#raw = raw;
    this.#text += added.replace(/\r\n?/g, '\n');
    const pending = this.#text.slice(this.#committed);
    const tokens = new Lexer(markedOptions).lex(pending);
    const blocks = tokens.map((token, index) => ({ token, index })).filter(notSpace);
    let keepFrom = 0;
    // Every block but the last has been closed by the one after it, so it cannot change.
    if (blocks.length >= 2) {
      let last = blocks.length - 1;
      const lastBlock = blocks[last]!;
      const before = blocks[last - 1]!;
      if (before.token.type === 'list' && PENDING_LIST_ITEM.test(lastBlock.token.raw.trimEnd())) {
        last -= 1;
      }
      if (last >= 1) keepFrom = blocks[last]!.index;
    }
    if (keepFrom > 0) {
      const done = tokens.slice(0, keepFrom);
      const raw = done.map((token) => token.raw).join('');
      // The lexer's raw texts add up to its input; if they ever do not, re-parse everything.
      if (pending.startsWith(raw)) {
        this.#commit(done);
        this.#committed += raw.length;
        this.#renderOpen(tokens.slice(keepFrom));
        return;
      }
    }
    this.#renderOpen(tokens);
  }

  /** Closes the open block: the answer is complete (or stopped). */
  finish(): void {
    const pending = this.#text.slice(this.#committed);
    if (pending) this.#commit(withoutEmptyLastItem(new Lexer(markedOptions).lex(pending)));
    this.#committed = this.#text.length;
    this.#openTokens = [];
    this.#open.replaceChildren();
  }

  /** The start of the answer as plain text, for announcements (see `excerpt`). */
  get plainText(): string {
    // What the answer says: not its code blocks' bars (a language, "Copy code").
    let text = '';
    const walk = document.createTreeWalker(this.root, NodeFilter.SHOW_TEXT);
    for (let node = walk.nextNode(); node; node = walk.nextNode()) {
      text += node.parentElement?.closest('.code-head') ? ' ' : node.nodeValue;
    }
    return excerpt(text);
  }

  #reset(): void {
    this.#text = '';
    this.#raw = '';
    this.#committed = 0;
    this.#openTokens = [];
    this.#open.replaceChildren();
    this.root.replaceChildren(this.#open);
  }

  #commit(tokens: Token[]): void {
    if (!tokens.some((token) => token.type !== 'space')) return;
    const block = document.createElement('div');
    block.className = 'block';
    block.append(this.#fragment(tokens, true, block));
    this.root.insertBefore(block, this.#open);
  }

  #renderOpen(tokens: Token[]): void {
    this.#openTokens = tokens;
    const fragment = this.#fragment(tokens, false, this.#open);
    // The list of a refusal's topics is hidden as it streams in, from its first item: shown, it
    // would go when the answer ends and its topics become buttons, and the conversation would
    // shrink and grow again. Closed blocks keep their lists: a failed answer gets no buttons.
    const offered = this.#options.offered?.();
    if (offered?.length) hideOfferedList(fragment, offered, true);
    this.#open.replaceChildren(fragment);
  }

  /**
   * Blocks shown as text until the sanitizer for their raw HTML has loaded: drawn again then.
   * The open block is drawn again from its latest tokens, unless a later update did it already.
   */
  #awaitRawHtml(into: HTMLElement, tokens: Token[], complete: boolean): void {
    void loadRawHtml().then((module) => {
      if (!module) return;
      if (into === this.#open) {
        if (this.#openTokens === tokens) this.#renderOpen(tokens);
      } else if (this.root.contains(into)) {
        into.replaceChildren(this.#fragment(tokens, complete, into));
      }
    });
  }

  #fragment(tokens: Token[], complete: boolean, into: HTMLElement): DocumentFragment {
    const html = holdsHtml(tokens);
    let fragment: DocumentFragment;
    if (html && rawHtml) fragment = rawHtml.renderHtml(tokens);
    else {
      fragment = document.createDocumentFragment();
      appendBlocks(fragment, tokens);
      if (html) this.#awaitRawHtml(into, tokens, complete);
    }
    linkCitations(fragment, this.#options.citations?.(), this.#options.idPrefix);
    // A wide table scrolls in a box of its own at its columns' natural widths: as its own
    // scroller (display: block) it would be squeezed to one word a line in every column.
    for (const table of fragment.querySelectorAll('table')) {
      const box = document.createElement('div');
      box.className = 'table';
      table.replaceWith(box);
      box.append(table);
    }
    // Code and tables scroll sideways when wide; a keyboard reader scrolls what has focus.
    for (const scroller of fragment.querySelectorAll<HTMLElement>('pre, .table')) {
      scroller.tabIndex = 0;
    }
    if (complete) addCodeBars(fragment, this.#options.copyCodeLabel?.() ?? 'Copy code');
    return fragment;
  }
}

function notSpace({ token }: { token: Token }): boolean {
  return token.type !== 'space';
}

const CITATION = /\[(\d{1,3})\]/g;

/** Turns `[n]` in text (not in code or links) into a link to source n, when it is known. */
export function linkCitations(
  root: Node,
  citations: readonly Citation[] | undefined,
  idPrefix = 'answer',
): void {
  if (!citations?.length) return;
  const byNumber = new Map(citations.map((citation) => [String(citation.n), citation]));
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT, {
    acceptNode: (node) =>
      node.parentElement?.closest('code, pre, a') || !node.nodeValue?.includes('[')
        ? NodeFilter.FILTER_REJECT
        : NodeFilter.FILTER_ACCEPT,
  });
  const nodes: Text[] = [];
  while (walker.nextNode()) nodes.push(walker.currentNode as Text);
  for (const node of nodes) {
    const value = node.nodeValue ?? '';
    CITATION.lastIndex = 0;
    if (!CITATION.test(value)) continue;
    CITATION.lastIndex = 0;
    const out = document.createDocumentFragment();
    let at = 0;
    for (const match of value.matchAll(CITATION)) {
      const citation = byNumber.get(match[1]!);
      if (!citation) continue;
      out.append(value.slice(at, match.index));
      out.append(citationMarker(citation, idPrefix));
      at = match.index! + match[0].length;
    }
    if (at === 0) continue;
    out.append(value.slice(at));
    node.replaceWith(out);
  }
}

function citationMarker(citation: Citation, idPrefix: string): HTMLElement {
  const sup = document.createElement('sup');
  const link = document.createElement('a');
  link.className = 'citation';
  link.textContent = `[${citation.n}]`;
  link.title = citation.title;
  link.dataset.cite = String(citation.n);
  const url = safeUrl(citation.url);
  if (url) {
    link.href = url;
    link.target = '_blank';
    link.rel = 'noopener noreferrer';
  } else link.href = `#${idPrefix}-source-${citation.n}`;
  sup.append(link);
  return sup;
}

/**
 * Each code block under a bar of its own: its language, where the answer names one, and its
 * Copy button. Not a button over the code's corner: on a touch screen the code had to start a
 * finger's height down, under a blank strip.
 */
function addCodeBars(root: DocumentFragment, label: string): void {
  for (const pre of root.querySelectorAll('pre')) {
    const head = document.createElement('div');
    head.className = 'code-head';
    const lang = /(?:^|\s)language-(\S+)/.exec(pre.firstElementChild?.className ?? '')?.[1];
    if (lang) {
      const name = document.createElement('span');
      name.className = 'code-lang';
      name.textContent = lang;
      head.append(name);
    }
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'copy-code';
    button.textContent = label;
    head.append(button);
    pre.classList.add('code');
    const wrapper = document.createElement('div');
    wrapper.className = 'code-block';
    pre.before(wrapper);
    wrapper.append(head, pre);
  }
}
