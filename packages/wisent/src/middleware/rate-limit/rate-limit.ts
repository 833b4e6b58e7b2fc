import type { Context, MiddlewareHandler } from "hono";
import { HttpError } from "../../base/http-error.js";
import { WisentError } from "../../base/wisent-error.js";
import { clientAddress, clientAddressKey } from "../../http/client-address.js";
import { phased } from "../../kernel/compose.js";
import { setHeaders } from "../../kernel/response-headers.js";
import { memoryStore, type RateLimitStore } from "./store.js";

/** Options of {@link rateLimit} and {@link RateLimiter}. */
export interface RateLimitOptions {
  /** Requests allowed per window and key. */
  readonly limit: number;
  /** The window, in seconds. */
  readonly window: number;
  /**
   * Whom a request counts against; default {@link clientAddressKey}: the client's IPv4 address,
   * or its IPv6 address's /64 (behind `TRUSTED_PROXIES`, the forwarded client's).
   */
  readonly by?: (c: Context) => string | Promise<string>;
  /** Where counts live; default {@link memoryStore} (one process). Use `redisStore()` for several. */
  readonly store?: RateLimitStore;
  /** Names this limit in its keys, so two limits never share counts; default `default`. */
  readonly name?: string;
}

/** What one consumed request left. */
export interface RateLimitResult {
  /** Whether the request is within the limit. */
  readonly allowed: boolean;
  readonly limit: number;
  /** Requests left in the window (0 when refused). */
  readonly remaining: number;
  /** Whole seconds until the window ends. */
  readonly resetSeconds: number;
  /**
   * The response headers (IETF draft `RateLimit-Limit`, `RateLimit-Remaining`, `RateLimit-Reset`,
   * `RateLimit-Policy`; and `Retry-After` when refused).
   */
  readonly headers: Readonly<Record<string, string>>;
}

/**
 * A fixed-window limiter, usable without the middleware (e.g. by a sign-in action that counts
 * failed attempts per account).
 *
 * @example
 * const signIns = new RateLimiter({ limit: 5, window: 60, name: "sign-in" });
 * const result = await signIns.consume(email);
 * if (!result.allowed) throw signIns.refusal(result);
 */
export class RateLimiter {
  readonly limit: number;
  readonly windowMs: number;
  readonly #store: RateLimitStore;
  readonly #prefix: string;

  /**
   * @param options - `limit` requests per `window` seconds, the `store` (default memory) and the
   *   `name` that keeps this limit's counts apart
   * @throws WisentError `E_APP_MISCONFIGURED` when `limit` is not a whole number of at least 1, or
   *   `window` not a number of seconds above 0
   */
  constructor(options: Omit<RateLimitOptions, "by">) {
    if (!Number.isSafeInteger(options.limit) || options.limit < 1) {
      throw new WisentError(
        "E_APP_MISCONFIGURED",
        `rateLimit: "limit" must be a whole number of at least 1 (got ${options.limit})`,
      );
    }
    if (
      !(typeof options.window === "number" && options.window > 0 && Number.isFinite(options.window))
    ) {
      throw new WisentError(
        "E_APP_MISCONFIGURED",
        `rateLimit: "window" must be a number of seconds above 0 (got ${options.window})`,
      );
    }
    this.limit = options.limit;
    this.windowMs = Math.round(options.window * 1000);
    this.#store = options.store ?? memoryStore();
    this.#prefix = `${options.name ?? "default"}:`;
  }

  /**
   * Counts one request against `key` and says whether it is allowed.
   * @param key - whom the request counts against (an IP address, an account's email)
   * @returns whether it is allowed, what is left, and the response headers to send
   * @throws Error of the store (Redis unreachable; `MissingDependencyError`, `E_MISSING_DEPENDENCY`,
   *   when `redisStore()` is used without ioredis installed)
   */
  async consume(key: string): Promise<RateLimitResult> {
    const { count, resetMs } = await this.#store.hit(this.#prefix + key, this.windowMs);
    const allowed = count <= this.limit;
    const remaining = Math.max(0, this.limit - count);
    const resetSeconds = Math.max(1, Math.ceil(resetMs / 1000));
    const headers: Record<string, string> = {
      "ratelimit-limit": String(this.limit),
      "ratelimit-remaining": String(remaining),
      "ratelimit-reset": String(resetSeconds),
      "ratelimit-policy": `${this.limit};w=${Math.round(this.windowMs / 1000)}`,
    };
    if (!allowed) headers["retry-after"] = String(resetSeconds);
    return { allowed, limit: this.limit, remaining, resetSeconds, headers };
  }

  /**
   * Forgets the count of `key` (after a successful sign-in, say).
   * @param key - as given to `consume`
   */
  reset(key: string): Promise<void> {
    return this.#store.reset(this.#prefix + key);
  }

  /**
   * The 429 to throw for a refused request, with its headers (rendered in the client's format).
   * @param result - what `consume` answered
   * @returns an HttpError 429 (`E_HTTP`) carrying `Retry-After` and the `RateLimit-*` headers
   */
  refusal(result: RateLimitResult): HttpError {
    return new HttpError(
      429,
      `too many requests: at most ${this.limit} every ${Math.round(this.windowMs / 1000)} s, try again in ${result.resetSeconds} s`,
      { headers: result.headers },
    );
  }
}

export { clientAddress, clientAddressKey };

/**
 * Limits requests per key (default: the client's IP address, an IPv6 client by its /64) to
 * `limit` per `window` seconds: past it, a
 * 429 with `Retry-After`. Every answer carries the IETF draft headers `RateLimit-Limit`,
 * `RateLimit-Remaining`, `RateLimit-Reset` (seconds) and `RateLimit-Policy` (`10;w=60`).
 * Counts live in memory unless a `store` is given (`redisStore()` for several workers).
 *
 * @param options - `limit` requests per `window` seconds, whom a request counts against (`by`),
 *   the `store` and the limit's `name`
 * @returns the middleware
 * @throws WisentError `E_APP_MISCONFIGURED` when `limit` is not a whole number of at least 1, or
 *   `window` not a number of seconds above 0
 * @throws HttpError 429 (`E_HTTP`), from the middleware, for a request past the limit, with
 *   `Retry-After`
 * @example
 * app.use(rateLimit({ limit: 100, window: 60 }));
 * api.use(rateLimit({ limit: 10, window: 60, by: (c) => c.req.header("x-api-key") ?? "anonymous",
 *   store: redisStore() }));
 */
export function rateLimit(options: RateLimitOptions): MiddlewareHandler {
  const limiter = new RateLimiter(options);
  const by = options.by ?? clientAddressKey;
  return phased({
    before: async (c) => {
      const result = await limiter.consume(await by(c));
      if (!result.allowed) throw limiter.refusal(result);
      setHeaders(c, result.headers);
    },
  });
}
