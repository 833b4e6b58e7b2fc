/**
 * The names that moved from the root (`wisent`) to a subpath, re-exported from the root for one
 * release, each marked deprecated with its new home. Only the run-time values that apps generated
 * by the previous version and examples/shop import are here (each counts against the root's 80
 * run-time values, src/package-exports.test.ts); the types that moved all stay (types cost
 * nothing at run time). Remove this file in the next minor release.
 */
export type {
  /** @deprecated import from "wisent/auth" */ AuthenticationOptions,
  /** @deprecated import from "wisent/auth" */ CurrentUser,
  /** @deprecated import from "wisent/auth" */ Mailer,
  /** @deprecated import from "wisent/auth" */ MailerOptions,
  /** @deprecated import from "wisent/auth" */ MailMessage,
  /** @deprecated import from "wisent/auth" */ PasswordCheck,
  /** @deprecated import from "wisent/auth" */ PasswordResetTokenOptions,
  /** @deprecated import from "wisent/auth" */ Policy,
  /** @deprecated import from "wisent/auth" */ RequireAuthenticationOptions,
  /** @deprecated import from "wisent/auth" */ ResettableUser,
  /** @deprecated import from "wisent/auth" */ Rule,
  /** @deprecated import from "wisent/auth" */ ScryptParams,
  /** @deprecated import from "wisent/auth" */ SignInLimitsOptions,
  /** @deprecated import from "wisent/auth" */ TokenAuthenticationOptions,
} from "../auth/index.js";
export {
  /** @deprecated import from "wisent/auth" */ accessTokenDigest,
  /** @deprecated import from "wisent/auth" */ authentication,
  /** @deprecated import from "wisent/auth" */ currentTokenDigest,
  /** @deprecated import from "wisent/auth" */ definePolicy,
  /** @deprecated import from "wisent/auth" */ hashPassword,
  /** @deprecated import from "wisent/auth" */ mailer,
  /** @deprecated import from "wisent/auth" */ newAccessToken,
  /** @deprecated import from "wisent/auth" */ PASSWORD_MAX_LENGTH,
  /** @deprecated import from "wisent/auth" */ PASSWORD_MIN_LENGTH,
  /** @deprecated import from "wisent/auth" */ PasswordResetTokens,
  /** @deprecated import from "wisent/auth" */ passwordHashParams,
  /** @deprecated import from "wisent/auth" */ requireAuthentication,
  /** @deprecated import from "wisent/auth" */ SignInLimits,
  /** @deprecated import from "wisent/auth" */ signIn,
  /** @deprecated import from "wisent/auth" */ signOut,
  /** @deprecated import from "wisent/auth" */ takeReturnPath,
  /** @deprecated import from "wisent/auth" */ tokenAuthentication,
  /** @deprecated import from "wisent/auth" */ verifyPassword,
  /** @deprecated import from "wisent/auth" */ verifyWithoutUser,
  /** @deprecated import from "wisent/auth" */ weakPasswordProblem,
} from "../auth/index.js";
export {
  /** @deprecated import from "wisent/testing" */ clearSentMail,
  /** @deprecated import from "wisent/testing" */ sentMail,
} from "../mail/mailer.js";
export type {
  /** @deprecated import from "wisent/db" */ AnyDB,
  /** @deprecated import from "wisent/db" */ ConstraintViolation,
  /** @deprecated import from "wisent/db" */ Database,
  /** @deprecated import from "wisent/db" */ DatabaseOptions,
  /** @deprecated import from "wisent/db" */ Dependents,
  /** @deprecated import from "wisent/db" */ DialectName,
  /** @deprecated import from "wisent/db" */ IndexOptions,
  /** @deprecated import from "wisent/db" */ MigrationState,
  /** @deprecated import from "wisent/db" */ PageParams,
  /** @deprecated import from "wisent/db" */ Paginated,
  /** @deprecated import from "wisent/db" (as PaginationInfo) */ PaginationInfo as PaginatorData,
  /** @deprecated import from "wisent/db" */ PaginationSettings,
  /** @deprecated import from "wisent/db" */ ReferentialAction,
  /** @deprecated import from "wisent/db" */ UnpermittedFields,
} from "./db.js";
export {
  /** @deprecated import from "wisent/db" */ addColumn,
  /** @deprecated import from "wisent/db" */ addIndex,
  /** @deprecated import from "wisent/db" */ configurePagination,
  /** @deprecated import from "wisent/db" */ createTable,
  /** @deprecated import from "wisent/db" */ database,
  /** @deprecated import from "wisent/db" */ dropColumn,
  /** @deprecated import from "wisent/db" */ dropIndex,
  /** @deprecated import from "wisent/db" */ dropTable,
  /** @deprecated import from "wisent/db" */ migrateUp,
  /** @deprecated import from "wisent/db" */ paginate,
  /** @deprecated import from "wisent/db" */ paginationHeaders,
} from "./db.js";
export type {
  /** @deprecated import from "wisent/jsx" */ Child,
  /** @deprecated import from "wisent/jsx" */ FC,
  /** @deprecated import from "wisent/jsx" */ FlashByKind,
  /** @deprecated import from "wisent/jsx" */ Html,
  /** @deprecated import from "wisent/jsx" */ Layout,
  /** @deprecated import from "wisent/jsx" */ Page,
  /** @deprecated import from "wisent/jsx" */ PageSlot,
  /** @deprecated import from "wisent/jsx" */ PaginatorProps,
  /** @deprecated import from "wisent/jsx" */ RespondOptions,
} from "./jsx.js";
export {
  /** @deprecated import from "wisent/jsx" */ CspNonceMeta,
  /** @deprecated import from "wisent/jsx" */ CsrfField,
  /** @deprecated import from "wisent/jsx" */ CsrfMeta,
  /** @deprecated import from "wisent/jsx" */ FileLink,
  /** @deprecated import from "wisent/jsx" */ FlashMessages,
  /** @deprecated import from "wisent/jsx" */ layout,
  /** @deprecated import from "wisent/jsx" */ Paginator,
  /** @deprecated import from "wisent/jsx" */ rawHtml,
  /** @deprecated import from "wisent/jsx" */ usePage,
} from "./jsx.js";
export type {
  /** @deprecated import from "wisent/middleware" */ ContentSecurityPolicy,
  /** @deprecated import from "wisent/middleware" */ FlashKind,
  /** @deprecated import from "wisent/middleware" */ ForceSSLOptions,
  /** @deprecated import from "wisent/middleware" */ HostAuthorizationOptions,
  /** @deprecated import from "wisent/middleware" */ I18nOptions,
  /** @deprecated import from "wisent/middleware" */ LineSink,
  /** @deprecated import from "wisent/middleware" */ LogEntry,
  /** @deprecated import from "wisent/middleware" */ Logger,
  /** @deprecated import from "wisent/middleware" */ ParamLoggerOptions,
  /** @deprecated import from "wisent/middleware" */ PathFormat,
  /** @deprecated import from "wisent/middleware" */ PendingMigrationsOptions,
  /** @deprecated import from "wisent/middleware" */ RateLimitOptions,
  /** @deprecated import from "wisent/middleware" */ RateLimitResult,
  /** @deprecated import from "wisent/middleware" */ RateLimitStore,
  /** @deprecated import from "wisent/middleware" */ RedisStoreOptions,
  /** @deprecated import from "wisent/middleware" */ SecurityHeadersOptions,
  /** @deprecated import from "wisent/middleware" */ SessionData,
  /** @deprecated import from "wisent/middleware" */ SessionOptions,
  /** @deprecated import from "wisent/middleware" */ WindowCount,
} from "./middleware.js";
export {
  /** @deprecated import from "wisent/middleware" */ csrf,
  /** @deprecated import from "wisent/middleware" */ flashMessages,
  /** @deprecated import from "wisent/middleware" */ forceSSL,
  /** @deprecated import from "wisent/middleware" */ hostAuthorization,
  /** @deprecated import from "wisent/middleware" */ i18n,
  /** @deprecated import from "wisent/middleware" */ paramLogger,
  /** @deprecated import from "wisent/middleware" */ pendingMigrations,
  /** @deprecated import from "wisent/middleware" */ readBeforeTransaction,
  /** @deprecated import from "wisent/middleware" */ securityHeaders,
  /** @deprecated import from "wisent/middleware" */ session,
  /** @deprecated import from "wisent/middleware" */ transaction,
} from "./middleware.js";
export type {
  /** @deprecated import from "wisent/storage" */ AttachmentOptions,
  /** @deprecated import from "wisent/storage" */ StorageLocation,
} from "./storage.js";
