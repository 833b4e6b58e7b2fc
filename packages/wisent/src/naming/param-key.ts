import { WisentError } from "../base/wisent-error.js";
import { underscore } from "./casing.js";
import { singularize } from "./inflection.js";

const RESOURCE_SUFFIX = "Resource";
const ID_SUFFIX = "_id";

/**
 * The path parameter name for a resource class, Buffalo's rule: strip a trailing `Resource`
 * (case-sensitive), singularize the last word, underscore, lower-case, and append `_id` unless
 * it already ends in `_id`. Unlike Buffalo (flect), `MenusResource` gives `menu_id`.
 * @example paramKeyFromClassName("UserProfilesResource") // "user_profile_id"
 * @example paramKeyFromClassName("PeopleResource") // "person_id"
 */
export function paramKeyFromClassName(className: string): string {
  if (typeof className !== "string") {
    throw new WisentError(
      "E_INVALID_ARGUMENT",
      `paramKeyFromClassName: className must be a string, got ${typeof className}`,
    );
  }
  const base = className.endsWith(RESOURCE_SUFFIX)
    ? className.slice(0, -RESOURCE_SUFFIX.length)
    : className;
  const key = underscore(singularize(base)).toLowerCase();
  return key.endsWith(ID_SUFFIX) ? key : key + ID_SUFFIX;
}

/**
 * The path parameter name a resource's declared path gives: its last static segment, singular
 * and underscored (`/widgets` -> `widget_id`, `/admin/user-profiles` -> `user_profile_id`);
 * undefined when the path has no static segment (`/`, `/{slug}`).
 * @example paramKeyFromPath("/widgets") // "widget_id"
 */
export function paramKeyFromPath(path: string): string | undefined {
  const word = path
    .split("/")
    .filter((segment) => segment !== "" && !segment.includes("{") && !segment.includes(":"))
    .at(-1);
  if (word === undefined || !/^[A-Za-z][A-Za-z0-9_.-]*$/.test(word)) return undefined;
  const key = underscore(singularize(word.replace(/[-.]/g, "_"))).toLowerCase();
  return key.endsWith(ID_SUFFIX) ? key : key + ID_SUFFIX;
}
