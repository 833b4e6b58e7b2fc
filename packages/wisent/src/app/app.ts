import { type Context, type Handler, Hono, type MiddlewareHandler, type Next } from "hono";
import { cors } from "hono/cors";
import type { Router } from "hono/router";
import { HttpError } from "../base/http-error.js";
import { WisentError } from "../base/wisent-error.js";
import { currentEnv, isProductionLike } from "../config/settings.js";
import type { Database } from "../data/database.js";
import { configuredAppUrl } from "../http/app-url.js";
import { errorResponse } from "../http/error-response.js";
import { mediaTypeOf } from "../http/media-types.js";
import { markNoRoute, NoRouteError, noRouteAnswer } from "../http/no-route.js";
import { pathFormatOf, rememberPathFormat, splitPathFormat } from "../http/path-format.js";
import { nodeHeaders } from "../http/request-header.js";
import type { Job } from "../jobs/define-job.js";
import { jobsInProcess } from "../jobs/in-process.js";
import { AppJobs, setCurrentAppJobs } from "../jobs/job-registry.js";
import type { RecurringSchedule } from "../jobs/recurring.js";
import { installMiddlewareExtensions } from "../kernel/context-extensions.js";
import { Dispatch } from "../kernel/dispatch.js";
import { honoErrorHandler } from "../kernel/hono-internals.js";
import { checkMiddlewareNeeds } from "../kernel/middleware-needs.js";
import { withUrl } from "../kernel/node-request.js";
import { existingLiveStreams } from "../live/live-streams.js";
import { DeliverMail } from "../mail/deliver-mail.js";
import { isFormType, overrideMethod } from "../middleware/method-override/method-override.js";
import { type OpenApiDocument, openApiDocument } from "../openapi/document.js";
import { packageInfo } from "../openapi/package-info.js";
import type { PathParams } from "../routes/build-path.js";
import { FirstMatchRouter } from "../routes/first-match-router.js";
import { defaultHost, type RouteInfo } from "../routes/route-info.js";
import { RouteRegistry, type UntypedPathHelper } from "../routes/route-registry.js";
import { shadowedRoutesError } from "../routes/shadowing-message.js";
import { type ListenOptions, listen, type RunningServer } from "../server/listen.js";
import { DEFAULT_UPLOAD_LIMIT, withUploadScope } from "../storage/upload-scope.js";
import { composeWithRuntime } from "./app-core.js";
import { installAppContextMethods } from "./context-methods.js";
import { devErrorPage } from "./dev-error-page.js";
import { Group } from "./group.js";
import { type JobsDashboardOptions, jobsDashboardHandlers } from "./jobs-dashboard.js";
import { type MailerPreviews, mailerPreviewHandlers } from "./mailer-previews.js";
import type { RouteBuilder } from "./route-builder.js";
import { WITHOUT_AUTHENTICATION } from "./route-guards.js";
import type { WisentRuntime } from "./runtime.js";
import { announceStartupNotices } from "./startup-notices.js";

/** Options of {@link App.openapi}. */
export interface OpenApiRouteOptions {
  /**
   * Serve the document in production-like environments too (default false: only development
   * and test serve it). Turn it on for a public API whose clients read it.
   */
  readonly production?: boolean;
}

/**
 * Whether a POST may carry a form's `_method`. On Node the Content-Type is read from the headers
 * Node parsed (a JSON POST then dispatches at once, without building the Request's Headers).
 */
function mayOverrideMethod(env: unknown): boolean {
  const headers = nodeHeaders(env);
  if (!headers) return true;
  const contentType = headers["content-type"];
  return typeof contentType === "string" && isFormType(contentType);
}

/**
 * The 404, or the 405 with `Allow` when the path exists under other methods (Buffalo's texts),
 * or for OPTIONS the 204 with `Allow`.
 */
function routingError(c: Context, registry: RouteRegistry): HttpError {
  const path = c.req.path.endsWith("/") ? c.req.path : `${c.req.path}/`;
  const allowed = registry.allowedMethods(c.req.path);
  if (allowed.length > 0) {
    const allow = [...allowed, "OPTIONS"].join(", ");
    // OPTIONS on a route's path: 204 with the methods it answers (no route declares OPTIONS).
    if (c.req.method === "OPTIONS") return new HttpError(204, "", { headers: { Allow: allow } });
    if (!allowed.includes(c.req.method)) {
      return new HttpError(405, `method not found: ${c.req.method} ${path}`, {
        headers: { Allow: allow },
      });
    }
  }
  const unknown = unknownFormat(c.req.path, c.req.method, registry);
  if (unknown) return unknown;
  return new NoRouteError(`path not found: ${c.req.method} ${path}`);
}

/** A last segment's extension that is none of ours: `/widgets.txt` -> `txt` (not `/.env`). */
const OTHER_EXTENSION = /\/[^/.]+(\.([A-Za-z0-9]+))$/;

/**
 * `/widgets.txt`, where `/widgets` is a route: a format this app never answers, so a 406 naming
 * the ones it does (as Rails answers an unknown format), not a 404 that says the path is wrong.
 */
function unknownFormat(
  path: string,
  method: string,
  registry: RouteRegistry,
): HttpError | undefined {
  const match = OTHER_EXTENSION.exec(path);
  if (!match) return undefined;
  const bare = path.slice(0, path.length - match[1]!.length);
  if (!registry.allowedMethods(bare).includes(method)) return undefined;
  return new HttpError(406, `unknown format "${match[2]}": use html, json or xml`);
}

/** The innermost step for a request no route matched: its answer, as an error to render. */
const throwNoRouteAnswer: Handler = (c) => {
  throw noRouteAnswer(c) ?? new HttpError(404, "path not found");
};

/** Nothing runs below {@link throwNoRouteAnswer}. */
const NOTHING_BELOW: Next = () => Promise.resolve();
/** Methods `new Request()` throws for (CONNECT never reaches an App: the listener answers it). */
const FETCH_FORBIDDEN_METHODS = new Set(["TRACE", "TRACK"]);

/** The options of Hono's `cors` middleware (`origin`, `allowMethods`, `credentials`, ...). */
export type CorsOptions = NonNullable<Parameters<typeof cors>[0]>;

/** Options of {@link App}. */
export interface AppOptions {
  /** The app's name (`shop`); the session cookie is `_shop_session`. */
  readonly name: string;
  /**
   * The app's database: `listen()` checks that it answers before serving (failing at start-up,
   * naming the database, rather than on the first request), and closes it once the server has
   * drained and the shutdown hooks have run. Nothing connects before `listen()`, so tools and
   * tests can import the app without a database.
   */
  readonly database?: Database;
  /** An API app answers JSON by default and has no HTML views. */
  readonly api?: boolean;
  /**
   * Cross-origin requests, by Hono's own `cors` middleware run before any other: `true` allows any
   * origin (`Access-Control-Allow-Origin: *`), or give its options (`{ origin: "https://app.example" }`).
   */
  readonly cors?: true | CorsOptions;
  /** The version in the OpenAPI document; default: `version` of `package.json` in the working folder. */
  readonly version?: string;
  /** Overrides `GO_ENV`/`NODE_ENV`. */
  readonly env?: string;
  /** The host printed in the routes table; default from `HOST`/`PORT`, else `http://127.0.0.1:3000`. */
  readonly host?: string;
  /** Largest form body read for method override before routing, in bytes (default 1 MiB). */
  readonly bodyLimit?: number;
  /**
   * Largest `multipart/form-data` body, all its files together, in bytes (default 100 MiB):
   * multipart bodies stream to temporary files, never to memory. Each attachment has its own,
   * smaller limit (`attachment({ maxSize })`, default 10 MiB).
   */
  readonly uploadLimit?: number;
  /**
   * The router under Hono; default `FirstMatchRouter`. Any Hono router that keeps
   * registration order works (TrieRouter does; RegExpRouter refuses `/x/new` beside `/x/:id`).
   */
  readonly router?: Router<[Handler, unknown]>;
  /**
   * Every resource's Update answers PATCH as well as PUT (Rails' default); a resource's own
   * `patch` option overrides it. Default false: PUT only (docs/guides/routing.md).
   */
  readonly patch?: boolean;
}

/** Whether a request's body is `multipart/form-data`. */
function isMultipart(request: Request, env: unknown): boolean {
  // On Node, from the headers Node parsed: no Fetch Headers made for a DELETE without a body.
  const node = nodeHeaders(env);
  const type = node ? node["content-type"] : request.headers.get("content-type");
  return typeof type === "string" && mediaTypeOf(type) === "multipart/form-data";
}

/**
 * A Wisent application: routes, groups and resources on Hono, in declaration order.
 *
 * Routing is Wisent's `FirstMatchRouter` behind Hono's router interface, chosen explicitly:
 * Hono's RegExpRouter refuses `/widgets/new` beside `/widgets/:widget_id` (so the default
 * SmartRouter falls back to the TrieRouter), and the first-match router keeps registration order
 * like the trie while costing the same at 1000 resources as at 10 (see bench/routing).
 *
 * @example
 * const app = new App({ name: "acme" });
 * app.get("/", HomeHandler);
 * const widgets = app.resource("/widgets", new WidgetsResource());
 * app.serveFiles("/", "public");
 * const res = await app.fetch(new Request("http://localhost/widgets"));
 */
export class App extends Group<[], never> {
  /** The app's name. */
  readonly name: string;
  /** The environment (`development`, `test`, `production`, ...). */
  readonly env: string;
  /** Whether this is an API app. */
  readonly api: boolean;
  /** The underlying Hono app (for Hono middleware or adapters that want it). */
  readonly hono: Hono;
  /** Path helpers of every named route: `app.paths.widgetPath({ widget_id: 1 })` -> `/widgets/1`. */
  readonly paths: Readonly<Record<string, UntypedPathHelper>>;
  readonly #registry: RouteRegistry;
  readonly #bodyLimit: number;
  readonly #uploadLimit: number;
  readonly #version: string | undefined;
  readonly #shutdownHooks: (() => unknown)[] = [];
  /** The database `listen()` checks and closes ({@link AppOptions.database}). */
  readonly #database: Database | undefined;
  /** Whether `listen()` opened it, so shutting down closes it. */
  #databaseOpened = false;
  readonly #runtime: WisentRuntime;
  /**
   * The App's own middleware (every `app.use`), in order: the stack its routes take theirs from,
   * and what a request no route matched runs.
   */
  readonly #appMiddleware: readonly MiddlewareHandler[];
  /** That middleware around {@link throwNoRouteAnswer}, composed on the first such request. */
  #noRouteChain: Handler | undefined;
  /** Routing and dispatch of a request (Wisent's kernel, see kernel/dispatch.ts). */
  readonly #dispatch: Dispatch;
  /** How many routes {@link App.checkRoutes} last found in order (-1: never checked). */
  #checkedRoutes = -1;
  /** The app's background jobs, once `jobs(db)` has named their database. */
  #jobs: AppJobs | undefined;
  /** The mails `mailerPreviews` serves (development), all calls together. */
  #mailerPreviews: Record<string, MailerPreviews[string]> | undefined;

  /**
   * @param options - the app's name and settings (see {@link AppOptions})
   * @throws WisentError `E_CONFIG_INVALID` when `options.name` does not start with a letter and use only letters, digits,
   *   `_` and `-`
   */
  constructor(options: AppOptions) {
    if (
      !options ||
      typeof options.name !== "string" ||
      !/^[A-Za-z][A-Za-z0-9_-]*$/.test(options.name)
    ) {
      throw new WisentError(
        "E_CONFIG_INVALID",
        `App: option "name" must start with a letter and use letters, digits, "_" or "-" (got ${JSON.stringify(options?.name)})`,
      );
    }
    const hono = new Hono({
      strict: false,
      router: (options.router ?? new FirstMatchRouter()) as Router<never>,
    });
    const registry = new RouteRegistry(options.host ?? defaultHost());
    const env = options.env ?? currentEnv();
    // Once per process tree: a cluster primary or Vitest's global setup has printed them already.
    announceStartupNotices(env);
    installAppContextMethods();
    const runtime: WisentRuntime = {
      name: options.name,
      env,
      api: options.api ?? false,
      pathFor: (name, params) => registry.pathFor(name, params),
      paths: registry.helpers,
      routes: () => registry.routes(),
      handlerFor: (method, path) => registry.handlerFor(method, path),
      devErrorPage,
    };
    const appMiddleware: MiddlewareHandler[] = [];
    const uncaught = honoErrorHandler(hono, errorResponse);
    const settings = { patch: options.patch ?? false };
    const guards = WITHOUT_AUTHENTICATION;
    super({ hono, registry, runtime, uncaught, settings, guards }, "/", appMiddleware);
    this.#appMiddleware = appMiddleware;
    this.name = options.name;
    this.env = env;
    this.api = options.api ?? false;
    this.hono = hono;
    this.paths = registry.helpers;
    this.#registry = registry;
    this.#bodyLimit = options.bodyLimit ?? 1024 * 1024;
    this.#uploadLimit = options.uploadLimit ?? DEFAULT_UPLOAD_LIMIT;
    this.#version = options.version;
    this.#database = options.database;
    this.#runtime = runtime;
    hono.onError(errorResponse);
    // The App's routes are called by the kernel's dispatch, which follows `hono.notFound`.
    this.#dispatch = new Dispatch(hono, uncaught, (c) => {
      // Inside a route's chain (the static catch-all found no file, or a handler called next()):
      // the route's middleware is already around this throw and renders it.
      if (c.get("wisent")) throw routingError(c, registry);
      return this.#answerWithoutRoute(c, routingError(c, registry));
    });
    if (options.cors) this.use(cors(options.cors === true ? {} : options.cors));
  }

  /**
   * Adds middleware for the routes declared after this call, and for requests no route matches.
   * @param middleware - Wisent's or any Hono middleware, run in the order given
   * @returns the app, for chaining
   * @throws WisentError `E_APP_MISCONFIGURED` when a middleware needs another one before it that the stack lacks
   *   (`csrf()` before `session()`), or when a middleware's context method is already taken by
   *   something that is not Wisent's
   * @example app.use(session()).use(csrf());
   */
  override use(...middleware: MiddlewareHandler[]): this {
    this.#noRouteChain = undefined;
    checkMiddlewareNeeds([...this.#appMiddleware, ...middleware]);
    installMiddlewareExtensions(middleware);
    return super.use(...middleware);
  }

  /**
   * Checks that every route can match and that every reference of an owned resource's model to
   * another owned resource's records checks their owner (`references: { project_id: { table:
   * "projects", ownedBy: "user_id" } }`). `listen()` and the first request answered by `fetch`
   * call it, so such an app does not start.
   * @throws WisentError `E_APP_MISCONFIGURED` naming every route that can never match (an earlier route with the same method
   *   takes all its requests), both routes' declaration places and the fix, or every unchecked
   *   owned reference
   */
  checkRoutes(): void {
    const shadowed = this.#registry.shadowed();
    if (shadowed.length > 0) throw shadowedRoutesError(shadowed);
    this.core.guards.checkRoutes(this.#registry.records);
    this.#checkedRoutes = this.#registry.records.length;
  }

  /**
   * Every route in registration order (the routes table's rows, what `wisent routes` prints).
   * @returns one row per route: method, host, path, aliases, name and handler
   */
  routes(): RouteInfo[] {
    return this.#registry.routes();
  }

  /**
   * The app's OpenAPI 3.1 document, derived from its routes and its resources' models (what
   * `wisent openapi` prints and {@link App.openapi} serves).
   * @param options - `version`: the document's version when the App has none (default: the
   *   `version` of `package.json` in the working folder)
   * @returns the OpenAPI 3.1 document, as a plain object
   * @example app.openApiDocument().paths["/widgets"].get.operationId // "widgetsList"
   */
  openApiDocument(options: { version?: string } = {}): OpenApiDocument {
    const fromPackage = packageInfo();
    return openApiDocument(this.#registry.records, {
      title: this.name,
      version: this.#version ?? options.version ?? fromPackage.version,
      // Where clients reach the app: APP_URL (its public URL) when set.
      host: configuredAppUrl()?.href.replace(/\/+$/, "") ?? this.#registry.host,
      api: this.api,
      license: fromPackage.license,
      contact: fromPackage.contact,
    });
  }

  /**
   * Serves {@link App.openApiDocument} as JSON at `path` (the typed client of `wisent/client`
   * reads it to find its operations). Declared like any route: in the routes table, not in the
   * document itself. Only in development and test unless `production: true`: the document maps
   * every route and field of the app, so in production-like environments the route is not
   * declared at all (a 404, as any unknown path) and this returns undefined. `wisent openapi`
   * prints the same document, for clients given it (`createClient({ document })`).
   * @param path - where to serve it (default `/openapi.json`)
   * @param options - `production: true` serves it in production-like environments too
   * @returns the route, to rename or give middleware; undefined where it is not served
   * @example
   * app.openapi("/openapi.json"); // development and test
   * app.openapi("/openapi.json", { production: true }); // a public API's document, everywhere
   */
  openapi(path = "/openapi.json", options: OpenApiRouteOptions = {}): RouteBuilder | undefined {
    if (isProductionLike(this.env) && options.production !== true) return undefined;
    // `/openapi.json` reaches the route `/openapi` with the format json (see path-format.ts).
    const { path: bare } = splitPathFormat(path);
    let cached: { routes: number; body: string } | undefined;
    const OpenApiDocumentHandler: Handler = (c) => {
      const routes = this.#registry.records.length;
      if (cached?.routes !== routes) {
        cached = { routes, body: JSON.stringify(this.openApiDocument()) };
      }
      return c.body(cached.body, 200, { "Content-Type": "application/json" });
    };
    return this.internalRoute("GET", bare, OpenApiDocumentHandler, "OpenApiDocument");
  }

  /**
   * The routes whose resource operation is still Resource's default, answering 404 "resource not
   * implemented" (`wisent routes --unused`).
   * @returns the routes table's rows of those routes, in registration order
   */
  unusedRoutes(): RouteInfo[] {
    const unused = new Set(this.#registry.records.filter((r) => r.resource?.implemented === false));
    return this.#registry.routes().filter((_, i) => unused.has(this.#registry.records[i]!));
  }

  /**
   * The path of a named route: `app.pathFor("widgetPath", { widget_id: 1 })` -> `/widgets/1`.
   * @param name - the route's name (`wisent routes` lists them)
   * @param params - its path parameters; any others become the query string
   * @returns the path, without a trailing slash
   * @throws WisentError `E_APP_MISCONFIGURED` when no route has that name (with a "did you mean")
   * @throws WisentError `E_APP_MISCONFIGURED` naming the route and the parameter when a path parameter is missing or does not
   *   match its pattern
   */
  pathFor(name: string, params?: PathParams): string {
    return this.#registry.pathFor(name, params);
  }

  /**
   * Answers a request in-process (no socket): the Fetch API handler of the app. Errors of the
   * app's handlers are answered (rendered in the client's format), not thrown.
   * @param request - the request; its URL's host is not checked (any `http://localhost/...`)
   * @param env - Hono's environment bindings (on Node, the adapter's incoming request)
   * @param executionCtx - Hono's execution context, for runtimes that have one
   * @returns the response
   * @throws WisentError `E_APP_MISCONFIGURED` from {@link App.checkRoutes} when a route can never match (checked on the first
   *   request, and again after routes are added)
   * @example const res = await app.fetch(new Request("http://localhost/widgets.json"));
   */
  fetch = (
    request: Request,
    env?: unknown,
    executionCtx?: unknown,
  ): Response | Promise<Response> => {
    if (this.#checkedRoutes !== this.#registry.records.length) this.checkRoutes();
    const method = request.method;
    // Only the methods a form or an upload client sends (a DELETE too: the CSRF check reads its
    // form): reading another's headers here made an unknown method's request (FOO with a body)
    // lose its answer (e2e/reliability/fuzz).
    if (
      (method === "POST" || method === "PUT" || method === "PATCH" || method === "DELETE") &&
      isMultipart(request, env)
    ) {
      // Its files stream to temporary files, deleted once the answer is made.
      return withUploadScope(this.#uploadLimit, () => this.#route(request, env, executionCtx));
    }
    return this.#route(request, env, executionCtx);
  };

  #route(request: Request, env: unknown, executionCtx: unknown): Response | Promise<Response> {
    let req = request;
    const queryAt = req.url.indexOf("?");
    const pathEnd = queryAt === -1 ? req.url.length : queryAt;
    if (req.url.charCodeAt(pathEnd - 5) === 46 || req.url.charCodeAt(pathEnd - 4) === 46) {
      req = this.#stripFormat(req, pathEnd);
    }
    if (req.method === "POST" && mayOverrideMethod(env)) {
      return this.#overrideThenDispatch(req, env, executionCtx);
    }
    return this.#dispatch.fetch(req, env, executionCtx);
  }

  /**
   * Starts an HTTP server on Node (default port `PORT` or 3000, host `HOST` or 127.0.0.1) that
   * drains in-flight requests and exits on SIGTERM/SIGINT.
   * @param options - port, host, timeouts and limits (see {@link ListenOptions})
   * @returns the running server, once it listens: its URL, port and `close()`
   * @throws WisentError `E_PORT_IN_USE` (a `PortInUseError`) when the port is taken, naming the
   *   process that holds it when it can be found
   * @throws WisentError `E_CONFIG_INVALID` when `PORT` is not a whole number from 0 to 65535
   * @throws WisentError `E_DATABASE_UNAVAILABLE` when the app's {@link AppOptions.database} does
   *   not answer, naming it (masked)
   * @throws WisentError `E_APP_MISCONFIGURED` from {@link App.checkRoutes} when a route can never match
   * @example const server = await app.listen({ port: 3000 }); console.log(server.url);
   */
  listen(options: ListenOptions = {}): Promise<RunningServer> {
    // Thrown at once, not as a rejection: an app whose routes cannot all match never starts.
    this.checkRoutes();
    return this.#listen(options);
  }

  async #listen(options: ListenOptions): Promise<RunningServer> {
    if (this.#database && !this.#databaseOpened) {
      await this.#database.check();
      this.#databaseOpened = true;
    }
    // `wisent dev` and `wisent start --jobs`: this process performs the app's jobs too.
    const worker = this.#jobs && jobsInProcess() ? this.#jobs.worker() : undefined;
    if (worker) {
      worker.start();
      // Shutdown hooks run last first: the worker stops before the app closes its database.
      this.onShutdown(() => worker.stop());
    }
    try {
      return await listen(
        this.fetch,
        {
          bodyLimit: this.#bodyLimit,
          uploadLimit: this.#uploadLimit,
          onDrain: () => void existingLiveStreams(this.core)?.hub.close(),
          ...options,
        },
        () => this.#runShutdownHooks(),
        (method, target, contentType) => this.#answersWithoutBody(method, target, contentType),
      );
    } catch (error) {
      // Not serving (a taken port): nothing is left holding the database open.
      await this.#runShutdownHooks();
      throw error;
    }
  }

  /**
   * Names the database the app's background jobs are stored in (its own: a job enqueued through
   * a request's transaction exists only if the request commits). Then register each job with
   * {@link App.job}; `wisent jobs work` performs them. Mail sent with `deliverLater` is one of
   * them, registered here.
   *
   * @example
   * app.jobs(db);
   * app.job(SendDigest);
   */
  jobs(database: Database): AppJobs {
    if (this.#jobs && this.#jobs.database !== database) {
      throw new WisentError(
        "E_APP_MISCONFIGURED",
        "app.jobs(db): the app's jobs already have another database",
      );
    }
    if (!this.#jobs) {
      this.#jobs = new AppJobs(database);
      // Mail sent later (deliverLater) is a job of every app with jobs.
      this.#jobs.register(DeliverMail);
    }
    setCurrentAppJobs(this.#jobs);
    return this.#jobs;
  }

  /**
   * Registers a background job, so that workers can perform it; with a schedule, it also runs by
   * itself once per tick across all processes (`every: "1h"`, or `cron: "0 3 * * *"`).
   * Needs {@link App.jobs} first.
   *
   * @example
   * app.job(SendDigest);
   * app.job(PruneStorage, { every: "1h" });
   * app.job(DailyReport, { cron: "0 6 * * *", timezone: "Europe/Berlin" });
   */
  job(job: Job, schedule?: RecurringSchedule): this {
    if (!this.#jobs) {
      throw new WisentError(
        "E_APP_MISCONFIGURED",
        `app.job(${job?.name ?? "..."}): call app.jobs(db) first, naming the database the jobs are stored in`,
      );
    }
    this.#jobs.register(job, schedule);
    return this;
  }

  /**
   * Serves a dashboard of the app's jobs at `path`: counts, the failed jobs with their errors and
   * stacks, the running and waiting ones, with Retry and Discard. Development and test mount it
   * as it is; other environments only with `authorize` (else it is not mounted: a 404), e.g.
   * behind the app's authentication. Needs {@link App.jobs} first. Declare it after the
   * middleware it needs (session, csrf, the signed-in user).
   *
   * @example
   * app.jobsDashboard("/admin/jobs", { authorize: (c) => c.currentUser()?.admin === true });
   */
  jobsDashboard(path = "/__wisent/jobs", options: JobsDashboardOptions = {}): this {
    if (!this.#jobs) {
      throw new WisentError("E_APP_MISCONFIGURED", "app.jobsDashboard(): call app.jobs(db) first");
    }
    if (isProductionLike(this.env) && !options.authorize) return this;
    const base = path.replace(/\/+$/, "");
    const handlers = jobsDashboardHandlers(this.#jobs, base, options);
    this.internalRoute("GET", base, handlers.show, "jobsDashboard");
    this.internalRoute("POST", `${base}/retry-failed`, handlers.retryFailed, "jobsDashboard");
    this.internalRoute("POST", `${base}/{job_id}/retry`, handlers.retry, "jobsDashboard");
    this.internalRoute("POST", `${base}/{job_id}/discard`, handlers.discard, "jobsDashboard");
    return this;
  }

  /**
   * In development only, serves previews of the app's mails at `path` (default
   * `/__wisent/mailers`): an index, and per mail its headers, HTML part and text part, rendered
   * with the sample props of its `defineMail({ preview })` and the request's translations.
   * Anywhere else it declares nothing.
   *
   * @example
   * app.mailerPreviews({ AccountMailer: { reset: ResetMail, welcome: WelcomeMail } });
   */
  mailerPreviews(previews: MailerPreviews, path = "/__wisent/mailers"): this {
    if (this.env !== "development") return this;
    // Each mailer adds its own (`wisent g mailer` writes one line each): one set of routes.
    if (this.#mailerPreviews) {
      Object.assign(this.#mailerPreviews, previews);
      return this;
    }
    this.#mailerPreviews = { ...previews };
    const base = path.replace(/\/+$/, "");
    const handlers = mailerPreviewHandlers(this.#mailerPreviews, base);
    this.internalRoute("GET", base, handlers.index, "mailerPreviews");
    this.internalRoute("GET", `${base}/{mailer}/{mail}`, handlers.show, "mailerPreviews");
    return this;
  }

  /** The app's jobs (`app.jobs(db)`), if it has any: what `wisent jobs` works with. */
  get backgroundJobs(): AppJobs | undefined {
    return this.#jobs;
  }

  /**
   * Runs `hook` when the server shuts down (after in-flight requests end), e.g. closing a
   * connection to another service. Hooks run one after the other, the last added first, and
   * before the App closes its own database ({@link AppOptions.database}).
   * @param hook - awaited when it returns a promise
   * @returns the app, for chaining
   * @example app.onShutdown(() => redis.quit());
   */
  onShutdown(hook: () => unknown): this {
    this.#shutdownHooks.push(hook);
    return this;
  }

  async #runShutdownHooks(): Promise<void> {
    for (const hook of this.#shutdownHooks.splice(0).reverse()) await hook();
    // Last: a hook (the jobs worker stopping, an app's own) may still need the database.
    if (this.#databaseOpened) {
      this.#databaseOpened = false;
      await this.#database!.close();
    }
  }

  /**
   * Whether a request's answer is known from its method and target alone (no route matches
   * them, and no form body could change the method): `Expect: 100-continue` then gets that
   * answer rather than `100 Continue`.
   */
  #answersWithoutBody(method: string, target: string, contentType: string | undefined): boolean {
    if (method === "POST" && contentType !== undefined && isFormType(contentType)) return false;
    if (target.charCodeAt(0) !== 47) return false;
    const queryAt = target.indexOf("?");
    const { path } = splitPathFormat(queryAt === -1 ? target : target.slice(0, queryAt));
    const routed = this.hono.getPath({ url: `http://host${path}` } as Request, {});
    return this.hono.router.match(method === "HEAD" ? "GET" : method, routed)[0].length === 0;
  }

  #stripFormat(request: Request, pathEnd: number): Request {
    // The Fetch API refuses to make a Request with TRACE or TRACK (the Node adapter's requests
    // carry them): such a request keeps its path, and routes to its deliberate 404/405.
    if (FETCH_FORBIDDEN_METHODS.has(request.method)) return request;
    const url = request.url;
    const { path, format } = splitPathFormat(url.slice(0, pathEnd));
    if (!format) return request;
    const strippedUrl = path + url.slice(pathEnd);
    const stripped = withUrl(request, strippedUrl) ?? new Request(strippedUrl, request);
    rememberPathFormat(stripped, format);
    return stripped;
  }

  /**
   * Answers a request no route matched (or one refused before routing) with `answer`, through
   * the App's own middleware, so every 404 and 405 carries the security headers and a request id
   * and is logged, as a matched route's errors are. Why the whole app stack and not a chosen
   * part: whether a middleware is "safe" for such requests is its own business, so each one can
   * ask `noRouteMatched(c)`; `csrf()` does, and skips its checks (there is no action to forge,
   * and Rails answers an unknown POST with a 404, not a 403). The session is written back only
   * when something changed it, which nothing here does: no Set-Cookie, as for a GET that falls
   * through the static catch-all to its 404. Group and resource middleware stay out: the request
   * reached none of their routes.
   */
  #answerWithoutRoute(c: Context, answer: Error): Response | Promise<Response> {
    markNoRoute(c, answer);
    this.#noRouteChain ??= composeWithRuntime(
      this.#runtime,
      [...this.#appMiddleware],
      throwNoRouteAnswer,
    );
    let res: ReturnType<Handler>;
    try {
      res = this.#noRouteChain(c, NOTHING_BELOW);
    } catch (err) {
      // Only without any app middleware (nothing catches the throw) or for a non-Error throw.
      return errorResponse(err, c);
    }
    if (res instanceof Promise) {
      return res.then(
        (resolved) => resolved ?? c.res,
        (err: unknown) => errorResponse(err, c),
      );
    }
    return res ?? c.res;
  }

  async #overrideThenDispatch(
    request: Request,
    env: unknown,
    executionCtx: unknown,
  ): Promise<Response> {
    let req: Request;
    try {
      req = await overrideMethod(request, { bodyLimit: this.#bodyLimit });
    } catch (err) {
      // Nothing was routed yet (a bad `_method`, a form over the body limit): answered as a
      // request no route matched, in the client's format, through the App's middleware.
      const c = this.#dispatch.context(request, env);
      return this.#answerWithoutRoute(c, err instanceof Error ? err : new Error(String(err)));
    }
    const format = pathFormatOf(request);
    if (format && req !== request) rememberPathFormat(req, format);
    return this.#dispatch.fetch(req, env, executionCtx);
  }
}
