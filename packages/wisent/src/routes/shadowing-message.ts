import { WisentError } from "../base/wisent-error.js";
import type { CheckedRoute, ShadowedRoute } from "./shadowing.js";

function describe(route: CheckedRoute): string {
  const where = route.declaredAt ? ` declared at ${route.declaredAt}` : "";
  return `${route.method} ${route.path.display} (${route.name}, ${route.handler})${where}`;
}

/**
 * The fix for a shadowed route: a route under a resource's collection that Show takes for an id
 * is better declared as a collection route; anything else goes before the route that wins.
 */
function fixFor({ route, by }: ShadowedRoute): string {
  if (route.path.template === by.path.template) {
    return "the same method and path are declared twice: remove one of them";
  }
  const isResourceRoute = /\.[A-Z]\w*$/.test(by.handler);
  const action = route.path.template.slice(route.path.template.lastIndexOf("/") + 1);
  const parent = (template: string) => template.slice(0, template.lastIndexOf("/"));
  const underCollection =
    isResourceRoute &&
    by.path.template.endsWith("}") &&
    parent(route.path.template) === parent(by.path.template) &&
    /^[a-z][a-z0-9_]*$/.test(action);
  if (underCollection) {
    return `declare it before the resource, or use collection: { ${action}: "${route.method.toLowerCase()}" } on the resource at ${parent(by.path.template) || "/"}`;
  }
  return `declare it before ${by.method} ${by.path.display}`;
}

/**
 * One shadowed route in words: both routes, where each was declared, and the fix.
 * @example
 * formatShadowedRoute({ route: search, by: show })
 * // "GET /widgets/search/ (widgetsSearchPath, SearchHandler) declared at src/app.ts:14:5 can never
 * //  match: GET /widgets/{widget_id}/ (widgetPath, WidgetsResource.Show) declared at src/app.ts:12:1
 * //  is declared earlier and matches every request it would; declare it before the resource, ..."
 */
export function formatShadowedRoute(shadowed: ShadowedRoute): string {
  return `${describe(shadowed.route)} can never match: ${describe(shadowed.by)} is declared earlier and matches every request it would; ${fixFor(shadowed)}`;
}

/** The start-up error for shadowed routes: one line per route. */
export function shadowedRoutesError(shadowed: readonly ShadowedRoute[]): Error {
  const lines = shadowed.map((s) => `- ${formatShadowedRoute(s)}`);
  return new WisentError(
    "E_APP_MISCONFIGURED",
    `${shadowed.length === 1 ? "a route" : `${shadowed.length} routes`} can never match:\n${lines.join("\n")}`,
  );
}
