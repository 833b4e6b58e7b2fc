import type { z } from "zod";
import { decimalPlaces } from "./decimal-scale.js";
import { ValidationErrors } from "./validation-errors.js";

/** The outcome of `validate`: the parsed data, or Buffalo-style errors keyed by field. */
export type Validated<T> =
  | { ok: true; data: T; errors?: undefined }
  | { ok: false; data?: undefined; errors: ValidationErrors };

/**
 * `first_name` -> `First name`, as Rails' `humanize` (used for messages).
 * @param field - a field name (snake_case or camelCase; a trailing `_id` is dropped)
 * @returns the field's name in words, capitalised
 * @example humanizeField("author_id"); // "Author"
 */
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
  // A rule's own wording after the field's name (attachments: "must be at most 10 MB.").
  const fieldMessage = issue.code === "custom" ? issue.params?.fieldMessage : undefined;
  if (typeof fieldMessage === "string") return `${field} ${fieldMessage}`;
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
  // A decimal column's scale (`.multipleOf(0.01)`): more places would be rounded when stored.
  if (issue.code === "not_multiple_of") {
    const places = decimalPlaces(Number(issue.divisor));
    if (places === 0 && Number(issue.divisor) === 1) return `${field} must be a whole number.`;
    if (places > 0 && Number(issue.divisor) === Number(`1e-${places}`)) {
      return `${field} must have at most ${places} decimal place${places === 1 ? "" : "s"}.`;
    }
    return `${field} must be a multiple of ${issue.divisor}.`;
  }
  if (issue.code === "invalid_format" && issue.format === "email") {
    return `${field} is not a valid email address.`;
  }
  if (issue.code === "unrecognized_keys") return `Unknown field: ${issue.keys.join(", ")}.`;
  return `${field} is invalid.`;
}

/**
 * Control characters other than tab, newline and carriage return (C0, DEL and C1), and lone
 * surrogates: text no format carries faithfully (XML cannot at all, HTML shows raw NULs, a lone
 * surrogate reads back as U+FFFD), so no model stores them.
 */
const MALFORMED_TEXT =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * The errors of every string (at any depth of `value`) holding malformed text, or undefined when
 * there is none (see ValidationErrors.adding: a valid create made two, bench/load/profile.mjs).
 */
function malformedText(value: unknown): ValidationErrors | undefined {
  let errors: ValidationErrors | undefined;
  checkText(value, [], (field, message) => {
    errors = ValidationErrors.adding(errors, field, message);
  });
  return errors;
}

/** Reports every string (at any depth of `value`) holding malformed text. */
function checkText(
  value: unknown,
  path: string[],
  report: (field: string, message: string) => void,
  depth = 0,
): void {
  if (typeof value === "string") {
    if (MALFORMED_TEXT.test(value)) {
      const field = humanizeField(path.findLast((part) => !/^\d+$/.test(part)) ?? "value");
      report(
        path.length > 0 ? path.join(".") : "base",
        `${field} must not contain control characters or unpaired surrogates.`,
      );
    }
    return;
  }
  if (value === null || typeof value !== "object" || depth > 32) return;
  if (Array.isArray(value)) {
    for (const [i, entry] of value.entries()) {
      checkText(entry, [...path, String(i)], report, depth + 1);
    }
    return;
  }
  if (Object.getPrototypeOf(value) !== Object.prototype && Object.getPrototypeOf(value) !== null) {
    return;
  }
  for (const [key, entry] of Object.entries(value)) {
    checkText(entry, [...path, key], report, depth + 1);
  }
}

/**
 * Validates input with a zod schema. Failures come back as `ValidationErrors` keyed by field,
 * with Buffalo's wording (`Title can not be blank.`); messages written in the schema
 * (`z.string().min(3, "Title is too short")`) are kept as they are. Every string of the result,
 * at any depth, must be well-formed text: control characters other than tab, newline and
 * carriage return, and lone surrogates, are refused naming the field (so every model's string
 * fields refuse them, whatever their zod rule).
 *
 * @param schema - any zod schema
 * @param input - the value to check (a parsed body, a model's attributes)
 * @returns `{ ok: true, data }` with the schema's output, or `{ ok: false, errors }`; never
 *   throws for bad input
 * @example
 * const result = validate(z.object({ title: z.string().trim().min(1) }), { title: "" });
 * result.errors?.toJSON(); // { errors: { title: ["Title can not be blank."] } }
 */
export function validate<S extends z.ZodType>(schema: S, input: unknown): Validated<z.output<S>> {
  const result = schema.safeParse(input, { error: message });
  if (result.success) {
    const malformed = malformedText(result.data);
    return malformed ? { ok: false, errors: malformed } : { ok: true, data: result.data };
  }
  const errors = new ValidationErrors();
  for (const issue of result.error.issues) {
    errors.add(issue.path.length > 0 ? issue.path.join(".") : "base", issue.message);
  }
  return { ok: false, errors };
}
