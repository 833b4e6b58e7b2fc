/**
 * `wisent/middleware`: the middleware an app's `src/app.ts` installs with `app.use(...)`, and
 * what they offer handlers (the session, the request transaction, the loggers).
 *
 * @example
 * import { csrf, session, transaction } from "wisent/middleware";
 * app.use(session());
 * app.use(csrf());
 * app.use(transaction(db));
 * @module
 */

export { bodyLimit, DEFAULT_BODY_LIMIT } from "../http/body.js";
export { cspNonce } from "../http/csp-nonce.js";
export { errorResponse } from "../http/error-response.js";
export {
  defaultLogger,
  jsonLogger,
  type LineSink,
  type LogEntry,
  type Logger,
  silentLogger,
} from "../http/logger.js";
export { noRouteMatched } from "../http/no-route.js";
export { type PathFormat, pathFormatOf } from "../http/path-format.js";
export { CSRF_FIELD, CSRF_HEADER, csrf } from "../middleware/csrf/index.js";
export { type FlashKind, flashMessages } from "../middleware/flash/index.js";
export { type ForceSSLOptions, forceSSL, isSecureRequest } from "../middleware/force-ssl/index.js";
export {
  allowedHosts,
  type HostAuthorizationOptions,
  hostAuthorization,
} from "../middleware/host-authorization/index.js";
export { type I18nOptions, i18n } from "../middleware/i18n/index.js";
export { overrideMethod } from "../middleware/method-override/index.js";
export {
  FILTERED_KEY_PARTS,
  filterHeaders,
  filterParams,
  type ParamLoggerOptions,
  paramLogger,
  REQUEST_ID_HEADER,
} from "../middleware/param-logger/index.js";
export {
  type PendingMigrationsOptions,
  pendingMigrations,
} from "../middleware/pending-migrations/index.js";
export {
  clientAddress,
  clientAddressKey,
  memoryStore,
  RateLimiter,
  type RateLimitOptions,
  type RateLimitResult,
  type RateLimitStore,
  type RedisStoreOptions,
  rateLimit,
  redisStore,
  type WindowCount,
} from "../middleware/rate-limit/index.js";
export {
  type ContentSecurityPolicy,
  DEFAULT_CONTENT_SECURITY_POLICY,
  DEFAULT_PERMISSIONS_POLICY,
  type PermissionsPolicy,
  type SecurityHeadersOptions,
  securityHeaders,
} from "../middleware/security-headers/index.js";
export {
  Session,
  type SessionData,
  type SessionOptions,
  session,
  sessionCookieName,
} from "../middleware/session/index.js";
export {
  RequestTransaction,
  readBeforeTransaction,
  transaction,
} from "../middleware/transaction/index.js";
