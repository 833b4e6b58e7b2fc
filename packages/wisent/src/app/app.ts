import { type Handler, Hono, type MiddlewareHandler } from "hono";
import { cors } from "hono/cors";
import type { Router } from "hono/router";
import { readOnce } from "../base/read-once.js";
import { WisentError } from "../base/wisent-error.js";
import { currentEnv, isProductionLike } from "../config/settings.js";
import type { Database } from "../data/database.js";
import { configuredAppUrl } from "../http/app-url.js";
import { readProxySettings } from "../http/client-address.js";
import { errorResponse } from "../http/error-response.js";
import { splitPathFormat } from "../http/path-format.js";
import type { Job } from "../jobs/define-job.js";
import { jobsInProcess } from "../jobs/in-process.js";
import { AppJobs, setCurrentAppJobs } from "../jobs/job-registry.js";
import type { RecurringSchedule } from "../jobs/recurring.js";
import { installMiddlewareExtensions } from "../kernel/context-extensions.js";
import { honoErrorHandler } from "../kernel/hono-internals.js";
import { checkMiddlewareNeeds } from "../kernel/middleware-needs.js";
import { existingLiveStreams } from "../live/live-streams.js";
import { DeliverMail } from "../mail/deliver-mail.js";
import { type OpenApiDocument, openApiDocument } from "../openapi/document.js";
import { packageInfo } from "../openapi/package-info.js";
import type { PathParams } from "../routes/build-path.js";
import { FirstMatchRouter } from "../routes/first-match-router.js";
import { defaultHost, type RouteInfo } from "../routes/route-info.js";
import { RouteRegistry, type UntypedPathHelper } from "../routes/route-registry.js";
import { shadowedRoutesError } from "../routes/shadowing-message.js";
import { type ListenOptions, listen, type RunningServer } from "../server/listen.js";
import { DEFAULT_UPLOAD_LIMIT } from "../storage/upload-scope.js";
import { installAppContextMethods } from "./context-methods.js";
import { devErrorPage } from "./dev-error-page.js";
import { Group } from "./group.js";
import { type JobsDashboardOptions, jobsDashboardHandlers } from "./jobs-dashboard.js";
import { type MailerPreviews, mailerPreviewHandlers } from "./mailer-previews.js";
import { RequestPipeline } from "./request-pipeline.js";
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
  /**
   * The App's own middleware (every `app.use`), in order: the stack its routes take theirs from,
   * and what a request no route matched runs.
   */
  readonly #appMiddleware: readonly MiddlewareHandler[];
  /** What a request goes through before its route runs (request-pipeline.ts). */
  readonly #pipeline: RequestPipeline;
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
      proxies: readOnce(readProxySettings),
      appUrl: readOnce(() => configuredAppUrl()),
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
    hono.onError(errorResponse);
    this.#pipeline = new RequestPipeline({
      core: this.core,
      appMiddleware,
      bodyLimit: this.#bodyLimit,
      uploadLimit: this.#uploadLimit,
      checkRoutes: () => {
        const shadowed = registry.shadowed();
        if (shadowed.length > 0) throw shadowedRoutesError(shadowed);
        this.core.guards.checkRoutes(registry.records);
      },
    });
    this.fetch = this.#pipeline.fetch;
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
    this.#pipeline.appMiddlewareChanged();
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
    this.#pipeline.checkRoutes();
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
  fetch: (request: Request, env?: unknown, executionCtx?: unknown) => Response | Promise<Response>;

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
        (method, target, contentType) =>
          this.#pipeline.answersWithoutBody(method, target, contentType),
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
}
