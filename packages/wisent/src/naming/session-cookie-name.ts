import { underscore } from "./casing.js";

const cookieNames = new Map<string, string>();

/**
 * The session cookie's name: `_<app>_session` with the app name in snake case, as Rails names
 * it. The session middleware sets it and the OpenAPI document declares it.
 *
 * @param appName - the App's `name`
 * @returns `_<app_name>_session`
 * @example sessionCookieName("MyShop") // "_my_shop_session"
 */
export function sessionCookieName(appName: string): string {
  let name = cookieNames.get(appName);
  if (name === undefined) {
    name = `_${underscore(appName)}_session`;
    cookieNames.set(appName, name);
  }
  return name;
}
