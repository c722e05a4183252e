/**
 * What defines a tab's element, or draws a part of one, fetched the first time it is shown (a
 * chunk of its own in `dist/`, beside the bundle) and once only, so the admin's first load
 * carries none of it. A module that cannot be fetched is reported once; the admin then hides the
 * tab, or the part shows without it.
 */
export function lazyTab(what: string, load: () => Promise<unknown>): () => Promise<void> {
  let loading: Promise<void> | undefined;
  return () => {
    loading ??= load().then(
      () => undefined,
      (error: unknown) => {
        console.warn(`chatbot-admin: ${what} (a chunk beside the bundle) did not load.`, error);
        throw error;
      },
    );
    return loading;
  };
}

/** <chatbot-admin-insights>, the Insights tab: its panel and its charts. */
export const loadInsights = lazyTab('the Insights module', () =>
  import('./insights-panel.js').then((module) => module.defineInsightsPanel()),
);

/**
 * <chatbot-chat>, for the "Try it" tab: a dashboard that manages chatbots without trying them
 * never loads the chat. A page with the chat's own bundle keeps that definition (the chat's
 * module defines the element only when no one has).
 */
export const loadChat = lazyTab('the chat of Try it', () => import('./try-chat.js'));
