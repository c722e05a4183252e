/** What the end-to-end chat suites read of `<chatbot-chat>` in a page, shared by them. */
import assert from 'node:assert/strict';
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

/**
 * The page stayed safe and quiet: no script an answer carried ran (`window.__pwned`), no
 * Content-Security-Policy violation, and none of the harness's collected console `errors`.
 */
export async function assertClean(page: Page, errors: string[]): Promise<void> {
  const { pwned, violations } = await page.evaluate(() => ({
    pwned: (window as unknown as { __pwned: number }).__pwned,
    violations: (window as unknown as { __violations: string[] }).__violations,
  }));
  assert.equal(pwned, 0, 'no injected script ran');
  assert.deepEqual(violations, [], 'no Content-Security-Policy violation');
  assert.deepEqual(errors, [], 'no console errors');
}
