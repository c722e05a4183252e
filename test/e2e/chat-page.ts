/** What the end-to-end chat suites read of `<chatbot-chat>` in a page, shared by them. */
import type { Page } from 'playwright-core';

/** The visitor's questions as shown, without the "You:" label. */
export const userTexts = (page: Page) =>
  page.evaluate(() =>
    [
      ...document.querySelector('chatbot-chat')!.shadowRoot!.querySelectorAll('.exchange .user'),
    ].map((n) => (n.textContent ?? '').replace(/^\s*You:\s*/, '').trim()),
  );

/** The alert's text, empty when there is none. */
export const alertText = (page: Page) =>
  page.evaluate(
    () =>
      document
        .querySelector('chatbot-chat')!
        .shadowRoot!.querySelector('[role="alert"]')
        ?.textContent?.trim() ?? '',
  );

export const sessionOf = (page: Page) =>
  page.evaluate(() => document.querySelector('chatbot-chat')!.sessionUuid);
