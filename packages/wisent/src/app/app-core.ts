import type { Hono, MiddlewareHandler } from "hono";
import type { RouteRegistry } from "./route-registry.js";

/** What every group of one App shares: the Hono instance routes go to, and the route registry. */
export interface AppCore {
  readonly hono: Hono;
  readonly registry: RouteRegistry;
}

type LooseOn = (method: string, path: string, ...handlers: MiddlewareHandler[]) => unknown;

/** Registers a handler chain on Hono (its typed overloads do not accept a spread chain). */
export function addHonoRoute(
  hono: Hono,
  method: string,
  path: string,
  chain: MiddlewareHandler[],
): void {
  (hono.on as unknown as LooseOn).call(hono, method, path, ...chain);
}
