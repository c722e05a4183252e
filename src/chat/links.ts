/** Only web, mail and phone links; relative and every other scheme are dropped. */
export const SAFE_URL = /^(?:https?:|mailto:|tel:)/i;

/** The URL if it is a web, mail or phone link; otherwise undefined. */
export function safeUrl(url: string | undefined): string | undefined {
  return url && SAFE_URL.test(url.trim()) ? url.trim() : undefined;
}
