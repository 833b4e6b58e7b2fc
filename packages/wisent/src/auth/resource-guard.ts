import type { Context, MiddlewareHandler } from "hono";
import type { ResourceGuardOptions } from "../app/route-guards.js";
import { WisentError } from "../base/wisent-error.js";
import type { Model } from "../data/model.js";
import { ownerScopeWasRead, setOwnerScope } from "../http/owner-scope.js";
import { checkRule, setRoutePolicy } from "./policy.js";

export type { ResourceGuardOptions };

/** The rule a route asks: Edit asks `update`, New asks `create`, the others their own name. */
function ruleName(options: ResourceGuardOptions): string {
  if (options.operation === "edit") return "update";
  if (options.operation === "new") return "create";
  return options.action;
}

/** The model's `find`, which `ownedBy` and a record's rule need to load the record. */
function findOf(options: ResourceGuardOptions): Model<never>["find"] {
  const model = options.model as Partial<Model<never>> | undefined;
  if (!model || typeof model.find !== "function") {
    throw new WisentError(
      "E_APP_MISCONFIGURED",
      `${options.resource}: ownedBy and a policy on a record need the resource's model to find the record: add \`override readonly model = <Model>;\` to the class`,
    );
  }
  return model.find.bind(model);
}

/**
 * The middleware `app.resource(...)` adds to a route of a resource declared with `ownedBy` or a
 * `policy` (after `requireAuthentication()`): it sets `c.ownerScope()`, finds the record of a
 * member route within it (another user's is a 404, before the handler runs), asks the policy's
 * rule, and refuses a collection route of an owned resource (List, and every declared collection
 * route: `search`, `export`) whose handler never asked for `c.ownerScope()` (it would answer with
 * every user's records). Undefined when the route needs no guard.
 */
export function resourceGuard(options: ResourceGuardOptions): MiddlewareHandler | undefined {
  const { ownedBy, policy } = options;
  const rule = policy?.rules[ruleName(options)] ? ruleName(options) : undefined;
  if (ownedBy === undefined && rule === undefined) return undefined;
  const withRecord = options.member && (ownedBy !== undefined || rule !== undefined);
  const find = withRecord ? findOf(options) : undefined;
  // Every route that answers for the collection, not only List: a declared `search` lists too.
  const checksList =
    ownedBy !== undefined &&
    (options.operation === "list" || (options.operation === undefined && !options.member));
  return async (c: Context, next) => {
    const user = c.currentUser();
    const scope = ownedBy !== undefined && user ? { [ownedBy]: user.id } : {};
    if (ownedBy !== undefined && user) setOwnerScope(c, scope);
    if (policy) setRoutePolicy(c, policy);
    let record: unknown;
    if (find) record = await find(await c.tx(), c.req.param(options.paramKey) ?? "", scope);
    if (policy && rule) await checkRule(c, policy, rule, record);
    await next();
    if (checksList && !ownerScopeWasRead(c)) {
      throw new WisentError(
        "E_APP_MISCONFIGURED",
        `${options.resource}.${options.action} never asked for c.ownerScope(): the resource is declared with ownedBy, and this route of its collection would answer with every user's records. Pass it to the query: Model.paginate(await c.tx(), c.req.query(), c.ownerScope()), or Model.query(tx, c.ownerScope())`,
      );
    }
  };
}
