import type { PathTemplate } from "./path-template.js";

/** A value a path helper accepts for a parameter. */
export type ParamValue = string | number | bigint | boolean;

/** Parameters for a path helper: path placeholders plus extra query parameters. */
export type PathParams = Readonly<Record<string, unknown>>;

const compiledPatterns = new Map<string, RegExp>();

function wholeMatch(pattern: string): RegExp {
  let regex = compiledPatterns.get(pattern);
  if (!regex) {
    regex = new RegExp(`^(?:${pattern})$`);
    compiledPatterns.set(pattern, regex);
  }
  return regex;
}

/**
 * Builds a concrete path from a template. Placeholder values are URL-encoded; parameters that
 * are not placeholders become the query string (sorted by key; `null`/`undefined` are left out).
 * Throws an Error naming the route and the parameter when a placeholder is missing or its value
 * does not match the placeholder's pattern.
 *
 * @example
 * buildPath("widgetPath", parsePathTemplate("/widgets/{widget_id}"), { widget_id: 1, page: 2 })
 * // "/widgets/1?page=2"
 */
export function buildPath(routeName: string, path: PathTemplate, params: PathParams = {}): string {
  let built = path.template;
  const used = new Set<string>();
  for (const param of path.params) {
    const value = params[param.name];
    if (value === undefined || value === null || value === "") {
      throw new Error(`missing parameters for ${path.display}: ${routeName} needs "${param.name}"`);
    }
    const text = String(value);
    if (!wholeMatch(param.pattern).test(text)) {
      throw new Error(
        `${routeName}: parameter "${param.name}" = ${JSON.stringify(text)} does not match ${param.pattern}`,
      );
    }
    built = built.replace(placeholderOf(path, param.name), encodeURIComponent(text));
    used.add(param.name);
  }
  const query = Object.keys(params)
    .filter((key) => !used.has(key) && params[key] !== undefined && params[key] !== null)
    .sort()
    .map((key) => `${encodeURIComponent(key)}=${encodeURIComponent(String(params[key]))}`);
  return query.length === 0 ? built : `${built}?${query.join("&")}`;
}

function placeholderOf(path: PathTemplate, name: string): string {
  const start = path.template.indexOf(`{${name}`);
  let depth = 0;
  for (let i = start; i < path.template.length; i++) {
    const char = path.template[i];
    if (char === "{") depth++;
    if (char === "}" && --depth === 0) return path.template.slice(start, i + 1);
  }
  return `{${name}}`;
}
