/**
 * Route path templates in the form of docs/guides/routing.md: `/widgets/{widget_id}`, `/articles/{id:[0-9]+}`.
 * One parse gives what the router needs (Hono's `:name{regex}` form) and what path helpers need.
 */
import { WisentError } from "../base/wisent-error.js";

/** One `{name}` or `{name:regex}` placeholder of a template. */
export interface PathParam {
  readonly name: string;
  /** The regex a value must match whole; `[^/]+` when the template gives none. */
  readonly pattern: string;
}

/** A parsed path template. */
export interface PathTemplate {
  /** Normalised template without a trailing slash (`/` for the root): `/widgets/{widget_id}`. */
  readonly template: string;
  /** The template as the routes table prints it, with a trailing slash: `/widgets/{widget_id}/`. */
  readonly display: string;
  /** The same path in Hono's syntax: `/widgets/:widget_id`, `/articles/:id{[0-9]+}`. */
  readonly honoPath: string;
  /** The placeholders, in order. */
  readonly params: readonly PathParam[];
}

/** The pattern of a placeholder that gives none: any one segment. */
export const DEFAULT_PATTERN = "[^/]+";

/**
 * Joins path pieces the way `path.Join` does for URL paths: one slash between pieces, no empty
 * segments, no trailing slash (except the root `/`).
 * @example joinPaths("/widgets/{widget_id}", "/images/") // "/widgets/{widget_id}/images"
 */
export function joinPaths(...pieces: string[]): string {
  const segments: string[] = [];
  for (const piece of pieces) {
    for (const segment of splitSegments(piece)) segments.push(segment);
  }
  return segments.length === 0 ? "/" : `/${segments.join("/")}`;
}

/** Splits on `/` outside braces, so a regex like `{rest:.+/.+}` stays whole. */
function splitSegments(path: string): string[] {
  const segments: string[] = [];
  let depth = 0;
  let current = "";
  for (const char of path) {
    if (char === "{") depth++;
    if (char === "}") depth = Math.max(0, depth - 1);
    if (char === "/" && depth === 0) {
      if (current !== "") segments.push(current);
      current = "";
    } else {
      current += char;
    }
  }
  if (current !== "") segments.push(current);
  return segments;
}

/**
 * Parses a template. Throws an Error naming the template when a placeholder is malformed or a
 * parameter name repeats.
 * @example parsePathTemplate("/widgets/{widget_id}").honoPath // "/widgets/:widget_id"
 */
export function parsePathTemplate(path: string): PathTemplate {
  if (typeof path !== "string")
    throw new WisentError("E_INVALID_ARGUMENT", `route path must be a string, got ${typeof path}`);
  const template = joinPaths(path);
  const params: PathParam[] = [];
  const honoSegments: string[] = [];
  for (const segment of splitSegments(template)) {
    honoSegments.push(segment.includes("{") ? toHonoSegment(segment, template, params) : segment);
  }
  return {
    template,
    display: template === "/" ? "/" : `${template}/`,
    honoPath: honoSegments.length === 0 ? "/" : `/${honoSegments.join("/")}`,
    params,
  };
}

function toHonoSegment(segment: string, template: string, params: PathParam[]): string {
  const match = /^\{([A-Za-z_][A-Za-z0-9_]*)(?::(.+))?\}$/.exec(segment);
  if (!match) {
    throw new WisentError(
      "E_APP_MISCONFIGURED",
      `invalid path parameter ${JSON.stringify(segment)} in ${template}: use {name} or {name:regex} as a whole segment`,
    );
  }
  const name = match[1]!;
  const pattern = match[2] ?? DEFAULT_PATTERN;
  if (params.some((p) => p.name === name)) {
    throw new WisentError(
      "E_APP_MISCONFIGURED",
      `path parameter {${name}} appears twice in ${template}`,
    );
  }
  try {
    new RegExp(`^(?:${pattern})$`);
  } catch (cause) {
    throw new WisentError(
      "E_APP_MISCONFIGURED",
      `invalid regex for {${name}} in ${template}: ${pattern}`,
      { cause },
    );
  }
  params.push({ name, pattern });
  return match[2] === undefined ? `:${name}` : `:${name}{${pattern}}`;
}
