/**
 * Wisent: resource routing, route names, generators and a real database for Hono apps.
 * @module
 */
export { App, type AppOptions, type CorsOptions } from "./app/app.js";
export { currentEnv, isProduction, isProductionLike } from "./app/environment.js";
export { Group, type ParamsOf, ResourceGroup } from "./app/group.js";
export type { HealthCheckOptions } from "./app/health-check.js";
export type { ListenOptions, RunningServer } from "./app/listen.js";
export { noRouteMatched } from "./app/no-route.js";
export { type PathFormat, pathFormatOf } from "./app/path-format.js";
export { RouteBuilder } from "./app/route-builder.js";
export type { WisentRuntime } from "./app/runtime.js";
export type { StaticFilesOptions } from "./app/static-files.js";
// Authentication: password hashing, c.currentUser(), requireAuthentication(), tokens, mail.
export * from "./auth/index.js";
export {
  addColumn,
  addIndex,
  dropColumn,
  dropIndex,
  type IndexOptions,
  indexName,
  renameColumn,
} from "./data/alter-table.js";
export type { AnyDB } from "./data/any-db.js";
export { type ConstraintViolation, constraintViolation } from "./data/constraint-violation.js";
// Data layer: the database from DATABASE_URL, migrations, models, pagination, the request transaction.
export {
  ColumnBuilder,
  createTable,
  dropTable,
  type ReferentialAction,
  TableBuilder,
} from "./data/create-table.js";
export { Database, type DatabaseOptions, database, openDatabase } from "./data/database.js";
export {
  type DialectName,
  defaultDatabaseUrl,
  maskDatabaseUrl,
  parseDatabaseUrl,
} from "./data/database-url.js";
export { decimalPlaces, decimalScale } from "./data/decimal-scale.js";
export { DependentRecordsError, type Dependents, dependentsOf } from "./data/dependents.js";
export { dialectOf } from "./data/dialect-of.js";
export {
  FolderMigrationProvider,
  type MigrationState,
  migrateDown,
  migrateUp,
  migrationFileName,
  migrationStatus,
} from "./data/migrations.js";
export type { ModelColumns, ModelOptions } from "./data/model.js";
export {
  defineModel,
  type ForeignKeyColumn,
  type Model,
  type ModelRecord,
  type ParentKey,
  type RecordOf,
  type RecordScope,
  ValidationFailedError,
  type WithParent,
} from "./data/model.js";
export type { Paginated, Paginator as PaginatorData } from "./data/pagination.js";
export {
  DEFAULT_PER_PAGE,
  MAX_PER_PAGE,
  type PageParams,
  pageRequest,
  paginate,
} from "./data/pagination.js";
export { cursorUrl, pageUrl, pageUrlsOf, paginationHeaders } from "./data/pagination-headers.js";
export {
  configurePagination,
  type PaginationSettings,
  paginationSettings,
} from "./data/pagination-settings.js";
export { type PageSlot, Paginator, type PaginatorProps, pageSlots } from "./data/paginator.js";
export type { Queryable } from "./data/queryable.js";
export { cacheStatements } from "./data/sqlite-statement-cache.js";
export { formatIso, StoredDate, storedDateFrom } from "./data/stored-date.js";
export type { UnpermittedFields } from "./data/unpermitted.js";
export { isUuid, uuidv7 } from "./data/uuid.js";
export { humanizeField, type Validated, validate } from "./data/validation.js";
export { appOrigin, configuredAppUrl } from "./http/app-url.js";
export { HttpError, isHttpError } from "./http/http-error.js";
export type { OwnerScope } from "./http/owner-scope.js";
export { ValidationErrors } from "./http/validation-errors.js";
export {
  RequestTransaction,
  readBeforeTransaction,
  transaction,
} from "./middleware/transaction/index.js";

// HTTP layer: importing these installs c.bind, c.redirectTo, c.respond, c.flash, c.csrfToken, c.t.
import "./http/bind.js";
import "./http/owner-scope.js";
import "./http/redirect.js";

export { afterCommit, afterRollback } from "./data/transaction-hooks.js";
export { bodyLimit, DEFAULT_BODY_LIMIT } from "./http/body.js";
export {
  ButtonTo,
  type ButtonToProps,
  CspNonceMeta,
  CsrfField,
  CsrfMeta,
  FlashMessages,
} from "./http/components.js";
export { cspNonce } from "./http/csp-nonce.js";
export { errorResponse, statusText } from "./http/error-response.js";
export { FileLink } from "./http/file-link.js";
export { type Format, negotiateFormat } from "./http/format.js";
export {
  batchedLines,
  defaultLogger,
  jsonLogger,
  type LineSink,
  type LogEntry,
  type Logger,
  silentLogger,
} from "./http/logger.js";
export { DEFAULT_PARAM_LIMITS, nestParams, type ParamLimits } from "./http/nested-params.js";
export { type FlashByKind, type Page, pageOf, usePage, withPage } from "./http/page.js";
export type { RedirectStatus, Register, RouteName } from "./http/redirect.js";
export { type Layout, layout, type RespondOptions } from "./http/respond.js";
export { parseXml, toXml } from "./http/xml.js";
export { escapeHtml } from "./jsx/escape.js";
export { type Child, type FC, type Html, rawHtml } from "./jsx/html.js";
export { renderToString } from "./jsx/render.js";
export { CSRF_FIELD, CSRF_HEADER, csrf } from "./middleware/csrf/index.js";
export { type FlashKind, flashMessages } from "./middleware/flash/index.js";
export { type ForceSSLOptions, forceSSL, isSecureRequest } from "./middleware/force-ssl/index.js";
export {
  allowedHosts,
  type HostAuthorizationOptions,
  hostAuthorization,
} from "./middleware/host-authorization/index.js";
export { type I18nOptions, i18n } from "./middleware/i18n/index.js";
export { overrideMethod } from "./middleware/method-override/index.js";
export {
  FILTERED_KEY_PARTS,
  filterHeaders,
  filterParams,
  type ParamLoggerOptions,
  paramLogger,
  REQUEST_ID_HEADER,
} from "./middleware/param-logger/index.js";
export {
  type PendingMigrationsOptions,
  pendingMigrations,
} from "./middleware/pending-migrations/index.js";
export {
  clientAddress,
  memoryStore,
  RateLimiter,
  type RateLimitOptions,
  type RateLimitResult,
  type RateLimitStore,
  type RedisStoreOptions,
  rateLimit,
  redisStore,
  type WindowCount,
} from "./middleware/rate-limit/index.js";
export {
  type ContentSecurityPolicy,
  DEFAULT_CONTENT_SECURITY_POLICY,
  type SecurityHeadersOptions,
  securityHeaders,
} from "./middleware/security-headers/index.js";
export {
  Session,
  type SessionData,
  type SessionOptions,
  session,
  sessionCookieName,
} from "./middleware/session/index.js";
export type { Names, ResourceRouteNames, RouteNameOptions } from "./naming/index.js";
export {
  camelize,
  names,
  paramKeyFromClassName,
  pascalize,
  pathName,
  pluralize,
  routeNameForPath,
  singularize,
  titleize,
  underscore,
  validateResourceName,
} from "./naming/index.js";
export {
  type MappingOptions,
  type Operation,
  type OptionalOperations,
  type ResourceRoute,
  type RouteVerb,
  resourceRoutes,
  type SingletonOperation,
  singletonRoutes,
} from "./resources/mapping.js";
export {
  type AnswerDoc,
  documented,
  type OperationDoc,
} from "./resources/operation-doc.js";
export type {
  DeclaredRoutes,
  HandlersFor,
  ResourceOptions,
  SingletonOptions,
} from "./resources/options.js";
export type { PolicyRule, ResourcePolicy } from "./resources/policy.js";
export {
  type Editable,
  type HandlerResult,
  type Newable,
  NOT_IMPLEMENTED,
  type OperationHandler,
  Resource,
  ResourceBase,
  SingletonResource,
} from "./resources/resource.js";
export type { ParamRequest, ResourceContext } from "./resources/resource-context.js";
export type { ParamValue, PathParams } from "./routes/build-path.js";
export { defaultHost, type RouteInfo } from "./routes/route-info.js";
export { formatRouteJson, formatRouteTable } from "./routes/route-table.js";
export { type ShadowedRoute, shadowedRoutes } from "./routes/shadowing.js";
export { formatShadowedRoute } from "./routes/shadowing-message.js";
export type { PathHelper, ResourcePaths, SingletonPaths } from "./routes/typed-names.js";
export { AppStorage, appStorage, openStorage, useStorage } from "./storage/app-storage.js";
export {
  type AttachmentOptions,
  attachment,
  attachments,
  DEFAULT_ATTACHMENT_SIZE,
} from "./storage/attachment-rule.js";
export {
  type ImageVariantOptions,
  imageVariant,
  resetImageVariants,
  storedVariant,
} from "./storage/image-variants.js";
export {
  DEFAULT_PRUNE_GRACE_MS,
  type Orphan,
  type PruneReport,
  pruneStorage,
  referencedKeys,
} from "./storage/prune.js";
export { type StorageLocation, storageLocation } from "./storage/storage-url.js";
export { FILES_PATH, StoredAttachment } from "./storage/stored-attachment.js";
export { DEFAULT_UPLOAD_LIMIT } from "./storage/upload-scope.js";
export { UploadedFile } from "./storage/uploaded-file.js";
