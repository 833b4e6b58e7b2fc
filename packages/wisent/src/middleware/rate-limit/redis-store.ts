import type { Redis, RedisOptions } from "ioredis";
import { requireDependency } from "../../base/require-dependency.js";
import { redisUrlSetting } from "../../config/settings.js";
import type { RateLimitStore } from "./store.js";

/** Options of {@link redisStore}. */
export interface RedisStoreOptions {
  /** `redis://host:port/db`; default `REDIS_URL`, else `redis://127.0.0.1:6379`. */
  readonly url?: string;
  /** An ioredis client of your own (then `url` is ignored and the client is not closed here). */
  readonly client?: Redis;
  /** Prefix of every key; default `wisent:ratelimit:`. */
  readonly prefix?: string;
  /** Extra ioredis options for the client made from `url`. */
  readonly redisOptions?: RedisOptions;
}

/** Counts and starts the window in one round trip, atomically across every worker. */
const HIT_SCRIPT = `
local count = redis.call("INCR", KEYS[1])
if count == 1 then redis.call("PEXPIRE", KEYS[1], ARGV[1]) end
local ttl = redis.call("PTTL", KEYS[1])
if ttl < 0 then redis.call("PEXPIRE", KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return { count, ttl }`;

/**
 * Counts in Redis, so a limit holds across worker processes and machines. ioredis is loaded on
 * the first hit: an app that never uses this store never loads it.
 *
 * @param options - the Redis `url` (default `REDIS_URL`), or a `client` of your own, the key
 *   `prefix` and ioredis options
 * @returns the store, with `close()` for the client it made
 * @throws MissingDependencyError (`E_MISSING_DEPENDENCY`) on the first hit when ioredis is not
 *   installed
 * @example
 * app.use(rateLimit({ limit: 100, window: 60, store: redisStore({ url: process.env.REDIS_URL }) }));
 */
export function redisStore(options: RedisStoreOptions = {}): RateLimitStore & {
  /** Closes the client this store made (not one passed in). */
  close(): Promise<void>;
} {
  const prefix = options.prefix ?? "wisent:ratelimit:";
  let client: Promise<Redis> | undefined;
  const own = options.client === undefined;
  const connect = (): Promise<Redis> => {
    if (!client) {
      if (options.client) {
        client = Promise.resolve(options.client);
      } else {
        // Resolved from the framework's own folder, also when bundled into an app's dist/.
        const { Redis } = requireDependency<typeof import("ioredis")>("ioredis");
        const url = options.url ?? redisUrlSetting() ?? "redis://127.0.0.1:6379";
        client = Promise.resolve(
          new Redis(url, { maxRetriesPerRequest: 2, ...options.redisOptions }),
        );
      }
    }
    return client;
  };
  return {
    async hit(key, windowMs) {
      const redis = await connect();
      const [count, ttl] = (await redis.eval(HIT_SCRIPT, 1, prefix + key, windowMs)) as [
        number,
        number,
      ];
      return { count, resetMs: ttl };
    },
    async reset(key) {
      await (await connect()).del(prefix + key);
    },
    async close() {
      if (own && client) await (await client).quit();
      client = undefined;
    },
  };
}
