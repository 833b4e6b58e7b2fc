import type { Handler, MiddlewareHandler } from "hono";
import { WisentError } from "../base/wisent-error.js";
import type { ResourceSpec } from "../client/resource-spec.js";
import {
  type HealthCheckOptions,
  healthCheckHandler,
  healthCheckStack,
} from "../http/health-check.js";
import { routeNameForPath } from "../naming/index.js";
import {
  type OptionalOperations,
  type ResourceRoute,
  resourceRoutes,
  type SingletonOperation,
  singletonRoutes,
} from "../resources/mapping.js";
import { type OperationDoc, operationDocOf } from "../resources/operation-doc.js";
import type {
  CollectionActions,
  HandlersFor,
  MemberActions,
  ResourceOptions,
  SingletonOptions,
} from "../resources/options.js";
import { resourceParamKey } from "../resources/param-key.js";
import { type OperationHandler, Resource, type ResourceBase } from "../resources/resource.js";
import { declarationSite } from "../routes/declaration-site.js";
import { joinPaths, parsePathTemplate } from "../routes/path-template.js";
import type {
  ResourceRouteMeta,
  RouteRecord,
  UntypedPathHelper,
} from "../routes/route-registry.js";
import type {
  MemberBase,
  ResourcePaths,
  ResourceStem,
  SingletonPaths,
  Words,
} from "../routes/typed-names.js";
import { FILES_PATH } from "../storage/stored-attachment.js";
import { type AppCore, addHonoRoute, installRouteGuards } from "./app-core.js";
import { type LiveWiring, liveWiring } from "./live-wiring.js";
import { RouteBuilder } from "./route-builder.js";
import { requiresAuthentication } from "./route-guards.js";
import { type StaticFilesOptions, staticFiles } from "./static-files.js";
import {
  keepResourceFilesPrivate,
  signFileUrlsWithSessionSecrets,
  storedFilesHandler,
} from "./stored-files.js";

/** Path parameter names in a path pattern: `/a/{x}/b/{y:[0-9]+}` -> `"x" | "y"`. */
export type ParamsOf<P extends string> = P extends `${string}{${infer Inner}}${infer Rest}`
  ? (Inner extends `${infer Name}:${string}` ? Name : Inner) | ParamsOf<Rest>
  : never;

type KeyOf<R> = R extends ResourceBase<infer K> ? K : string;
/** The zod schema of the model a resource declares (`override readonly model = Widget`). */
type SchemaOf<R> = R extends { readonly model: { readonly schema: infer S } } ? S : undefined;

/** A resource's methods by name (its operations and declared routes). */
function handlersOf(resource: object): Record<string, OperationHandler | undefined> {
  return resource as unknown as Record<string, OperationHandler | undefined>;
}

function implemented(handlers: Record<string, OperationHandler | undefined>): OptionalOperations {
  return { new: typeof handlers.new === "function", edit: typeof handlers.edit === "function" };
}

/**
 * A resource route's name: the names of the standard operations (docs/guides/routing.md); a declared route's
 * action leads the name of the path it hangs off (`/widgets/{widget_id}` -> `publishWidgetPath`).
 */
function routeNameFor(route: ResourceRoute, fullPath: string): string {
  if (route.nameAction === undefined) {
    return routeNameForPath(fullPath, { collection: route.collection });
  }
  const owner = fullPath.slice(0, fullPath.lastIndexOf("/")) || "/";
  return routeNameForPath(owner, { collection: route.collection, action: route.nameAction });
}

/**
 * A set of routes under one prefix sharing middleware. Routes and middleware apply in declaration
 * order: middleware reaches only what is declared after it, and a group starts with its parent's
 * middleware as it stood when the group was made.
 *
 * @example
 * const api = app.group("/api/v1");
 * api.use(requireToken);
 * api.get("/status", StatusHandler); // apiV1StatusPath
 */
export class Group<
  Base extends string[] = [],
  Params extends string = never,
  ShallowBase extends string[] = Base,
  ShallowParams extends string = Params,
> {
  /** @internal */
  protected readonly core: AppCore;
  /** The group's path prefix (`/` for the app itself). */
  readonly prefix: string;
  readonly #stack: MiddlewareHandler[];
  /** Where a `shallow: true` resource declared here puts its routes on one record. */
  readonly #shallowBase: string;

  /** @internal Made by `App`, `group()` and `resource()`. */
  constructor(core: AppCore, prefix: string, stack: MiddlewareHandler[], shallowBase = prefix) {
    this.core = core;
    this.prefix = prefix;
    this.#stack = stack;
    this.#shallowBase = shallowBase;
  }

  /**
   * Adds middleware for the routes declared after this call in this group and its new subgroups.
   * @param middleware - Wisent's or any Hono middleware, run in the order given
   * @returns the group, for chaining
   */
  use(...middleware: MiddlewareHandler[]): this {
    installRouteGuards(this.core, middleware);
    this.#stack.push(...middleware);
    return this;
  }

  /**
   * Declares a GET route (HEAD is answered too), named from its path (`wisent routes` lists the names).
   * @param path - under the group's prefix; `{name}` or `{name:regex}` segments are parameters
   * @param handler - a Hono handler; the routes table shows its function name
   * @returns the route, to rename (`.name()`) or give aliases (`.alias()`)
   * @throws WisentError `E_APP_MISCONFIGURED` when the path has a malformed or repeated
   *   `{parameter}`, or its route name is already taken by a route with another path
   */
  get(path: string, handler: Handler): RouteBuilder {
    return this.on("GET", path, handler);
  }
  /**
   * Declares a POST route, named from its path (`wisent routes` lists the names).
   * @param path - under the group's prefix; `{name}` or `{name:regex}` segments are parameters
   * @param handler - a Hono handler; the routes table shows its function name
   * @returns the route, to rename (`.name()`) or give aliases (`.alias()`)
   * @throws WisentError `E_APP_MISCONFIGURED` when the path has a malformed or repeated
   *   `{parameter}`, or its route name is already taken by a route with another path
   */
  post(path: string, handler: Handler): RouteBuilder {
    return this.on("POST", path, handler);
  }
  /**
   * Declares a PUT route, named from its path (`wisent routes` lists the names).
   * @param path - under the group's prefix; `{name}` or `{name:regex}` segments are parameters
   * @param handler - a Hono handler; the routes table shows its function name
   * @returns the route, to rename (`.name()`) or give aliases (`.alias()`)
   * @throws WisentError `E_APP_MISCONFIGURED` when the path has a malformed or repeated
   *   `{parameter}`, or its route name is already taken by a route with another path
   */
  put(path: string, handler: Handler): RouteBuilder {
    return this.on("PUT", path, handler);
  }
  /**
   * Declares a PATCH route, named from its path (`wisent routes` lists the names).
   * @param path - under the group's prefix; `{name}` or `{name:regex}` segments are parameters
   * @param handler - a Hono handler; the routes table shows its function name
   * @returns the route, to rename (`.name()`) or give aliases (`.alias()`)
   * @throws WisentError `E_APP_MISCONFIGURED` when the path has a malformed or repeated
   *   `{parameter}`, or its route name is already taken by a route with another path
   */
  patch(path: string, handler: Handler): RouteBuilder {
    return this.on("PATCH", path, handler);
  }
  /**
   * Declares a DELETE route, named from its path (`wisent routes` lists the names).
   * @param path - under the group's prefix; `{name}` or `{name:regex}` segments are parameters
   * @param handler - a Hono handler; the routes table shows its function name
   * @returns the route, to rename (`.name()`) or give aliases (`.alias()`)
   * @throws WisentError `E_APP_MISCONFIGURED` when the path has a malformed or repeated
   *   `{parameter}`, or its route name is already taken by a route with another path
   */
  delete(path: string, handler: Handler): RouteBuilder {
    return this.on("DELETE", path, handler);
  }
  /**
   * Declares an OPTIONS route, named from its path (`wisent routes` lists the names).
   * @param path - under the group's prefix; `{name}` or `{name:regex}` segments are parameters
   * @param handler - a Hono handler; the routes table shows its function name
   * @returns the route, to rename (`.name()`) or give aliases (`.alias()`)
   * @throws WisentError `E_APP_MISCONFIGURED` when the path has a malformed or repeated
   *   `{parameter}`, or its route name is already taken by a route with another path
   */
  options(path: string, handler: Handler): RouteBuilder {
    return this.on("OPTIONS", path, handler);
  }

  /**
   * Declares a route for any method. The handler is shown in the routes table by its function
   * name (`HomeHandler`), or `displayName` when given.
   * @param method - the HTTP method, any case
   * @param path - under the group's prefix; `{name}` or `{name:regex}` segments are parameters
   * @param handler - a Hono handler
   * @param displayName - the handler's name in the routes table
   * @returns the route, to rename (`.name()`) or give aliases (`.alias()`)
   * @throws WisentError `E_APP_MISCONFIGURED` when the path has a malformed or repeated
   *   `{parameter}`, or its route name is already taken by a route with another path
   */
  on(method: string, path: string, handler: Handler, displayName?: string): RouteBuilder {
    return this.#add(method.toUpperCase(), joinPaths(this.prefix, path), handler, {
      display: displayName ?? (handler.name || "anonymous"),
    });
  }

  /**
   * Declares the health route a load balancer, Docker's `HEALTHCHECK` or an orchestrator probes
   * (Rails' `/up`): `GET` (and HEAD) answering 200 `up` when the app serves requests and its
   * database answers `select 1` within `timeoutMs`, else 503 `down` (the cause goes to the
   * logger, not to the client). A small HTML page, or `{"status":"up"}` to a client asking for
   * JSON and in API apps; never cached. Named from its path (`upPath` for `/up`) in the routes
   * table. Like any route it runs the middleware declared before it, except `forceSSL()` and
   * `paramLogger()`, which it always leaves out: a load balancer probes over plain HTTP, and a
   * probe every few seconds writes no log line. Declare it right after `securityHeaders()` so
   * nothing else (session, CSRF, the request transaction) runs for a probe.
   *
   * @param path - where to answer (`/up`)
   * @param options - the database to ask and how long to wait (see {@link HealthCheckOptions})
   * @returns the route, to rename (`.name()`) or give aliases (`.alias()`)
   * @throws WisentError `E_APP_MISCONFIGURED` when the path has a malformed or repeated
   *   `{parameter}`, or its route name is already taken by a route with another path
   * @example
   * app.use(securityHeaders());
   * app.healthCheck("/up", { database: db }); // GET /up -> 200 up, or 503 down
   * app.use(forceSSL());
   */
  healthCheck(path: string, options: HealthCheckOptions = {}): RouteBuilder {
    return this.#add("GET", joinPaths(this.prefix, path), healthCheckHandler(options), {
      display: "healthCheck",
      stack: healthCheckStack(this.#stack),
      internal: true,
    });
  }

  /** @internal A route that describes the app rather than serves it: left out of its OpenAPI document. */
  protected internalRoute(
    method: string,
    path: string,
    handler: Handler,
    display: string,
  ): RouteBuilder {
    return this.#add(method, joinPaths(this.prefix, path), handler, { display, internal: true });
  }

  /**
   * GET /files/{file_key}/{file_name}: the files stored for records' attachments (their `url`),
   * from the storage `STORAGE_URL` names (see `storedFilesHandler`). Behind this group's
   * middleware. The files of records only signed-in users may see are private: their URLs are
   * signed with the app's secret and expire.
   *
   * @returns the route, named `storedFilePath`
   * @throws WisentError `E_APP_MISCONFIGURED` when declared twice under different prefixes (the
   *   name `storedFilePath` is taken)
   * @example
   * app.storedFiles();
   */
  storedFiles(): RouteBuilder {
    signFileUrlsWithSessionSecrets(this.core.runtime.env);
    return this.#add(
      "GET",
      joinPaths(this.prefix, `${FILES_PATH}/{file_key}/{file_name}`),
      storedFilesHandler(),
      { display: "storedFiles", name: "storedFilePath", internal: true },
    );
  }

  /**
   * A subgroup under `prefix`, starting with a copy of this group's middleware (middleware added
   * to either afterwards stays its own).
   * @param prefix - joined to this group's prefix; may hold `{parameters}`
   * @returns the subgroup
   * @example const admin = app.group("/admin"); admin.use(requireAuthentication());
   */
  group<P extends string>(
    prefix: P,
  ): Group<
    [...Base, ...Words<P>],
    Params | ParamsOf<P>,
    [...ShallowBase, ...Words<P>],
    ShallowParams | ParamsOf<P>
  > {
    return new Group(
      this.core,
      joinPaths(this.prefix, prefix),
      [...this.#stack],
      joinPaths(this.#shallowBase, prefix),
    );
  }

  /**
   * Maps a resource to its CRUD routes under `path` (the mapping rule, docs/guides/routing.md) and returns a group rooted
   * at the member path (`/widgets/{widget_id}`), so `.resource()` on it nests. Its `paths` are the
   * resource's typed path helpers. Options (see {@link ResourceOptions}) keep some operations
   * (`only`/`except`), declare member and collection routes, nest shallowly and add PATCH.
   *
   * @param path - the collection's path under the group's prefix (`/widgets`)
   * @param resource - the resource instance; its methods are the operations' handlers
   * @param options - which routes to map and how to guard them (see {@link ResourceOptions})
   * @returns the group at the member path, whose `paths` are the resource's typed path helpers
   * @throws WisentError `E_APP_MISCONFIGURED` when the options contradict themselves (`only`
   *   with `except`, an unknown operation, an action named like an operation, `ownedBy` with
   *   `authenticate` other than true), a route needs a handler method the resource lacks, the
   *   resource's path parameter cannot be named, `ownedBy` or a policy needs the resource's
   *   `model` and it has none, or a route name is taken by a route with another path
   * @throws WisentError `E_APP_MISCONFIGURED` when `only`/`except` is no array, or `member`/`collection` no object
   * @example
   * const widgets = app.resource("/widgets", new WidgetsResource());
   * widgets.resource("/images", new ImagesResource()); // /widgets/{widget_id}/images
   * widgets.paths.widgetPath({ widget_id: 1 }); // "/widgets/1"
   * app.resource("/posts", new PostsResource(), { only: ["list", "show"], member: { publish: "post" } });
   */
  resource<
    P extends string,
    R extends ResourceBase<string>,
    const O extends ResourceOptions = Record<never, never>,
  >(
    path: P,
    resource: R & HandlersFor<O>,
    options?: O,
  ): ResourceGroup<
    O extends { readonly shallow: true }
      ? MemberBase<ShallowBase, P, KeyOf<R>>
      : MemberBase<Base, P, KeyOf<R>>,
    O extends { readonly shallow: true } ? ShallowParams | KeyOf<R> : Params | KeyOf<R>,
    ResourcePaths<
      Base,
      P,
      KeyOf<R>,
      Params,
      R,
      O,
      O extends { readonly shallow: true } ? ShallowBase : Base,
      O extends { readonly shallow: true } ? ShallowParams : Params
    >,
    ShallowBase,
    ShallowParams,
    ResourceSpec<
      ResourceStem<Base, P, KeyOf<R>>,
      O extends { readonly shallow: true } ? ShallowParams : Params,
      KeyOf<R>,
      SchemaOf<R>,
      MemberActions<O>,
      CollectionActions<O>,
      O extends { readonly ownedBy: infer C extends string } ? C : never
    >
  > {
    const opts: ResourceOptions = options ?? {};
    const collection = joinPaths(this.prefix, path);
    const paramKey = resourceParamKey(resource, path);
    const handlers = handlersOf(resource);
    const routes = resourceRoutes(paramKey, implemented(handlers), {
      ...opts,
      patch: opts.patch ?? this.core.settings.patch,
    });
    // shallow: the routes on one record leave the parent's member path (Rails' `shallow: true`).
    const memberRoot = opts.shallow ? joinPaths(this.#shallowBase, path) : collection;
    const stem = routeNameForPath(collection, { collection: true }).replace(/Path$/, "");
    const paths = this.#mapRoutes(
      resource,
      handlers,
      routes,
      stem,
      (route) => joinPaths(route.member ? memberRoot : collection, route.subpath),
      ownedAuthenticate(opts, resource.handlerName),
      paramKey,
      { ownedBy: opts.ownedBy, policy: opts.policy },
      opts.live
        ? liveWiring(
            this.core,
            stem,
            opts,
            resource.model,
            (...route) => this.#add(...route),
            paramKey,
          )
        : undefined,
    );
    const member = joinPaths(memberRoot, `{${paramKey}}`);
    // Type-level names are checked against the runtime namer in typed-names.test.ts.
    // Routes nested in an owned resource find the parent among the user's own records first.
    const nested = this.core.guards.parentGuard({
      resource: resource.handlerName,
      ownedBy: opts.ownedBy,
      policy: opts.policy,
      model: resource.model,
      paramKey,
    });
    return new ResourceGroup(
      this.core,
      member,
      [...this.#resourceStack(resource), ...nested],
      paths as never,
      this.#shallowBase,
    );
  }

  /**
   * Maps a singular resource (Rails' `resource :profile`) to `path`: Create, New, Show, Update,
   * Destroy and Edit with no id and no List, named after it (`profilePath`, `newProfilePath`,
   * `editProfilePath`). Returns a group rooted at `path`, so resources nest under it.
   *
   * @param path - the resource's path under the group's prefix (`/profile`)
   * @param resource - the resource instance; its methods are the operations' handlers
   * @param options - which routes to map and how to guard them (see {@link SingletonOptions})
   * @returns the group at `path`, whose `paths` are the resource's typed path helpers
   * @throws WisentError `E_APP_MISCONFIGURED` when the options contradict themselves (`only`
   *   with `except`, an unknown operation, a `collection` option), a route needs a handler
   *   method the resource lacks, or a route name is taken by a route with another path
   * @example
   * const profile = app.singleton("/profile", new ProfileResource());
   * profile.paths.editProfilePath(); // "/profile/edit"
   */
  singleton<
    P extends string,
    R extends ResourceBase<string>,
    const O extends SingletonOptions = Record<never, never>,
  >(
    path: P,
    resource: R & HandlersFor<O, SingletonOperation>,
    options?: O,
  ): ResourceGroup<
    [...Base, ...Words<P>],
    Params,
    SingletonPaths<Base, P, Params, R, O>,
    [...ShallowBase, ...Words<P>],
    ShallowParams
  > {
    const opts: SingletonOptions = options ?? {};
    const root = joinPaths(this.prefix, path);
    const handlers = handlersOf(resource);
    const routes = singletonRoutes(implemented(handlers), {
      ...opts,
      patch: opts.patch ?? this.core.settings.patch,
    });
    const stem = routeNameForPath(root).replace(/Path$/, "");
    const paths = this.#mapRoutes(
      resource,
      handlers,
      routes,
      stem,
      (route) => joinPaths(root, route.subpath),
      opts.authenticate,
      resource.paramKey,
    );
    return new ResourceGroup(
      this.core,
      root,
      this.#resourceStack(resource),
      paths as never,
      joinPaths(this.#shallowBase, path),
    );
  }

  /** The resource's own middleware (Buffalo's `Use()`), which also reaches resources nested in it. */
  #resourceStack(resource: ResourceBase<string>): MiddlewareHandler[] {
    return [...this.#stack, ...resource.middleware()];
  }

  /** Registers a resource's routes; returns its path helpers by name. */
  #mapRoutes(
    resource: ResourceBase<string>,
    handlers: Record<string, OperationHandler | undefined>,
    routes: readonly ResourceRoute[],
    stem: string,
    fullPath: (route: ResourceRoute) => string,
    authenticate: ResourceOptions["authenticate"],
    paramKey: string,
    guard: Pick<ResourceOptions, "ownedBy" | "policy"> = {},
    live?: LiveWiring,
  ): Record<string, UntypedPathHelper> {
    const stack = this.#resourceStack(resource);
    // One guard for the resource's secured routes: `true` secures every route, a list its operations.
    const guarded = authenticate ? [...stack, this.core.guards.requireAuthentication()] : stack;
    const secured = (route: ResourceRoute) =>
      authenticate === true ||
      (Array.isArray(authenticate) &&
        route.operation !== undefined &&
        authenticate.includes(route.operation));
    const defaults = Resource.prototype as unknown as Record<string, unknown>;
    const paths: Record<string, UntypedPathHelper> = {};
    // The records' files are private when reading a record needs a sign-in.
    let readsNeedSignIn = guard.ownedBy !== undefined;
    for (const route of routes) {
      const fn = handlers[route.handlerMethod];
      if (typeof fn !== "function") {
        throw new WisentError(
          "E_APP_MISCONFIGURED",
          `${resource.handlerName} has no ${route.handlerMethod}(c) method for ${route.method} ${fullPath(route)}: add it, or leave the route out with only/except`,
        );
      }
      const full = fullPath(route);
      const name = routeNameFor(route, full);
      const called: Handler = (c) => fn.call(resource, c);
      const handler = live ? live.wrap(called, route.operation) : called;
      const recordGuard = this.core.guards.resourceGuard({
        resource: resource.handlerName,
        ownedBy: guard.ownedBy,
        policy: guard.policy,
        model: resource.model,
        paramKey,
        operation: route.operation,
        action: route.handlerMethod,
        member: route.member,
      });
      const routeStack = secured(route) ? guarded : stack;
      if (
        (route.operation === "show" || route.operation === "list") &&
        requiresAuthentication(routeStack)
      ) {
        readsNeedSignIn = true;
      }
      this.#add(route.method, full, handler, {
        display: `${resource.handlerName}.${route.action}`,
        stack: recordGuard ? [...routeStack, recordGuard] : routeStack,
        ...(guard.ownedBy !== undefined && { ownedBy: guard.ownedBy }),
        name,
        doc: resource.docs?.[route.handlerMethod],
        resource: {
          operation: route.operation,
          action: route.handlerMethod,
          ...(route.operation === undefined && {
            declared: route.member ? ("member" as const) : ("collection" as const),
          }),
          stem,
          paramKey,
          model: resource.model,
          implemented: fn !== defaults[route.handlerMethod],
          ...(live && { live: true as const }),
        },
      });
      paths[name] = this.core.registry.helpers[name]!;
    }
    if (readsNeedSignIn) {
      keepResourceFilesPrivate(resource.model, resource.handlerName, this.core.runtime.env);
    }
    return paths;
  }

  /**
   * Serves files from `dir` under `prefix` (a catch-all: declare it last, at `/`, because
   * it would hide every route declared after it). Missing files fall through to 404.
   * @param prefix - the URL prefix under the group's (`/`)
   * @param dir - the folder to serve, relative to the working folder (`public`)
   * @param options - the Cache-Control max-age and a folder's index file (see
   *   {@link StaticFilesOptions})
   * @returns the group, for chaining
   * @example app.serveFiles("/", "public");
   */
  serveFiles(prefix: string, dir: string, options?: StaticFilesOptions): this {
    const base = joinPaths(this.prefix, prefix);
    const handler = staticFiles(base, dir, options);
    const template = parsePathTemplate(base);
    const wildcard = template.honoPath === "/" ? "/*" : `${template.honoPath}/*`;
    addHonoRoute(this.core, "GET", wildcard, [...this.#stack], handler);
    return this;
  }

  #add(
    method: string,
    fullPath: string,
    handler: Handler,
    how: {
      display: string;
      stack?: MiddlewareHandler[];
      name?: string;
      resource?: ResourceRouteMeta;
      internal?: boolean;
      doc?: OperationDoc | undefined;
      ownedBy?: string;
    },
  ): RouteBuilder {
    const path = parsePathTemplate(fullPath);
    const site = declarationSite();
    const doc = how.doc ?? operationDocOf(handler);
    const record: RouteRecord = {
      method,
      path,
      name: how.name ?? routeNameForPath(path.template),
      handler: how.display,
      aliases: [],
      get declaredAt() {
        return site();
      },
      ...(how.resource && { resource: how.resource }),
      ...(how.internal && { internal: true }),
      ...(doc && { doc }),
      ...(requiresAuthentication(how.stack ?? this.#stack) && { authenticated: true }),
      ...(how.ownedBy !== undefined && { ownedBy: how.ownedBy }),
    };
    this.core.registry.add(record);
    const middleware = [...(how.stack ?? this.#stack)];
    addHonoRoute(this.core, method, path.honoPath, middleware, handler);
    return new RouteBuilder(this.core, record, middleware, handler);
  }
}

/**
 * `authenticate` of a resource's options, `true` when it is owned (`ownedBy` needs a user on every
 * route: a list of operations, or `false`, would leave some routes without an owner to scope by).
 */
function ownedAuthenticate(
  opts: ResourceOptions,
  resource: string,
): ResourceOptions["authenticate"] {
  if (opts.ownedBy === undefined) return opts.authenticate;
  if (opts.authenticate !== undefined && opts.authenticate !== true) {
    throw new WisentError(
      "E_APP_MISCONFIGURED",
      `${resource}: ownedBy "${opts.ownedBy}" signs in every route; leave authenticate out (or true)`,
    );
  }
  return true;
}

/**
 * The group `resource()` returns: rooted at the member path, with the resource's path helpers.
 * `Spec` (type only) describes the resource to the typed client of `wisent/client`.
 */
export class ResourceGroup<
  Base extends string[],
  Params extends string,
  Paths,
  ShallowBase extends string[] = Base,
  ShallowParams extends string = Params,
  Spec = unknown,
> extends Group<Base, Params, ShallowBase, ShallowParams> {
  /** Type only (never set): what `wisent/client` reads of this resource. */
  declare readonly "~resource": Spec;

  /** @internal */
  constructor(
    core: AppCore,
    prefix: string,
    stack: MiddlewareHandler[],
    readonly paths: Paths,
    shallowBase: string,
  ) {
    super(core, prefix, stack, shallowBase);
  }
}
