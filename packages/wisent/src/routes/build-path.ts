import { WisentError } from "../base/wisent-error.js";
import { DEFAULT_PATTERN, type PathTemplate } from "./path-template.js";

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

/** A template cut at its placeholders: `literals[i]`, value `i`, `literals[i + 1]`, ... */
interface CompiledPath {
  readonly literals: readonly string[];
  readonly params: readonly {
    readonly name: string;
    readonly whole: RegExp;
    /** The placeholder takes any one segment (`[^/]+`, the default). */
    readonly anySegment: boolean;
  }[];
  readonly names: ReadonlySet<string>;
}

/**
 * A non-empty value made only of the characters a URL keeps as they are (letters, digits, `-`,
 * `.`, `_`, `~`): such a value (an id, a UUID) matches `[^/]+` and needs no encoding. Saves the
 * placeholder's regex test and `encodeURIComponent` of three links a row (bench/load/
 * ab-instructions.mjs, HTML index); one regex test is about 3x cheaper than a loop over a
 * UUID's characters (36 `charCodeAt`s).
 */
const UNRESERVED_ONLY = /^[\w.~-]+$/;

// Templates live as long as their routes: compiled once each, not cut apart on every link a
// page renders (an index page builds three links a row).
const compiled = new WeakMap<PathTemplate, CompiledPath>();

function compile(path: PathTemplate): CompiledPath {
  let found = compiled.get(path);
  if (found) return found;
  const literals: string[] = [];
  let from = 0;
  for (const param of path.params) {
    const placeholder = placeholderOf(path, param.name);
    const at = path.template.indexOf(placeholder, from);
    literals.push(path.template.slice(from, at));
    from = at + placeholder.length;
  }
  literals.push(path.template.slice(from));
  found = {
    literals,
    params: path.params.map((param) => ({
      name: param.name,
      whole: wholeMatch(param.pattern),
      anySegment: param.pattern === DEFAULT_PATTERN,
    })),
    names: new Set(path.params.map((param) => param.name)),
  };
  compiled.set(path, found);
  return found;
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
  const { literals, params: slots, names } = compile(path);
  let built = literals[0]!;
  for (let i = 0; i < slots.length; i++) {
    const { name, whole, anySegment } = slots[i]!;
    const value = params[name];
    if (value === undefined || value === null || value === "") {
      throw new WisentError(
        "E_APP_MISCONFIGURED",
        `missing parameters for ${path.display}: ${routeName} needs "${name}"`,
      );
    }
    const text = typeof value === "string" ? value : String(value);
    if (anySegment && UNRESERVED_ONLY.test(text)) {
      built += text + literals[i + 1]!;
      continue;
    }
    if (!whole.test(text)) {
      throw new WisentError(
        "E_APP_MISCONFIGURED",
        `${routeName}: parameter "${name}" = ${JSON.stringify(text)} does not match ${path.params[i]!.pattern}`,
      );
    }
    built += encodeURIComponent(text) + literals[i + 1]!;
  }
  let query: string[] | undefined;
  for (const key in params) {
    if (names.has(key) || !Object.hasOwn(params, key)) continue;
    const value = params[key];
    if (value === undefined || value === null) continue;
    if (query) query.push(key);
    else query = [key];
  }
  if (!query) return built;
  query.sort();
  return `${built}?${query.map((key) => `${encodeURIComponent(key)}=${encodeURIComponent(String(params[key]))}`).join("&")}`;
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
