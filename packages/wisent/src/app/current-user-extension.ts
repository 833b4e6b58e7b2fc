import type { Context } from "hono";
import { CURRENT_USER_KEY } from "../base/symbols.js";
import { contextExtension } from "../kernel/context-extensions.js";

const USER: typeof CURRENT_USER_KEY = CURRENT_USER_KEY;

/**
 * `c.currentUser` (installed by the App, see kernel/context-extensions.ts): the user
 * `wisent/auth`'s authentication set on the request, or undefined (always, in an app without
 * it). Its type is declared by auth/current-user.ts.
 */
export const currentUserExtension = contextExtension(
  "currentUser",
  function currentUser(this: Context) {
    return (this as Context & { [USER]?: unknown })[USER];
  },
);
