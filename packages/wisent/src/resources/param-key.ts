import { WisentError } from "../base/wisent-error.js";
import { paramKeyFromClassName, paramKeyFromPath } from "../naming/index.js";
import type { ResourceBase } from "./resource.js";

/** A class name that says which resource it is (`WidgetsResource`), as Buffalo names them. */
const RESOURCE_CLASS = /^[A-Za-z_$][\w$]*Resource$/;

/**
 * The path parameter of a resource mounted at `path`: its `static paramKey`, else its class name
 * when that names a resource (`WidgetsResource` -> `widget_id`), else the declared path (an
 * anonymous class, one a minifier renamed: `/widgets` -> `widget_id`). Throws when neither gives
 * one (a path without a word, such as `/{slug}`), so a route is never `/{_id}`.
 *
 * @example
 * resourceParamKey(new (class extends Resource {})(), "/widgets"); // "widget_id"
 */
export function resourceParamKey(resource: ResourceBase<string>, path: string): string {
  const ctor = resource.constructor as typeof ResourceBase;
  if (ctor.paramKey) return ctor.paramKey;
  if (RESOURCE_CLASS.test(ctor.name)) return paramKeyFromClassName(ctor.name);
  const fromPath = paramKeyFromPath(path);
  if (fromPath) return fromPath;
  const what = ctor.name ? `class ${ctor.name}` : "an anonymous class";
  throw new WisentError(
    "E_APP_MISCONFIGURED",
    `resource("${path}", ...): cannot name its path parameter: neither ${what} nor the path says which resource it is; name the class <Plural>Resource, mount it at a path ending in a word, or set static paramKey = "widget_id"`,
  );
}
