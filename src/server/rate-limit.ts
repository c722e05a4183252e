/**
 * `rate_limit: [N, S]` = at most N messages per S seconds per session, as a sliding window kept
 * in memory (a restart forgives everyone, which is fine for a local server).
 */
export class RateLimiter {
  private readonly windows = new Map<string, number[]>();

  constructor(private readonly clock: () => number = Date.now) {}

  /** Records a message, or returns the seconds to wait when the session is over its limit. */
  take(sessionUuid: string, [limit, seconds]: [number, number]): { retryAfter: number } | null {
    const t = this.clock();
    const windowMs = seconds * 1000;
    const times = (this.windows.get(sessionUuid) ?? []).filter((time) => t - time < windowMs);
    if (times.length >= limit) {
      this.windows.set(sessionUuid, times);
      return { retryAfter: Math.max(1, Math.ceil((times[0]! + windowMs - t) / 1000)) };
    }
    times.push(t);
    this.windows.set(sessionUuid, times);
    if (this.windows.size > 10_000) this.sweep(t);
    return null;
  }

  forget(sessionUuid: string): void {
    this.windows.delete(sessionUuid);
  }

  private sweep(t: number): void {
    for (const [key, times] of this.windows) {
      if (times.every((time) => t - time > 24 * 3600_000)) this.windows.delete(key);
    }
  }
}
