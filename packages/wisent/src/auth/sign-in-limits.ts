import type { Context } from "hono";
import { redisUrlSetting } from "../config/settings.js";
import { addressKey, clientAddressKey } from "../http/client-address.js";
import { RateLimiter } from "../middleware/rate-limit/rate-limit.js";
import { redisStore } from "../middleware/rate-limit/redis-store.js";
import { memoryStore, type RateLimitStore } from "../middleware/rate-limit/store.js";

/** Options of {@link SignInLimits}. */
export interface SignInLimitsOptions {
  /** Names the limit in its keys (`sign-in`, `sign-up`, `password-reset`). */
  readonly name: string;
  /** Attempts allowed per window, per client address and per email from one address; default 10 (Rails 8's). */
  readonly limit?: number;
  /** The window in seconds; default 180 (3 minutes, Rails 8's). */
  readonly window?: number;
  /**
   * Also count per email and client address (sign-in: true, the default). False for forms
   * whose email is not a secret to guess (sign-up, the reset request): only per address.
   */
  readonly byEmail?: boolean;
  /** Where counts live; default Redis when `REDIS_URL` is set (shared by workers), else memory. */
  readonly store?: RateLimitStore;
}

/**
 * Limits attempts at something an attacker would repeat (signing in, signing up, asking for reset
 * mail) through the app's rate limiter: per client address ({@link clientAddressKey}: behind
 * `TRUSTED_PROXIES` each client counts alone, an IPv6 client by its /64), and, for sign-in, per
 * email from that address
 * (Laravel Breeze's key). Past either limit, a 429 with `Retry-After`. A successful sign-in
 * clears its email-and-address count ({@link succeeded}); the per-address count is not cleared,
 * so a valid account of the attacker's own cannot reset it. No count is kept per email alone:
 * guesses from one address never lock the owner out from another.
 *
 * @example
 * const signInLimits = new SignInLimits({ name: "sign-in" });
 * await signInLimits.check(c, input.email); // throws the 429
 * // ...the password is right:
 * await signInLimits.succeeded(c, input.email);
 */
export class SignInLimits {
  readonly #byAddress: RateLimiter;
  readonly #byEmail: RateLimiter | undefined;

  /**
   * @param options - the limit's `name`, `limit` attempts (default 10) per `window` seconds
   *   (default 180), whether to count `byEmail`, and the `store`
   * @throws WisentError `E_APP_MISCONFIGURED` when `limit` or `window` is not a positive number
   */
  constructor(options: SignInLimitsOptions) {
    const store =
      options.store ?? (redisUrlSetting() ? redisStore({ prefix: "wisent:auth:" }) : memoryStore());
    const shared = { limit: options.limit ?? 10, window: options.window ?? 180, store };
    this.#byAddress = new RateLimiter({ ...shared, name: `${options.name}:address` });
    this.#byEmail =
      options.byEmail === false
        ? undefined
        : new RateLimiter({ ...shared, name: `${options.name}:email-address` });
  }

  /**
   * Counts one attempt for the client, and for the email from it.
   * @param c - the request's context (its client address counts)
   * @param email - the email tried (not counted when empty or not a string)
   * @throws HttpError 429 (`E_HTTP`) with `Retry-After`, past either limit
   */
  async check(c: Context, email?: unknown): Promise<void> {
    const address = clientAddressKey(c);
    const byAddress = await this.#byAddress.consume(address);
    if (!byAddress.allowed) throw this.#byAddress.refusal(byAddress);
    const key = emailKey(email, address);
    if (this.#byEmail === undefined || key === undefined) return;
    const byEmail = await this.#byEmail.consume(key);
    if (!byEmail.allowed) throw this.#byEmail.refusal(byEmail);
  }

  /**
   * A successful attempt: the email's count from this client starts again.
   * @param c - the request's context
   * @param email - the email that signed in
   */
  async succeeded(c: Context, email: unknown): Promise<void> {
    const key = emailKey(email, clientAddressKey(c));
    if (this.#byEmail !== undefined && key !== undefined) await this.#byEmail.reset(key);
  }

  /**
   * Forgets the counts of a client address, and of an email from it (a test between cases;
   * requests made in-process with `testClient` have the address `unknown`).
   * @param keys - the `address` (default `unknown`) and the `email` to forget
   */
  async reset(keys: { address?: string; email?: string }): Promise<void> {
    const address = addressKey(keys.address ?? "unknown");
    if (keys.address !== undefined) await this.#byAddress.reset(address);
    const key = emailKey(keys.email, address);
    if (this.#byEmail !== undefined && key !== undefined) await this.#byEmail.reset(key);
  }
}

/** `email|address`, the email trimmed and lower-cased; undefined without an email. */
function emailKey(email: unknown, address: string): string | undefined {
  const normal = typeof email === "string" ? email.trim().toLowerCase() : "";
  return normal === "" ? undefined : `${normal}|${address}`;
}
