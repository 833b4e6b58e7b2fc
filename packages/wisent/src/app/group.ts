import type { Context, Handler, MiddlewareHandler } from "hono";
import { routeNameForPath } from "../naming/index.js";
import { resourceRoutes } from "../resources/mapping.js";
import type { HandlerResult, Resource } from "../resources/resource.js";
import { joinPaths, parsePathTemplate } from "../routes/path-template.js";
import type { MemberBase, ResourcePaths, Words } from "../routes/typed-names.js";
import { type AppCore, addHonoRoute } from "./app-core.js";
import { RouteBuilder } from "./route-builder.js";
import type { UntypedPathHelper } from "./route-registry.js";
import { type StaticFilesOptions, staticFiles } from "./static-files.js";

/** Path parameter names in a path pattern: `/a/{x}/b/{y:[0-9]+}` -> `"x" | "y"`. */
export type ParamsOf<P extends string> = P extends `${string}{${infer Inner}}${infer Rest}`
  ? (Inner extends `${infer Name}:${string}` ? Name : Inner) | ParamsOf<Rest>
  : never;

type KeyOf<R> = R extends Resource<infer K> ? K : string;

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
export class Group<Base extends string[] = [], Params extends string = never> {
  /** @internal */
  protected readonly core: AppCore;
  /** The group's path prefix (`/` for the app itself). */
  readonly prefix: string;
  readonly #stack: MiddlewareHandler[];

  /** @internal Made by `App`, `group()` and `resource()`. */
  constructor(core: AppCore, prefix: string, stack: MiddlewareHandler[]) {
    this.core = core;
    this.prefix = prefix;
    this.#stack = stack;
  }

  /** Adds middleware for the routes declared after this call in this group and its new subgroups. */
  use(...middleware: MiddlewareHandler[]): this {
    this.#stack.push(...middleware);
    return this;
  }

  /** Declares a GET route (HEAD is answered too). */
  get(path: string, handler: Handler): RouteBuilder {
    return this.on("GET", path, handler);
  }
  /** Declares a POST route. */
  post(path: string, handler: Handler): RouteBuilder {
    return this.on("POST", path, handler);
  }
  /** Declares a PUT route. */
  put(path: string, handler: Handler): RouteBuilder {
    return this.on("PUT", path, handler);
  }
  /** Declares a PATCH route. */
  patch(path: string, handler: Handler): RouteBuilder {
    return this.on("PATCH", path, handler);
  }
  /** Declares a DELETE route. */
  delete(path: string, handler: Handler): RouteBuilder {
    return this.on("DELETE", path, handler);
  }
  /** Declares an OPTIONS route. */
  options(path: string, handler: Handler): RouteBuilder {
    return this.on("OPTIONS", path, handler);
  }

  /**
   * Declares a route for any method. The handler is shown in the routes table by its function
   * name (`HomeHandler`), or `displayName` when given.
   */
  on(method: string, path: string, handler: Handler, displayName?: string): RouteBuilder {
    return this.#add(method.toUpperCase(), joinPaths(this.prefix, path), handler, {
      display: displayName ?? (handler.name || "anonymous"),
    });
  }

  /** A subgroup under `prefix`, starting with a copy of this group's middleware. */
  group<P extends string>(prefix: P): Group<[...Base, ...Words<P>], Params | ParamsOf<P>> {
    return new Group(this.core, joinPaths(this.prefix, prefix), [...this.#stack]);
  }

  /**
   * Maps a resource to its CRUD routes under `path` (spec: Mapping rule) and returns a group rooted
   * at the member path (`/widgets/{widget_id}`), so `.resource()` on it nests. Its `paths` are the
   * resource's typed path helpers.
   *
   * @example
   * const widgets = app.resource("/widgets", new WidgetsResource());
   * widgets.resource("/images", new ImagesResource()); // /widgets/{widget_id}/images
   * widgets.paths.widgetPath({ widget_id: 1 }); // "/widgets/1"
   */
  resource<P extends string, R extends Resource<string>>(
    path: P,
    resource: R,
  ): ResourceGroup<
    MemberBase<Base, P, KeyOf<R>>,
    Params | KeyOf<R>,
    ResourcePaths<Base, P, KeyOf<R>, Params, R>
  > {
    const collection = joinPaths(this.prefix, path);
    const paramKey = resource.paramKey;
    // The resource's own middleware (Buffalo's `Use()`) also reaches resources nested in it.
    const stack = [...this.#stack, ...resource.middleware()];
    const operations = resource as unknown as Record<
      string,
      ((c: Context) => HandlerResult) | undefined
    >;
    const optional = {
      new: typeof operations.new === "function",
      edit: typeof operations.edit === "function",
    };
    const paths: Record<string, UntypedPathHelper> = {};
    for (const route of resourceRoutes(paramKey, optional)) {
      const full = joinPaths(collection, route.subpath);
      const name = routeNameForPath(full, { collection: route.collection });
      const fn = operations[route.operation]!;
      const handler: Handler = (c) => fn.call(resource, c);
      this.#add(route.method, full, handler, {
        display: `${resource.handlerName}.${route.action}`,
        stack,
        name,
      });
      paths[name] = this.core.registry.helpers[name]!;
    }
    const member = joinPaths(collection, `{${paramKey}}`);
    // Type-level names are checked against the runtime namer in typed-names.test.ts.
    return new ResourceGroup(this.core, member, stack, paths as never);
  }

  /**
   * Serves files from `dir` under `prefix` (the spec's catch-all: declare it last, at `/`, because
   * it would hide every route declared after it). Missing files fall through to 404.
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
    how: { display: string; stack?: MiddlewareHandler[]; name?: string },
  ): RouteBuilder {
    const path = parsePathTemplate(fullPath);
    const record = {
      method,
      path,
      name: how.name ?? routeNameForPath(path.template),
      handler: how.display,
      aliases: [],
    };
    this.core.registry.add(record);
    const middleware = [...(how.stack ?? this.#stack)];
    addHonoRoute(this.core, method, path.honoPath, middleware, handler);
    return new RouteBuilder(this.core, record, middleware, handler);
  }
}

/** The group `resource()` returns: rooted at the member path, with the resource's path helpers. */
export class ResourceGroup<Base extends string[], Params extends string, Paths> extends Group<
  Base,
  Params
> {
  /** @internal */
  constructor(
    core: AppCore,
    prefix: string,
    stack: MiddlewareHandler[],
    readonly paths: Paths,
  ) {
    super(core, prefix, stack);
  }
}
