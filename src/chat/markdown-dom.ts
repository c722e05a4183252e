import type { MarkedToken, Token, Tokens } from 'marked';
import { SAFE_URL } from './links.js';

/**
 * marked's tokens as DOM, built with createElement and text nodes: the same elements, attributes
 * and text as marked's HTML renderer followed by DOMPurify with our allow-list (a browser test
 * holds the two equal), without writing an answer out as HTML and parsing it again. Nothing an
 * answer says becomes markup here: tags are ours, text is text, and an attribute is only a link's
 * checked address and title, a list's start, a cell's alignment or a code block's language.
 * Tokens of raw HTML are not for this module (raw-html.ts sanitizes them); given one, it shows
 * it as the text it is.
 */

/** Whether any token among `tokens`, at any depth, is raw HTML. */
export function holdsHtml(tokens: readonly Token[]): boolean {
  return tokens.some((token) => {
    const t = token as MarkedToken;
    if (t.type === 'html') return true;
    if (t.type === 'list') return t.items.some((item) => holdsHtml(item.tokens));
    if (t.type === 'table') {
      return [t.header, ...t.rows].some((row) => row.some((cell) => holdsHtml(cell.tokens)));
    }
    const inner = (token as Tokens.Generic).tokens;
    return Array.isArray(inner) && holdsHtml(inner);
  });
}

/** Appends the blocks of `tokens` to `parent`. */
export function appendBlocks(parent: ParentNode, tokens: readonly Token[]): void {
  for (const token of tokens) appendBlock(parent, token as MarkedToken);
}

const element = <K extends keyof HTMLElementTagNameMap>(tag: K) => document.createElement(tag);

/**
 * marked ends each block with a line break between the tags, and the HTML parser keeps it as
 * text: kept here too, so text read from an answer (announcements) has a space between blocks.
 */
function block(parent: ParentNode, child: Node): void {
  parent.append(child, '\n');
}

/** marked's class for a code block's language: the one class an answer keeps. */
const CODE_LANGUAGE = /^[\w+-]{1,30}$/;

function appendBlock(parent: ParentNode, t: MarkedToken): void {
  switch (t.type) {
    case 'space':
    case 'def':
      return;
    case 'paragraph':
      block(parent, inline(element('p'), t.tokens));
      return;
    case 'heading': {
      const level = Math.min(6, Math.max(1, t.depth));
      block(parent, inline(element(`h${level}` as 'h1'), t.tokens));
      return;
    }
    case 'hr':
      block(parent, element('hr'));
      return;
    case 'blockquote': {
      const quote = element('blockquote');
      quote.append('\n');
      appendBlocks(quote, t.tokens);
      block(parent, quote);
      return;
    }
    case 'code': {
      const pre = element('pre');
      const code = element('code');
      const lang = decode((t.lang ?? '').match(/^\S*/)![0]);
      if (CODE_LANGUAGE.test(lang)) code.className = `language-${lang}`;
      code.textContent = t.text ? `${t.text.replace(/\n$/, '')}\n` : '';
      pre.append(code);
      block(parent, pre);
      return;
    }
    case 'list': {
      const list = element(t.ordered ? 'ol' : 'ul');
      if (t.ordered && t.start !== 1) list.setAttribute('start', String(t.start));
      list.append('\n');
      for (const item of t.items) {
        const li = element('li');
        appendBlocks(li, item.tokens);
        block(list, li);
      }
      block(parent, list);
      return;
    }
    case 'table': {
      const table = element('table');
      const head = element('thead');
      head.append('\n', row('th', t.header), '\n');
      table.append('\n', head, '\n');
      if (t.rows.length > 0) {
        const body = element('tbody');
        for (const cells of t.rows) body.append(row('td', cells), '\n');
        table.append(body);
      }
      block(parent, table);
      return;
    }
    case 'text':
      // A tight list item's text: inline content without a paragraph.
      if (t.tokens) inline(parent, t.tokens);
      else parent.append(decode(t.text));
      return;
    case 'checkbox':
      parent.append(checkbox(t.checked), ' ');
      return;
    default:
      // Raw HTML (rendered by raw-html.ts once it has loaded) and any token type of a later
      // marked: shown as what was written.
      block(parent, inline(element('p'), [{ type: 'text', raw: t.raw, text: t.raw }]));
      return;
  }
}

function row(tag: 'th' | 'td', cells: Tokens.TableCell[]): HTMLTableRowElement {
  const tr = element('tr');
  tr.append('\n');
  for (const cell of cells) {
    const td = element(tag);
    if (cell.align) td.setAttribute('align', cell.align);
    block(tr, inline(td, cell.tokens));
  }
  return tr;
}

const appendText = (node: Node, text: string): void => {
  node.appendChild(document.createTextNode(text));
};

function inline<T extends Node>(parent: T, tokens: readonly Token[]): T {
  for (const token of tokens) {
    const t = token as MarkedToken;
    switch (t.type) {
      case 'text':
        if (t.tokens) inline(parent, t.tokens);
        else appendText(parent, t.escaped ? t.text : decode(t.text));
        break;
      case 'escape':
        appendText(parent, t.text);
        break;
      case 'strong':
      case 'em':
      case 'del':
        parent.appendChild(inline(element(t.type), t.tokens));
        break;
      case 'codespan': {
        const code = element('code');
        appendText(code, t.text);
        parent.appendChild(code);
        break;
      }
      case 'br':
        parent.appendChild(element('br'));
        break;
      case 'link':
        link(parent, t.href, t.title, Boolean(t.autolink), (a) =>
          t.autolink ? appendText(a, t.text) : inline(a, t.tokens),
        );
        break;
      case 'image': {
        // An image as a link named by its alt text, never loaded (see raw-html.ts).
        const text = decode(t.text || t.href);
        link(parent, t.href, t.title, false, (a) => appendText(a, text));
        break;
      }
      case 'checkbox':
        parent.appendChild(checkbox(t.checked));
        appendText(parent, ' ');
        break;
      default:
        appendText(parent, t.raw);
    }
  }
  return parent;
}

/**
 * A link as marked writes it: its address percent-encoded (not a link at all when it cannot be),
 * character references in it read unless it is an autolink; then, as raw-html.ts finishes
 * links, a link only to a web, mail or phone address, opening in a new tab without the opener.
 */
function link(
  parent: Node,
  href: string,
  title: string | null | undefined,
  literal: boolean,
  fill: (into: Node) => void,
): void {
  let encoded: string;
  try {
    encoded = encodeURI(href).replace(/%25/g, '%');
  } catch {
    fill(parent);
    return;
  }
  const address = literal ? encoded : decode(encoded);
  // Not a link the reader can follow (`javascript:`, a page's own `#anchor`): its text, as text,
  // rather than something that looks clickable and does nothing.
  if (!SAFE_URL.test(address.trim())) {
    fill(parent);
    return;
  }
  const a = element('a');
  a.setAttribute('href', address);
  if (title) a.setAttribute('title', decode(title));
  a.target = '_blank';
  a.rel = 'noopener noreferrer';
  fill(a);
  parent.appendChild(a);
}

/** A task list's box: shown, never changed. */
function checkbox(checked: boolean): HTMLInputElement {
  const box = element('input');
  box.type = 'checkbox';
  box.checked = checked;
  box.disabled = true;
  return box;
}

/** A character reference as marked lets it through to the HTML it writes. */
const REFERENCE = /&(?:#\d{1,7}|#[xX][a-fA-F0-9]{1,6}|\w+);/g;
let decoder: HTMLTextAreaElement | undefined;

/**
 * The text with its character references read (`&amp;` is "&"), as the HTML parser reads them
 * in the text marked writes. A textarea's content is text, never elements: nothing in a
 * reference can become markup.
 */
function decode(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(REFERENCE, (reference) => {
    decoder ??= document.createElement('textarea');
    decoder.innerHTML = reference;
    return decoder.value;
  });
}
