import type { Context, MiddlewareHandler } from "hono";
import type { Model } from "../data/model.js";
import type { ResourceModel } from "../resources/resource.js";
import { requireAuthentication } from "./require-authentication.js";

/** The parent resource whose nested routes {@link ownedParentGuard} protects. */
export interface OwnedParentOptions {
  /** The parent's handler class, for messages: `AuthorsResource`. */
  readonly resource: string;
  /** The parent's owner column (`ownedBy`); undefined when the parent is not owned. */
  readonly ownedBy: string | undefined;
  readonly model: ResourceModel | undefined;
  /** The parent's path parameter (`author_id`). */
  readonly paramKey: string;
}

/**
 * The middleware of every route nested in an owned resource (`authors.resource("/books", ...)`
 * where authors are `{ ownedBy: "user_id" }`), declared after the routes' own middleware: a
 * signed-in user, and the parent found among that user's own records before anything nested runs,
 * so another user's parent answers 404 as its own Show would (Rails'
 * `current_user.authors.find(params[:author_id])`). The nested resource's own options still apply
 * on top (its `ownedBy` scopes its records). Empty when the parent is not owned: a shared or public
 * parent takes anyone its nested resource lets in. A shallow route (no parent id in its path) is
 * left to the nested resource alone.
 */
export function ownedParentGuard(options: OwnedParentOptions): MiddlewareHandler[] {
  const { ownedBy, paramKey } = options;
  if (ownedBy === undefined) return [];
  const model = options.model as Partial<Model<never>> | undefined;
  if (!model || typeof model.find !== "function") {
    throw new Error(
      `${options.resource}: ownedBy needs the resource's model to find the parent of its nested routes: add \`override readonly model = <Model>;\` to the class`,
    );
  }
  const find = model.find.bind(model);
  const guard: MiddlewareHandler = async (c: Context, next) => {
    const id = c.req.param(paramKey);
    const user = c.currentUser();
    // requireAuthentication() ran first, so a user is here; the check keeps the types honest.
    if (id !== undefined && user) await find(await c.tx(), id, { [ownedBy]: user.id });
    await next();
  };
  return [requireAuthentication(), guard];
}
