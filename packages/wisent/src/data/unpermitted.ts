import { currentEnv } from "../config/settings.js";
import { sharedLogger } from "../http/logger.js";
import { humanizeField } from "../validation/validation.js";
import { ValidationErrors } from "../validation/validation-errors.js";

/**
 * What a model's `validate` does with a field its schema does not know (Rails' "Unpermitted
 * parameter"): `log` one warning naming the fields and the model, `error` refuses the input (a 422
 * naming each field), `ignore` drops them silently. Default: `log` in development, else `ignore`.
 */
export type UnpermittedFields = "log" | "error" | "ignore";

/** Columns every record has: sent back on update (`{ ...widget, ...input }`), never unpermitted. */
const MANAGED = new Set(["id", "created_at", "updated_at"]);

/** The input's fields that are neither in the schema nor managed columns. */
export function unpermittedFields(input: unknown, fields: ReadonlySet<string>): string[] {
  if (input === null || typeof input !== "object" || Array.isArray(input)) return [];
  return Object.keys(input).filter((key) => !fields.has(key) && !MANAGED.has(key));
}

/**
 * Applies the setting to the unknown fields of one input: logs them, or returns the errors that
 * refuse it (undefined when the input may go on to validation).
 *
 * @example
 * checkUnpermitted(["colour"], "widget", "log"); // logs "Unpermitted parameters: colour (widget)"
 */
export function checkUnpermitted(
  unknown: readonly string[],
  model: string,
  setting: UnpermittedFields | undefined,
): ValidationErrors | undefined {
  if (unknown.length === 0) return undefined;
  const action = setting ?? (currentEnv() === "development" ? "log" : "ignore");
  if (action === "log") {
    sharedLogger().warn({
      msg: `Unpermitted parameters: ${unknown.join(", ")} (${model})`,
      model,
      fields: unknown,
    });
  }
  if (action !== "error") return undefined;
  const errors = new ValidationErrors();
  for (const field of unknown) {
    errors.add(field, `${humanizeField(field)} is not a field of ${model}.`);
  }
  return errors;
}
