/** How long to wait before a failed job's next attempt. */
export interface Backoff {
  /** The wait after the first failure, in milliseconds; it doubles with each failure after. */
  readonly baseMs: number;
  /** The longest wait, in milliseconds. */
  readonly maxMs: number;
}

/** 15 s, 30 s, 1 min, 2 min, ... up to an hour. */
export const DEFAULT_BACKOFF: Backoff = { baseMs: 15_000, maxMs: 3_600_000 };

/**
 * The wait before the attempt after `failures` failures: exponential (`base * 2^(failures-1)`,
 * capped at `max`), with "equal jitter": a random point in its upper half, so that jobs that
 * failed together (a mail server down) do not all come back in the same second.
 *
 * @example
 * retryDelayMs(3, DEFAULT_BACKOFF); // between 30 s and 60 s
 */
export function retryDelayMs(failures: number, backoff: Backoff, random = Math.random): number {
  const exponential = backoff.baseMs * 2 ** Math.max(0, failures - 1);
  const capped = Math.min(backoff.maxMs, exponential);
  return Math.round(capped / 2 + (random() * capped) / 2);
}
