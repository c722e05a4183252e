let loading: Promise<void> | undefined;

/**
 * Defines <chatbot-admin-insights>, fetching its module the first time the Insights tab opens:
 * the panel and its charts stay out of the admin's first load (a chunk of its own in `dist/`).
 * A module that cannot be fetched is reported once; the admin then hides the tab.
 */
export function loadInsights(): Promise<void> {
  loading ??= import('./insights-panel.js').then(
    (module) => module.defineInsightsPanel(),
    (error: unknown) => {
      console.warn(
        'chatbot-admin: the Insights module (a chunk beside the bundle) did not load.',
        error,
      );
      throw error;
    },
  );
  return loading;
}
