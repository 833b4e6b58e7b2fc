import { WisentError } from "../base/wisent-error.js";
import { camelize } from "./casing.js";
import { isUncountable, singularize } from "./inflection.js";

/** Options for `routeNameForPath`. */
export interface RouteNameOptions {
  /**
   * The path is a resource's collection route (List/Create). When its last named word is
   * uncountable (`/news`), `Index` is appended as Rails does (`newsIndexPath`), so that it does
   * not collide with the member route (`/news/{news_id}` -> `newsPath`). Buffalo has no such rule.
   */
  readonly collection?: boolean;
  /**
   * A declared member or collection route's action, which leads the name as `new`/`edit` do
   * (the `edit<Singular>Path` style of docs/guides/routing.md): `routeNameForPath("/widgets/{widget_id}",
   * { action: "publish" })` -> `publishWidgetPath`. The path is the member's (or, with
   * `collection`, the collection's) path, without the action's own segment.
   */
  readonly action?: string;
}

const PATH_SUFFIX = "Path";

/**
 * The route name for a path, Buffalo's `NameRoute` (v0.16.5+) followed by {@link pathName}:
 * `{param}` segments named after the previous segment are dropped, a segment before a `{param}`
 * is singularized, `new`/`edit` move to the front.
 * @example routeNameForPath("/widgets/{widget_id}/edit/") // "editWidgetPath"
 * @example routeNameForPath("/") // "rootPath"
 */
export function routeNameForPath(path: string, options: RouteNameOptions = {}): string {
  if (typeof path !== "string") {
    throw new WisentError(
      "E_INVALID_ARGUMENT",
      `routeNameForPath: path must be a string, got ${typeof path}`,
    );
  }
  const name = nameRoute(path, options.collection === true);
  return pathName(options.action ? camelize(`${options.action}_${name}`) : name);
}

/** Buffalo's `NameRoute` without the `Path` suffix. */
function nameRoute(path: string, collection: boolean): string {
  if (path === "/" || path === "") return "root";
  const segments = path.split("/");
  const words: string[] = [];
  let lastWasSingularized = false;
  let hasAction = false;
  segments.forEach((segment, i) => {
    const prev = segments[i - 1] ?? "";
    const next = segments[i + 1] ?? "";
    // Every string contains "", so a {param} right after the root is always dropped, as in Buffalo.
    const namedAfterPrev = segment.includes("{") && segment.includes(singularize(prev));
    if (segment === "" || segment === "{id}" || namedAfterPrev) return;
    const singular = next.includes("{");
    const word = singular ? singularize(segment) : segment;
    if (segment === "new" || segment === "edit") {
      words.unshift(word);
      hasAction = true;
    } else {
      words.push(word);
      lastWasSingularized = singular;
    }
  });
  if (words.length === 0) return "unnamed";
  const last = words[words.length - 1]!;
  if (collection && !hasAction && !lastWasSingularized && isUncountable(last)) words.push("index");
  return camelize(words.join("_"));
}

/**
 * A route name as `RouteInfo.Name` stores it: camelized, with `Path` appended unless present.
 * @example pathName("coco_path") // "cocoPath"
 * @example pathName("fooID") // "fooIDPath"
 */
export function pathName(name: string): string {
  if (typeof name !== "string" || name.trim() === "") {
    throw new WisentError(
      "E_INVALID_ARGUMENT",
      `pathName: name must be a non-empty string, got ${JSON.stringify(name)}`,
    );
  }
  const camel = camelize(name);
  if (camel === "") {
    throw new WisentError(
      "E_INVALID_ARGUMENT",
      `pathName: name ${JSON.stringify(name)} has no letters or digits`,
    );
  }
  return camel.endsWith(PATH_SUFFIX) ? camel : camel + PATH_SUFFIX;
}
