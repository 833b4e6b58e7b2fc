import type { Context } from "hono";
import type { z } from "zod";
import { contextExtension } from "../kernel/context-extensions.js";
import { validate } from "../validation/validation.js";
import { bodyParamsOf } from "./body.js";
import { ownerScopeOf } from "./owner-scope.js";

declare module "hono" {
  interface Context {
    /**
     * Reads the request into one plain object: urlencoded and multipart forms, JSON or XML bodies
     * (the query string for GET/HEAD). The body is read completely, up to the body limit (413),
     * before this resolves. Malformed bodies are 400, unknown content types 415. With a zod
     * schema the object is validated and a `ValidationErrors` (422) is thrown on failure. On the
     * routes of a resource declared with `ownedBy`, the owner column is always the signed-in
     * user's id, whatever the body says (`user_id` in a body cannot hand a record to another user).
     *
     * @returns the request's parameters, unchecked (bracketed names nested: `widget[title]`)
     * @throws HttpError 400 (`E_HTTP`) for a malformed body, 413 for one over the body limit,
     *   415 for a body with no or an unknown Content-Type, and 400 naming a form parameter
     *   beyond the nesting limits
     * @example
     * const params = await c.bind();
     */
    bind(): Promise<Record<string, unknown>>;
    /**
     * Reads the request into one plain object (as `bind()` does) and validates it with `schema`.
     *
     * @param schema - the zod schema the parameters must pass
     * @returns the schema's output
     * @throws ValidationErrors (`E_VALIDATION`, answered 422) keyed by field when the
     *   parameters fail the schema
     * @throws HttpError 400 (`E_HTTP`) for a malformed body, 413 for one over the body limit,
     *   415 for a body with no or an unknown Content-Type, and 400 naming a form parameter
     *   beyond the nesting limits
     * @example
     * const input = await c.bind(z.object({ title: z.string().trim().min(1) }));
     */
    bind<S extends z.ZodType>(schema: S): Promise<z.output<S>>;
  }
}

async function bind(this: Context, schema?: z.ZodType): Promise<unknown> {
  const scope = ownerScopeOf(this);
  const params = scope ? { ...(await bodyParamsOf(this)), ...scope } : await bodyParamsOf(this);
  if (!schema) return { ...params };
  const result = validate(schema, params);
  if (!result.ok) throw result.errors;
  return result.data;
}

/** `c.bind` (installed by the App, see kernel/context-extensions.ts). */
export const bindExtension = contextExtension("bind", bind);
