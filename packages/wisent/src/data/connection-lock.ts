/**
 * A first-come, first-served lock around SQLite's single connection. Unlike a promise-chained
 * mutex it costs nothing when free: `acquire()` answers `undefined` at once, and a promise only
 * when another holder must release first.
 */
export class ConnectionLock {
  #held = false;
  readonly #waiting: (() => void)[] = [];

  /** Takes the lock: `undefined` when it was free, else a promise resolved when it is handed over. */
  acquire(): Promise<void> | undefined {
    if (!this.#held) {
      this.#held = true;
      return undefined;
    }
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  /** Takes the lock if it is free now; never waits. */
  tryAcquire(): boolean {
    if (this.#held) return false;
    this.#held = true;
    return true;
  }

  /** Hands the lock to the longest waiter, or frees it. */
  release(): void {
    const next = this.#waiting.shift();
    if (next) next();
    else this.#held = false;
  }

  /** Whether somebody holds the lock. */
  get held(): boolean {
    return this.#held;
  }
}
