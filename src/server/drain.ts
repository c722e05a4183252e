/**
 * What the server lets finish before it closes its store on a stop: requests being handled, and
 * streamed answers until they are stored (their handler returns before their body ends).
 */
export class Drain {
  private count = 0;
  private waiting: Array<() => void> = [];

  /** Counts one piece of work in; the function returned counts it out (once, however called). */
  enter(): () => void {
    this.count += 1;
    let left = false;
    return () => {
      if (left) return;
      left = true;
      this.count -= 1;
      if (this.count === 0) for (const resolve of this.waiting.splice(0)) resolve();
    };
  }

  /** Resolves once no work is counted in. */
  idle(): Promise<void> {
    if (this.count === 0) return Promise.resolve();
    return new Promise((resolve) => this.waiting.push(resolve));
  }
}
