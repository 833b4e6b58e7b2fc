import type { Result, Router } from "hono/router";

interface CompiledRoute<T> {
  readonly order: number;
  readonly method: string;
  readonly regex: RegExp;
  readonly names: readonly string[];
  readonly handler: T;
  /** The static first segment, or "" when it is dynamic (such routes join every bucket). */
  readonly bucket: string;
}

const ALL = "ALL";
const ANY_BUCKET = "";

/**
 * A Hono router that returns only the FIRST route matching a request, in registration order
 * (the spec's rule: routes are checked in the order declared; a route is final). Routes are
 * bucketed by their first path segment, so a lookup tests only the few routes of one resource
 * (plus routes whose first segment is dynamic), however many resources the app has. Returning
 * one handler also lets Hono use its single-handler fast path.
 *
 * Paths use Hono's syntax: `/widgets/:widget_id`, `/a/:id{[0-9]+}`, `/*`.
 */
export class FirstMatchRouter<T> implements Router<T> {
  readonly name = "FirstMatchRouter";
  readonly #routes: CompiledRoute<T>[] = [];
  /** Candidates per `method + " " + first segment`, merged with dynamic-first routes; built lazily. */
  #candidates = new Map<string, CompiledRoute<T>[]>();
  readonly #staticFirstSegments = new Set<string>();

  add(method: string, path: string, handler: T): void {
    const { regex, names, firstSegment } = compile(path);
    this.#routes.push({
      order: this.#routes.length,
      method,
      regex,
      names,
      handler,
      bucket: firstSegment,
    });
    if (firstSegment !== ANY_BUCKET) this.#staticFirstSegments.add(firstSegment);
    this.#candidates = new Map();
  }

  match(method: string, path: string): Result<T> {
    const slash = path.indexOf("/", 1);
    const first = path.slice(1, slash === -1 ? undefined : slash);
    const bucket = this.#staticFirstSegments.has(first) ? first : ANY_BUCKET;
    const key = `${method} ${bucket}`;
    let candidates = this.#candidates.get(key);
    if (!candidates) {
      candidates = this.#routes.filter(
        (r) =>
          (r.method === method || r.method === ALL) &&
          (r.bucket === bucket || r.bucket === ANY_BUCKET),
      );
      this.#candidates.set(key, candidates);
    }
    for (const route of candidates) {
      const m = route.regex.exec(path);
      if (!m) continue;
      const params: Record<string, string> = {};
      const groups = m.groups;
      for (let i = 0; i < route.names.length; i++)
        params[route.names[i]!] = groups?.[`p${i}`] ?? "";
      return [[[route.handler, params]]];
    }
    return [[]];
  }
}

function compile(path: string): { regex: RegExp; names: string[]; firstSegment: string } {
  const names: string[] = [];
  const segments = path.split("/").filter((s, i) => i > 0 || s !== "");
  let source = "";
  let firstSegment = ANY_BUCKET;
  segments.forEach((segment, i) => {
    if (segment === "*") {
      source += i === segments.length - 1 ? "(?:|/.*)" : "/[^/]*";
      return;
    }
    const param = /^:([^{}]+)(?:\{(.+)\})?$/.exec(segment);
    if (param) {
      // Named groups keep parameters apart from capturing groups inside a custom regex.
      source += `/(?<p${names.length}>${param[2] ?? "[^/]+"})`;
      names.push(param[1]!);
      return;
    }
    if (i === 0 && segment !== "") firstSegment = segment;
    source += `/${segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`;
  });
  if (source === "" || source === "/") return { regex: /^\/?$/, names, firstSegment };
  return { regex: new RegExp(`^${source}/?$`), names, firstSegment };
}
