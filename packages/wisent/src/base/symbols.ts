/**
 * Every private key Wisent hangs on a request, a response, a context or a function, in one place,
 * so that no two share a description (it is what a debugger or a heap snapshot shows). Each is used
 * by the one module named above it, which keeps its own name for it.
 * @module
 */

// src/auth/access-token.ts
export const ACCESS_TOKEN_DIGEST_KEY: unique symbol = Symbol("wisent.accessTokenDigest");
export const BEARER_TOKENS_KEY: unique symbol = Symbol("wisent.bearerTokens");

// src/auth/current-user.ts
export const CURRENT_USER_KEY: unique symbol = Symbol("wisent.currentUser");
export const AUTHENTICATION_RAN_KEY: unique symbol = Symbol("wisent.authenticationRan");

// src/auth/policy.ts
export const ROUTE_POLICY_KEY: unique symbol = Symbol("wisent.routePolicy");

// src/data/migrations.ts
export const MISSING_MIGRATION_KEY: unique symbol = Symbol("wisent.missingMigration");

// src/data/sqlite-request-transaction.ts
export const DIRECT_SQLITE_KEY: unique symbol = Symbol("wisent.directSqlite");

// src/http/body.ts
export const BODY_BYTES_KEY: unique symbol = Symbol("wisent.bodyBytes");
export const BODY_PARAMS_KEY: unique symbol = Symbol("wisent.bodyParams");
export const MULTIPART_KEY: unique symbol = Symbol("wisent.multipart");

// src/http/client-address.ts
/** What the request says about its client (address, forwarded scheme and host), once worked out. */
export const CLIENT_KEY: unique symbol = Symbol("wisent.client");
/** A connection's peer address in canonical form, on its socket (http/client-address.ts). */
export const SOCKET_PEER_KEY: unique symbol = Symbol("wisent.socketPeer");

// src/http/csp-nonce.ts
export const CSP_NONCE_KEY: unique symbol = Symbol("wisent.cspNonce");

// src/http/dev-logger.ts
export const DEV_LOGGER_REQUEST_KEY: unique symbol = Symbol("wisent.devLogger.request");

// src/http/format.ts
export const FORMAT_KEY: unique symbol = Symbol("wisent.format");
export const FORMAT_VARIES_ON_ACCEPT_KEY: unique symbol = Symbol("wisent.formatVariesOnAccept");

// src/http/health-check.ts
export const OUTSIDE_HEALTH_CHECKS_KEY: unique symbol = Symbol("wisent.outsideHealthChecks");

// src/http/logged-path.ts
export const SECRET_PATH_PARAM_KEY: unique symbol = Symbol("wisent.secretPathParam");

// src/http/logger.ts
export const JSON_LOGGER_LINES_KEY: unique symbol = Symbol("wisent.jsonLogger.lines");

// src/http/nested-params.ts
export const INDEXED_PARAMS_KEY: unique symbol = Symbol("wisent.indexedParams");

// src/http/no-route.ts
export const NO_ROUTE_KEY: unique symbol = Symbol("wisent.noRoute");

// src/http/owner-scope.ts
export const OWNER_SCOPE_KEY: unique symbol = Symbol("wisent.ownerScope");
export const OWNER_SCOPE_READ_KEY: unique symbol = Symbol("wisent.ownerScopeRead");

// src/http/page.ts
export const PAGE_READ_FLASH_KEY: unique symbol = Symbol("wisent.page.readFlash");
export const PAGE_CSRF_TOKEN_KEY: unique symbol = Symbol("wisent.page.csrfToken");
export const PAGE_LANG_KEY: unique symbol = Symbol("wisent.page.lang");
export const PAGE_T_KEY: unique symbol = Symbol("wisent.page.t");

// src/kernel/compose.ts
export const MIDDLEWARE_PHASES_KEY: unique symbol = Symbol("wisent.middlewarePhases");
export const DEFERRED_KEY: unique symbol = Symbol("wisent.deferred");
export const SETTLED_ROUTE_KEY: unique symbol = Symbol("wisent.settledRoute");

// src/kernel/context-extensions.ts
export const CONTEXT_EXTENSIONS_KEY: unique symbol = Symbol("wisent.contextExtensions");

// src/kernel/middleware-needs.ts
export const MIDDLEWARE_PROVIDES_KEY: unique symbol = Symbol("wisent.middlewareProvides");
export const MIDDLEWARE_NEEDS_KEY: unique symbol = Symbol("wisent.middlewareNeeds");

// src/kernel/node-headers.ts
export const HEADERS_INCOMING_KEY: unique symbol = Symbol("wisent.headers.incoming");
export const FULL_HEADERS_KEY: unique symbol = Symbol("wisent.fullHeaders");

// src/kernel/node-request.ts
export const REQUEST_INCOMING_KEY: unique symbol = Symbol("wisent.request.incoming");
export const REQUEST_URL_KEY: unique symbol = Symbol("wisent.request.url");
export const HEADERS_KEY: unique symbol = Symbol("wisent.headers");
export const REAL_REQUEST_KEY: unique symbol = Symbol("wisent.realRequest");
export const ABORT_KEY: unique symbol = Symbol("wisent.abort");
export const REQUEST_BODY_KEY: unique symbol = Symbol("wisent.request.body");

// src/kernel/plain-response.ts
export const STATUS_KEY: unique symbol = Symbol("wisent.status");
export const RESPONSE_BODY_KEY: unique symbol = Symbol("wisent.response.body");
export const FIELDS_KEY: unique symbol = Symbol("wisent.fields");
export const HEADERS_TOUCHED_KEY: unique symbol = Symbol("wisent.headersTouched");
export const ADDED_FIELDS_KEY: unique symbol = Symbol("wisent.addedFields");

// src/kernel/response-headers.ts
export const RESPONSE_HEADERS_KEY: unique symbol = Symbol("wisent.responseHeaders");
export const DATA_PART_KEY: unique symbol = Symbol("wisent.dataPart");
export const KEEP_FIELDS_KEY: unique symbol = Symbol("wisent.keepFields");
export const PAGE_PART_KEY: unique symbol = Symbol("wisent.pagePart");

// src/middleware/i18n/i18n.ts
export const TRANSLATIONS_KEY: unique symbol = Symbol("wisent.translations");

// src/middleware/param-logger/param-logger.ts
export const PARAM_LOGGER_STARTED_KEY: unique symbol = Symbol("wisent.paramLogger.started");
export const PARAM_LOGGER_REQUEST_ID_KEY: unique symbol = Symbol("wisent.paramLogger.requestId");

// src/middleware/session/session.ts
export const SESSION_WRITER_KEY: unique symbol = Symbol("wisent.sessionWriter");
export const CAME_WITH_SESSION_COOKIE_KEY: unique symbol = Symbol("wisent.cameWithSessionCookie");
export const OPENED_SESSION_KEY: unique symbol = Symbol("wisent.openedSession");

// src/resources/operation-doc.ts
/** Registered (`Symbol.for`): two copies of the package read each other's route docs. */
export const OPERATION_DOC_KEY: unique symbol = Symbol.for("wisent.operationDoc");

// src/live/live-resource.ts
/** The live stream a page of a live resource subscribes to (its signed token). */
export const LIVE_STREAM_KEY: unique symbol = Symbol("wisent.liveStream");
// src/app/route-guards.ts
/** The route guards a middleware brings (authentication's), for the App to install. */
export const ROUTE_GUARDS_KEY: unique symbol = Symbol("wisent.routeGuards");

// src/data/postgres-deferred-begin.ts
/** Marks the pg query objects that send a BEGIN before their own statement. */
export const CARRIES_BEGIN_KEY: unique symbol = Symbol("wisent.carriesBegin");
