/**
 * Which declared routes can never match: a later route whose every request an earlier route with
 * the same method answers first (routes match in declaration order). Pure data: the App refuses
 * to start with such a route, `wisent routes --check` reports it; `shadowing-message.ts` words it.
 */
import type { PathTemplate } from "./path-template.js";

/** A route as the check sees it. */
export interface CheckedRoute {
  readonly method: string;
  readonly path: PathTemplate;
  readonly name: string;
  readonly handler: string;
  /** Where it was declared (`src/app.ts:12:5`), when known. */
  readonly declaredAt?: string | undefined;
}

/** A route that can never match, and the earlier route that takes its requests. */
export interface ShadowedRoute<R extends CheckedRoute = CheckedRoute> {
  readonly route: R;
  readonly by: R;
}

/** One path segment: a literal, or a parameter with the regex its value must match whole. */
type Segment = { literal: string } | { pattern: string; regex: RegExp };

const SLASHED = "a/b";

function segmentsOf(path: PathTemplate): Segment[] | undefined {
  const pieces = path.template === "/" ? [] : splitOutsideBraces(path.template.slice(1));
  const params = new Map(path.params.map((p) => [p.name, p.pattern]));
  const segments: Segment[] = [];
  for (const piece of pieces) {
    const match = /^\{([A-Za-z_][A-Za-z0-9_]*)(?::.+)?\}$/.exec(piece);
    if (!match) {
      segments.push({ literal: piece });
      continue;
    }
    const pattern = params.get(match[1]!) ?? "[^/]+";
    const regex = new RegExp(`^(?:${pattern})$`);
    // A parameter that can span segments (`{rest:.+}`) matches paths of other lengths: such a
    // route is left out of the check rather than judged wrongly.
    if (regex.test(SLASHED)) return undefined;
    segments.push({ pattern, regex });
  }
  return segments;
}

function splitOutsideBraces(path: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let current = "";
  for (const char of path) {
    if (char === "{") depth++;
    if (char === "}") depth--;
    if (char === "/" && depth === 0) {
      out.push(current);
      current = "";
    } else current += char;
  }
  out.push(current);
  return out;
}

/** Whether every value of segment `later` also matches `earlier` (false when unsure). */
function covers(earlier: Segment, later: Segment): boolean {
  if ("literal" in earlier) return "literal" in later && later.literal === earlier.literal;
  if ("literal" in later) return earlier.regex.test(later.literal);
  return earlier.pattern === later.pattern || earlier.pattern === "[^/]+";
}

/** Whether every request `later` matches is matched by `earlier` (same method assumed). */
export function shadows(earlier: PathTemplate, later: PathTemplate): boolean {
  const a = segmentsOf(earlier);
  const b = segmentsOf(later);
  if (!a || !b || a.length !== b.length) return false;
  return a.every((segment, i) => covers(segment, b[i]!));
}

/**
 * Every route an earlier route with the same method always wins over, in declaration order.
 * Routes are bucketed by method, length and first literal, so 1000 resources check quickly.
 *
 * @example
 * shadowedRoutes([show("/widgets/{widget_id}"), get("/widgets/search")])
 * // [{ route: GET /widgets/search, by: GET /widgets/{widget_id} }]
 */
export function shadowedRoutes<R extends CheckedRoute>(routes: readonly R[]): ShadowedRoute<R>[] {
  const found: ShadowedRoute<R>[] = [];
  const buckets = new Map<string, { route: R; segments: Segment[]; index: number }[]>();
  for (const [index, route] of routes.entries()) {
    const segments = segmentsOf(route.path);
    if (!segments) continue;
    const first = segments[0];
    const shape = `${route.method} ${segments.length}`;
    const own = first && "literal" in first ? `${shape} ${first.literal}` : `${shape} {}`;
    const candidates = [...(buckets.get(`${shape} {}`) ?? [])];
    if (own !== `${shape} {}`) candidates.push(...(buckets.get(own) ?? []));
    // The earliest route that covers this one is the one that actually takes its requests.
    let by: (typeof candidates)[number] | undefined;
    for (const earlier of candidates) {
      if (by && by.index < earlier.index) continue;
      if (earlier.segments.every((segment, i) => covers(segment, segments[i]!))) by = earlier;
    }
    if (by) found.push({ route, by: by.route });
    const entry = { route, segments, index };
    const bucket = buckets.get(own);
    if (bucket) bucket.push(entry);
    else buckets.set(own, [entry]);
  }
  return found;
}
