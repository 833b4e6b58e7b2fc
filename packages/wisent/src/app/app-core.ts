import type { Context, ErrorHandler, Handler, Hono, MiddlewareHandler } from "hono";
import { errorResponse } from "../http/error-response.js";
import { composeRoute, phased } from "../kernel/compose.js";
import { installMiddlewareExtensions } from "../kernel/context-extensions.js";
import { checkMiddlewareNeeds } from "../kernel/middleware-needs.js";
import { trackHonoHeaders } from "../kernel/response-headers.js";
import type { RouteRegistry } from "../routes/route-registry.js";
import { checkingParams } from "./param-check.js";
import { type RouteGuards, routeGuardsBrought } from "./route-guards.js";
import type { WisentRuntime } from "./runtime.js";

/** What every group of one App shares: the Hono instance routes go to, the registry, the runtime. */
export interface AppCore {
  readonly hono: Hono;
  readonly registry: RouteRegistry;
  readonly runtime: WisentRuntime;
  /** Hono's error handler (see `honoErrorHandler` in hono-internals.ts), for what escapes a route's promise. */
  readonly uncaught: ErrorHandler;
  /** App-wide routing settings (see `AppOptions`). */
  readonly settings: { readonly patch: boolean };
  /**
   * The guards resources are mapped with (`authenticate`, `ownedBy`, `policy`): those the
   * authentication middleware brought (see route-guards.ts), else `WITHOUT_AUTHENTICATION`.
   */
  guards: RouteGuards;
}

/**
 * Installs the route guards one of `middleware` brings (authentication's), for the resources
 * declared after it, as the Context methods a middleware brings are installed.
 * @param core - the App's
 * @param middleware - what `use` was given
 */
export function installRouteGuards(core: AppCore, middleware: readonly MiddlewareHandler[]): void {
  const guards = routeGuardsBrought(middleware);
  if (guards) core.guards = guards;
}

type LooseOn = (method: string, path: string, ...handlers: Handler[]) => unknown;

/** What every route does first: the app's runtime on the context, Hono's headers tracked. */
function enterRuntime(c: Context, runtime: WisentRuntime): undefined {
  c.set("wisent", runtime);
  trackHonoHeaders(c);
  return undefined;
}

/** The runtime step every route starts with, one per App (made once, not per route or request). */
const runtimeSteps = new WeakMap<WisentRuntime, MiddlewareHandler>();

function runtimeStep(runtime: WisentRuntime): MiddlewareHandler {
  let step = runtimeSteps.get(runtime);
  if (!step) {
    step = phased({ before: (c) => enterRuntime(c, runtime) });
    runtimeSteps.set(runtime, step);
  }
  return step;
}

/**
 * Middleware and a handler folded into one Hono handler, with the app's runtime set on the
 * context first (`c.get("wisent")`): how every route runs, and the App's answer to a request
 * no route matched. With `uncaught` (Hono's error handler), an Error escaping the route's
 * promise goes there, as Hono's dispatch would send it (see `isSettledRoute`).
 */
export function composeWithRuntime(
  runtime: WisentRuntime,
  middleware: readonly MiddlewareHandler[],
  handler: Handler,
  uncaught?: ErrorHandler,
): Handler {
  // At start-up: a middleware missing what it needs before it (csrf() without session()), and
  // the Context methods the route's middleware bring (c.tx with transaction()).
  checkMiddlewareNeeds(middleware);
  installMiddlewareExtensions(middleware);
  return middleware.length === 0
    ? (c, next) => {
        enterRuntime(c, runtime);
        return handler(c, next);
      }
    : composeRoute([runtimeStep(runtime), ...middleware], handler, errorResponse, uncaught);
}

/** Registers a route on Hono as a single handler (see {@link composeWithRuntime}). */
export function addHonoRoute(
  core: AppCore,
  method: string,
  path: string,
  middleware: readonly MiddlewareHandler[],
  handler: Handler,
): void {
  // In development a handler's `c.req.param("postid")` names the parameter it meant.
  const checked = core.runtime.env === "development" ? checkingParams(handler, path) : handler;
  const route = composeWithRuntime(core.runtime, middleware, checked, core.uncaught);
  (core.hono.on as unknown as LooseOn).call(core.hono, method, path, route);
}
