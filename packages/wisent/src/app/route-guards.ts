import type { MiddlewareHandler } from "hono";
import { ROUTE_GUARDS_KEY } from "../base/symbols.js";
import { WisentError } from "../base/wisent-error.js";
import type { Operation } from "../resources/mapping.js";
import type { ResourcePolicy } from "../resources/policy.js";
import type { ResourceModel } from "../resources/resource.js";
import type { RouteRecord } from "../routes/route-registry.js";

/** What the guard of one resource route needs to know. */
export interface ResourceGuardOptions {
  /** The resource's handler class, for messages: `NotesResource`. */
  readonly resource: string;
  /** The owner column (`ownedBy`), if the resource is owned. */
  readonly ownedBy?: string | undefined;
  readonly policy?: ResourcePolicy | undefined;
  readonly model: ResourceModel | undefined;
  readonly paramKey: string;
  /** The standard operation, or undefined for a declared route. */
  readonly operation: Operation | undefined;
  /** The handler's method: `show`, or a declared action (`publish`). */
  readonly action: string;
  /** The route acts on one record (its path has the id). */
  readonly member: boolean;
}

/** The parent resource whose nested routes `parentGuard` protects. */
export interface ParentGuardOptions {
  /** The parent's handler class, for messages: `AuthorsResource`. */
  readonly resource: string;
  /** The parent's owner column (`ownedBy`); undefined when the parent is not owned. */
  readonly ownedBy: string | undefined;
  /** The parent's policy: its `show` rule, if any, is asked of the parent too. */
  readonly policy?: ResourcePolicy | undefined;
  readonly model: ResourceModel | undefined;
  /** The parent's path parameter (`author_id`). */
  readonly paramKey: string;
}

/**
 * What the routing DSL asks of authentication when it maps a resource with `authenticate`,
 * `ownedBy` or a `policy`: the guards it puts before the handlers, and a check of the declared
 * routes. `wisent/auth` gives them (its `authentication()` and `tokenAuthentication()` bring
 * them, see {@link bringsRouteGuards}); the App installs them when it is given that middleware,
 * as it installs the Context methods a middleware brings. The routing DSL knows only this shape.
 */
export interface RouteGuards {
  /** The sign-in guard of a resource's secured routes. */
  requireAuthentication(): MiddlewareHandler;
  /** The ownership and policy guard of one route, or undefined when it needs none. */
  resourceGuard(options: ResourceGuardOptions): MiddlewareHandler | undefined;
  /** The guards of the routes nested in a resource (its parent found as its Show finds it). */
  parentGuard(options: ParentGuardOptions): MiddlewareHandler[];
  /** Checks the declared routes once, before the first request (owned references). */
  checkRoutes(records: readonly RouteRecord[]): void;
}

const AUTHENTICATION_GUARDS = new WeakSet<MiddlewareHandler>();

/**
 * Marks `guard` as one that lets only signed-in users through, so that the routes behind it are
 * listed and documented as authenticated (`requireAuthentication()` marks its guards).
 * @param guard - the middleware
 * @returns the same middleware
 */
export function marksAuthentication<M extends MiddlewareHandler>(guard: M): M {
  AUTHENTICATION_GUARDS.add(guard);
  return guard;
}

/**
 * Whether a route's middleware includes a sign-in guard (`requireAuthentication()`): the route
 * table and OpenAPI mark the route secured.
 * @param middleware - the route's middleware
 * @returns whether one of them is marked by {@link marksAuthentication}
 */
export function requiresAuthentication(middleware: readonly MiddlewareHandler[]): boolean {
  return middleware.some((m) => AUTHENTICATION_GUARDS.has(m));
}

/** A guard for a route whose declaration needs authentication the app never declared. */
function needsAuthentication(what: string): MiddlewareHandler {
  return () => {
    throw new WisentError(
      "E_APP_MISCONFIGURED",
      `${what} needs authentication() (sessions) or tokenAuthentication() (bearer tokens) declared before it: wisent generate authentication adds it to src/app.ts`,
    );
  };
}

/**
 * The guards of an App given no authentication middleware: a route that needs a user fails,
 * naming the middleware to declare, as `requireAuthentication()` without `authentication()` does.
 */
export const WITHOUT_AUTHENTICATION: RouteGuards = {
  requireAuthentication: () => marksAuthentication(needsAuthentication("requireAuthentication()")),
  resourceGuard: (options) =>
    options.ownedBy !== undefined || options.policy !== undefined
      ? needsAuthentication(`${options.resource}'s ownedBy or policy`)
      : undefined,
  parentGuard: (options) =>
    options.ownedBy !== undefined || options.policy?.rules.show !== undefined
      ? [needsAuthentication(`${options.resource}'s ownedBy or policy`)]
      : [],
  checkRoutes: () => {},
};

type Tagged = MiddlewareHandler & { [ROUTE_GUARDS_KEY]?: RouteGuards };

/**
 * `middleware`, carrying the route guards it brings: the App installs them when it is given
 * the middleware (`app.use`, `group.use`), and maps the resources declared after it with them.
 *
 * @example
 * return bringsRouteGuards(middleware, AUTH_ROUTE_GUARDS);
 */
export function bringsRouteGuards<M extends MiddlewareHandler>(
  middleware: M,
  guards: RouteGuards,
): M {
  (middleware as Tagged)[ROUTE_GUARDS_KEY] = guards;
  return middleware;
}

/**
 * The route guards one of `middleware` brings (the last that brings any), or undefined.
 * @param middleware - what `use` was given
 * @returns the guards to install
 */
export function routeGuardsBrought(
  middleware: readonly MiddlewareHandler[],
): RouteGuards | undefined {
  let found: RouteGuards | undefined;
  for (const m of middleware) found = (m as Tagged)[ROUTE_GUARDS_KEY] ?? found;
  return found;
}
