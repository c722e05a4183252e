import type { ChatbotClient } from '../api/client.js';
import { filterQuery } from '../api/resources/review.js';
import type { ConversationSummary, MessageFilters, Page, PageOptions } from '../api/types.js';

type Query = MessageFilters & PageOptions;

/** How many conversations one request of the Conversations list asks for (1–200). */
export const CONVERSATIONS_PAGE_SIZE = 50;

/**
 * The first page of a Conversations list asked for before its panel exists: when the admin
 * opens on that tab (a link, a reload), it asks beside the chatbot list that the panel waits
 * for, not after it, which saves the panel one round trip. Kept per client, for the first panel
 * that asks for a first page, and handed over only if it asks for exactly that one.
 */
const early = new WeakMap<
  ChatbotClient,
  { key: string; page: Promise<Page<ConversationSummary>> }
>();

const keyOf = (chatbotUuid: string, query: Query) => chatbotUuid + filterQuery(query);

export function askEarly(client: ChatbotClient, chatbotUuid: string, query: Query): void {
  const page = client.review.conversations(chatbotUuid, query);
  // Not reported here: the panel that takes it reports it as its own, and none may come (the
  // chatbot is not the reader's).
  page.catch(() => {});
  early.set(client, { key: keyOf(chatbotUuid, query), page });
}

/**
 * The page asked for early, if it is this one (and once only); otherwise undefined, and the
 * early one is dropped: the first panel has asked for something else.
 */
export function takeEarly(
  client: ChatbotClient,
  chatbotUuid: string,
  query: Query,
): Promise<Page<ConversationSummary>> | undefined {
  const asked = early.get(client);
  early.delete(client);
  return asked?.key === keyOf(chatbotUuid, query) ? asked.page : undefined;
}
