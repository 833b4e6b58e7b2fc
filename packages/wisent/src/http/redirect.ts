import type { Context } from "hono";
import { WisentError } from "../base/wisent-error.js";
import { contextExtension } from "../kernel/context-extensions.js";
import { formatVariesOnAccept } from "./format.js";

declare module "hono" {
  interface Context {
    /**
     * Redirects to a named route or a path. A name (`widgetPath`) is resolved with the app's
     * path helpers and `params`; a string starting with `/` or a full URL is used as it is.
     * A redirect chosen by the client's format (HTML gets a redirect, JSON a 201) carries
     * `Vary: Accept`.
     *
     * @param status - 303 after a form's POST/PUT/DELETE; 301, 302, 307 or 308 otherwise
     * @param routeNameOrPath - a route name (`widgetPath`), a path (`/widgets`) or a full URL
     * @param params - the route's path parameters; others become the query string
     * @returns the redirect response
     * @throws WisentError `E_APP_MISCONFIGURED` when the status is not a redirect status
     * @throws WisentError `E_APP_MISCONFIGURED` when no route has that name
     * @throws WisentError `E_APP_MISCONFIGURED` when a path parameter of the route is missing or does not match its pattern,
     *   or a route name is given outside an App
     * @example
     * return c.redirectTo(303, "widgetPath", { widget_id: widget.id });
     * return c.redirectTo(303, "/widgets");
     */
    redirectTo(
      status: RedirectStatus,
      routeNameOrPath: RouteName | `/${string}` | `${string}://${string}`,
      params?: Record<string, unknown>,
    ): Response;
  }
}

/**
 * What an app tells the type checker about itself. A web app made by `wisent new` registers its
 * path helpers in src/app.ts (see `PathsOf`), so `c.redirectTo(303, "postPth")` fails
 * type-checking:
 *
 * @example
 * declare module "wisent" {
 *   interface Register {
 *     paths: PathsOf<typeof import("./app.js"), "rootPath">;
 *   }
 * }
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled in by the app's declaration merging
export interface Register {}

/** The app's route names (`widgetPath`, ...) once it has a {@link Register}ed `paths`; else any string. */
export type RouteName = Register extends { paths: infer P } ? Extract<keyof P, string> : string;

/** The redirect statuses `redirectTo` accepts. */
export type RedirectStatus = 301 | 302 | 303 | 307 | 308;

/** Resolves a route name or path to the URL a redirect should point at. */
export function resolveLocation(
  c: Context,
  target: string,
  params?: Record<string, unknown>,
): string {
  if (target.startsWith("/") || /^[a-z][a-z0-9+.-]*:\/\//i.test(target)) return target;
  const runtime = c.get("wisent");
  if (!runtime) {
    throw new WisentError(
      "E_APP_MISCONFIGURED",
      `redirectTo("${target}"): route names need the App (use a path starting with "/")`,
    );
  }
  return runtime.pathFor(target, params);
}

/**
 * The redirect `c.redirectTo` and `c.respond`'s `redirect` answer with.
 * @throws WisentError `E_APP_MISCONFIGURED` when the status is not a redirect status
 */
export function redirectResponse(
  c: Context,
  status: RedirectStatus,
  target: string,
  params?: Record<string, unknown>,
): Response {
  if (![301, 302, 303, 307, 308].includes(status)) {
    throw new WisentError(
      "E_APP_MISCONFIGURED",
      `redirectTo: status must be 301, 302, 303, 307 or 308 (got ${status})`,
    );
  }
  // A redirect chosen because the client asked for HTML (a JSON client gets 201): Vary: Accept.
  if (formatVariesOnAccept(c)) c.header("Vary", "Accept");
  return c.redirect(resolveLocation(c, target, params), status);
}

function redirectTo(
  this: Context,
  status: RedirectStatus,
  target: string,
  params?: Record<string, unknown>,
): Response {
  return redirectResponse(this, status, target, params);
}

/** `c.redirectTo` (installed by the App, see kernel/context-extensions.ts). */
export const redirectToExtension = contextExtension("redirectTo", redirectTo);
