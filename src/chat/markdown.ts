import DOMPurify from 'dompurify';
import { Lexer, Parser, type Token, type TokensList } from 'marked';
import type { Citation } from '../api/types.js';
import { SAFE_URL, safeUrl } from './links.js';

/**
 * Markdown for answers: marked for parsing, DOMPurify with an allow-list for safety.
 *
 * Streaming is incremental: blocks that can no longer change are rendered once and kept as DOM;
 * only the open last block is parsed again on each update. An answer of n characters therefore
 * costs O(n) in total rather than O(n²).
 */

const ALLOWED_TAGS = [
  'a',
  'b',
  'blockquote',
  'br',
  'code',
  'del',
  'em',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'hr',
  'i',
  'li',
  'ol',
  'p',
  'pre',
  's',
  'strong',
  'sub',
  'sup',
  'table',
  'tbody',
  'td',
  'th',
  'thead',
  'tr',
  'ul',
];
const ALLOWED_ATTR = ['href', 'title', 'start', 'align', 'colspan', 'rowspan', 'class', 'lang'];

let purifier: ReturnType<typeof DOMPurify> | undefined;

function sanitizer(): ReturnType<typeof DOMPurify> {
  if (purifier) return purifier;
  // An own instance: hooks must not leak into a host page that uses DOMPurify itself.
  purifier = DOMPurify(window);
  // Set once: a configuration passed to each sanitize() is parsed again into its sets on every
  // call, and a streaming answer sanitizes every frame.
  purifier.setConfig({
    ALLOWED_TAGS,
    ALLOWED_ATTR,
    ALLOWED_URI_REGEXP: SAFE_URL,
    ALLOW_DATA_ATTR: false,
    ALLOW_ARIA_ATTR: false,
    ADD_FORBID_CONTENTS: ['x-style'],
    RETURN_DOM_FRAGMENT: true,
  });
  return purifier;
}

/** marked's class for a code block's language: the one class an answer keeps. */
const CODE_LANGUAGE = /^language-[\w+-]{1,30}$/;

/**
 * What is left to do once DOMPurify has kept only what is allowed, in one pass over its result
 * before any of it is in the page: classes from answers could imitate our own controls, so only
 * a code block's language stays; links open in a new tab, without the opener, and one whose
 * address is not safe loses it. Done with two native queries rather than DOMPurify's hooks,
 * which ran script for every element and attribute of every frame of a streaming answer (a
 * fifth of sanitizing's time, in Chromium).
 */
function finish(fragment: DocumentFragment, html: string): DocumentFragment {
  // Most blocks have neither: a look at the text they came from spares the queries.
  if (/class\s*=/i.test(html)) {
    for (const element of fragment.querySelectorAll('[class]')) {
      if (!CODE_LANGUAGE.test(element.getAttribute('class') ?? '')) {
        element.removeAttribute('class');
      }
    }
  }
  if (!/<a[\s/>]/i.test(html)) return fragment;
  for (const link of fragment.querySelectorAll('a[href]')) {
    if (SAFE_URL.test(link.getAttribute('href')!.trim())) {
      link.setAttribute('target', '_blank');
      link.setAttribute('rel', 'noopener noreferrer');
    } else link.removeAttribute('href');
  }
  return fragment;
}

/** An HTML start tag, quoted attribute values included; the `>` may not have arrived yet. */
const START_TAG = /<[a-zA-Z](?:"[^"]*"?|'[^']*'?|[^'">])*>?/g;
const INLINE_ATTRIBUTE = /([\s/"'])((?:on[a-z]+|style)\s*=)/gi;
const STYLE_TAG = /<(\/?)style(?=[\s/>]|$)/gi;

/**
 * Renames event handlers, style attributes and style elements before the HTML is parsed at all.
 * DOMPurify removes them anyway, but Chromium reports a Content-Security-Policy violation (a
 * console error in the host page) as soon as it parses one, even into an inert document.
 */
function disarm(html: string): string {
  return html
    .replace(STYLE_TAG, '<$1x-style')
    .replace(START_TAG, (tag) => tag.replace(INLINE_ATTRIBUTE, '$1data-x-$2'));
}

/**
 * Goes before every HTML: a visible character first sets the parser's frameset-ok flag to "not
 * ok", so a `<frameset>` in an answer can no longer replace the body, which left DOMPurify no
 * body to return (null). The guard is removed with its content, as an answer's styles are.
 */
const BODY_GUARD = '<x-style>.</x-style>';
const FRAMESET = /<frameset/i;

/** Turns HTML from marked into a sanitized fragment owned by the current document. */
export function sanitize(html: string): DocumentFragment {
  // The guard only where a frameset could be: it is one element more to parse and remove, on
  // every frame of a streaming answer.
  const guarded = FRAMESET.test(html) ? BODY_GUARD + disarm(html) : disarm(html);
  const fragment = sanitizer().sanitize(guarded) as unknown as DocumentFragment | null;
  // Should a parser still find a way out of the body, the HTML is shown as the text it is.
  return fragment ? finish(fragment, html) : asText(html);
}

function asText(text: string): DocumentFragment {
  const fragment = document.createDocumentFragment();
  fragment.append(text);
  return fragment;
}

/** A block of raw HTML of which the sanitizer keeps nothing to see (a frameset, a script). */
function refusedWhole(token: Token): boolean {
  if (token.type !== 'html' || !token.block) return false;
  const fragment = sanitize(token.raw);
  return !fragment.children.length && !fragment.textContent?.trim();
}

const markedOptions = { gfm: true, breaks: false, async: false } as const;

/**
 * Shows each image as a link named by its alt text, never as an image. An answer can be steered
 * by what it quotes, and an image loads as soon as it is shown: its address could carry the
 * conversation to a third party (or track the visitor) without a click. A link needs one.
 * A block of raw HTML the sanitizer would keep nothing of is shown as text: no answer, or part
 * of one, renders as nothing.
 */
function imagesAsLinks(tokens: Token[] | undefined): void {
  if (!tokens) return;
  tokens.forEach((token, i) => {
    if (refusedWhole(token)) {
      const text = token.raw.trim();
      tokens[i] = {
        type: 'paragraph',
        raw: token.raw,
        text,
        tokens: [{ type: 'text', raw: text, text, escaped: false }],
      };
      return;
    }
    if (token.type === 'image') {
      const text = token.text || token.href;
      tokens[i] = {
        type: 'link',
        raw: token.raw,
        href: token.href,
        title: token.title,
        text,
        tokens: [{ type: 'text', raw: text, text, escaped: false }],
      };
      return;
    }
    if ('tokens' in token) imagesAsLinks(token.tokens);
    if (token.type === 'list') for (const item of token.items) imagesAsLinks(item.tokens);
    if (token.type === 'table') {
      for (const cell of [token.header, ...token.rows].flat()) imagesAsLinks(cell.tokens);
    }
  });
}

function toHtml(tokens: Token[]): string {
  imagesAsLinks(tokens);
  const list = tokens as TokensList;
  list.links = {};
  return Parser.parse(list, markedOptions);
}

/** A lone list marker may still become the next item of the list before it. */
const PENDING_LIST_ITEM = /^ {0,3}(?:[-*+]|\d{1,9}[.)]?)$/;

export interface MarkdownViewOptions {
  /** The answer's citations, to link `[n]` markers; read on every render. */
  citations?: () => readonly Citation[] | undefined;
  /** Accessible name of the copy button on code blocks. */
  copyCodeLabel?: () => string;
  /** Prefix of the ids of the source list items that `[n]` markers point to. */
  idPrefix?: string;
}

/**
 * One answer's rendered markdown. `update(text)` takes the whole text so far; `finish()` closes
 * the last block. `root` is the node to place in the page.
 */
export class MarkdownView {
  readonly root: HTMLDivElement;
  private readonly open: HTMLDivElement;
  private readonly options: MarkdownViewOptions;
  /** The text rendered so far, line endings normalized. */
  private text = '';
  /** The text as given; a new text that does not extend it starts over. */
  private raw = '';
  /** Characters of `text` that belong to committed, never re-parsed blocks. */
  private committed = 0;

  constructor(options: MarkdownViewOptions = {}) {
    this.options = options;
    this.root = document.createElement('div');
    this.root.className = 'markdown';
    this.open = document.createElement('div');
    this.open.className = 'block open';
    this.root.append(this.open);
  }

  /** Renders a finished text at once. */
  static render(text: string, options?: MarkdownViewOptions): MarkdownView {
    const view = new MarkdownView(options);
    view.update(text);
    view.finish();
    return view;
  }

  update(raw: string): void {
    if (!raw.startsWith(this.raw)) this.reset();
    if (raw.length === this.raw.length) return;
    // Normalize only what was added, so a frame costs the new text, not the whole answer;
    // a '\r' that ended the previous text already became the '\n' of a split '\r\n'.
    let added = raw.slice(this.raw.length);
    if (this.raw.endsWith('\r') && added.startsWith('\n')) added = added.slice(1);
    this.raw = raw;
    this.text += added.replace(/\r\n?/g, '\n');
    const pending = this.text.slice(this.committed);
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
        this.commit(done);
        this.committed += raw.length;
        this.renderOpen(tokens.slice(keepFrom));
        return;
      }
    }
    this.renderOpen(tokens);
  }

  /** Closes the open block: the answer is complete (or stopped). */
  finish(): void {
    const pending = this.text.slice(this.committed);
    if (pending) this.commit(new Lexer(markedOptions).lex(pending));
    this.committed = this.text.length;
    this.open.replaceChildren();
  }

  /** The answer as plain text, for announcements. */
  get plainText(): string {
    return (this.root.textContent ?? '').replace(/\s+/g, ' ').trim();
  }

  private reset(): void {
    this.text = '';
    this.raw = '';
    this.committed = 0;
    this.open.replaceChildren();
    this.root.replaceChildren(this.open);
  }

  private commit(tokens: Token[]): void {
    if (!tokens.some((token) => token.type !== 'space')) return;
    const block = document.createElement('div');
    block.className = 'block';
    block.append(this.fragment(tokens, true));
    this.root.insertBefore(block, this.open);
  }

  private renderOpen(tokens: Token[]): void {
    this.open.replaceChildren(this.fragment(tokens, false));
  }

  private fragment(tokens: Token[], complete: boolean): DocumentFragment {
    const fragment = sanitize(toHtml(tokens));
    linkCitations(fragment, this.options.citations?.(), this.options.idPrefix);
    // Code and tables scroll sideways when wide; a keyboard reader scrolls what has focus.
    for (const scroller of fragment.querySelectorAll<HTMLElement>('pre, table')) {
      scroller.tabIndex = 0;
    }
    if (complete) addCopyButtons(fragment, this.options.copyCodeLabel?.() ?? 'Copy code');
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

function addCopyButtons(root: DocumentFragment, label: string): void {
  for (const pre of root.querySelectorAll('pre')) {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'copy-code';
    button.textContent = label;
    pre.classList.add('code');
    pre.before(button);
    const wrapper = document.createElement('div');
    wrapper.className = 'code-block';
    button.before(wrapper);
    wrapper.append(button, pre);
  }
}
