/**
 * The spec's mapping rule as pure data: which routes a resource gets, in Buffalo's current
 * registration order (which is also match order, so New precedes Show).
 */

/** The seven operations of a resource. */
export type Operation = "list" | "create" | "new" | "show" | "update" | "destroy" | "edit";

/** One route of a resource, relative to its collection path. */
export interface ResourceRoute {
  readonly method: "GET" | "POST" | "PUT" | "DELETE";
  /** Relative path template: `""`, `"new"`, `"{widget_id}"`, `"{widget_id}/edit"`. */
  readonly subpath: string;
  readonly operation: Operation;
  /** Display name of the operation in the routes table: `List`, `Show`, ... */
  readonly action: string;
  /** List/Create routes are named after the collection; the rest after the member. */
  readonly collection: boolean;
}

/** Which optional operations a resource implements. */
export interface OptionalOperations {
  readonly new: boolean;
  readonly edit: boolean;
}

/**
 * The routes for a resource with the given param key.
 * @example resourceRoutes("widget_id", { new: true, edit: true }).length // 7
 * @example resourceRoutes("widget_id", { new: false, edit: false }).length // 5
 */
export function resourceRoutes(paramKey: string, optional: OptionalOperations): ResourceRoute[] {
  const member = `{${paramKey}}`;
  const all: (ResourceRoute & { optional?: keyof OptionalOperations })[] = [
    { method: "GET", subpath: "", operation: "list", action: "List", collection: true },
    { method: "POST", subpath: "", operation: "create", action: "Create", collection: true },
    {
      method: "GET",
      subpath: "new",
      operation: "new",
      action: "New",
      collection: false,
      optional: "new",
    },
    { method: "GET", subpath: member, operation: "show", action: "Show", collection: false },
    { method: "PUT", subpath: member, operation: "update", action: "Update", collection: false },
    {
      method: "DELETE",
      subpath: member,
      operation: "destroy",
      action: "Destroy",
      collection: false,
    },
    {
      method: "GET",
      subpath: `${member}/edit`,
      operation: "edit",
      action: "Edit",
      collection: false,
      optional: "edit",
    },
  ];
  return all
    .filter((route) => route.optional === undefined || optional[route.optional])
    .map(({ optional: _optional, ...route }) => route);
}
