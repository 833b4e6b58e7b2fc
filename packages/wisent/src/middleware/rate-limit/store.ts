/** One counted hit of a fixed window. */
export interface WindowCount {
  /** Hits in the current window, this one included. */
  readonly count: number;
  /** Milliseconds until the window ends and the count starts again. */
  readonly resetMs: number;
}

/**
 * Where rate-limit counts live: {@link memoryStore} for one process, `redisStore` for several
 * workers or machines. A store counts hits per key in fixed windows.
 */
export interface RateLimitStore {
  /**
   * Counts one hit for `key` in its window of `windowMs` (the window starts at its first hit).
   * @param key - whom the hit counts against (prefixed with the limit's name)
   * @param windowMs - the window's length
   * @returns the count in the window, this hit included, and the time left
   */
  hit(key: string, windowMs: number): Promise<WindowCount>;
  /**
   * Forgets `key` (e.g. after a successful sign-in).
   * @param key - as given to `hit`
   */
  reset(key: string): Promise<void>;
}

/**
 * Counts in this process's memory: right for one process (`wisent start` with one worker, tests).
 * Expired windows are swept as new hits come in, so memory stays bounded by the active keys.
 * @returns a new, empty store (each call makes its own counts)
 * @example rateLimit({ limit: 10, window: 60, store: memoryStore() })
 */
export function memoryStore(): RateLimitStore {
  const windows = new Map<string, { count: number; endsAt: number }>();
  let nextSweep = 0;
  const sweep = (now: number) => {
    if (now < nextSweep) return;
    nextSweep = now + 1000;
    for (const [key, window] of windows) if (window.endsAt <= now) windows.delete(key);
  };
  return {
    hit(key, windowMs) {
      const now = Date.now();
      sweep(now);
      let window = windows.get(key);
      if (!window || window.endsAt <= now) {
        window = { count: 0, endsAt: now + windowMs };
        windows.set(key, window);
      }
      window.count++;
      return Promise.resolve({ count: window.count, resetMs: window.endsAt - now });
    },
    reset(key) {
      windows.delete(key);
      return Promise.resolve();
    },
  };
}
