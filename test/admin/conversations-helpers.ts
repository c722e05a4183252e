import type { ChatbotClient } from '../../src/api/client.js';
import { apiClient, deep, deepAll, mountAdmin, newChatbot, until } from './helpers.js';

export type Panel = HTMLElement & {
  updateComplete: Promise<unknown>;
  refresh(): void;
  pageSize: number;
};

export const QUESTIONS = {
  covered: 'When does the ferry leave?',
  uncovered: 'Do you sell umbrellas?',
  escalated: 'Can I talk to a human?',
} as const;

/**
 * A chatbot with three conversations, seeded through the API module as a visitor makes them:
 * one answered from a Q&A and rated helpful, one the sources do not cover, rated not helpful
 * with a reason and a comment, and one escalated to a human (not rated).
 */
export async function seedConversations(client?: ChatbotClient) {
  client ??= await apiClient();
  const bot = await newChatbot(client, 'Review bot');
  await client.sources.createQa(bot.uuid, {
    question: QUESTIONS.covered,
    answer: 'The ferry leaves at noon.',
  });
  const humans = await client.agents.create(bot.uuid, { name: 'Humans', type: 'human-escalation' });
  await client.agents.update(humans.uuid, { enabled: true });
  const ask = async (query: string) => {
    const session = await client.sessions.create(bot.uuid);
    await client.messages.send(session.uuid, query);
    const [message] = await client.messages.list(session.uuid);
    return { session: session.uuid, message: message! };
  };
  const covered = await ask(QUESTIONS.covered);
  const uncovered = await ask(QUESTIONS.uncovered);
  const escalated = await ask(QUESTIONS.escalated);
  await client.messages.feedback(covered.message.uuid, { rating: 'up' });
  await client.messages.feedback(uncovered.message.uuid, {
    rating: 'down',
    reason: 'wrong',
    comment: 'We do sell umbrellas, at the kiosk.',
  });
  return { client, bot, covered, uncovered, escalated };
}

/** Mounts the admin on the Conversations tab and waits for its first list. */
export async function mountConversations(client: ChatbotClient, bot: { uuid: string }) {
  const el = await mountAdmin(client, bot as never, 'sessions');
  const panel = await until(() => deep<Panel>(el, 'chatbot-admin-sessions'));
  await until(() => deep(panel, '[role=table]'));
  return { el, panel };
}

/** The first questions of the rows on screen, sorted (rows active in one second tie in order). */
export const shownQuestions = (panel: Element) =>
  deepAll(panel, '.tbody [role=row] .title')
    .map((cell) => cell.textContent?.trim() ?? '')
    .sort();

/** Every request URL a client makes, beside the server's own answers. */
export async function recordingClient(
  answer?: (url: string, response: Response) => Response | Promise<Response>,
) {
  const urls: string[] = [];
  const client = await apiClient(async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    urls.push(url);
    const response = await fetch(input, init);
    return answer ? answer(url, response) : response;
  });
  return { client, urls };
}

/** The review list requests among `urls`, as their query parameters. */
export const listRequests = (urls: string[]) =>
  urls
    .filter((url) => new URL(url).pathname.endsWith('/conversations'))
    .map((url) => new URL(url).searchParams);

const METHODS = ['log', 'info', 'warn', 'error', 'debug'] as const;

/**
 * What the page writes to the console during each test of the suite that calls it (the console
 * itself says nothing then), for a test that asserts nothing of ours reaches it.
 */
export function capturedConsole(): unknown[][] {
  const logged: unknown[][] = [];
  const originals = METHODS.map((method) => console[method]);
  beforeEach(() => {
    logged.length = 0;
    for (const method of METHODS) console[method] = (...args: unknown[]) => void logged.push(args);
  });
  afterEach(() => {
    METHODS.forEach((method, i) => {
      console[method] = originals[i]!;
    });
  });
  return logged;
}
