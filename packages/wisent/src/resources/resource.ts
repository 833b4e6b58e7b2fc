import type { Context, MiddlewareHandler } from "hono";
import type { z } from "zod";
import { HttpError } from "../base/http-error.js";
import { paramKeyFromClassName } from "../naming/index.js";
import { rememberedParent } from "./found-parents.js";
import type { OperationDoc } from "./operation-doc.js";

/** What a resource operation returns. */
export type HandlerResult = Response | Promise<Response>;

/**
 * What a resource needs of its model to describe itself: the name and the zod schema of the
 * writable fields (any `defineModel(...)` result is one). OpenAPI and the typed client read it.
 */
export interface ResourceModel<S extends z.ZodObject = z.ZodObject> {
  readonly name: string;
  readonly schema: S;
  /** Its table (a model of `defineModel` has it): the OpenAPI document finds who points to it. */
  readonly table?: string;
  /** Foreign keys and their tables: a 422 for a missing record, a 409 deleting a referenced one. */
  readonly references?: Readonly<Record<string, { readonly table: string }>>;
}

/** The error every default operation of {@link Resource} throws. */
export const NOT_IMPLEMENTED = "resource not implemented";

/**
 * What every resource has besides its operations: the path parameter, its middleware and the
 * name the routes table shows. Extend it directly when a resource declares only some routes
 * (`only: [...]`): the type of `app.resource(...)` then asks for just the handlers it routes.
 *
 * @example
 * class ReportsResource extends ResourceBase<"report_id"> {
 *   list(c: Context) { return c.json([]); }
 * }
 * app.resource("/reports", new ReportsResource(), { only: ["list"] });
 */
export abstract class ResourceBase<K extends string = string> {
  /** Overrides the path parameter name derived from the class name. */
  static paramKey?: string;

  /**
   * The model this resource serves (`override readonly model = Widget;`): its input schema is the
   * create/update body and its record the answer, in the OpenAPI document and the typed client.
   */
  declare readonly model?: ResourceModel;

  /**
   * What operations without a model (or answering other than its records) take and answer, by
   * method name, for the OpenAPI document: `override readonly docs = { create: { body: SignUp,
   * responses: { 201: { description: "The account", body: Account } } } };`
   */
  declare readonly docs?: Readonly<Record<string, OperationDoc>>;

  /**
   * Middleware for this resource's routes only (Buffalo's `Use()`), run after the app's and
   * before the handler; it also reaches the resources nested in this one. Override it.
   * @returns the middleware, in order; none by default
   * @example override middleware() { return [requireAuthentication()]; }
   */
  middleware(): MiddlewareHandler[] {
    return [];
  }

  /** The path parameter its class name gives: `widget_id` (`resource()` may take it from the path). */
  get paramKey(): K {
    const ctor = this.constructor as typeof ResourceBase;
    return (ctor.paramKey ?? paramKeyFromClassName(ctor.name)) as K;
  }

  /**
   * The parent record of a nested route (`/authors/{author_id}/books`), Rails'
   * `before_action :set_author`: the one the route's guard found already when the parent is owned
   * (`ownedBy`) or has a policy with a `show` rule, else `model.find(tx, id)` (404 when missing).
   * One query for the parent a request, not one in the guard and another here.
   *
   * @param c - the request's context
   * @param tx - the transaction or database to read with (`await c.tx()`)
   * @param model - the parent's model
   * @param paramKey - the parent's path parameter (`author_id`)
   * @returns the parent record
   * @throws HttpError 404 (`E_HTTP`) when the route's path has no `paramKey`, or the parent does
   *   not exist (`model.find`'s 404)
   * @example
   * const author = await this.findParent(c, tx, Author, "author_id");
   */
  protected async findParent<T, R>(
    c: Context,
    tx: T,
    model: { find(tx: T, id: string): Promise<R> },
    paramKey: string,
  ): Promise<R> {
    const remembered = rememberedParent(c, paramKey, model);
    if (remembered) return remembered.record as R;
    const id = c.req.param(paramKey);
    if (id === undefined) throw new HttpError(404, `no ${paramKey} in this route's path`);
    return model.find(tx, id);
  }

  /** The class name shown in the routes table's HANDLER column: `WidgetsResource`. */
  get handlerName(): string {
    // An anonymous subclass (`new (class extends WidgetsResource {})()`) shows the class it extends.
    for (let ctor = this.constructor; ctor && ctor !== Object; ctor = Object.getPrototypeOf(ctor)) {
      if (ctor.name) return ctor.name;
    }
    return "Resource";
  }
}

/**
 * The four operations on one record that {@link Resource} and {@link SingletonResource} share,
 * each answering 404 `resource not implemented` until overridden.
 */
export abstract class RecordOperations<K extends string = string> extends ResourceBase<K> {
  /**
   * GET /widgets/{widget_id} (a singleton: GET /profile). The Show operation: one record. Override it to serve the route.
   * @param _c - the request's context (declare it `ResourceContext<"widget_id">` for typed params)
   * @returns the response
   * @throws HttpError 404 (`E_HTTP`) `resource not implemented`, until overridden
   */
  show(_c: Context): HandlerResult {
    throw new HttpError(404, NOT_IMPLEMENTED);
  }
  /**
   * POST /widgets (a singleton: POST /profile). The Create operation: stores a new record. Override it to serve the route.
   * @param _c - the request's context (declare it `ResourceContext<"widget_id">` for typed params)
   * @returns the response
   * @throws HttpError 404 (`E_HTTP`) `resource not implemented`, until overridden
   */
  create(_c: Context): HandlerResult {
    throw new HttpError(404, NOT_IMPLEMENTED);
  }
  /**
   * PUT /widgets/{widget_id} (a singleton: PUT /profile). The Update operation (and PATCH with
   * the `patch` option): changes a record. Override it to serve the route.
   * @param _c - the request's context (declare it `ResourceContext<"widget_id">` for typed params)
   * @returns the response
   * @throws HttpError 404 (`E_HTTP`) `resource not implemented`, until overridden
   */
  update(_c: Context): HandlerResult {
    throw new HttpError(404, NOT_IMPLEMENTED);
  }
  /**
   * DELETE /widgets/{widget_id} (a singleton: DELETE /profile). The Destroy operation: deletes a
   * record. Override it to serve the route.
   * @param _c - the request's context (declare it `ResourceContext<"widget_id">` for typed params)
   * @returns the response
   * @throws HttpError 404 (`E_HTTP`) `resource not implemented`, until overridden
   */
  destroy(_c: Context): HandlerResult {
    throw new HttpError(404, NOT_IMPLEMENTED);
  }
}

/**
 * The base of every resource: a default for each of the five required operations (List, Show,
 * Create, Update, Destroy), each answering 404 `resource not implemented`. Override the ones you
 * serve; add `new(c)` and `edit(c)` to get the optional New and Edit routes.
 *
 * The path parameter comes from the class name (`WidgetsResource` -> `widget_id`, as in Buffalo),
 * or from the declared path when the class name does not end in `Resource` (an anonymous class,
 * one a minifier renamed: `/widgets` -> `widget_id`); a `static paramKey = "..."` overrides both. The type parameter `K` names it for typed path helpers.
 *
 * @example
 * class WidgetsResource extends Resource<"widget_id"> {
 *   override list(c: Context) { return c.json([]); }
 * }
 * app.resource("/widgets", new WidgetsResource()); // Show, Create, Update, Destroy answer 404
 *
 * Name the model the resource serves with `override readonly model = Widget;`: its schemas then
 * describe the JSON operations in `wisent openapi` and type them in `wisent/client`.
 */
export abstract class Resource<K extends string = string> extends RecordOperations<K> {
  /**
   * GET /widgets. The List operation: the collection's records. Override it to serve the route.
   * @param _c - the request's context (declare it `ResourceContext<"widget_id">` for typed params)
   * @returns the response
   * @throws HttpError 404 (`E_HTTP`) `resource not implemented`, until overridden
   */
  list(_c: Context): HandlerResult {
    throw new HttpError(404, NOT_IMPLEMENTED);
  }
}

/**
 * The base of a singular resource (`app.singleton("/profile", new ProfileResource())`, Rails'
 * `resource :profile`): Show, Create, Update and Destroy with no id and no List, each answering
 * 404 `resource not implemented` until overridden; `new(c)` and `edit(c)` add New and Edit.
 *
 * @example
 * class ProfileResource extends SingletonResource {
 *   override show(c: Context) { return c.json({ name: "me" }); }
 * }
 * app.singleton("/profile", new ProfileResource()); // profilePath, editProfilePath when edit(c)
 */
export abstract class SingletonResource extends RecordOperations<never> {}

/** A resource operation or declared route: answers a request. */
export type OperationHandler = (c: Context) => HandlerResult;

/**
 * What `app.resource()` asks of each handler a resource must have: a method answering a request,
 * whatever context type it names (`ResourceContext<"post_id">`, `Context<Env, "/posts/:post_id">`).
 * `never` so the check never compares a handler's context with Hono's `Context` member by member:
 * that comparison reaches `redirectTo`'s route names, which come from the app being declared
 * (a circular type in every web app).
 */
export type DeclaredHandler = (c: never) => HandlerResult;

/** A resource that also serves the optional New route. */
export interface Newable {
  /**
   * GET /widgets/new: the form of a new record.
   * @param c - the request's context
   * @returns the response
   */
  "new"(c: Context): HandlerResult;
}
/** A resource that also serves the optional Edit route. */
export interface Editable {
  /**
   * GET /widgets/{widget_id}/edit: the form of a record.
   * @param c - the request's context
   * @returns the response
   */
  edit(c: Context): HandlerResult;
}
