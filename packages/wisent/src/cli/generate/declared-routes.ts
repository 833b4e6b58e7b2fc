/**
 * `wisent g r ... --member publish:post --collection search:get`: the declared routes of a
 * generated resource, checked by the same rule as `app.resource(..., { member, collection })`.
 */
import { routeNameForPath } from "../../naming/index.js";
import { declaredRoutes, type RouteVerb } from "../../resources/mapping.js";
import { UsageError } from "./usage-error.js";

/** The declared routes a resource is generated with, as given on the command line. */
export interface DeclaredRouteFlags {
  /** `["publish:post"]` */
  readonly member?: readonly string[] | undefined;
  /** `["search:get"]` */
  readonly collection?: readonly string[] | undefined;
}

/** One declared route as the templates print it. */
export interface DeclaredRouteData {
  /** The resource's method: `publish`. */
  readonly action: string;
  /** `Publish`, the test's name. */
  readonly title: string;
  readonly member: boolean;
  /** `POST /widgets/{widget_id}/publish` */
  readonly route: string;
  /** `publishWidgetPath` */
  readonly name: string;
}

/** `["publish:post", "archive"]` -> `{ publish: "post", archive: "get" }`, checked. */
function parseFlag(kind: "member" | "collection", values: readonly string[] = []) {
  const routes: Record<string, RouteVerb> = {};
  for (const value of values.flatMap((v) => v.split(","))) {
    const [action = "", verb = "get", ...extra] = value.trim().split(":");
    if (extra.length > 0 || action === "") {
      throw new UsageError(`--${kind} ${value}: give action:method, e.g. --${kind} publish:post`);
    }
    if (Object.hasOwn(routes, action)) {
      throw new UsageError(`--${kind} ${value}: ${action} is declared twice`);
    }
    routes[action] = verb.toLowerCase() as RouteVerb;
  }
  try {
    declaredRoutes(kind, routes);
  } catch (error) {
    throw new UsageError(
      `--${kind}: ${(error as Error).message.replace(/^resource option \w+: /, "")}`,
    );
  }
  return routes;
}

/** The member and collection routes of the flags, checked (a {@link UsageError} names the flag). */
export function parseDeclaredRoutes(flags: DeclaredRouteFlags): {
  member: Record<string, RouteVerb>;
  collection: Record<string, RouteVerb>;
} {
  const member = parseFlag("member", flags.member);
  const collection = parseFlag("collection", flags.collection);
  for (const action of Object.keys(member)) {
    if (Object.hasOwn(collection, action)) {
      throw new UsageError(
        `--member and --collection both declare ${action}: a resource has one ${action}(c) method`,
      );
    }
  }
  return { member, collection };
}

/**
 * The options source of the resource's line in src/app.ts: `, { member: { publish: "post" } }`,
 * or `""` with none; `leading` options (`ownedBy: "user_id"`) come first.
 */
export function resourceOptionsSource(
  flags: DeclaredRouteFlags,
  leading: readonly string[] = [],
): string {
  const { member, collection } = parseDeclaredRoutes(flags);
  const object = (routes: Record<string, RouteVerb>) =>
    `{ ${Object.entries(routes)
      .map(([action, verb]) => `${action}: "${verb}"`)
      .join(", ")} }`;
  const parts = [
    ...leading,
    ...(Object.keys(member).length > 0 ? [`member: ${object(member)}`] : []),
    ...(Object.keys(collection).length > 0 ? [`collection: ${object(collection)}`] : []),
  ];
  return parts.length === 0 ? "" : `, { ${parts.join(", ")} }`;
}

/** The declared routes under `collectionPath` / `memberPath`, named as the App names them. */
export function declaredRouteData(
  flags: DeclaredRouteFlags,
  collectionPath: string,
  memberPath: string,
): DeclaredRouteData[] {
  const { member, collection } = parseDeclaredRoutes(flags);
  const data = (action: string, verb: RouteVerb, isMember: boolean): DeclaredRouteData => {
    const owner = isMember ? memberPath : collectionPath;
    return {
      action,
      title: action.charAt(0).toUpperCase() + action.slice(1),
      member: isMember,
      route: `${verb.toUpperCase()} ${owner}/${action}`,
      name: routeNameForPath(owner, { collection: !isMember, action }),
    };
  };
  return [
    ...Object.entries(collection).map(([a, v]) => data(a, v, false)),
    ...Object.entries(member).map(([a, v]) => data(a, v, true)),
  ];
}
