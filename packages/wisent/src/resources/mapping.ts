/**
 * The mapping rule (docs/guides/routing.md) as pure data: which routes a resource gets, in Buffalo's current
 * registration order (which is also match order, so New precedes Show), and what the routing
 * options (`only`/`except`, `member`/`collection`, `patch`, singular resources) change in it.
 */
import { WisentError } from "../base/wisent-error.js";

/** The seven operations of a resource. */
export type Operation = "list" | "create" | "new" | "show" | "update" | "destroy" | "edit";

/** Every operation, in the order the routes table lists them. */
export const OPERATIONS: readonly Operation[] = [
  "list",
  "create",
  "new",
  "show",
  "update",
  "destroy",
  "edit",
];

/** The operations of a singular resource (`app.singleton`): no List. */
export type SingletonOperation = Exclude<Operation, "list">;

/** An HTTP method of a declared member or collection route, lower-case as in Rails. */
export type RouteVerb = "get" | "post" | "put" | "patch" | "delete";

const VERBS: readonly RouteVerb[] = ["get", "post", "put", "patch", "delete"];

/** One route of a resource, relative to its collection path. */
export interface ResourceRoute {
  readonly method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** Relative path template: `""`, `"new"`, `"{widget_id}"`, `"{widget_id}/edit"`, `"search"`. */
  readonly subpath: string;
  /** The standard operation, or `undefined` for a declared member or collection route. */
  readonly operation: Operation | undefined;
  /** The resource's method that answers: `list`, ..., or the declared action (`publish`). */
  readonly handlerMethod: string;
  /** Display name of the operation in the routes table: `List`, `Show`, `Publish`, ... */
  readonly action: string;
  /** List/Create (and declared collection routes) are named after the collection; the rest after the member. */
  readonly collection: boolean;
  /** The route acts on one record (its path has the id): `shallow` moves these out of the parent. */
  readonly member: boolean;
  /** A declared route's action, which leads its name (`publishWidgetPath`). */
  readonly nameAction?: string;
}

/** Which optional operations a resource implements. */
export interface OptionalOperations {
  readonly new: boolean;
  readonly edit: boolean;
}

/** The routing options that change which routes a resource gets (see `ResourceOptions`). */
export interface MappingOptions {
  readonly only?: readonly Operation[] | undefined;
  readonly except?: readonly Operation[] | undefined;
  readonly member?: Readonly<Record<string, RouteVerb>> | undefined;
  readonly collection?: Readonly<Record<string, RouteVerb>> | undefined;
  /** Update answers PATCH too (a second row, after PUT). */
  readonly patch?: boolean | undefined;
}

/**
 * The operations a resource routes: the required ones and the optional ones it implements, less
 * what `only`/`except` leave out. Throws an Error naming the option for an unknown operation,
 * for both options at once, or for an optional operation `only` asks for that is not implemented.
 * @example keptOperations({ new: false, edit: false }, { only: ["list", "show"] }) // Set {list, show}
 */
export function keptOperations(
  implemented: OptionalOperations,
  options: MappingOptions = {},
  all: readonly Operation[] = OPERATIONS,
): Set<Operation> {
  const { only, except } = options;
  if (only && except)
    throw new WisentError("E_APP_MISCONFIGURED", "resource options: give only or except, not both");
  for (const [option, list] of [
    ["only", only],
    ["except", except],
  ] as const) {
    if (list === undefined) continue;
    if (!Array.isArray(list))
      throw new WisentError("E_APP_MISCONFIGURED", `resource option ${option} must be an array`);
    for (const op of list) {
      if (!all.includes(op)) {
        throw new WisentError(
          "E_APP_MISCONFIGURED",
          `resource option ${option}: unknown operation ${JSON.stringify(op)} (use ${all.join(", ")})`,
        );
      }
    }
  }
  const kept = new Set<Operation>();
  for (const op of all) {
    const isOptional = op === "new" || op === "edit";
    if (only) {
      if (!only.includes(op)) continue;
      if (isOptional && !implemented[op]) {
        throw new WisentError(
          "E_APP_MISCONFIGURED",
          `resource option only: lists ${op} but the resource has no ${op}(c) method`,
        );
      }
      kept.add(op);
    } else if (!except?.includes(op) && (!isOptional || implemented[op])) {
      kept.add(op);
    }
  }
  return kept;
}

const ACTION_NAME = /^[a-z][a-z0-9_]*$/;

/**
 * Declared member or collection routes, checked: `[action, METHOD]` pairs. Throws an Error
 * naming the option and the action for a name that is no lower-case method name or a standard
 * operation, or for an unknown HTTP method.
 * @example declaredRoutes("member", { publish: "post" }) // [["publish", "POST"]]
 */
export function declaredRoutes(
  kind: "member" | "collection",
  routes: Readonly<Record<string, RouteVerb>> | undefined,
): [string, ResourceRoute["method"]][] {
  if (routes === undefined) return [];
  if (routes === null || typeof routes !== "object" || Array.isArray(routes)) {
    throw new WisentError(
      "E_APP_MISCONFIGURED",
      `resource option ${kind} must be an object like { publish: "post" }`,
    );
  }
  return Object.entries(routes).map(([action, verb]) => {
    if (!ACTION_NAME.test(action)) {
      throw new WisentError(
        "E_APP_MISCONFIGURED",
        `resource option ${kind}: action ${JSON.stringify(action)} must be a lower-case method name (a letter, then letters, digits or _), so that its route name and typed helper agree`,
      );
    }
    if ((OPERATIONS as readonly string[]).includes(action)) {
      throw new WisentError(
        "E_APP_MISCONFIGURED",
        `resource option ${kind}: ${action} is a standard operation; declare a route with another name`,
      );
    }
    if (!VERBS.includes(verb)) {
      throw new WisentError(
        "E_APP_MISCONFIGURED",
        `resource option ${kind}: ${action}: ${JSON.stringify(verb)} is not one of ${VERBS.join(", ")}`,
      );
    }
    return [action, verb.toUpperCase() as ResourceRoute["method"]];
  });
}

function titleCase(action: string): string {
  return action.charAt(0).toUpperCase() + action.slice(1);
}

function customRoute(
  action: string,
  method: ResourceRoute["method"],
  subpath: string,
  member: boolean,
): ResourceRoute {
  return {
    method,
    subpath,
    operation: undefined,
    handlerMethod: action,
    action: titleCase(action),
    collection: !member,
    member,
    nameAction: action,
  };
}

/**
 * The routes for a resource with the given param key, in match order: List, Create, the
 * declared collection routes (ahead of Show, so `/widgets/search` is not taken for an id), New,
 * Show, Update (PUT, then PATCH when asked), Destroy, Edit, the declared member routes.
 * @example resourceRoutes("widget_id", { new: true, edit: true }).length // 7
 * @example resourceRoutes("widget_id", { new: false, edit: false }).length // 5
 * @example resourceRoutes("widget_id", { new: false, edit: false }, { only: ["show"], member: { publish: "post" } })
 * // GET {widget_id} (Show), POST {widget_id}/publish (Publish)
 */
export function resourceRoutes(
  paramKey: string,
  implemented: OptionalOperations,
  options: MappingOptions = {},
): ResourceRoute[] {
  const kept = keptOperations(implemented, options);
  const id = `{${paramKey}}`;
  const routes: ResourceRoute[] = [];
  const add = (op: Operation, method: ResourceRoute["method"], subpath: string) => {
    if (!kept.has(op)) return;
    const collection = op === "list" || op === "create";
    const member = !collection && op !== "new";
    const action = titleCase(op);
    routes.push({ method, subpath, operation: op, handlerMethod: op, action, collection, member });
  };
  add("list", "GET", "");
  add("create", "POST", "");
  for (const [action, method] of declaredRoutes("collection", options.collection)) {
    routes.push(customRoute(action, method, action, false));
  }
  add("new", "GET", "new");
  add("show", "GET", id);
  add("update", "PUT", id);
  if (options.patch) add("update", "PATCH", id);
  add("destroy", "DELETE", id);
  add("edit", "GET", `${id}/edit`);
  for (const [action, method] of declaredRoutes("member", options.member)) {
    routes.push(customRoute(action, method, `${id}/${action}`, true));
  }
  return routes;
}

/** Every operation of a singular resource, in the order the routes table lists them. */
export const SINGLETON_OPERATIONS: readonly SingletonOperation[] = [
  "create",
  "new",
  "show",
  "update",
  "destroy",
  "edit",
];

/**
 * The routes of a singular resource (Rails' `resource :profile`): no List and no id, so every
 * route is relative to the resource's own path. Declared member routes hang off that path
 * (`/profile/publish`); a singular resource has no collection.
 * @example singletonRoutes({ new: true, edit: true }).map((r) => r.subpath)
 * // ["", "new", "", "", "", "edit"]
 */
export function singletonRoutes(
  implemented: OptionalOperations,
  options: Omit<MappingOptions, "collection"> = {},
): ResourceRoute[] {
  if ((options as MappingOptions).collection !== undefined) {
    throw new WisentError(
      "E_APP_MISCONFIGURED",
      "singleton options: a singular resource has no collection routes; use member",
    );
  }
  const kept = keptOperations(implemented, options, SINGLETON_OPERATIONS);
  const routes: ResourceRoute[] = [];
  const add = (op: SingletonOperation, method: ResourceRoute["method"], subpath: string) => {
    if (!kept.has(op)) return;
    routes.push({
      method,
      subpath,
      operation: op,
      handlerMethod: op,
      action: titleCase(op),
      // Every route of a singular resource is named after it (`profilePath`, `newProfilePath`).
      collection: false,
      member: true,
    });
  };
  add("create", "POST", "");
  add("new", "GET", "new");
  add("show", "GET", "");
  add("update", "PUT", "");
  if (options.patch) add("update", "PATCH", "");
  add("destroy", "DELETE", "");
  add("edit", "GET", "edit");
  for (const [action, method] of declaredRoutes("member", options.member)) {
    routes.push(customRoute(action, method, action, true));
  }
  return routes;
}
