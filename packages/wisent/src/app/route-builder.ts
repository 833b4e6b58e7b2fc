import type { Handler, MiddlewareHandler } from "hono";
import { pathName } from "../naming/index.js";
import { parsePathTemplate } from "../routes/path-template.js";
import type { RouteInfo } from "../routes/route-info.js";
import type { RouteRecord } from "../routes/route-registry.js";
import { type AppCore, addHonoRoute } from "./app-core.js";

/**
 * Returned by `app.get(...)` and friends: rename the route or give it aliases.
 *
 * @example
 * app.get("/peeps", PeepsHandler).name("myPeeps"); // myPeepsPath
 * app.get("/", HomeHandler).alias("/home", "/index");
 */
export class RouteBuilder {
  constructor(
    private readonly core: AppCore,
    private readonly record: RouteRecord,
    private readonly middleware: readonly MiddlewareHandler[],
    private readonly handler: Handler,
  ) {}

  /**
   * Names the route (`cool` -> `coolPath`).
   * @param name - the name, camelized, with `Path` appended unless present
   * @returns the route, for chaining
   * @throws WisentError `E_APP_MISCONFIGURED` when a route with another path has that name
   * @throws WisentError `E_INVALID_ARGUMENT` when the name is empty or has no letters or digits
   */
  name(name: string): this {
    this.core.registry.rename(this.record, pathName(name));
    return this;
  }

  /**
   * Other paths that reach this handler (they keep the route's name and middleware).
   * @param paths - full paths (not under the group's prefix), with `{parameters}` as the route's
   * @returns the route, for chaining
   * @throws WisentError `E_APP_MISCONFIGURED` when a path has a malformed or repeated `{parameter}`
   */
  alias(...paths: string[]): this {
    for (const path of paths) {
      const template = parsePathTemplate(path);
      this.record.aliases.push(template.display);
      addHonoRoute(this.core, this.record.method, template.honoPath, this.middleware, this.handler);
    }
    return this;
  }

  /** The route as the routes table shows it. */
  get info(): RouteInfo {
    return this.core.registry
      .routes()
      .find((r) => r.name === this.record.name && r.path === this.record.path.display)!;
  }
}
