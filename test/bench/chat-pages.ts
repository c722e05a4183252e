/**
 * The input and the in-page scripts of `npm run bench:chat`: the answer, the feeder that hands
 * it over one chunk per task, the watcher that sees it arrive in the DOM, and the pages of our
 * element, deep-chat and a remembered conversation. The floor's page is in chat-floor.ts.
 */
import { parseHTML } from 'linkedom';
import { marked } from 'marked';
import type { Page } from 'playwright-core';
import type { Harness } from '../e2e/harness.js';

export const CHUNK = 10;
/** The answer's last block: the moment it is in the DOM is the end of the measured time. */
export const END = 'The end of the answer.';

/** A realistic long answer: every section has a heading, prose with inline marks, a list, code, a table. */
export function markdownAnswer(bytes: number): string {
  const parts: string[] = [];
  let size = 0;
  for (let i = 1; size < bytes; i++) {
    const section = `## Section ${i}: opening hours and recipes

The bakery on **Main Street** opens at *7 am* and closes at 6 pm; see [the website](https://bakery.example/${i}) or write to \`hello@bakery.example\` for orders over ${i * 3} loaves.

- Sourdough, baked ${i} times a week
- Rye with *caraway* seeds
- Croissants, **butter** only
  - plain
  - almond

\`\`\`js
function loaves(day) {
  const base = ${i * 10};
  return day === 'saturday' ? base * 2 : base;
}
console.log(loaves('monday'));
\`\`\`

| Bread | Price | Days |
|-------|------:|------|
| Sourdough | ${i}.50 | Mon–Sat |
| Rye | ${i}.20 | Tue, Thu |

> Tip ${i}: order a day ahead.

`;
    parts.push(section);
    size += section.length;
  }
  // A heading, so that "the last heading is in the DOM" is "the whole answer is".
  parts.push(`## ${END}`);
  return parts.join('');
}

export interface Shape {
  headings: number;
  items: number;
  codeBlocks: number;
  tables: number;
  rows: number;
  links: number;
  ends: boolean;
}

function shapeOf(doc: ParentNode): Shape {
  const count = (selector: string) => doc.querySelectorAll(selector).length;
  return {
    headings: count('h1, h2, h3, h4, h5, h6'),
    items: count('li'),
    codeBlocks: count('pre'),
    tables: count('table'),
    rows: count('tr'),
    links: count('a[href^="http"]'),
    ends: (doc as Element).textContent?.includes(END) ?? false,
  };
}

export function expectedShape(markdown: string): Shape {
  const { document } = parseHTML(`<div id="r">${marked.parse(markdown, { async: false })}</div>`);
  return shapeOf(document.getElementById('r')!);
}

export async function finalShape(p: Page): Promise<Shape> {
  // A string, not a function: tsx would wrap named arrow functions in a helper the page lacks.
  return p.evaluate(`(() => {
    const answer = window.__answerRoot();
    if (!answer) throw new Error('no answer in the page');
    const count = (selector) => answer.querySelectorAll(selector).length;
    return {
      headings: count('h1, h2, h3, h4, h5, h6'),
      items: count('li'),
      codeBlocks: count('pre'),
      tables: count('table'),
      rows: count('tr'),
      links: count('a[href^="http"]'),
      ends: answer.textContent.includes(${JSON.stringify(END)}),
    };
  })()`);
}

/**
 * Letters and digits a reader sees in the one-pass rendering of each prefix of `text` that ends
 * at a chunk's end (index 0: nothing yet). A rendered DOM holding the same count shows that
 * prefix: that is how the watcher's records are matched to chunks (see chat-floor.ts).
 */
export function visibleCounts(text: string): number[] {
  const counts = [0];
  for (let at = CHUNK; at < text.length + CHUNK; at += CHUNK) {
    const html = marked.parse(text.slice(0, at), { async: false });
    const visible = html.replace(/<[^>]*>/g, '').replace(/&[#\w]+;/g, '');
    counts.push(visible.match(/[\p{L}\p{N}]/gu)?.length ?? 0);
  }
  return counts;
}

// --- in-page scripts --------------------------------------------------------------------------

/**
 * Feeds chunks one per task (a MessageChannel message, no timer clamping) through a response
 * body, as bytes arrive from a network, and records when each was handed over (`__arrivals`).
 * `__watch` sees the answer grow: when its last heading is in the DOM it calls the CDP binding
 * `__answered` (the end of the measured time) and, asked to, it logs each change's time and the
 * letters and digits shown. Long tasks are recorded from the page's start.
 */
export const FEEDER = `
window.__chunks = (text, size) => {
  const out = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
};
const channel = new MessageChannel();
const queue = [];
channel.port1.onmessage = () => queue.shift()();
window.__nextTask = () => new Promise((resolve) => { queue.push(resolve); channel.port2.postMessage(0); });
window.__frames = (n) => new Promise((resolve) => {
  const step = () => (n-- <= 0 ? resolve() : requestAnimationFrame(step));
  requestAnimationFrame(step);
});
window.__arrivals = [];
window.__body = (chunks) => {
  const encoder = new TextEncoder();
  let at = 0;
  window.__arrivals = [];
  return new ReadableStream({
    async pull(controller) {
      await window.__nextTask();
      if (at < chunks.length) {
        controller.enqueue(encoder.encode(chunks[at++]));
        window.__arrivals.push(performance.now());
      } else controller.close();
    },
  }, { highWaterMark: 0 });
};
window.__longTasks = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) window.__longTasks.push([e.startTime, e.duration]);
}).observe({ type: 'longtask', buffered: true });
const LETTERS = /[\\p{L}\\p{N}]/gu;
const letters = (node) => {
  let n = 0;
  const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const text = walker.currentNode;
    // Our code blocks' copy buttons are controls, not the answer.
    if (text.parentElement.closest('button')) continue;
    n += text.nodeValue.match(LETTERS)?.length ?? 0;
  }
  return n;
};
/** Closed blocks never change: counted once. */
const counted = new WeakMap();
const shown = (root) => {
  let n = 0;
  for (const block of root.children) {
    if (block === root.lastElementChild) n += letters(block);
    else {
      if (!counted.has(block)) counted.set(block, letters(block));
      n += counted.get(block);
    }
  }
  return n;
};
const ended = (root) => {
  for (const block of [root.lastElementChild, root.lastElementChild?.previousElementSibling]) {
    const headings = block?.querySelectorAll('h2');
    if (headings?.length && headings[headings.length - 1].textContent === ${JSON.stringify(END)}) return true;
  }
  return false;
};
window.__watch = (target, log) => {
  window.__log = [];
  window.__frameTimes = [];
  let done = false;
  const frame = (t) => {
    window.__frameTimes.push(t);
    if (!done) requestAnimationFrame(frame);
  };
  if (log) requestAnimationFrame(frame);
  const observer = new MutationObserver(() => {
    const root = window.__answerRoot();
    if (!root) return;
    if (log) window.__log.push([performance.now(), shown(root)]);
    if (!done && ended(root)) {
      done = true;
      observer.disconnect();
      window.__answered?.('');
    }
  });
  observer.observe(target, { childList: true, subtree: true, characterData: true });
};
`;

/**
 * <chatbot-chat> with a client whose fetch answers from the feeder. `__run` sends through the
 * element's API (the traced runs); `__prepare` + `__send` type the question and click Send.
 */
export const OURS = `
import { createClient } from '/dist/api.js';
import '/dist/chatbot-chat.js';
const el = document.querySelector('chatbot-chat');
let chunks = [];
const fake = async (input) => {
  if (String(input).endsWith('/session/create')) {
    return new Response('{"uuid":"s","created_at":"","modified_at":""}', { headers: { 'content-type': 'application/json' } });
  }
  return new Response(window.__body(chunks), { headers: { 'content-type': 'text/plain; charset=utf-8' } });
};
el.client = createClient({ baseUrl: location.origin, apiKey: 'bench', fetch: fake, retry: false });
window.__run = async (text, size) => {
  chunks = window.__chunks(text, size);
  // Removing the previous run's answer is not part of streaming this one.
  el.clear();
  await window.__frames(2);
  performance.mark('start');
  await el.send('Tell me everything.');
  await window.__frames(2);
  performance.mark('end');
};
let finished;
window.__prepare = async (text, size, log) => {
  chunks = window.__chunks(text, size);
  el.clear();
  await el.updateComplete;
  el.shadowRoot.querySelector('textarea').value = 'Tell me everything.';
  window.__watch(el.shadowRoot, log);
  finished = new Promise((resolve) => el.addEventListener('chatbot-answer-finished', resolve, { once: true }));
  await window.__frames(2);
};
window.__send = () => {
  window.__sentAt = performance.now();
  el.shadowRoot.querySelector('[part~="send-button"]').click();
};
window.__finished = async () => {
  await finished;
  await window.__frames(2);
};
window.__answerRoot = () => {
  const answers = el.shadowRoot.querySelectorAll('.exchange .assistant .markdown');
  return answers[answers.length - 1];
};
window.__ready = true;
`;

export const DEEP = `
import '/deep-chat/deepChat.bundle.js';
const chat = document.querySelector('deep-chat');
let feed;
chat.connect = {
  stream: true,
  handler: (_body, signals) => { feed(signals); },
};
window.__run = async (text, size) => {
  const chunks = window.__chunks(text, size);
  chat.clearMessages?.();
  await window.__frames(2);
  const done = new Promise((resolve) => {
    feed = async (signals) => {
      signals.onOpen();
      for (const chunk of chunks) {
        await window.__nextTask();
        await signals.onResponse({ text: chunk });
      }
      signals.onClose();
      resolve();
    };
  });
  performance.mark('start');
  chat.submitUserMessage({ text: 'Tell me everything.' });
  await done;
  await window.__frames(2);
  performance.mark('end');
};
window.__answerRoot = () => {
  const bubbles = chat.shadowRoot.querySelectorAll('.ai-message-text');
  return bubbles[bubbles.length - 1];
};
await new Promise((r) => setTimeout(r, 300));
window.__ready = true;
`;

/** Mounts <chatbot-chat> over a remembered conversation of the exchanges given. */
export const RESTORE = `
import { createClient } from '/dist/api.js';
import '/dist/chatbot-chat.js';
window.__run = async (exchanges) => {
  const key = 'chatbot-chat:v1:' + location.origin + ':bench-restore';
  localStorage.setItem(key, JSON.stringify({ exchanges }));
  const el = document.createElement('chatbot-chat');
  el.setAttribute('chatbot-uuid', 'bench-restore');
  el.client = createClient({ baseUrl: location.origin, apiKey: 'bench', retry: false });
  await window.__frames(2);
  performance.mark('start');
  document.body.append(el);
  const shown = () => el.shadowRoot?.querySelectorAll('.exchange').length ?? 0;
  while (shown() < exchanges.length) await window.__frames(1);
  await window.__frames(2);
  performance.mark('end');
  el.remove();
  localStorage.removeItem(key);
};
window.__ready = true;
`;

/** 200 remembered exchanges, each answer about 1 KB of markdown. */
export function rememberedExchanges() {
  return Array.from({ length: 200 }, (_, i) => ({
    id: `x${i}`,
    query: `Question ${i}: when does the bakery open?`,
    response: markdownAnswer(900).slice(0, 1100),
    state: 'done',
    messageUuid: `m${i}`,
  }));
}

/** Writes a bench page under /e2e/ with the feeder before `script`; returns its URL. */
export function page(h: Harness, name: string, body: string, script: string): string {
  h.page(`${name}.js`, FEEDER + script);
  return h.page(
    `${name}.html`,
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${name}</title>
<script type="module" src="/e2e/${name}.js"></script></head><body>${body}</body></html>`,
  );
}

export async function openPage(h: Harness, url: string): Promise<Page> {
  const p = await h.newPage();
  await p.goto(url);
  await p.waitForFunction(() => (window as unknown as { __ready?: boolean }).__ready);
  return p;
}
