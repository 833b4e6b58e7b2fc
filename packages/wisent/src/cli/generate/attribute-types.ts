/**
 * The attribute types of `wisent generate resource`: Buffalo's table (reference section 5) with
 * the meanings a Rails user expects (`float` a float, `time` a time of day, `references` a foreign
 * key). Each row maps a type to everything the generated files need: the TypeScript type, the zod
 * rule, the column (a `createTable` helper), the form input, how a value is shown, and sample
 * values for generated tests. The generator reads nothing about a type from anywhere else.
 */
import { WisentError } from "../../base/wisent-error.js";

/** A helper a model needs to read text input (forms and XML send every value as a string). */
export type InputParser =
  | "toNumber"
  | "toBoolean"
  | "toDate"
  | "toJson"
  | "toTimeOfDay"
  | "blankToUndefined";

/** How a value is written into a form field and shown on a page. */
export type Display = "text" | "boolean" | "timestamp" | "json" | "attachment" | "attachments";

/** The `TableBuilder` method of a column (`t.string(...)`). */
export type ColumnMethod =
  | "string"
  | "text"
  | "integer"
  | "bigInteger"
  | "boolean"
  | "float"
  | "decimal"
  | "timestamp"
  | "date"
  | "time"
  | "uuid"
  | "json"
  | "references";

/** One row of the type table. */
export interface AttributeType {
  /** The canonical name (`string`, `nulls.Text`, `int`, `decimal{10,2}`, ...). */
  readonly name: string;
  /** The TypeScript type of the field on the record. */
  readonly tsType: string;
  /** The zod rule; `{p}` stands for the parser helper when `parser` is set. */
  readonly zod: string;
  /** A parser the rule needs (emitted once into the model file). */
  readonly parser?: InputParser;
  /** The `TableBuilder` method of the column (`t.string(...)`). */
  readonly column: ColumnMethod;
  /** Arguments after the column name: `[10, 2]` for `decimal{10,2}`. */
  readonly columnArgs?: readonly number[];
  /** NULL allowed (`nulls.*`). */
  readonly nullable: boolean;
  /** A blank value is an error (no default). */
  readonly required: boolean;
  /** The form control. */
  readonly input:
    | "text"
    | "textarea"
    | "checkbox"
    | "number"
    | "decimal"
    | "date"
    | "time"
    | "datetime-local"
    | "file";
  /** How the value is formatted for a form field and a page. */
  readonly display: Display;
  /** Long text (Buffalo's CommonType `text`): left out of the index table, as Buffalo does. */
  readonly long: boolean;
  /** A foreign key (`post:references`): the column is `post_id`, pointing to the parent's table. */
  readonly reference?: boolean;
  /**
   * Two valid values, different from each other, as a record carries them in JSON (generated
   * tests create with the first and update to the second): `[42, 43]`.
   */
  readonly samples: readonly [unknown, unknown];
  /** A value the rule refuses (a 422 naming the field), when there is one. */
  readonly invalid?: unknown;
  /** A rule the model imports from `wisent` (`attachment`, `decimal`). */
  readonly rule?: "attachment" | "attachments" | "decimal";
  /** The `step` of a number input: `1` for whole numbers, `0.01` for a scale of 2, `any`. */
  readonly step?: string;
}

/** The range of a 32-bit `integer` column (PostgreSQL, MySQL). */
export const INT32 = { min: -2147483648, max: 2147483647 } as const;

const string: AttributeType = {
  name: "string",
  tsType: "string",
  zod: "z.string().trim().min(1).max(255)",
  column: "string",
  nullable: false,
  required: true,
  input: "text",
  display: "text",
  long: false,
  samples: ["First value", "Second value"],
  invalid: "",
};
const text: AttributeType = {
  ...string,
  name: "text",
  zod: "z.string().trim().min(1)",
  column: "text",
  input: "textarea",
  long: true,
};
const nullsText: AttributeType = {
  ...text,
  name: "nulls.Text",
  tsType: "string | null",
  zod: "z.string().nullable().default(null)",
  nullable: true,
  required: false,
  invalid: undefined,
};
const nullsString: AttributeType = {
  ...string,
  name: "nulls.String",
  tsType: "string | null",
  zod: "z.string().max(255).nullable().default(null)",
  nullable: true,
  required: false,
  invalid: "x".repeat(256),
};
const int: AttributeType = {
  name: "int",
  tsType: "number",
  // The column's range: a value PostgreSQL or MySQL would refuse is a 422 naming the field.
  zod: `z.preprocess({p}, z.number().int().min(${INT32.min}).max(${INT32.max}))`,
  parser: "toNumber",
  column: "integer",
  nullable: false,
  required: true,
  input: "number",
  display: "text",
  long: false,
  samples: [42, 43],
  invalid: "many",
  step: "1",
};
const nullsInt: AttributeType = {
  ...int,
  name: "nulls.Int",
  tsType: "number | null",
  zod: `z.preprocess({p}, z.number().int().min(${INT32.min}).max(${INT32.max}).nullable().default(null))`,
  nullable: true,
  required: false,
};
const bigint: AttributeType = {
  ...int,
  name: "bigint",
  // A 64-bit column read as a JS number: zod's int() accepts only the range a number holds exactly.
  zod: "z.preprocess({p}, z.number().int())",
  column: "bigInteger",
  samples: [9007199254740000, 9007199254740001],
};
const bool: AttributeType = {
  name: "bool",
  tsType: "boolean",
  zod: "z.preprocess({p}, z.boolean().default(false))",
  parser: "toBoolean",
  column: "boolean",
  nullable: false,
  required: false,
  input: "checkbox",
  display: "boolean",
  long: false,
  samples: [true, false],
  invalid: "maybe",
};
const float: AttributeType = {
  name: "float",
  tsType: "number",
  zod: "z.preprocess({p}, z.number().default(0))",
  parser: "toNumber",
  column: "float",
  nullable: false,
  required: false,
  input: "decimal",
  display: "text",
  long: false,
  samples: [1.5, 2.25],
  invalid: "many",
  step: "any",
};
const nullsFloat: AttributeType = {
  ...float,
  name: "nulls.Float",
  tsType: "number | null",
  zod: "z.preprocess({p}, z.number().nullable().default(null))",
  nullable: true,
};
/** The default `decimal`: `decimal(12, 2)`, as `TableBuilder.decimal` without arguments. */
const DECIMAL = { precision: 12, scale: 2 } as const;

/** A number as a `decimal(p, s)` holds it: exact text with `scale` places (`12.5` -> `"12.50"`). */
function decimalText(value: number, scale: number): string {
  return value.toFixed(scale);
}

/**
 * `decimal{p,s}`: an exact number, held as text with its scale (`"16.00"`) by wisent's
 * `decimal(p, s)` rule, in JSON, XML, pages and forms alike; its whole part fits the column and
 * it has at most `s` places (else a 422, not a database rounding it).
 */
function decimal(precision: number = DECIMAL.precision, scale: number = DECIMAL.scale) {
  const sized = precision !== DECIMAL.precision || scale !== DECIMAL.scale;
  const whole = precision - scale;
  // Two values the column holds, different at its scale: 12.50 and 34.25 when it can.
  const [first, second] = whole >= 2 ? [12.5, 34.25] : whole === 1 ? [1.5, 3.25] : [0.5, 0.25];
  return {
    name: sized ? `decimal{${precision},${scale}}` : "decimal",
    tsType: "string",
    // Text or a number in, exact text out; blank is the default (forms send "").
    zod: `decimal(${precision}, ${scale}, { default: "${decimalText(0, scale)}" })`,
    column: "decimal",
    nullable: false,
    required: false,
    input: "decimal",
    display: "text",
    long: false,
    invalid: "many",
    ...(sized ? { columnArgs: [precision, scale] } : {}),
    // A whole number's samples stay apart (12 and 34) at a scale of 0.
    samples: [decimalText(first, scale), decimalText(scale === 0 ? first * 2 + 9 : second, scale)],
    rule: "decimal",
    step: scale === 0 ? "1" : `0.${"0".repeat(scale - 1)}1`,
  } satisfies AttributeType;
}
const timestamp: AttributeType = {
  name: "timestamp",
  tsType: "Date",
  zod: "z.preprocess({p}, z.date())",
  parser: "toDate",
  column: "timestamp",
  nullable: false,
  required: true,
  input: "datetime-local",
  display: "timestamp",
  long: false,
  samples: ["2024-05-01T12:30:00.000Z", "2024-06-02T08:15:00.000Z"],
  invalid: "not a time",
};
const nullsTime: AttributeType = {
  ...timestamp,
  name: "nulls.Time",
  tsType: "Date | null",
  zod: "z.preprocess({p}, z.date().nullable().default(null))",
  nullable: true,
  required: false,
};
const timeOfDay: AttributeType = {
  name: "time",
  tsType: "string",
  // HH:MM or HH:MM:SS, stored and read back as "HH:MM:SS" on every database.
  zod: "z.preprocess({p}, z.string().regex(/^([01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d$/))",
  parser: "toTimeOfDay",
  column: "time",
  nullable: false,
  required: true,
  input: "time",
  display: "text",
  long: false,
  samples: ["09:30:00", "17:45:00"],
  invalid: "25:00",
};
const date: AttributeType = {
  name: "date",
  tsType: "string",
  zod: "z.preprocess({p}, z.iso.date())",
  parser: "blankToUndefined",
  column: "date",
  nullable: false,
  required: true,
  input: "date",
  display: "text",
  long: false,
  samples: ["2024-05-01", "2024-06-02"],
  invalid: "not a date",
};
const uuid: AttributeType = {
  name: "uuid",
  tsType: "string",
  zod: "z.preprocess({p}, z.uuid())",
  parser: "blankToUndefined",
  column: "uuid",
  nullable: false,
  required: true,
  input: "text",
  display: "text",
  long: false,
  samples: ["0190f5a2-7b1c-7cde-8f00-1234567890ab", "0190f5a2-7b1c-7cde-8f00-1234567890cd"],
  invalid: "not-a-uuid",
};
const nullsUuid: AttributeType = {
  ...uuid,
  name: "nulls.UUID",
  tsType: "string | null",
  zod: "z.preprocess({p}, z.uuid().nullable().default(null))",
  nullable: true,
  required: false,
};
const references: AttributeType = {
  ...uuid,
  name: "references",
  column: "references",
  reference: true,
};
const json: AttributeType = {
  name: "json",
  tsType: "Record<string, unknown>",
  zod: "z.preprocess({p}, z.record(z.string(), z.unknown()).default({}))",
  parser: "toJson",
  column: "json",
  nullable: false,
  required: false,
  input: "textarea",
  display: "json",
  long: true,
  samples: [{ size: 1 }, { size: 2, tags: ["b"] }],
  invalid: "{",
};

/** What a generated attachment accepts (the rule checks the bytes; the form's `accept` reads the rule). */
const ATTACHMENT_TYPES = ["image/*", "application/pdf"];
const attachment: AttributeType = {
  name: "attachment",
  tsType: "StoredAttachment | null",
  // The rule reads the file's bytes for its type and checks its size (default 10 MiB). Optional,
  // as Rails' has_one_attached: remove `optional: true` to require a file.
  zod: `attachment({ types: ${JSON.stringify(ATTACHMENT_TYPES).replace(/,/g, ", ")}, optional: true })`,
  column: "json",
  nullable: true,
  required: false,
  input: "file",
  display: "attachment",
  long: false,
  // Files are sent as multipart parts: the generated tests upload a PNG for these.
  samples: ["cat.png", "dog.png"],
  rule: "attachment",
};
const attachmentList: AttributeType = {
  ...attachment,
  name: "attachments",
  tsType: "StoredAttachment[]",
  zod: `attachments({ types: ${JSON.stringify(ATTACHMENT_TYPES).replace(/,/g, ", ")} })`,
  nullable: false,
  required: false,
  display: "attachments",
  long: true,
  rule: "attachments",
};

/**
 * Every accepted spelling, lower-cased: Buffalo's (gobuffalo/attrs) and Rails' names. `time` is a
 * time of day as in Rails; Go's `time.Time` (Buffalo's spelling) stays a timestamp.
 */
const TYPES: ReadonlyMap<string, AttributeType> = new Map([
  ["string", string],
  ["text", text],
  ["nulls.text", nullsText],
  ["nulls.string", nullsString],
  ["int", int],
  ["integer", { ...int, name: "integer" }],
  ["nulls.int", nullsInt],
  ["bigint", bigint],
  ["int64", { ...bigint, name: "int64" }],
  ["bool", bool],
  ["boolean", { ...bool, name: "boolean" }],
  ["float", float],
  ["float64", { ...float, name: "float64" }],
  ["nulls.float", nullsFloat],
  ["nulls.float64", { ...nullsFloat, name: "nulls.Float64" }],
  ["decimal", decimal()],
  ["time", timeOfDay],
  ["time.time", { ...timestamp, name: "time.Time" }],
  ["datetime", { ...timestamp, name: "datetime" }],
  ["timestamp", timestamp],
  ["nulls.time", nullsTime],
  ["date", date],
  ["uuid", uuid],
  ["nulls.uuid", nullsUuid],
  ["references", references],
  ["belongs_to", { ...references, name: "belongs_to" }],
  ["json", json],
  ["jsonb", { ...json, name: "jsonb" }],
  ["attachment", attachment],
  ["file", { ...attachment, name: "file" }],
  ["attachments", attachmentList],
  ["files", { ...attachmentList, name: "files" }],
]);

/** `decimal{10,2}` (Rails' syntax; `{10.2}` and `{10-2}` too, which a shell leaves alone). */
const SIZED_DECIMAL = /^decimal\{(\d+)[,.-](\d+)\}$/i;

/** Why a type name is not valid; see {@link attributeType}. */
export class AttributeTypeError extends WisentError {
  override name = "AttributeTypeError";
  constructor(message: string) {
    super("E_ATTRIBUTE_TYPE", message);
  }
}

/**
 * The type written as `name` (case-insensitive), or undefined when there is none. Throws an
 * {@link AttributeTypeError} for a decimal whose size is impossible.
 *
 * @example
 * attributeType("decimal{10,2}")?.columnArgs; // [10, 2]
 */
export function attributeType(name: string): AttributeType | undefined {
  const sized = SIZED_DECIMAL.exec(name);
  if (sized) {
    const precision = Number(sized[1]);
    const scale = Number(sized[2]);
    if (precision < 1 || precision > 38 || scale > precision) {
      throw new AttributeTypeError(
        `${name}: write decimal{precision,scale} with 1 <= precision <= 38 and scale <= precision`,
      );
    }
    return decimal(precision, scale);
  }
  return TYPES.get(name.toLowerCase());
}

/** The spellings to list in an "unknown type" message and `wisent g r --help`. */
export const TYPE_NAMES: readonly string[] = [
  "string",
  "text",
  "nulls.Text",
  "nulls.String",
  "int",
  "nulls.Int",
  "bigint",
  "bool",
  "float",
  "nulls.Float",
  "decimal",
  "decimal{p,s}",
  "time",
  "datetime",
  "timestamp",
  "nulls.Time",
  "date",
  "uuid",
  "nulls.UUID",
  "references",
  "belongs_to",
  "json",
  "attachment",
  "attachments",
];

/** Every spelling `attributeType` knows, for "did you mean" (`decimal{p,s}` as `decimal`). */
export const KNOWN_TYPE_SPELLINGS: readonly string[] = [...TYPES.values()].map((t) => t.name);
