import { BoundedMemo } from "../../http/bounded-memo.js";

/** Key fragments whose values never reach the logs (compared without case, `_` or `-`). */
export const FILTERED_KEY_PARTS = [
  "password",
  "secret",
  "token",
  "creditcard",
  "cvc",
  "authenticitytoken",
] as const;

export const FILTERED = "[FILTERED]";

// The same few keys (`page`, `widget_id`, form fields) come with every request: remember the
// answer per list of parts, for a bounded number of keys (hostile requests invent endless ones).
interface Verdicts {
  readonly known: BoundedMemo<string, boolean>;
  readonly judge: (key: string) => boolean;
}
const verdicts = new WeakMap<readonly string[], Verdicts>();
const MAX_REMEMBERED_KEYS = 1000;

function isSensitive(key: string, parts: readonly string[]): boolean {
  let forParts = verdicts.get(parts);
  if (!forParts) {
    forParts = {
      known: new BoundedMemo(MAX_REMEMBERED_KEYS),
      judge: (name) => {
        const normalized = name.toLowerCase().replace(/[^a-z0-9]/g, "");
        return parts.some((part) => normalized.includes(part));
      },
    };
    verdicts.set(parts, forParts);
  }
  return forParts.known.get(key, forParts.judge);
}

/**
 * A copy of `params` with sensitive values replaced by `[FILTERED]`: any key containing password,
 * secret, token, credit_card, cvc or authenticity_token, case-insensitively, at any depth
 * (`user[password]`, `{ user: { password } }`, `apiToken`). Files are logged by name and size.
 *
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
  const result: Record<string, unknown> = {};
  for (const key in params) {
    if (!Object.hasOwn(params, key)) continue;
    const value = (params as Record<string, unknown>)[key];
    result[key] = isSensitive(key, parts) ? FILTERED : filterAt(value, parts, depth + 1);
  }
  return result;
}
