import type { Context } from "hono";
import type { ProxySettings } from "../http/client-address.js";
import type { RouteInfo } from "../routes/route-info.js";
import type { UntypedPathHelper } from "../routes/route-registry.js";

/**
 * What every request can know about the app that serves it. `App` sets it on each request as
 * `c.get("wisent")`, so middleware and helpers need no import of the App itself.
 */
export interface WisentRuntime {
  /** The app's name, e.g. `shop`; the session cookie is `_shop_session`. */
  readonly name: string;
  /** `GO_ENV`, else `NODE_ENV`, else `development` (read once when the App is made). */
  readonly env: string;
  /** An API app answers JSON by default and has no HTML views. */
  readonly api: boolean;
  /**
   * `TRUSTED_PROXIES` and `TRUSTED_PROXY_HEADER`, read on the first request that needs them and
   * kept for the App's life (the client's address and scheme read them; without it, each request
   * reads the environment).
   * @throws WisentError `E_CONFIG_INVALID` naming a malformed entry
   */
  readonly proxies?: () => ProxySettings;
  /**
   * `APP_URL`, read on the first request that needs it (absolute links, CSRF's own origin,
   * force-SSL's redirect) and kept for the App's life; without it, each request reads it.
   * @throws WisentError `E_CONFIG_INVALID` when it is not an http(s) URL
   */
  readonly appUrl?: () => URL | undefined;
  /**
   * Builds the path of a named route, e.g. `pathFor("widgetPath", { widget_id: 1 })` -> `/widgets/1`.
   * @param name - the route's name
   * @param params - its path parameters; others become the query string
   * @returns the path
   * @throws WisentError `E_APP_MISCONFIGURED` when no route has that name
   * @throws WisentError `E_APP_MISCONFIGURED` naming the route and the parameter when one is missing or does not match
   */
  pathFor(name: string, params?: Record<string, unknown>): string;
  /**
   * The path helper of every named route (`paths.widgetPath({ widget_id: 1 })`), the same
   * object for every request: templates read it instead of building helpers per page.
   */
  readonly paths: Readonly<Record<string, UntypedPathHelper>>;
  /**
   * Every route in match order (the development 404 page lists them).
   * @returns the routes table's rows
   */
  routes(): RouteInfo[];
  /**
   * The handler of the route that answers `method` and `path` (`WidgetsResource.Show`), or
   * undefined; for development's request log, which names it.
   * @param method - the request's method
   * @param path - the request's path
   * @returns the handler's name in the routes table, or undefined
   */
  handlerFor(method: string, path: string): string | undefined;
  /**
   * The development page of an unexpected error (Youch's) and the Content-Security-Policy it
   * needs, if any; the error answer uses it in development only.
   * @param err - the error
   * @param c - the request's context
   * @param status - the answer's status
   * @param title - the page's title
   * @returns the page's HTML and the CSP it needs
   */
  devErrorPage?(
    err: Error,
    c: Context,
    status: number,
    title: string,
  ): Promise<{ html: string; csp: string | undefined }>;
}

declare module "hono" {
  interface ContextVariableMap {
    /** The app serving this request (set by `App` before any middleware runs). */
    wisent: WisentRuntime;
  }
}
