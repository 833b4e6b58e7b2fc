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
    throw new TypeError(
      `paramKeyFromClassName: className must be a string, got ${typeof className}`,
    );
  }
  const base = className.endsWith(RESOURCE_SUFFIX)
    ? className.slice(0, -RESOURCE_SUFFIX.length)
    : className;
  const key = underscore(singularize(base)).toLowerCase();
  return key.endsWith(ID_SUFFIX) ? key : key + ID_SUFFIX;
}
