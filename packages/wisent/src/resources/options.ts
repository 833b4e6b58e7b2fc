/**
 * The options of `app.resource(...)` and `app.singleton(...)`, and what they mean for types: which
 * handlers the resource must have. The routes themselves come from `mapping.ts`.
 */

import type { Child } from "../jsx/html.js";
import type { Operation, RouteVerb, SingletonOperation } from "./mapping.js";
import type { ResourcePolicy } from "./policy.js";
import type { DeclaredHandler } from "./resource.js";

/**
 * Targeted live rows, as a resource declares them (`live: { row: WidgetRow }`): the list's
 * stream gets the rendered row itself instead of a refresh, like Rails' `broadcasts`.
 *
 * @example
 * // src/templates/widgets/index.tsx: <tbody id="widgets">{widgets.map((w) => <Row record={w} />)}</tbody>
 * app.resource("/widgets", new WidgetsResource(), { live: { row: Row } });
 */
export interface LiveRowOptions {
  /**
   * Renders one record's row (Rails' `_widget` partial); its outermost element's id is
   * `domId(Model, record)` (`widget_12`), the target of `replace` and `remove`. Rendered in the
   * writing request, without its CSRF token (Wisent's live script gives the forms in an
   * inserted row the reader's own, from the page's `csrf-token` meta tag).
   */
  // biome-ignore lint/suspicious/noExplicitAny: any record type; the template types its own
  readonly row: (props: { record: any }) => Child;
  /** The id of the element a created record's row is added to (default: the resource's stem, `widgets`). */
  readonly target?: string;
  /** `append` (the default) adds a created record's row last, `prepend` first (Rails' `inserts_by`). */
  readonly insertsBy?: "append" | "prepend";
}

/** Declared routes: action name (a lower-case method of the resource) -> HTTP method. */
export type DeclaredRoutes = Readonly<Record<string, RouteVerb>>;

interface SharedOptions {
  /**
   * Routes on one record, each answered by the resource's method of that name:
   * `member: { publish: "post" }` -> `POST /widgets/{widget_id}/publish`, `publishWidgetPath`.
   */
  readonly member?: DeclaredRoutes;
  /**
   * Signed-in users only (`requireAuthentication()` on these routes): `true` for every
   * operation, or a list (`["create", "update", "destroy"]`). HTML requests without a user are
   * sent to sign in, JSON and XML ones get 401; the OpenAPI document marks them as secured.
   */
  readonly authenticate?: boolean | readonly Operation[];
  /** Update answers PATCH too (default: the app's `patch` setting, else PUT only). */
  readonly patch?: boolean;
}

type OnlyOrExcept<Op extends Operation> =
  | {
      /** Route only these operations (the others answer 404/405 like any missing route). */
      readonly only?: readonly Op[];
      readonly except?: never;
    }
  | {
      /** Route every operation but these. */
      readonly except?: readonly Op[];
      readonly only?: never;
    };

/**
 * Options of `app.resource(path, resource, options)`.
 * @example
 * app.resource("/widgets", new WidgetsResource(), {
 *   except: ["destroy"],
 *   member: { publish: "post" }, // POST /widgets/{widget_id}/publish  publishWidgetPath
 *   collection: { search: "get" }, // GET /widgets/search             searchWidgetsPath
 *   patch: true, // PATCH /widgets/{widget_id} answers Update too
 * });
 */
export type ResourceOptions = SharedOptions &
  OnlyOrExcept<Operation> & {
    /**
     * The column holding each record's owner (`"user_id"`): the resource becomes the signed-in
     * user's own. Every route needs a signed-in user (as `authenticate: true`); a record of
     * another user answers 404 on Show, Edit, Update, Destroy and member routes (checked before
     * the handler runs); `c.bind()` sets the column to the user's id whatever the body says; and
     * `c.ownerScope()` (`{ user_id: <id> }`) scopes the List handler's query, which must ask for it
     * (a list that does not is refused rather than shown).
     *
     * @example
     * app.resource("/notes", new NotesResource(), { ownedBy: "user_id" });
     * // in NotesResource.list:
     * const page = await Note.paginate(await c.tx(), c.req.query(), c.ownerScope());
     */
    readonly ownedBy?: string;
    /**
     * Rules beyond ownership (`definePolicy`): before Show, Edit, Update, Destroy and member
     * routes, the record is loaded and the rule of that operation decides (403 when it says no;
     * Edit asks `update`); List, New and Create ask their rule (`list`, `create`) without a record.
     * Handlers call `authorize(c, action, record)` for anything else.
     *
     * @example
     * app.resource("/notes", new NotesResource(), { authenticate: true, policy: notePolicy });
     */
    readonly policy?: ResourcePolicy;
    /**
     * Routes on the whole collection, registered ahead of Show so that `/widgets/search` is not
     * read as an id: `collection: { search: "get" }` -> `GET /widgets/search`, `searchWidgetsPath`.
     */
    readonly collection?: DeclaredRoutes;
    /**
     * Live pages: once a Create, Update or Destroy of this resource commits (never for a request
     * that rolls back: a 4xx or a thrown handler), every List and Show page open on it refreshes
     * itself (a Turbo 8 `refresh` over Server-Sent Events, fetched again with the reader's own
     * session). The pages subscribe with `<LiveUpdates />` (`wisent g r ... --live` puts it in
     * the templates) to `GET /live/{live_stream}`, a stream named by a signed token; an owned
     * resource's stream is per owner, and a resource that needs a sign-in to read needs one to
     * subscribe. Broadcasts reach other processes as `LIVE_URL` says (docs/guides/live-pages.md).
     *
     * A record page follows its own record: its update refreshes it, its destroy sends it to
     * the list. On a resource that is not owned, `live: { row }` sends the list pages the
     * rendered row instead of a refresh (`append` on Create, `replace` on Update, `remove` on
     * Destroy; Rails' `broadcasts`), see {@link LiveRowOptions}.
     *
     * @example
     * app.resource("/widgets", new WidgetsResource(), { live: true });
     * // templates/widgets/index.tsx: <LiveUpdates /> (from "wisent/jsx")
     * app.resource("/widgets", new WidgetsResource(), { live: { row: Row } }); // targeted rows
     */
    readonly live?: boolean | LiveRowOptions;
    /**
     * On a nested resource: List, Create and New stay nested (`/widgets/{widget_id}/images`),
     * the routes on one record move out of the parent (`/images/{image_id}`, `imagePath`), so a
     * record is found by its own id, not scoped by the parent's.
     */
    readonly shallow?: boolean;
  };

/** Options of `app.singleton(path, resource, options)`: no collection, no List. */
export type SingletonOptions = SharedOptions & OnlyOrExcept<SingletonOperation>;

/** The operations routed for options `O` (before optional New/Edit are checked). */
export type KeptOperations<O, All extends Operation = Operation> = O extends {
  readonly only: readonly (infer X)[];
}
  ? X & All
  : O extends { readonly except: readonly (infer X)[] }
    ? Exclude<All, X>
    : All;

// Options typed only as `ResourceOptions` (not a literal) name no actions the types can check.
type ActionsOf<O, Key extends "member" | "collection"> = O extends { readonly [k in Key]: infer M }
  ? M extends object
    ? string extends keyof M
      ? never
      : keyof M & string
    : never
  : never;
/** Declared member actions of options `O`: `"publish"`. */
export type MemberActions<O> = ActionsOf<O, "member">;
/** Declared collection actions of options `O`: `"search"`. */
export type CollectionActions<O> = ActionsOf<O, "collection">;

type OnlyOptional<O> = O extends { readonly only: readonly (infer X)[] }
  ? X & ("new" | "edit")
  : never;

/**
 * The handlers a resource needs for options `O`: each routed required operation, New/Edit when
 * `only` names them, and one method per declared member or collection route.
 */
export type HandlersFor<O, All extends Operation = Operation> = {
  readonly [Op in
    | Exclude<KeptOperations<O, All>, "new" | "edit">
    | OnlyOptional<O>
    | MemberActions<O>
    | CollectionActions<O>]: DeclaredHandler;
};
