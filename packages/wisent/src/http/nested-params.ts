/**
 * Form and query parameters with bracketed names bound as objects and arrays, as Rails, Express
 * (`qs`), Laravel and Phoenix bind them: `widget[title]` -> `{ widget: { title } }`, `tags[]` and
 * repeated names -> arrays, `items[0][name]` -> an array of objects in index order.
 *
 * Why not the `qs` package: multipart forms arrive as entries whose values may be Files, which
 * `qs` (a string parser) does not take, and `qs` answers its limits by dropping or folding what is
 * beyond them (or a generic error with `throwOnLimitExceeded`), while a client here gets a 400
 * naming the parameter. The rules are `qs`'s, the parser is this small file.
 */

import { HttpError } from "../base/http-error.js";
import { INDEXED_PARAMS_KEY } from "../base/symbols.js";
import { UploadedFile } from "../storage/uploaded-file.js";

/** Limits of nested parameters; beyond them a request is answered 400 naming the parameter. */
export interface ParamLimits {
  /** Most bracket levels in one name (`a[b][c]` has 2). Default 10. */
  readonly depth: number;
  /** Most parameters in one query or body. Default 1000. */
  readonly count: number;
}

/** The defaults: deeper than 10 levels or more than 1000 parameters is a 400. */
export const DEFAULT_PARAM_LIMITS: ParamLimits = { depth: 10, count: 1000 };

/** Names that would reach `Object.prototype` through an object's keys: refused, never bound. */
const PROTOTYPE_KEYS = new Set(["__proto__", "constructor", "prototype"]);

/** An object made by `[0]`-style segments: an array once every parameter is in. */
const INDEXED: typeof INDEXED_PARAMS_KEY = INDEXED_PARAMS_KEY;
type Container = Record<string, unknown> & { [INDEXED]?: true };

const INDEX = /^\d{1,9}$/;

/**
 * `a[b][]` -> `["a", "b", ""]`; a name whose brackets do not close properly is one plain key,
 * as in `qs` (`a[b` -> `["a[b"]`).
 */
export function splitParamName(name: string): string[] {
  const open = name.indexOf("[");
  if (open <= 0) return [name];
  const segments = [name.slice(0, open)];
  let at = open;
  while (at < name.length) {
    if (name[at] !== "[") return [name];
    const close = name.indexOf("]", at);
    if (close === -1) return [name];
    const segment = name.slice(at + 1, close);
    if (segment.includes("[")) return [name];
    segments.push(segment);
    at = close + 1;
  }
  return segments;
}

function badParam(name: string, why: string): HttpError {
  return new HttpError(400, `parameter ${JSON.stringify(name)} ${why}`);
}

function isContainer(value: unknown): value is Container {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !isLeaf(value);
}

/** A value a parameter carries (a string, or a File from a multipart form). */
function isLeaf(value: unknown): boolean {
  return (
    typeof value === "string" ||
    value instanceof UploadedFile ||
    (typeof Blob !== "undefined" && value instanceof Blob)
  );
}

/** A new container for the segment that will index it: `""` an array, `0` indexed, else an object. */
function containerFor(segment: string): Container | unknown[] {
  if (segment === "") return [];
  const made: Container = {};
  if (INDEX.test(segment)) made[INDEXED] = true;
  return made;
}

function assign(
  target: Container | unknown[],
  segments: readonly string[],
  value: unknown,
  name: string,
): void {
  const [head, ...rest] = segments as [string, ...string[]];
  if (Array.isArray(target)) {
    // `a[]` appends; `a[][b]` fills the last element until it already has `b` (Rack's rule).
    if (rest.length === 0) {
      target.push(value);
      return;
    }
    const last = target.at(-1);
    if (isContainer(last) && !Object.hasOwn(last, rest[0]!)) {
      assign(last, rest, value, name);
      return;
    }
    const fresh = containerFor(rest[0]!);
    target.push(fresh);
    assign(fresh, rest, value, name);
    return;
  }
  if (!INDEX.test(head)) delete target[INDEXED];
  const existing = Object.hasOwn(target, head) ? target[head] : undefined;
  if (rest.length === 0) {
    if (existing === undefined) target[head] = value;
    else if (Array.isArray(existing)) existing.push(value);
    else if (isLeaf(existing)) target[head] = [existing, value];
    else throw badParam(name, "gives a value where other parameters give an object");
    return;
  }
  let child = existing;
  if (child === undefined) {
    child = containerFor(rest[0]!);
    target[head] = child;
  } else if (Array.isArray(child) ? rest[0] !== "" : !isContainer(child) || rest[0] === "") {
    throw badParam(name, "mixes a list, an object or a value under one name");
  }
  assign(child as Container | unknown[], rest, value, name);
}

/** Indexed objects become arrays in index order, gaps closed (`a[1]=x&a[5]=y` -> `["x", "y"]`). */
function finish(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(finish);
  if (!isContainer(value)) return value;
  if (value[INDEXED]) {
    return Object.keys(value)
      .sort((a, b) => Number(a) - Number(b))
      .map((key) => finish(value[key]));
  }
  for (const key of Object.keys(value)) value[key] = finish(value[key]);
  return value;
}

/**
 * Binds parameter entries (a query, an urlencoded or multipart form) into one object. `skip`
 * names parameters left out (Wisent's own `_method`, `authenticity_token`).
 * Throws HttpError 400 naming the parameter for a name deeper than `limits.depth`, for more than
 * `limits.count` parameters, for `__proto__`/`constructor`/`prototype` in a name, and for a name
 * used both as a value and as an object or list.
 *
 * @example
 * nestParams(new URLSearchParams("widget[title]=Gear&tags[]=a&tags[]=b&items[0][n]=1").entries())
 * // { widget: { title: "Gear" }, tags: ["a", "b"], items: [{ n: "1" }] }
 */
export function nestParams(
  entries: Iterable<[string, unknown]>,
  limits: ParamLimits = DEFAULT_PARAM_LIMITS,
  skip: ReadonlySet<string> = new Set(),
): Record<string, unknown> {
  const root: Container = {};
  let count = 0;
  for (const [name, value] of entries) {
    if (skip.has(name)) continue;
    if (++count > limits.count) {
      throw new HttpError(400, `too many parameters: the limit is ${limits.count}`);
    }
    const segments = splitParamName(name);
    if (segments.length - 1 > limits.depth) {
      throw badParam(
        name,
        `is nested ${segments.length - 1} levels deep; the limit is ${limits.depth}`,
      );
    }
    for (const segment of segments) {
      if (PROTOTYPE_KEYS.has(segment)) {
        throw badParam(name, `uses the reserved name ${JSON.stringify(segment)}`);
      }
    }
    assign(root, segments, value, name);
  }
  return finish(root) as Record<string, unknown>;
}
