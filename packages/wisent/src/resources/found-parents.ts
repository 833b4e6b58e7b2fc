import type { Context } from "hono";

/**
 * The parent records a nested route's guard found for this request (see `parentGuard`), by path
 * parameter, with the model that found each: the route's handler takes the record from here
 * instead of asking the database again (`ResourceBase#findParent`).
 */
const found = new WeakMap<Context, Map<string, { model: object; record: unknown }>>();

/** Notes that `model` found `record` for path parameter `paramKey` of this request. */
export function rememberParent(c: Context, paramKey: string, model: object, record: unknown): void {
  let parents = found.get(c);
  if (!parents) {
    parents = new Map();
    found.set(c, parents);
  }
  parents.set(paramKey, { model, record });
}

/** The record `model` found for `paramKey` earlier in this request, as `{ record }`; else undefined. */
export function rememberedParent(
  c: Context,
  paramKey: string,
  model: object,
): { record: unknown } | undefined {
  const entry = found.get(c)?.get(paramKey);
  return entry && entry.model === model ? { record: entry.record } : undefined;
}
