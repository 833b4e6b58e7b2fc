import type { Env } from "../config/env.js";
import { hostSetting, portSetting } from "../config/settings.js";

/**
 * One row of the routes table, as `app.routes()` returns it (registration order = match order).
 *
 * @example
 * { method: "GET", host: "http://127.0.0.1:3000", path: "/widgets/{widget_id}/", aliases: [],
 *   name: "widgetPath", handler: "WidgetsResource.Show" }
 */
export interface RouteInfo {
  /** Upper-case HTTP method. */
  readonly method: string;
  /** The app's host, `http://127.0.0.1:3000` by default. */
  readonly host: string;
  /** The path template with a trailing slash: `/widgets/{widget_id}/`. */
  readonly path: string;
  /** Other paths that reach the same handler. */
  readonly aliases: readonly string[];
  /** The route name: `widgetPath`. */
  readonly name: string;
  /** Who answers: `WidgetsResource.Show`, `HomeHandler`. */
  readonly handler: string;
}

/**
 * The host printed in the routes table: `HOST` when it is a full URL, else
 * `http://<HOST or 127.0.0.1>:<PORT or 3000>`.
 * @example defaultHost({ PORT: "8080" }) // "http://127.0.0.1:8080"
 */
export function defaultHost(env: Env = process.env): string {
  const host = hostSetting(env);
  if (host && /^https?:\/\//.test(host)) return host.replace(/\/+$/, "");
  return `http://${host || "127.0.0.1"}:${portSetting(env) || "3000"}`;
}
