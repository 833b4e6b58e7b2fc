import type { MiddlewareHandler } from "hono";
import { MIDDLEWARE_NEEDS_KEY, MIDDLEWARE_PROVIDES_KEY } from "../base/symbols.js";
import { WisentError } from "../base/wisent-error.js";

/**
 * What a middleware needs before it in its route's stack (`csrf()` needs `session()`), checked
 * when a route is declared and when the App is given middleware, so an app that would fail on
 * every request fails at start-up instead, naming the missing middleware.
 */

const PROVIDES: typeof MIDDLEWARE_PROVIDES_KEY = MIDDLEWARE_PROVIDES_KEY;
const NEEDS: typeof MIDDLEWARE_NEEDS_KEY = MIDDLEWARE_NEEDS_KEY;
type Tagged = MiddlewareHandler & {
  [PROVIDES]?: string;
  [NEEDS]?: { readonly name: string; readonly needs: string; readonly fix: string };
};

/**
 * Marks `middleware` as the one named `name` (`"session()"`), for {@link needsBefore}.
 *
 * @example
 * return provides(phased({ before }), "session()");
 */
export function provides<M extends MiddlewareHandler>(middleware: M, name: string): M {
  (middleware as Tagged)[PROVIDES] = name;
  return middleware;
}

/**
 * Marks `middleware` (named `name`) as needing the middleware `needs` earlier in the stack.
 *
 * @example
 * return needsBefore(phased({ before }), "csrf()", "session()", "app.use(session()) before app.use(csrf())");
 */
export function needsBefore<M extends MiddlewareHandler>(
  middleware: M,
  name: string,
  needs: string,
  fix: string,
): M {
  (middleware as Tagged)[NEEDS] = { name, needs, fix };
  return middleware;
}

/** Throws an Error naming the first middleware of `stack` whose needed middleware is not before it. */
export function checkMiddlewareNeeds(stack: readonly MiddlewareHandler[]): void {
  const seen = new Set<string>();
  for (const fn of stack) {
    const need = (fn as Tagged)[NEEDS];
    if (need && !seen.has(need.needs)) {
      throw new WisentError(
        "E_APP_MISCONFIGURED",
        `${need.name} needs the ${need.needs} middleware before it, and this app's routes do not have it there: ${need.fix}`,
      );
    }
    const name = (fn as Tagged)[PROVIDES];
    if (name) seen.add(name);
  }
}
