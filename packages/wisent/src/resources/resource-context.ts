import type { Context, Env, HonoRequest } from "hono";

/**
 * A request whose `param(name)` takes only the route's path parameters: `c.req.param("postid")`
 * in a handler of `/posts/{post_id}` fails `tsc` naming the parameter it takes
 * (`Argument of type '"postid"' is not assignable to parameter of type '"post_id"'`), where
 * Hono's own `param(key: string)` would accept it and answer `undefined`.
 */
// `any` path, as Hono's own `Context` defaults; `never`: the validated-input slot of HonoRequest,
// unused by resources; any other choice makes this interface unassignable to Hono's `Context`.
// biome-ignore lint/suspicious/noExplicitAny: see above
export interface ParamRequest<Keys extends string> extends HonoRequest<any, never> {
  /**
   * The value of the path parameter `name` (always present on the routes that declare it).
   * @param name - one of the route's path parameters (`tsc` refuses any other)
   * @returns its value, decoded
   */
  param<N extends Keys>(name: N): string;
  /**
   * Every path parameter of the request.
   * @returns the parameters by name
   */
  param(): Record<Keys, string>;
}

/**
 * The context of a resource's handlers, its path parameters named: the resource's own key and,
 * for a nested resource, its parents'. Still a Hono `Context` everywhere one is asked for.
 * A handler asking for a parameter its route lacks is also an error at run time in development,
 * with a "did you mean".
 *
 * @example
 * type RouteContext = ResourceContext<"post_id" | "comment_id">;
 * class CommentsResource extends Resource<"comment_id"> {
 *   override async show(c: RouteContext) {
 *     const post = await Post.find(await c.tx(), c.req.param("post_id")); // string
 *     c.req.param("postid"); // tsc: '"postid"' is not assignable to '"post_id" | "comment_id"'
 *   }
 * }
 */
// biome-ignore lint/suspicious/noExplicitAny: `any` as Hono's own `Context` defaults, so it stays assignable to it
export interface ResourceContext<Keys extends string, E extends Env = any> extends Context<E, any> {
  /** The request, whose `param(name)` takes only the route's path parameters. */
  readonly req: ParamRequest<Keys>;
}
