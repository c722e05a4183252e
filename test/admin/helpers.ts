import { fixture, html } from '@open-wc/testing';
import { type ChatbotClient, createClient } from '../../src/api/index.js';
import type { Chatbot } from '../../src/api/types.js';
import '../../src/admin/index.js';
import type { ChatbotAdmin } from '../../src/admin/index.js';

interface TestEnv {
  baseUrl: string | null;
  apiKey: string;
  otherApiKey: string;
}

let env: Promise<TestEnv> | undefined;

/** The reference server started by web-test-runner.config.mjs. */
export async function testEnv(): Promise<TestEnv & { baseUrl: string }> {
  env ??= fetch('/__test-env.json').then((r) => r.json() as Promise<TestEnv>);
  const value = await env;
  if (!value.baseUrl) throw new Error('the reference server did not start (src/server/cli.ts)');
  return value as TestEnv & { baseUrl: string };
}

/** A client of the test server, without retries; its requests go through `through` when given. */
export async function apiClient(through?: typeof fetch): Promise<ChatbotClient> {
  const { baseUrl, apiKey } = await testEnv();
  return createClient({ baseUrl, apiKey, retry: false, ...(through && { fetch: through }) });
}

/**
 * A client whose requests that `match` wait while `hold()` is on, until released: before they
 * reach the server (`at: 'request'`), as a change still on its way, or once the server has
 * answered (`at: 'answer'`), as an answer arriving late over a slow network. `answered` lists
 * the requests the server has answered so far, as `METHOD url`.
 */
export async function holdingClient(
  match: (method: string, url: string) => boolean,
  at: 'request' | 'answer',
) {
  let held: Array<() => void> | null = null;
  const answered: string[] = [];
  const wait = () => new Promise<void>((release) => held!.push(release));
  const client = await apiClient(async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    const method = init?.method ?? 'GET';
    const holds = () => held !== null && match(method, url);
    if (at === 'request' && holds()) await wait();
    const response = await fetch(input, init);
    answered.push(`${method} ${url}`);
    if (at === 'answer' && holds()) await wait();
    return response;
  });
  return {
    client,
    answered,
    /** Holds every such request from now on; resolves once one is held. */
    async hold(): Promise<void> {
      held = [];
      await until(() => held!.length > 0);
    },
    /** Lets the held requests through, and later ones at once. */
    release(): void {
      const waiting = held ?? [];
      held = null;
      for (const go of waiting) go();
    },
  };
}

/**
 * A client whose answers to GET requests ending in `listPath` are the server's own, but reach
 * the caller only when released while `hold()` is on, as over a slow network: for a list that
 * arrives after something the user did meanwhile.
 */
export function slowListClient(listPath: string) {
  return holdingClient((method, url) => method === 'GET' && url.endsWith(listPath), 'answer');
}

let counter = 0;
/** A fresh chatbot per test, so tests never see each other's records. */
export async function newChatbot(client: ChatbotClient, name = 'Test bot'): Promise<Chatbot> {
  counter += 1;
  return client.chatbots.create({ name: `${name} ${Date.now().toString(36)}-${counter}` });
}

/** Mounts the element without touching location.hash, on `tab` of `chatbot`. */
export async function mountAdmin(
  client: ChatbotClient,
  chatbot?: Chatbot,
  tab = 'agents',
): Promise<ChatbotAdmin> {
  if (chatbot) location.hash = `chatbot=${chatbot.uuid}&tab=${tab}`;
  else history.replaceState(null, '', location.pathname + location.search);
  const el = await fixture<ChatbotAdmin>(html`<chatbot-admin .client=${client}></chatbot-admin>`);
  if (chatbot) await until(() => deep(el, `#panel-${tab}`));
  return el;
}

/** querySelector through open shadow roots: each selector is looked up in the previous match's root. */
export function deep<T extends Element = HTMLElement>(
  root: Element,
  ...selectors: string[]
): T | null {
  let node: Element | null = root;
  for (const selector of selectors) {
    const scope: ParentNode | null | undefined = node?.shadowRoot ?? node;
    node = scope?.querySelector(selector) ?? null;
    if (!node) return null;
  }
  return node as T | null;
}

export function deepAll<T extends Element = HTMLElement>(
  root: Element,
  ...selectors: string[]
): T[] {
  const last = selectors.pop()!;
  const parent = selectors.length ? deep(root, ...selectors) : root;
  const scope = parent?.shadowRoot ?? parent;
  return scope ? [...scope.querySelectorAll<T>(last)] : [];
}

/**
 * Waits for a panel's loading Task (its private field `task`) to settle, and for the panel to
 * render what it loaded.
 */
export async function loaded(panel: Element, task: string): Promise<void> {
  const fields = panel as unknown as Record<string, { taskComplete: Promise<unknown> }>;
  await fields[task]!.taskComplete;
  await (panel as Element & { updateComplete: Promise<boolean> }).updateComplete;
}

/**
 * Waits for a condition the UI reaches asynchronously (a request, a render, a lazy panel's first
 * load); fails after `ms`, which only bounds a failing test: generous, since CI shares two cores.
 */
export async function until<T>(
  check: () => T | null | undefined | false | Promise<T | null | undefined | false>,
  ms = 20_000,
): Promise<T> {
  const deadline = performance.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (performance.now() > deadline)
      throw new Error(`condition not met within ${ms} ms: ${check}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** All text of a node, including the shadow roots of its descendants. */
export function deepText(node: Node): string {
  let text = '';
  const walk = (n: Node) => {
    if (n.nodeType === Node.TEXT_NODE) text += n.textContent;
    const shadow = (n as Element).shadowRoot;
    if (shadow) shadow.childNodes.forEach(walk);
    n.childNodes.forEach(walk);
  };
  walk(node);
  return text.replace(/\s+/g, ' ');
}

export function type(input: HTMLInputElement | HTMLTextAreaElement, value: string): void {
  input.value = value;
  input.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
}

/** A whole date chosen in a date input, which reports it with `change` (and `input`). */
export function pickDate(input: HTMLInputElement, value: string): void {
  input.value = value;
  input.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
  input.dispatchEvent(new Event('change', { bubbles: true, composed: true }));
}

/** The button whose accessible text (aria-label or content) equals `name`, inside `scope`. */
export function button(scope: Element | ShadowRoot, name: string): HTMLButtonElement | null {
  const root = (scope as Element).shadowRoot ?? scope;
  return (
    [...root.querySelectorAll<HTMLButtonElement>('button')].find(
      (b) => (b.getAttribute('aria-label') ?? b.textContent ?? '').trim() === name,
    ) ?? null
  );
}

/** Confirms the open confirmation dialog of a panel, after checking what it names. */
export async function confirmDialog(panel: Element, confirm = true): Promise<string> {
  const dialog = await until(() => deep<HTMLDialogElement>(panel, 'dialog.confirm[open]'));
  const message = dialog.querySelector('#confirm-message')?.textContent ?? '';
  const buttons = dialog.querySelectorAll('button');
  (confirm ? buttons[1] : buttons[0])!.click();
  return message;
}
