import { WisentError } from "../base/wisent-error.js";
import { didYouMean } from "../naming/did-you-mean.js";
import type { Operation } from "../resources/mapping.js";
import type { OperationDoc } from "../resources/operation-doc.js";
import type { ResourceModel } from "../resources/resource.js";
import { buildPath, type PathParams } from "./build-path.js";
import type { PathTemplate } from "./path-template.js";
import type { RouteInfo } from "./route-info.js";
import { type ShadowedRoute, shadowedRoutes } from "./shadowing.js";

/** What a resource route knows of its resource: read by OpenAPI, the client and `routes --unused`. */
export interface ResourceRouteMeta {
  /** The standard operation (`list`, ...), or undefined for a declared member/collection route. */
  readonly operation: Operation | undefined;
  /** The resource's method that answers: `list`, ..., or a declared route's action (`publish`). */
  readonly action: string;
  /** A declared route's kind: on one record (`member`) or on the collection. */
  readonly declared?: "member" | "collection";
  /** The resource's name in the client and its OpenAPI tag: the list route's name without `Path`. */
  readonly stem: string;
  /** The resource's own path parameter: `widget_id`. */
  readonly paramKey: string;
  /** The model the resource declares (`override readonly model = Widget`), if any. */
  readonly model: ResourceModel | undefined;
  /** False while the operation is Resource's default, answering 404 "resource not implemented". */
  readonly implemented: boolean;
  /** A live resource's (`live: true`): its changes are streamed (docs/guides/live-pages.md). */
  readonly live?: true;
}

/** A registered route as the App keeps it (route data, separate from how it is printed). */
export interface RouteRecord {
  readonly method: string;
  readonly path: PathTemplate;
  name: string;
  readonly handler: string;
  readonly aliases: string[];
  /** Where the route was declared (`src/app.ts:12:5`), for start-up errors. */
  readonly declaredAt?: string | undefined;
  /** Set on the routes `resource()` declares. */
  readonly resource?: ResourceRouteMeta;
  /** Set on routes that describe the app rather than serve it (the OpenAPI document). */
  readonly internal?: boolean;
  /** Set on routes behind `requireAuthentication()`: secured in the OpenAPI document. */
  readonly authenticated?: boolean;
  /** What the route takes and answers, given by `documented(...)` or a resource's `docs`. */
  readonly doc?: OperationDoc;
  /**
   * Set on the routes of a resource declared with `ownedBy`: the owner column (`user_id`). Such a
   * route is also `authenticated`, and answers only the signed-in user's own records.
   */
  readonly ownedBy?: string;
}

/** A path helper looked up by name at run time. */
export type UntypedPathHelper = (params?: PathParams) => string;

/** A route's template (or alias) as a regex, with its number of parameters. */
interface Matcher {
  readonly method: string;
  readonly regex: RegExp;
  readonly record: RouteRecord;
  readonly params: number;
}

/**
 * Every route of one App in registration order, with their names. Enforces the start-up rule
 * that one route name never stands for two different path templates.
 */
export class RouteRegistry {
  readonly records: RouteRecord[] = [];
  /** Path helpers by route name; a plain object so `paths.widgetPath(...)` reads naturally. */
  readonly helpers: Record<string, UntypedPathHelper> = Object.create(null);
  readonly #byName = new Map<string, RouteRecord>();
  #allowMatchers: Matcher[] | undefined;
  #shadowed: { count: number; found: ShadowedRoute<RouteRecord>[] } | undefined;

  constructor(readonly host: string) {}

  add(record: RouteRecord): void {
    this.#claimName(record, record.name);
    this.records.push(record);
    this.#allowMatchers = undefined;
  }

  /**
   * Routes that can never match because an earlier route with the same method takes every
   * request they would (see `routes/shadowing.ts`); checked again only when routes were added.
   */
  shadowed(): ShadowedRoute<RouteRecord>[] {
    if (this.#shadowed?.count !== this.records.length) {
      this.#shadowed = { count: this.records.length, found: shadowedRoutes(this.records) };
    }
    return this.#shadowed.found;
  }

  /** Gives a route another name (`.name("...")`), checking it against every other route. */
  rename(record: RouteRecord, name: string): void {
    if (name === record.name) return;
    const old = record.name;
    this.#claimName(record, name);
    record.name = name;
    if (!this.records.some((r) => r !== record && r.name === old)) {
      this.#byName.delete(old);
      delete this.helpers[old];
    }
  }

  /** The path of a named route (no trailing slash), with extra params as the query string. */
  pathFor(name: string, params?: PathParams): string {
    const record = this.#byName.get(name);
    if (!record) {
      const suggestion = didYouMean(name, this.#byName.keys());
      throw new WisentError(
        "E_APP_MISCONFIGURED",
        `could not find a route named ${name}${suggestion ? ` (did you mean ${suggestion}?)` : ""}`,
      );
    }
    return buildPath(name, record.path, params);
  }

  /** The routes table's rows, in registration order. */
  routes(): RouteInfo[] {
    return this.records.map((r) => ({
      method: r.method,
      host: this.host,
      path: r.path.display,
      aliases: [...r.aliases],
      name: r.name,
      handler: r.handler,
    }));
  }

  /** The handler of the first route (match order) for `method` and `path`; HEAD finds GET's. */
  handlerFor(method: string, path: string): string | undefined {
    const found = this.#handlerAt(method, path);
    if (found !== undefined) return found;
    // `/widgets/1.json`: the route is `/widgets/{widget_id}/`, the format a suffix.
    const bare = path.replace(/\.[A-Za-z0-9]+$/, "");
    return bare === path ? undefined : this.#handlerAt(method, bare);
  }

  #handlerAt(method: string, path: string): string | undefined {
    this.#allowMatchers ??= this.#matchers();
    let get: string | undefined;
    for (const { method: m, regex, record } of this.#allowMatchers) {
      if (!regex.test(path)) continue;
      if (m === method) return record.handler;
      if (method === "HEAD" && m === "GET") get ??= record.handler;
    }
    return get;
  }

  /** Methods of the routes whose template matches `path` (the static catch-all is no route). */
  allowedMethods(path: string): string[] {
    this.#allowMatchers ??= this.#matchers();
    // Only the most specific templates count: `/widgets/new` is not `/widgets/:widget_id`.
    let fewest = Number.POSITIVE_INFINITY;
    const methods = new Set<string>();
    for (const { method, regex, params } of this.#allowMatchers) {
      if (params > fewest || !regex.test(path)) continue;
      if (params < fewest) {
        fewest = params;
        methods.clear();
      }
      methods.add(method);
    }
    if (methods.has("GET")) methods.add("HEAD");
    return [...methods];
  }

  #matchers(): Matcher[] {
    return this.records.flatMap((r) =>
      [r.path.template, ...r.aliases].map((p) => ({
        method: r.method,
        regex: matcherFor(r, p),
        record: r,
        // An alias is a literal path (see matcherFor): no parameters.
        params: p === r.path.template ? r.path.params.length : 0,
      })),
    );
  }

  #claimName(record: RouteRecord, name: string): void {
    const holder = this.#byName.get(name);
    if (holder && holder !== record && holder.path.template !== record.path.template) {
      throw new WisentError(
        "E_APP_MISCONFIGURED",
        `route name ${name} is used for two different paths: ${describe(holder)} and ${describe(record)}; ` +
          `give one of them another name with .name("...")`,
      );
    }
    if (!holder) {
      this.#byName.set(name, record);
      this.helpers[name] = (params) => this.pathFor(name, params);
    }
  }
}

function describe(r: RouteRecord): string {
  return `${r.method} ${r.path.display} (${r.handler})`;
}

function matcherFor(record: RouteRecord, path: string): RegExp {
  if (path !== record.path.template)
    return new RegExp(`^${escapeRegex(path.replace(/\/+$/, ""))}/?$`);
  let source = "";
  let rest = record.path.template;
  for (const param of record.path.params) {
    const start = rest.indexOf(`{${param.name}`);
    const end = closingBrace(rest, start);
    source += `${escapeRegex(rest.slice(0, start))}(?:${param.pattern})`;
    rest = rest.slice(end + 1);
  }
  source += escapeRegex(rest === "/" ? "" : rest);
  return new RegExp(`^${source === "" ? "" : source}/?$`);
}

function closingBrace(text: string, start: number): number {
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    if (text[i] === "{") depth++;
    if (text[i] === "}" && --depth === 0) return i;
  }
  return text.length - 1;
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
