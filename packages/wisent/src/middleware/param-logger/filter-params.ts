import { BoundedMemo } from "../../base/bounded-memo.js";
import { jsonString, jsonStringContent } from "../../http/json-text.js";

/**
 * Key fragments whose values never reach the logs: Rails' default `filter_parameters` (`passw`,
 * `email`, `secret`, `token`, `_key`, `crypt`, `salt`, `certificate`, `otp`, `ssn`, `cvv`,
 * `cvc`) and a few more (`pwd`, `apikey`, `credit_card`, `authorization`), each matched as a
 * substring of the key in `filterKeyForm` (`apiToken` -> `api_token`, `X-Api-Key` ->
 * `x_api_key`), at any depth. Apps add their own with `paramLogger({ filter: [...] })`.
 */
export const FILTERED_KEY_PARTS = [
  "passw",
  "email",
  "secret",
  "token",
  "_key",
  "crypt",
  "salt",
  "certificate",
  "otp",
  "ssn",
  "cvv",
  "cvc",
  "pwd",
  "apikey",
  "creditcard",
  "credit_card",
  "authorization",
] as const;

/**
 * The form keys and filter parts are compared in: snake case, lower case, `-` as `_`
 * (`privateKey` -> `private_key`, `X-CSRF-Token` -> `x_csrf_token`, `NEW_TOKEN` -> `new_token`).
 *
 * @example
 * filterKeyForm("apiKey"); // "api_key"
 */
export function filterKeyForm(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .toLowerCase()
    .replace(/-/g, "_");
}

export const FILTERED = "[FILTERED]";

// The same few keys (`page`, `widget_id`, form fields) come with every request: remember per
// list of parts, for a bounded number of keys (hostile requests invent endless ones), whether
// the key is sensitive and its JSON as a member name (`"page":`) for filteredParamsJson.
interface KeyFacts {
  readonly sensitive: boolean;
  readonly member: string;
}
interface Verdicts {
  readonly known: BoundedMemo<string, KeyFacts>;
  readonly judge: (key: string) => KeyFacts;
}
const verdicts = new WeakMap<readonly string[], Verdicts>();
const MAX_REMEMBERED_KEYS = 1000;

function factsOf(key: string, parts: readonly string[]): KeyFacts {
  let forParts = verdicts.get(parts);
  if (!forParts) {
    forParts = {
      known: new BoundedMemo(MAX_REMEMBERED_KEYS),
      judge: (name) => {
        const normalized = filterKeyForm(name);
        return {
          sensitive: parts.some((part) => normalized.includes(part)),
          member: `${jsonString(name)}:`,
        };
      },
    };
    verdicts.set(parts, forParts);
  }
  return forParts.known.get(key, forParts.judge);
}

function isSensitive(key: string, parts: readonly string[]): boolean {
  return factsOf(key, parts).sensitive;
}

/**
 * Whether the value of the key `name` never reaches the logs (see {@link filterParams}); the
 * segment a path parameter of that name fills is filtered from logged paths too.
 *
 * @example
 * isFilteredKey("password_id"); // true
 */
export function isFilteredKey(
  name: string,
  parts: readonly string[] = FILTERED_KEY_PARTS,
): boolean {
  return isSensitive(name, parts);
}

/**
 * A copy of `params` with sensitive values replaced by `[FILTERED]`: any key containing one of
 * {@link FILTERED_KEY_PARTS} (Rails' list: passw, email, secret, token, _key, ...) in
 * `filterKeyForm`, at any depth (`user[password]`, `{ user: { password } }`, `apiToken`).
 * Files are logged by name and size (an upload never by its temporary file), anything else with
 * a `toJSON` as it gives itself to JSON.
 *
 * @param params - the parameters (any JSON-like value, nested at any depth)
 * @param parts - the key fragments to filter, in `filterKeyForm` (default
 *   {@link FILTERED_KEY_PARTS})
 * @returns the filtered copy; values deeper than 32 levels are `[TOO DEEP]`
 * @example
 * filterParams({ user: { name: "a", password: "x" } }); // { user: { name: "a", password: "[FILTERED]" } }
 */
export function filterParams(
  params: unknown,
  parts: readonly string[] = FILTERED_KEY_PARTS,
): unknown {
  return filterAt(params, parts, 0);
}

/** Deeper than this, a value is logged as `[TOO DEEP]`. */
export const MAX_LOGGED_DEPTH = 32;
export const TOO_DEEP = "[TOO DEEP]";

// A hostile body nested 100,000 levels deep would overflow the stack here and in JSON.stringify
// (a 500 for a request that deserves a 4xx), so the copy stops at MAX_LOGGED_DEPTH.
function filterAt(params: unknown, parts: readonly string[], depth: number): unknown {
  if (depth > MAX_LOGGED_DEPTH && params !== null && typeof params === "object") return TOO_DEEP;
  if (Array.isArray(params)) return params.map((entry) => filterAt(entry, parts, depth + 1));
  if (typeof File !== "undefined" && params instanceof File) {
    return { file: params.name, size: params.size, type: params.type };
  }
  if (params === null || typeof params !== "object") return params;
  // What the value says of itself for JSON: an upload its name, type and size, never the
  // temporary file it was written to (`UploadedFile`); a date its ISO text.
  if (typeof (params as { toJSON?: unknown }).toJSON === "function") {
    return filterAt((params as { toJSON(): unknown }).toJSON(), parts, depth + 1);
  }
  const result: Record<string, unknown> = {};
  for (const key in params) {
    if (!Object.hasOwn(params, key)) continue;
    const value = (params as Record<string, unknown>)[key];
    result[key] = isSensitive(key, parts) ? FILTERED : filterAt(value, parts, depth + 1);
  }
  return result;
}

const FILTERED_JSON = JSON.stringify(FILTERED);

/**
 * `JSON.stringify(filterParams(params, parts))`, without the copy: the request log writes its
 * parameters straight into its line. String values (all of a route's path parameters, most of
 * a query's) go through {@link jsonStringContent}; anything else is filtered and copied as
 * filterParams does, then given to JSON.stringify. Equal to the long way for any value
 * (filter-params.test.ts).
 *
 * @example
 * filteredParamsJson({ page: "2", token: "t" }); // '{"page":"2","token":"[FILTERED]"}'
 */
export function filteredParamsJson(
  params: unknown,
  parts: readonly string[] = FILTERED_KEY_PARTS,
): string | undefined {
  if (params === null || typeof params !== "object" || Array.isArray(params)) {
    return JSON.stringify(filterAt(params, parts, 0));
  }
  if (typeof File !== "undefined" && params instanceof File) {
    return JSON.stringify(filterAt(params, parts, 0));
  }
  if (typeof (params as { toJSON?: unknown }).toJSON === "function") {
    return JSON.stringify(filterAt(params, parts, 0));
  }
  let json = "{";
  for (const key in params) {
    if (!Object.hasOwn(params, key)) continue;
    // filterParams's copy takes a `__proto__` member as its prototype (JSON then drops it), and
    // a `toJSON` function member is called by JSON.stringify: the long way keeps both quirks.
    if (key === "__proto__" || key === "toJSON") {
      return JSON.stringify(filterAt(params, parts, 0));
    }
    const facts = factsOf(key, parts);
    const value = (params as Record<string, unknown>)[key];
    const comma = json.length === 1 ? "" : ",";
    if (facts.sensitive) json += `${comma}${facts.member}${FILTERED_JSON}`;
    else if (typeof value === "string") {
      json += `${comma}${facts.member}"${jsonStringContent(value)}"`;
    } else {
      // undefined for what JSON leaves out (undefined, functions, symbols): no member then.
      const text = JSON.stringify(filterAt(value, parts, 1)) as string | undefined;
      if (text !== undefined) json += `${comma}${facts.member}${text}`;
    }
  }
  return `${json}}`;
}

/** Headers whose values never reach the logs, whatever the filter parts. */
const SECRET_HEADERS = new Set(["authorization", "proxy-authorization", "cookie", "set-cookie"]);

/**
 * A copy of `headers` for a log line: `Authorization`, `Proxy-Authorization`, `Cookie`,
 * `Set-Cookie` and any header whose name contains a filter part (`X-Api-Key`, `X-CSRF-Token`)
 * as `[FILTERED]`.
 *
 * @param headers - a plain object (Node's `IncomingHttpHeaders`) or a `Headers`
 * @param parts - the key fragments to filter (default {@link FILTERED_KEY_PARTS})
 * @returns the headers by lower-case name, repeated values joined with `, `
 * @example
 * filterHeaders({ authorization: "Bearer x", accept: "text/html" });
 * // { authorization: "[FILTERED]", accept: "text/html" }
 */
export function filterHeaders(
  headers: Readonly<Record<string, string | string[] | undefined>> | Headers,
  parts: readonly string[] = FILTERED_KEY_PARTS,
): Record<string, string> {
  const result: Record<string, string> = {};
  const entries = headers instanceof Headers ? [...headers.entries()] : Object.entries(headers);
  for (const [name, value] of entries) {
    if (value === undefined) continue;
    const lower = name.toLowerCase();
    result[lower] =
      SECRET_HEADERS.has(lower) || isSensitive(lower, parts)
        ? FILTERED
        : Array.isArray(value)
          ? value.join(", ")
          : value;
  }
  return result;
}
