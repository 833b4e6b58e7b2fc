import type { Context, MiddlewareHandler } from "hono";
import type { ParentGuardOptions } from "../app/route-guards.js";
import { WisentError } from "../base/wisent-error.js";
import type { Model } from "../data/model.js";
import { rememberParent } from "../resources/found-parents.js";
import { checkRule } from "./policy.js";
import { requireAuthentication } from "./require-authentication.js";

export type { ParentGuardOptions };

/**
 * The middleware of every route nested in an owned resource (`authors.resource("/books", ...)`
 * where authors are `{ ownedBy: "user_id" }`), or in one whose policy has a `show` rule, declared
 * after the routes' own middleware: a signed-in user, and the parent found as its own Show finds
 * it before anything nested runs. Another user's parent answers 404 (Rails'
 * `current_user.authors.find(params[:author_id])`); a parent its `show` rule refuses, 403. The
 * nested resource's own options still apply on top (its `ownedBy` scopes its records). Empty for
 * any other parent: a shared or public parent takes anyone its nested resource lets in. A shallow
 * route (no parent id in its path) is left to the nested resource alone.
 */
export function parentGuard(options: ParentGuardOptions): MiddlewareHandler[] {
  const { ownedBy, paramKey, policy } = options;
  const showRule = policy?.rules.show !== undefined ? policy : undefined;
  if (ownedBy === undefined && showRule === undefined) return [];
  const model = options.model as Partial<Model<never>> | undefined;
  if (!model || typeof model.find !== "function") {
    throw new WisentError(
      "E_APP_MISCONFIGURED",
      `${options.resource}: ownedBy and a policy's show rule need the resource's model to find the parent of its nested routes: add \`override readonly model = <Model>;\` to the class`,
    );
  }
  const find = model.find.bind(model);
  const guard: MiddlewareHandler = async (c: Context, next) => {
    const id = c.req.param(paramKey);
    const user = c.currentUser();
    // requireAuthentication() ran first, so a user is here; the check keeps the types honest.
    if (id !== undefined && user) {
      const scope = ownedBy !== undefined ? { [ownedBy]: user.id } : {};
      const parent = await find(await c.tx(), id, scope);
      if (showRule) await checkRule(c, showRule, "show", parent);
      // The handler's findParent takes it from here: one query for the parent a request.
      rememberParent(c, paramKey, model, parent);
    }
    await next();
  };
  return [requireAuthentication(), guard];
}
