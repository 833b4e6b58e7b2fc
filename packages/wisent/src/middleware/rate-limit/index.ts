export {
  clientAddress,
  clientAddressKey,
  RateLimiter,
  type RateLimitOptions,
  type RateLimitResult,
  rateLimit,
} from "./rate-limit.js";
export { type RedisStoreOptions, redisStore } from "./redis-store.js";
export { memoryStore, type RateLimitStore, type WindowCount } from "./store.js";
