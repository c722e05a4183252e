import { isApiError, isNetworkError, isTimeoutError } from '../api/errors.js';
import { fill } from '../ui/i18n.js';
import type { ChatStrings } from '../ui/strings/chat.js';
import type { ChatErrorKind } from './events.js';

/** A failure as the reader sees it. */
export interface ShownError {
  kind: ChatErrorKind;
  message: string;
  /** Whether Retry can help. */
  retryable: boolean;
  /** For 429: when sending is possible again (epoch ms). */
  retryAt?: number;
  error: unknown;
}

/** Thrown for configuration mistakes (missing chatbot-uuid, nested session data…). */
export class ChatConfigError extends TypeError {
  override readonly name = 'ChatConfigError';
}

/**
 * Maps an API module error to what the reader is told and whether Retry is offered. `partial`:
 * part of the answer arrived, and stays on screen; without it only the question is there to keep.
 * `online` is the browser's word for it: a request that could not leave an offline browser lost
 * no connection.
 */
export function describeError(
  error: unknown,
  strings: ChatStrings,
  partial?: boolean,
  now = Date.now(),
  online = globalThis.navigator?.onLine !== false,
): ShownError {
  if (error instanceof ChatConfigError) {
    return {
      kind: 'config',
      message: fill(strings.errorConfig, { detail: error.message }),
      retryable: false,
      error,
    };
  }
  if (isApiError(error)) {
    const { status } = error;
    if (status === 401 || status === 403) {
      // The chatbot's allowed origins leave this page out (the reference server's addition).
      const message = error.code === 'origin_not_allowed' ? strings.errorOrigin : strings.errorAuth;
      return { kind: 'auth', message, retryable: false, error };
    }
    if (status === 404) {
      return { kind: 'not-found', message: strings.errorNotFound, retryable: false, error };
    }
    if (status === 429) {
      const message = error.serverMessage?.trim() || strings.errorRateLimit;
      const retryAt = error.retryAfter !== undefined ? now + error.retryAfter * 1000 : undefined;
      return { kind: 'rate-limit', message, retryable: true, retryAt, error };
    }
    if (status === 408 || status >= 500) {
      return {
        kind: 'server',
        message: fill(strings.errorServer, { status }),
        retryable: true,
        error,
      };
    }
    return {
      kind: 'unknown',
      message: error.serverMessage || strings.errorUnknown,
      retryable: false,
      error,
    };
  }
  if (isTimeoutError(error)) {
    const message = strings[partial ? 'errorTimeoutPartial' : 'errorTimeout'];
    return { kind: 'timeout', message, retryable: true, error };
  }
  if (isNetworkError(error)) {
    const message = online
      ? strings[partial ? 'errorNetworkPartial' : 'errorNetwork']
      : strings.errorOffline;
    return { kind: 'network', message, retryable: true, error };
  }
  return { kind: 'unknown', message: strings.errorUnknown, retryable: true, error };
}

/** Session data must be one level deep: the service stores a flat object. */
export function checkSessionData(value: unknown): Record<string, string | number | boolean | null> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ChatConfigError('session-data must be a JSON object');
  }
  for (const [key, item] of Object.entries(value)) {
    const ok =
      item === null ||
      typeof item === 'string' ||
      typeof item === 'boolean' ||
      (typeof item === 'number' && Number.isFinite(item));
    if (!ok) {
      throw new ChatConfigError(
        `session-data must be a flat object: "${key}" holds ${Array.isArray(item) ? 'an array' : typeof item === 'object' ? 'an object' : `a ${typeof item}`}`,
      );
    }
  }
  return value as Record<string, string | number | boolean | null>;
}
