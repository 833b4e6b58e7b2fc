import type { Context } from "hono";
import { OWNER_SCOPE_KEY, OWNER_SCOPE_READ_KEY } from "../base/symbols.js";
import { contextExtension } from "../kernel/context-extensions.js";

/** The column that holds a record's owner and the owner's id: `{ user_id: "0190…" }`. */
export type OwnerScope = Readonly<Record<string, string>>;

declare module "hono" {
  interface Context {
    /**
     * On the routes of a resource declared with `ownedBy` (`app.resource("/notes", ..., { ownedBy:
     * "user_id" })`): the signed-in user's records, as the `where` of a model query
     * (`{ user_id: <the user's id> }`); `{}` on every other route. A list handler passes it on,
     * so that it lists only the user's own records.
     *
     * @returns the owner column and the user's id, or `{}`. Asking for it marks an owned List as
     *   scoped: one whose handler never asks fails with `E_APP_MISCONFIGURED`, since it would
     *   list every user's records
     * @example
     * const page = await Note.paginate(await c.tx(), c.req.query(), c.ownerScope());
     */
    ownerScope(): OwnerScope;
  }
}

const SCOPE: typeof OWNER_SCOPE_KEY = OWNER_SCOPE_KEY;
const READ: typeof OWNER_SCOPE_READ_KEY = OWNER_SCOPE_READ_KEY;
type Marked = Context & { [SCOPE]?: OwnerScope; [READ]?: true };
const NONE: OwnerScope = Object.freeze({});

/** `c.ownerScope` (installed by the App, see kernel/context-extensions.ts). */
export const ownerScopeExtension = contextExtension(
  "ownerScope",
  function ownerScope(this: Context) {
    const marked = this as Marked;
    marked[READ] = true;
    return marked[SCOPE] ?? NONE;
  },
);

/** Sets the request's owner scope (the framework does, on the routes of an owned resource). */
export function setOwnerScope(c: Context, scope: OwnerScope): void {
  (c as Marked)[SCOPE] = scope;
}

/** The request's owner scope without counting as a read (for `c.bind()`), or undefined. */
export function ownerScopeOf(c: Context): OwnerScope | undefined {
  return (c as Marked)[SCOPE];
}

/** Whether the handler asked for `c.ownerScope()` (an owned list that never did lists everyone's). */
export function ownerScopeWasRead(c: Context): boolean {
  return (c as Marked)[READ] === true;
}
