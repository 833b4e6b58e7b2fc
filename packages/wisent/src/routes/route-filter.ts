import { WisentError } from "../base/wisent-error.js";
import type { RouteInfo } from "./route-info.js";

/** Which routes `wisent routes` prints: each given field must match (all of them). */
export interface RouteFilter {
  readonly method?: string;
  readonly name?: string;
  readonly path?: string;
  readonly handler?: string;
}

/**
 * A matcher for one filter value: `/regex/flags` is a regular expression, anything else a
 * case-insensitive substring. Throws an Error naming the option for a malformed regex.
 * @example valueMatcher("name", "/^widget/")("widgetPath") // true
 * @example valueMatcher("handler", "images")("ImagesResource.List") // true
 */
export function valueMatcher(option: string, value: string): (text: string) => boolean {
  const regex = /^\/(.*)\/([a-z]*)$/s.exec(value);
  if (regex) {
    let compiled: RegExp;
    try {
      compiled = new RegExp(regex[1]!, regex[2]);
    } catch (error) {
      throw new WisentError("E_USAGE", `--${option}: ${(error as Error).message}`);
    }
    return (text) => compiled.test(text);
  }
  const needle = value.toLowerCase();
  return (text) => text.toLowerCase().includes(needle);
}

/**
 * The routes matching every given filter, in their order. `method` matches the whole method
 * (`get` or `GET`; `/^P/` for POST, PUT and PATCH); the others substrings or regexes.
 * @example filterRoutes(app.routes(), { method: "get", name: "/^widget/" })
 */
export function filterRoutes(routes: readonly RouteInfo[], filter: RouteFilter): RouteInfo[] {
  const checks: ((route: RouteInfo) => boolean)[] = [];
  if (filter.method !== undefined) {
    const method = filter.method;
    if (/^\/.*\/[a-z]*$/s.test(method)) {
      const match = valueMatcher("method", method);
      checks.push((route) => match(route.method));
    } else {
      const wanted = method.toUpperCase();
      checks.push((route) => route.method === wanted);
    }
  }
  for (const field of ["name", "path", "handler"] as const) {
    const value = filter[field];
    if (value === undefined) continue;
    const match = valueMatcher(field, value);
    checks.push(
      field === "path"
        ? (route) => match(route.path) || route.aliases.some(match)
        : (route) => match(route[field]),
    );
  }
  return routes.filter((route) => checks.every((check) => check(route)));
}
