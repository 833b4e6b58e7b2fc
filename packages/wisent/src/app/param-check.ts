import type { Handler } from "hono";
import { WisentError } from "../base/wisent-error.js";
import { didYouMean } from "../naming/did-you-mean.js";

/** The path parameter names of a route in Hono's syntax: `/posts/:post_id` -> `["post_id"]`. */
export function pathParamNames(honoPath: string): string[] {
  return [...honoPath.matchAll(/:(\w+)/g)].map((m) => m[1]!);
}

/**
 * The message for a handler asking for a path parameter its route does not have.
 *
 * @example
 * unknownParamMessage("postid", ["post_id"]);
 * // 'c.req.param("postid"): this route has no path parameter "postid" (did you mean "post_id"?); it has post_id'
 */
export function unknownParamMessage(name: string, known: readonly string[]): string {
  const suggestion = didYouMean(name, known);
  const has = known.length === 0 ? "it has none" : `it has ${known.join(", ")}`;
  return `c.req.param(${JSON.stringify(name)}): this route has no path parameter ${JSON.stringify(name)}${suggestion ? ` (did you mean ${JSON.stringify(suggestion)}?)` : ""}; ${has}`;
}

/**
 * Wraps a route's handler (development only) so that `c.req.param(name)` for a name the route
 * lacks throws, saying which it meant, instead of answering `undefined` for a later, unrelated
 * error. Only the handler is watched: middleware may probe parameters that some routes lack.
 */
export function checkingParams(handler: Handler, honoPath: string): Handler {
  const known = pathParamNames(honoPath);
  return (c, next) => {
    const req = c.req;
    const param = req.param.bind(req) as (name?: string) => unknown;
    Object.defineProperty(req, "param", {
      configurable: true,
      value: (name?: string) => {
        if (name !== undefined && !known.includes(name)) {
          throw new WisentError("E_APP_MISCONFIGURED", unknownParamMessage(name, known));
        }
        return param(name);
      },
    });
    return handler(c, next);
  };
}
