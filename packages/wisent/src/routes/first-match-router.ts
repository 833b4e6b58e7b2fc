import type { Result, Router } from "hono/router";

/** A compiled route: segments to compare, or a regex when a custom pattern is involved. */
interface CompiledRoute<T> {
  readonly method: string;
  readonly handler: T;
  /** The static first segment, or "" when it is dynamic (such routes join every bucket). */
  readonly bucket: string;
  /** Per segment: its literal text, or `null` for a parameter with the default pattern. */
  readonly segments: readonly (string | null)[];
  /** Parameter names, in the order their segments (or regex groups) appear. */
  readonly names: readonly string[];
  /** Ends in `/*`: any rest of the path (or none) matches. */
  readonly tail: boolean;
  /** Set for routes with custom parameter patterns or a wildcard inside the path. */
  readonly regex: RegExp | undefined;
}

const ALL = "ALL";
const ANY_BUCKET = "";

/**
 * A Hono router that returns only the FIRST route matching a request, in registration order
 * (docs/guides/routing.md: routes are checked in the order declared; a route is final). Routes are
 * bucketed by their first path segment and matched segment by segment (a regex only for custom
 * parameter patterns), so a lookup costs about the same with 1000 resources as with 10.
 * Returning one handler also lets Hono use its single-handler fast path.
 *
 * Paths use Hono's syntax: `/widgets/:widget_id`, `/a/:id{[0-9]+}`, `/*`.
 *
 * @example
 * new App({ name: "shop", router: new FirstMatchRouter() }); // the default
 */
export class FirstMatchRouter<T> implements Router<T> {
  readonly name = "FirstMatchRouter";
  readonly #routes: CompiledRoute<T>[] = [];
  /** Candidates per method, then per first segment ("" for any other); built lazily. */
  #candidates = new Map<string, Map<string, CompiledRoute<T>[]>>();
  readonly #staticFirstSegments = new Set<string>();
  /** The bucket of the last lookup (requests mostly repeat a few first segments). */
  #lastBucket: { method: string; segment: string; candidates: CompiledRoute<T>[] } | undefined;

  add(method: string, path: string, handler: T): void {
    const route = compile(method, path, handler);
    this.#routes.push(route);
    if (route.bucket !== ANY_BUCKET) this.#staticFirstSegments.add(route.bucket);
    this.#candidates = new Map();
    this.#lastBucket = undefined;
  }

  match(method: string, path: string): Result<T> {
    // The path's segments are read in place (no split): they run from index 1 to `end`, which
    // leaves out one trailing slash; a path of "/" (or "") has none.
    const end =
      path.length > 1 && path.charCodeAt(path.length - 1) === SLASH ? path.length - 1 : path.length;
    const candidates = this.#candidatesFor(method, path, end);
    for (const route of candidates) {
      const params = route.regex ? matchRegex(route, path) : matchSegments(route, path, end);
      if (params) return [[[route.handler, params]]];
    }
    return [[]];
  }

  /** The candidates for the path's first segment (the last bucket asked for is remembered). */
  #candidatesFor(method: string, path: string, end: number): CompiledRoute<T>[] {
    const last = this.#lastBucket;
    if (
      last !== undefined &&
      last.method === method &&
      path.startsWith(last.segment, 1) &&
      segmentEnd(path, 1, end) === last.segment.length + 1
    ) {
      return last.candidates;
    }
    let byBucket = this.#candidates.get(method);
    if (!byBucket) {
      byBucket = this.#bucketsFor(method);
      this.#candidates.set(method, byBucket);
    }
    const segment = end > 1 ? path.slice(1, segmentEnd(path, 1, end)) : ANY_BUCKET;
    const candidates = byBucket.get(segment) ?? byBucket.get(ANY_BUCKET)!;
    this.#lastBucket = { method, segment, candidates };
    return candidates;
  }

  /** Every bucket's candidates for one method, in registration order. */
  #bucketsFor(method: string): Map<string, CompiledRoute<T>[]> {
    const forMethod = this.#routes.filter((r) => r.method === method || r.method === ALL);
    const buckets = new Map<string, CompiledRoute<T>[]>();
    for (const bucket of [ANY_BUCKET, ...this.#staticFirstSegments]) {
      buckets.set(
        bucket,
        forMethod.filter((r) => r.bucket === bucket || r.bucket === ANY_BUCKET),
      );
    }
    return buckets;
  }
}

/** `/a/b/` -> `["a", "b"]`; `/` -> `[]`. */
function splitPath(path: string): string[] {
  const trimmed = path.endsWith("/") ? path.slice(1, -1) : path.slice(1);
  return trimmed === "" ? [] : trimmed.split("/");
}

const SLASH = 47;

/** Where the segment starting at `from` ends: the next slash, or `end`. */
function segmentEnd(path: string, from: number, end: number): number {
  const slash = path.indexOf("/", from);
  return slash === -1 || slash > end ? end : slash;
}

/** Start and end of each parameter's segment during one match (matching is synchronous). */
const bounds: number[] = [];

/**
 * The route's parameters when `path` (its segments between index 1 and `end`, as
 * {@link splitPath} cuts them) matches its segments; nothing is cut out of the path unless it does.
 */
function matchSegments<T>(
  route: CompiledRoute<T>,
  path: string,
  end: number,
): Record<string, string> | undefined {
  const segments = route.segments;
  // Past `end` once every segment of the path is used; a path without segments starts there.
  let at = end > 1 ? 1 : end + 1;
  let found = 0;
  for (let i = 0; i < segments.length; i++) {
    if (at > end) return undefined;
    const next = segmentEnd(path, at, end);
    const expected = segments[i] as string | null;
    if (expected === null) {
      if (next === at) return undefined;
      bounds[found++] = at;
      bounds[found++] = next;
    } else if (next - at !== expected.length || !path.startsWith(expected, at)) {
      return undefined;
    }
    at = next + 1;
  }
  if (!route.tail && at <= end) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < route.names.length; i++) {
    params[route.names[i]!] = path.slice(bounds[2 * i], bounds[2 * i + 1]);
  }
  return params;
}

function matchRegex<T>(route: CompiledRoute<T>, path: string): Record<string, string> | undefined {
  const groups = route.regex!.exec(path)?.groups;
  if (!groups) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < route.names.length; i++) params[route.names[i]!] = groups[`p${i}`] ?? "";
  return params;
}

function compile<T>(method: string, path: string, handler: T): CompiledRoute<T> {
  const parts = splitPath(path);
  const tail = parts[parts.length - 1] === "*";
  const fixed = tail ? parts.slice(0, -1) : parts;
  const names: string[] = [];
  const segments: (string | null)[] = [];
  let needsRegex = false;
  let source = "";
  fixed.forEach((segment) => {
    const param = /^:([^{}]+)(?:\{(.+)\})?$/.exec(segment);
    if (param) {
      if (param[2] !== undefined) needsRegex = true;
      // Named groups keep parameters apart from capturing groups inside a custom regex.
      source += `/(?<p${names.length}>${param[2] ?? "[^/]+"})`;
      names.push(param[1]!);
      segments.push(null);
    } else {
      if (segment === "*") needsRegex = true;
      source += segment === "*" ? "/[^/]*" : `/${segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`;
      segments.push(segment);
    }
  });
  const first = fixed[0];
  const bucket = first !== undefined && segments[0] !== null && first !== "*" ? first : ANY_BUCKET;
  const regex = needsRegex ? new RegExp(`^${source}${tail ? "(?:/.*)?" : ""}/?$`) : undefined;
  return { method, handler, bucket, segments, names, tail, regex };
}
