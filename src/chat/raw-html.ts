import DOMPurify from 'dompurify';
import { Parser, type Token, type TokensList } from 'marked';
import { SAFE_URL } from './links.js';

/**
 * Answers with raw HTML in them, built as dist/chatbot-raw-html.js and loaded by markdown.ts the
 * first time an answer has any: marked's HTML renderer, then DOMPurify with an allow-list. Raw
 * HTML is the one part of an answer whose markup comes from the answer, so only it goes through
 * a sanitizer; everything else markdown.ts builds as DOM from marked's tokens (markdown-dom.ts).
 * Most answers have none, and these two are 10 KB of gzip a page showing them never fetches.
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
    // DOMPurify holds every attribute it does not know to be plain text to ALLOWED_URI_REGEXP:
    // without these, a list's start, a cell's alignment and span were dropped as unsafe links.
    ADD_URI_SAFE_ATTR: ['start', 'align', 'colspan', 'rowspan', 'lang'],
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
  for (const link of fragment.querySelectorAll('a')) {
    // Not a link the reader can follow: its content stays, not something that looks clickable.
    if (!SAFE_URL.test(link.getAttribute('href')?.trim() ?? '')) {
      link.replaceWith(...link.childNodes);
      continue;
    }
    link.setAttribute('target', '_blank');
    link.setAttribute('rel', 'noopener noreferrer');
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

/** Blocks holding raw HTML, rendered by marked and sanitized. */
export function renderHtml(tokens: Token[]): DocumentFragment {
  return sanitize(toHtml(tokens));
}

function toHtml(tokens: Token[]): string {
  imagesAsLinks(tokens);
  const list = tokens as TokensList;
  list.links = {};
  // marked's defaults are the lexer's options in markdown.ts: GFM, no breaks, synchronous.
  return Parser.parse(list);
}
