/**
 * No script runs from any answer: a corpus of raw-HTML and markdown payloads, streamed into the
 * built element in small chunks (so tags and URLs are split across chunks), in a page with a
 * strict CSP whose violation reports and `alert`/`window.__pwned` hooks reveal any attempt that
 * got through the sanitizer. A few payloads also come from the real server as Q&A answers.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { axeViolations, type Harness, startHarness, testPage, writeGuard } from './harness.js';

const RUN = 'window.__pwned=1';

const HTML_VECTORS = [
  `<script>${RUN}</script>`,
  `<img src=x onerror="${RUN}">`,
  `<img src="x" onerror=${RUN}>`,
  `<svg onload=${RUN}>`,
  `<svg><script>${RUN}</script></svg>`,
  `<iframe src="javascript:parent.__pwned=1"></iframe>`,
  `<iframe srcdoc="<script>parent.__pwned=1</script>"></iframe>`,
  `<body onload=${RUN}>`,
  `<details open ontoggle=${RUN}>x</details>`,
  `<video><source onerror=${RUN}></video>`,
  `<audio src=x onerror=${RUN}></audio>`,
  `<input autofocus onfocus=${RUN}>`,
  `<a href="javascript:${RUN}">click</a>`,
  `<a href="JaVaScRiPt:${RUN}">click</a>`,
  `<a href="&#106;avascript:${RUN}">click</a>`,
  `<a href="java&#x09;script:${RUN}">click</a>`,
  `<a href=" javascript:${RUN}">click</a>`,
  `<form action="javascript:${RUN}"><button>go</button></form>`,
  `<object data="javascript:${RUN}"></object>`,
  `<embed src="javascript:${RUN}">`,
  `<math><mtext><table><mglyph><style><img src=x onerror=${RUN}></style></mglyph></table></mtext></math>`,
  `<noscript><p title="</noscript><img src=x onerror=${RUN}>"></noscript>`,
  `<style>*{background:url("javascript:${RUN}")}</style>`,
  `<link rel=stylesheet href="javascript:${RUN}">`,
  `<meta http-equiv="refresh" content="0;url=javascript:${RUN}">`,
  `<base href="javascript:${RUN}//">`,
  `<marquee onstart=${RUN}>x</marquee>`,
  `<div style="background:url(javascript:${RUN})">x</div>`,
  `<template><img src=x onerror=${RUN}></template>`,
  `<select autofocus onfocus=${RUN}></select>`,
  `<textarea autofocus onfocus=${RUN}></textarea>`,
  `<svg><a xlink:href="javascript:${RUN}"><text x="1" y="1">x</text></a></svg>`,
  `<svg><animate onbegin=${RUN} attributeName=x dur=1s>`,
  `<svg><set attributeName=onload to=${RUN}>`,
  `<xmp><img src=x onerror=${RUN}></xmp>`,
  `<div onpointerover=${RUN} onmouseover=${RUN}>hover</div>`,
  `<a href="data:text/html,<script>${RUN}</script>">data</a>`,
  `<a href="vbscript:msgbox(1)">vb</a>`,
  `<img srcset="x 1x" onerror=${RUN}>`,
  `"><img src=x onerror=${RUN}>`,
  `<scr<script>ipt>${RUN}</script>`,
  `<!--<img src=x onerror=${RUN}>-->`,
  `<![CDATA[<img src=x onerror=${RUN}>]]>`,
  `<button formaction="javascript:${RUN}">b</button>`,
  `<p id="x" class="copy-code" onclick=${RUN}>looks like ours</p>`,
];

const HTML_CONTEXTS = [
  (v: string) => v,
  (v: string) => `Text before ${v} and after.`,
  (v: string) => `- item one\n- ${v}\n- item three`,
];

const MARKDOWN_VECTORS = [
  `[x](javascript:${RUN})`,
  `[x](JAVASCRIPT:${RUN})`,
  `[x]( javascript:${RUN})`,
  `[x](javascript&#58;${RUN})`,
  `[x](data:text/html;base64,PHNjcmlwdD53aW5kb3cuX19wd25lZD0xPC9zY3JpcHQ+)`,
  `![x](javascript:${RUN})`,
  `![x](x" onerror="${RUN})`,
  `[x](https://ok.example "title\\" onmouseover=\\"${RUN}")`,
  `<javascript:${RUN}>`,
  `[x][ref]\n\n[ref]: javascript:${RUN}`,
  `\`<img src=x onerror=${RUN}>\``,
  `\`\`\`html\n<script>${RUN}</script>\n\`\`\``,
  `[<img src=x onerror=${RUN}>](https://x.example)`,
  `**<img src=x onerror=${RUN}>**`,
  `| a | b |\n|---|---|\n| <img src=x onerror=${RUN}> | <svg onload=${RUN}> |`,
  `> <svg onload=${RUN}>`,
  `- <details open ontoggle=${RUN}>x</details>`,
  `[x](vbscript:msgbox(1))`,
  `[x](file:///etc/passwd)`,
  `# <img src=x onerror=${RUN}> heading`,
  `[a](https://a.example)[b](javascript:${RUN})[c](mailto:a@b.c)`,
  `<https://ok.example/"onmouseover="${RUN}>`,
  `[x](\`javascript:${RUN}\`)`,
  `Cited [1] <a href="javascript:${RUN}">[2]</a>`,
  `~~<img src=x onerror=${RUN}>~~`,
];

const CORPUS = [
  ...HTML_VECTORS.flatMap((v) => HTML_CONTEXTS.map((wrap) => wrap(v))),
  ...MARKDOWN_VECTORS,
];

let h: Harness;

before(async () => {
  h = await startHarness();
  writeGuard(h);
});

after(async () => {
  await h?.close();
});

/** What the page reports about the rendered answers: anything executable or off-list. */
interface Findings {
  pwned: number;
  violations: string[];
  forbidden: string[];
  answers: number;
  unanswered: string[];
  queries: string[];
  alert: string;
  userHtml: number;
}

describe('chatbot-chat.js XSS corpus', () => {
  for (const csp of [false, true]) {
    it(`runs no script from ${CORPUS.length} payloads streamed in chunks of 1 to 7 characters, ${csp ? 'with a strict CSP and no violation reported' : 'without a CSP to fall back on'}`, async () => {
      assert.ok(CORPUS.length >= 100, `corpus has ${CORPUS.length} payloads`);
      h.page('payloads.json', JSON.stringify(CORPUS));
      h.page(
        'xss.js',
        `import { createClient } from '/dist/api.js';
const payloads = await (await fetch('/e2e/payloads.json')).json();
let next = 0;
const fake = async (input, init) => {
  const path = new URL(String(input)).pathname;
  if (path.endsWith('/session/create')) {
    return new Response(JSON.stringify({ uuid: 's1', created_at: '', modified_at: '' }), { headers: { 'content-type': 'application/json' } });
  }
  const text = payloads[next];
  const size = (next % 7) + 1;
  next += 1;
  const encoder = new TextEncoder();
  let at = 0;
  const body = new ReadableStream({
    pull(controller) {
      if (at >= text.length) return controller.close();
      controller.enqueue(encoder.encode(text.slice(at, at + size)));
      at += size;
    },
  });
  const citations = btoa(JSON.stringify([{ n: 1, data_source_uuid: 'd', title: '<img src=x onerror=window.__pwned=1>', type: 'qa', url: 'javascript:window.__pwned=1' }])).replace(/=+$/, '');
  return new Response(body, { headers: { 'content-type': 'text/plain; charset=utf-8', 'x-citations': citations } });
};
const el = document.querySelector('chatbot-chat');
el.client = createClient({ baseUrl: location.origin, apiKey: 'unused', fetch: fake, retry: false });
for (const payload of payloads) await el.send(payload);
window.__done = true;
`,
      );
      const url = h.page(
        `xss-${csp}.html`,
        testPage(
          h.url,
          '<main><h1>XSS</h1><chatbot-chat chatbot-uuid="bot" persist="none"></chatbot-chat></main>',
          '<script type="module" src="/dist/chatbot-chat.js"></script><script type="module" src="/e2e/xss.js"></script>',
          csp,
        ),
      );
      const page = await h.newPage();
      let dialogs = 0;
      page.on('dialog', (dialog) => {
        dialogs += 1;
        void dialog.dismiss();
      });
      await page.goto(url);
      await page.waitForFunction(() => (window as unknown as { __done?: boolean }).__done, null, {
        timeout: 120_000,
      });
      // Give any deferred handler (onload, onerror of a broken image, autofocus) a chance to fire.
      await page.mouse.move(200, 300);
      await page.waitForTimeout(300);
      const findings: Findings = await page.evaluate(() => {
        const root = document.querySelector('chatbot-chat')!.shadowRoot!;
        const forbidden: string[] = [];
        const bad =
          'script,iframe,object,embed,form,style,link,meta,base,svg,math,img,input,textarea,select,video,audio,source,template,noscript,button:not(.copy-code),details,marquee';
        for (const answer of root.querySelectorAll('.exchange .assistant')) {
          for (const node of answer.querySelectorAll(bad))
            forbidden.push(`element ${node.outerHTML.slice(0, 80)}`);
          for (const node of answer.querySelectorAll('*')) {
            for (const attr of node.attributes) {
              const name = attr.name.toLowerCase();
              if (
                name.startsWith('on') ||
                ['style', 'src', 'srcset', 'action', 'formaction', 'xlink:href', 'srcdoc'].includes(
                  name,
                )
              ) {
                forbidden.push(`attribute ${name} on ${node.nodeName}`);
              }
              if (name === 'href' && !/^(https?:|mailto:|tel:|#)/i.test(attr.value)) {
                forbidden.push(`href ${attr.value.slice(0, 60)}`);
              }
            }
            if (
              node.nodeName === 'A' &&
              node.hasAttribute('href') &&
              node.getAttribute('href')!.startsWith('http')
            ) {
              if (node.getAttribute('rel') !== 'noopener noreferrer' && !node.closest('.sources')) {
                forbidden.push(`link without rel: ${node.outerHTML.slice(0, 80)}`);
              }
            }
          }
        }
        const w = window as unknown as { __pwned: number; __violations: string[] };
        return {
          pwned: w.__pwned,
          violations: w.__violations,
          forbidden,
          answers: root.querySelectorAll('.exchange .actions').length,
          unanswered: [...root.querySelectorAll('.exchange')]
            .filter((x) => !x.querySelector('.actions'))
            .map((x) => x.querySelector('.user')?.textContent ?? ''),
          alert: root.querySelector('[role="alert"]')?.textContent ?? '',
          queries: [...root.querySelectorAll('.exchange .user')].map((n) =>
            (n.textContent ?? '').replace(/^You: /, ''),
          ),
          userHtml: root.querySelectorAll('.exchange .user *:not(.visually-hidden)').length,
        };
      });
      assert.deepEqual(
        CORPUS.map((p) => p.trim()).filter((p) => !findings.queries.includes(p)),
        [],
        'every payload sent',
      );
      assert.deepEqual(
        [findings.unanswered, findings.alert.trim()],
        [[], ''],
        'every payload answered',
      );
      assert.equal(findings.answers, CORPUS.length, 'every payload was answered');
      assert.equal(findings.pwned, 0, 'no injected script ran');
      assert.equal(dialogs, 0, 'no dialog opened');
      assert.deepEqual(findings.violations, [], 'nothing tried to run against the CSP');
      assert.deepEqual(findings.forbidden, [], 'nothing executable or off the allow-list rendered');
      assert.equal(findings.userHtml, 0, "the reader's text is shown as text");
      assert.deepEqual(h.errors, []);
      assert.deepEqual(await axeViolations(page), [], 'axe: a conversation of payloads');
      await page.context().close();
    });
  }

  it('runs no script from payloads served by the real server as Q&A answers', async () => {
    const picks = [0, 3, 12, 15, 20, 60, 135, 140].map((i) => CORPUS[i % CORPUS.length]!);
    const page = await h.newPage();
    for (const [index, payload] of picks.entries()) {
      const chatbot = await h.client.chatbots.create({
        name: `xss ${index}`,
        show_citations: true,
      });
      await h.client.sources.createQa(chatbot.uuid, {
        question: 'What is the secret of the house?',
        answer: payload,
      });
      await h.server.idle();
      const url = h.page(
        `xss-real-${index}.html`,
        testPage(
          h.url,
          `<main><h1>XSS</h1><chatbot-chat base-url="${h.url}" api-key="${h.apiKey}" chatbot-uuid="${chatbot.uuid}" persist="none"></chatbot-chat></main>`,
          '<script type="module" src="/dist/chatbot-chat.js"></script>',
        ),
      );
      await page.goto(url);
      const box = page.getByRole('textbox', { name: 'Message' });
      await box.fill('What is the secret of the house?');
      await box.press('Enter');
      await page.waitForFunction(() =>
        document.querySelector('chatbot-chat')!.shadowRoot!.querySelector('.exchange .actions'),
      );
      await page.waitForTimeout(100);
      const state = await page.evaluate(() => {
        const w = window as unknown as { __pwned: number; __violations: string[] };
        const root = document.querySelector('chatbot-chat')!.shadowRoot!;
        return {
          pwned: w.__pwned,
          violations: w.__violations,
          handlers: [...root.querySelectorAll('.markdown *')].filter((n) =>
            [...n.attributes].some((a) => a.name.startsWith('on')),
          ).length,
        };
      });
      assert.deepEqual(
        state,
        { pwned: 0, violations: [], handlers: 0 },
        `payload ${index}: ${payload}`,
      );
    }
    assert.deepEqual(h.errors, []);
    await page.context().close();
  });
});
