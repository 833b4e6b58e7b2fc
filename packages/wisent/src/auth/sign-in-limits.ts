import type { Context } from "hono";
import { clientAddress, RateLimiter } from "../middleware/rate-limit/rate-limit.js";
import { redisStore } from "../middleware/rate-limit/redis-store.js";
import { memoryStore, type RateLimitStore } from "../middleware/rate-limit/store.js";

/** Options of {@link SignInLimits}. */
export interface SignInLimitsOptions {
  /** Names the limit in its keys (`sign-in`, `password-reset`). */
  readonly name: string;
  /** Attempts allowed per window, per client address and per email; default 10 (Rails 8's). */
  readonly limit?: number;
  /** The window in seconds; default 180 (3 minutes, Rails 8's). */
  readonly window?: number;
  /** Where counts live; default Redis when `REDIS_URL` is set (shared by workers), else memory. */
  readonly store?: RateLimitStore;
}

/**
 * Limits attempts at something an attacker would repeat (signing in, asking for reset mail) per
 * client address and per email, through the app's rate limiter: past the limit a 429 with
 * `Retry-After`, whichever of the two ran out.
 *
 * @example
 * const signInLimits = new SignInLimits({ name: "sign-in" });
 * await signInLimits.check(c, input.email); // throws the 429
 */
export class SignInLimits {
  readonly #byAddress: RateLimiter;
  readonly #byEmail: RateLimiter;

  constructor(options: SignInLimitsOptions) {
    const store =
      options.store ??
      (process.env.REDIS_URL ? redisStore({ prefix: "wisent:auth:" }) : memoryStore());
    const shared = { limit: options.limit ?? 10, window: options.window ?? 180, store };
    this.#byAddress = new RateLimiter({ ...shared, name: `${options.name}:address` });
    this.#byEmail = new RateLimiter({ ...shared, name: `${options.name}:email` });
  }

  /** Counts one attempt for the client and the email; throws a 429 past either limit. */
  async check(c: Context, email: unknown): Promise<void> {
    const byAddress = await this.#byAddress.consume(clientAddress(c));
    if (!byAddress.allowed) throw this.#byAddress.refusal(byAddress);
    const key = typeof email === "string" ? email.trim().toLowerCase() : "";
    if (key === "") return;
    const byEmail = await this.#byEmail.consume(key);
    if (!byEmail.allowed) throw this.#byEmail.refusal(byEmail);
  }

  /**
   * Forgets the counts of a client address and an email (a test between cases; requests made
   * in-process with `testClient` have the address `unknown`).
   */
  async reset(keys: { address?: string; email?: string }): Promise<void> {
    if (keys.address !== undefined) await this.#byAddress.reset(keys.address);
    if (keys.email !== undefined) await this.#byEmail.reset(keys.email.trim().toLowerCase());
  }
}
