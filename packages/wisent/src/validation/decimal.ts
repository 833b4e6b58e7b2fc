import { z } from "zod";
import { WisentError } from "../base/wisent-error.js";

/** What a decimal field takes: its text (`"16.5"`, as forms, XML and JSON send it) or a number. */
export type DecimalInput = string | number;

/** What a decimal field may be besides a value. */
export interface DecimalOptions {
  /** The value of a field left out or blank (`""`): `"0"`, `0`. Default: none, a blank is an error. */
  readonly default?: DecimalInput;
  /** A field left out or blank is `null` (a nullable column). */
  readonly nullable?: boolean;
}

/** A decimal field's column size, as the model reads its stored values back. */
export interface DecimalRuleInfo {
  readonly precision: number;
  readonly scale: number;
  /** What a field left out becomes: its default's text, `null`, or nothing (required). */
  readonly fallback?: string | null | undefined;
}

const RULES = new WeakMap<object, DecimalRuleInfo>();

/** The parts of a number written in decimal (or exponent) notation: `-12.5`, `1e3`, `.25`. */
const NUMBER_TEXT = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d{1,4}))?$/;

/**
 * `value` as exact decimal text with exactly `scale` places (`16` -> `"16.00"`, `"-0"` ->
 * `"0.00"`, `"1e3"` -> `"1000.00"`), or why it cannot be: not a number, more places than
 * `scale`, or more whole digits than `precision - scale`. A number is read by the digits
 * JavaScript prints for it (`0.1 + 0.2` has 17 places), never rounded.
 *
 * @example
 * decimalText("16", 10, 2); // { ok: true, text: "16.00" }
 * decimalText(12.511, 10, 2); // { ok: false, problem: "scale" }
 */
export function decimalText(
  value: unknown,
  precision: number,
  scale: number,
): { ok: true; text: string } | { ok: false; problem: "number" | "scale" | "range" } {
  let written: string;
  if (typeof value === "number") {
    if (!Number.isFinite(value)) return { ok: false, problem: "number" };
    written = String(value);
  } else if (typeof value === "string") written = value.trim();
  else if (typeof value === "bigint") written = String(value);
  else return { ok: false, problem: "number" };
  const parts = NUMBER_TEXT.exec(written);
  if (!parts || (parts[2] === "" && (parts[3] ?? "") === ""))
    return { ok: false, problem: "number" };
  const [, sign, whole = "", fraction = "", exponent = "0"] = parts;
  // Moves the point by the exponent: digits before it are the whole part.
  const digits = whole + fraction;
  const point = whole.length + Number(exponent);
  const padded =
    point < 0
      ? "0".repeat(-point) + digits
      : point > digits.length
        ? digits.padEnd(point, "0")
        : digits;
  const at = Math.max(point, 0);
  const wholeDigits = padded.slice(0, at).replace(/^0+/, "");
  const places = padded.slice(at).replace(/0+$/, "");
  if (places.length > scale) return { ok: false, problem: "scale" };
  if (wholeDigits.length > precision - scale) return { ok: false, problem: "range" };
  const zero = wholeDigits === "" && places === "";
  const text = (wholeDigits || "0") + (scale > 0 ? `.${places.padEnd(scale, "0")}` : "");
  return { ok: true, text: sign === "-" && !zero ? `-${text}` : text };
}

/**
 * A stored decimal as exact text with the column's scale: PostgreSQL and MySQL give its text
 * already, SQLite (which has no exact decimals) a number, whose shortest digits are the value
 * written for up to 15 significant digits. Anything else is left as it is.
 */
export function storedDecimal(value: unknown, info: DecimalRuleInfo): unknown {
  if (value === null || value === undefined) return value;
  const exact = decimalText(value, Number.MAX_SAFE_INTEGER, info.scale);
  if (exact.ok) return exact.text;
  // A number with more places than the column keeps (SQLite arithmetic): to the column's scale.
  if (typeof value === "number" && Number.isFinite(value) && exact.problem === "scale") {
    const rounded = decimalText(value.toFixed(info.scale), Number.MAX_SAFE_INTEGER, info.scale);
    if (rounded.ok) return rounded.text;
  }
  return value;
}

/** A message for the validator: the field's name is put before `text` (see `validate`). */
function issue(text: string) {
  return { code: "custom" as const, params: { fieldMessage: text } };
}

const isBlank = (value: unknown) => value === undefined || value === null || value === "";

/** The wording of a value that does not fit `decimal(precision, scale)`. */
function problemText(problem: "number" | "scale" | "range", precision: number, scale: number) {
  if (problem === "number") return "is not a number.";
  if (problem === "scale") {
    return scale === 0
      ? "must be a whole number."
      : `must have at most ${scale} decimal place${scale === 1 ? "" : "s"}.`;
  }
  const whole = precision - scale;
  return whole === 0
    ? "must be less than 1 and more than -1."
    : `must have at most ${whole} digit${whole === 1 ? "" : "s"} before the decimal point.`;
}

/**
 * A model field for a `decimal(precision, scale)` column: an exact number, held as text with
 * exactly `scale` places (`"16.00"`), never a float. It takes text or a number (`"16"`, `16.5`,
 * `"1e3"`) and refuses, with a 422 naming the field, what the column would round or not hold:
 * more places than `scale` ("Price must have at most 2 decimal places.") or more whole digits
 * than `precision - scale`. JSON and XML carry the text (`"price": "16.00"`), pages and forms
 * show it, and the model reads it back the same from every database. Compute with a decimal
 * library (`new Big(book.price)`) or in integer cents, never with `Number(...)` sums.
 *
 * @example
 * schema: z.object({ price: decimal(10, 2), discount: decimal(5, 2, { default: "0" }) })
 * // Book.create(db, { price: 16 }) -> { price: "16.00", discount: "0.00", ... }
 */
export function decimal(
  precision: number,
  scale: number,
  options: DecimalOptions & { nullable: true },
): z.ZodDefault<z.ZodType<string | null, DecimalInput | null>>;
export function decimal(
  precision: number,
  scale: number,
  options: DecimalOptions & { default: DecimalInput },
): z.ZodDefault<z.ZodType<string, DecimalInput>>;
export function decimal(
  precision: number,
  scale: number,
  options?: DecimalOptions,
): z.ZodType<string, DecimalInput>;
export function decimal(
  precision: number,
  scale: number,
  options: DecimalOptions = {},
): z.ZodType<string | null, DecimalInput | null | undefined> {
  if (!Number.isInteger(precision) || !Number.isInteger(scale) || precision < 1) {
    throw new WisentError(
      "E_INVALID_ARGUMENT",
      `decimal(${precision}, ${scale}): precision and scale must be whole numbers`,
    );
  }
  if (scale < 0 || scale > precision || precision > 65) {
    throw new WisentError(
      "E_INVALID_ARGUMENT",
      `decimal(${precision}, ${scale}): write 1 <= precision <= 65 and 0 <= scale <= precision`,
    );
  }
  let fallback: string | null | undefined;
  if (options.nullable) fallback = null;
  else if (options.default !== undefined) {
    const given = decimalText(options.default, precision, scale);
    if (!given.ok) {
      throw new WisentError(
        "E_INVALID_ARGUMENT",
        `decimal(${precision}, ${scale}): the default ${JSON.stringify(options.default)} ${problemText(given.problem, precision, scale)}`,
      );
    }
    fallback = given.text;
  }
  const rule = z.unknown().transform((value, ctx): string | null => {
    if (isBlank(value)) {
      if (fallback !== undefined) return fallback;
      ctx.addIssue(issue("can not be blank."));
      return z.NEVER;
    }
    const exact = decimalText(value, precision, scale);
    if (exact.ok) return exact.text;
    ctx.addIssue(issue(problemText(exact.problem, precision, scale)));
    return z.NEVER;
  }) as unknown as z.ZodType<string | null, DecimalInput | null>;
  // Left out: the default (or null), which zod's `default` marks optional in the input type.
  const field = fallback === undefined ? rule : rule.default(fallback);
  RULES.set(field, { precision, scale, fallback });
  return field as z.ZodType<string | null, DecimalInput | null | undefined>;
}

/** The wrappers a field may be in (`.optional()`, `.nullable()`, `.default()`, a pipe). */
function inner(schema: object): object | undefined {
  const def = (schema as { _zod?: { def?: { innerType?: object; out?: object; type?: string } } })
    ._zod?.def;
  return def?.innerType ?? (def?.type === "pipe" ? def.out : undefined);
}

/**
 * Whether `schema` (a field of a model's schema) is a {@link decimal}, and of what size: the
 * model formats its stored values with the scale, OpenAPI describes it as text.
 */
export function decimalRuleOf(schema: unknown): DecimalRuleInfo | undefined {
  let current = typeof schema === "object" && schema !== null ? schema : undefined;
  for (let depth = 0; current !== undefined && depth < 8; depth++) {
    const found = RULES.get(current);
    if (found) return found;
    current = inner(current);
  }
  return undefined;
}
