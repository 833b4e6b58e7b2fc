import type { z } from "zod";
import { OPERATION_DOC_KEY } from "../base/symbols.js";

/** One answer of an operation, as its OpenAPI document shows it. */
export interface AnswerDoc {
  readonly description: string;
  /** The JSON body's shape (`z.object({ token: z.string() })`); none for a bodiless answer (204). */
  readonly body?: z.ZodType;
  /** Headers the answer carries, with what each says (`{ Location: "The new token's path" }`). */
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * What a route without a model takes and answers, for its OpenAPI document: the JSON body it
 * reads and each status it answers (an error status given as a string is documented with the
 * shared error body, `{"error","code"}`, or the 422's `{"errors":{...}}`). The statuses every
 * route can answer (405, 429, 503) and a secured route's 401 are added for it.
 */
export interface OperationDoc {
  readonly summary?: string;
  readonly description?: string;
  /** The JSON (or form) body it reads; required when given. */
  readonly body?: z.ZodType;
  readonly responses: Readonly<Record<number, string | AnswerDoc>>;
}

const DOC: typeof OPERATION_DOC_KEY = OPERATION_DOC_KEY;

/**
 * Attaches an {@link OperationDoc} to a plain route's handler, so the OpenAPI document (and every
 * client generated from it) says what the route really takes and answers.
 *
 * @param doc - the body it reads and the answers it gives, by status
 * @param handler - the route's handler
 * @returns the same handler, carrying the doc
 * @example
 * export const CreateToken = documented(
 *   { body: Credentials, responses: { 201: { description: "A new token", body: NewToken }, 401: "Wrong email or password" } },
 *   async (c: Context) => c.json({ token: "..." }, 201),
 * );
 * app.post("/tokens", CreateToken);
 */
export function documented<H extends (...args: never[]) => unknown>(
  doc: OperationDoc,
  handler: H,
): H {
  Object.defineProperty(handler, DOC, { value: doc, enumerable: false });
  return handler;
}

/** The {@link OperationDoc} a handler was given by {@link documented}, if any. */
export function operationDocOf(handler: unknown): OperationDoc | undefined {
  if (typeof handler !== "function") return undefined;
  return (handler as unknown as { [DOC]?: OperationDoc })[DOC];
}
