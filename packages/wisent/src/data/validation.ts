import type { z } from "zod";
import { ValidationErrors } from "../http/validation-errors.js";

/** The outcome of `validate`: the parsed data, or Buffalo-style errors keyed by field. */
export type Validated<T> =
  | { ok: true; data: T; errors?: undefined }
  | { ok: false; data?: undefined; errors: ValidationErrors };

/** `first_name` -> `First name`, as Rails' `humanize` (used for messages). */
export function humanizeField(field: string): string {
  const words = field
    .replace(/_id$/, "")
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/[_\s]+/g, " ")
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function blank(issue: z.core.$ZodRawIssue): boolean {
  if (issue.code === "invalid_type") return issue.input === undefined || issue.input === null;
  if (issue.code === "too_small") {
    return issue.origin === "string" && Number(issue.minimum) === 1;
  }
  return false;
}

/** Buffalo's wording for the common cases; custom messages written in a schema take precedence. */
function message(issue: z.core.$ZodRawIssue): string {
  const field = humanizeField(String(issue.path?.at(-1) ?? "value"));
  if (blank(issue)) return `${field} can not be blank.`;
  if (issue.code === "too_small" && issue.origin === "string") {
    return `${field} must be at least ${issue.minimum} characters.`;
  }
  if (issue.code === "too_big" && issue.origin === "string") {
    return `${field} must be at most ${issue.maximum} characters.`;
  }
  // `int` is zod's origin for the safe-integer range of `.int()`.
  if (issue.code === "too_small" && (issue.origin === "number" || issue.origin === "int")) {
    return `${field} must be ${issue.inclusive ? "at least" : "greater than"} ${issue.minimum}.`;
  }
  if (issue.code === "too_big" && (issue.origin === "number" || issue.origin === "int")) {
    return `${field} must be ${issue.inclusive ? "at most" : "less than"} ${issue.maximum}.`;
  }
  if (issue.code === "invalid_format" && issue.format === "email") {
    return `${field} is not a valid email address.`;
  }
  if (issue.code === "unrecognized_keys") return `Unknown field: ${issue.keys.join(", ")}.`;
  return `${field} is invalid.`;
}

/**
 * Validates input with a zod schema. Failures come back as `ValidationErrors` keyed by field,
 * with Buffalo's wording (`Title can not be blank.`); messages written in the schema
 * (`z.string().min(3, "Title is too short")`) are kept as they are.
 *
 * @example
 * const result = validate(z.object({ title: z.string().trim().min(1) }), { title: "" });
 * result.errors?.toJSON(); // { errors: { title: ["Title can not be blank."] } }
 */
export function validate<S extends z.ZodType>(schema: S, input: unknown): Validated<z.output<S>> {
  const result = schema.safeParse(input, { error: message });
  if (result.success) return { ok: true, data: result.data };
  const errors = new ValidationErrors();
  for (const issue of result.error.issues) {
    errors.add(issue.path.length > 0 ? issue.path.join(".") : "base", issue.message);
  }
  return { ok: false, errors };
}
