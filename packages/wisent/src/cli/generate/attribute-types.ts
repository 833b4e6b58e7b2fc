/**
 * The attribute types of `wisent generate resource` (Buffalo's table, reference section 5), each
 * mapped to what the generated files need: the TypeScript type, the zod rule, the portable column
 * (the data layer's `createTable` helpers), the form input and how a value is shown.
 */

/** A helper a model needs to read text input (forms and XML send every value as a string). */
export type InputParser = "toNumber" | "toBoolean" | "toDate" | "toJson" | "blankToUndefined";

/** How a value is written into a form field and shown on a page. */
export type Display = "text" | "boolean" | "timestamp" | "json";

/** One row of the type table. */
export interface AttributeType {
  /** The canonical name (`string`, `nulls.Text`, `int`, ...). */
  readonly name: string;
  /** The TypeScript type of the field on the record. */
  readonly tsType: string;
  /** The zod rule; `{p}` stands for the parser helper when `parser` is set. */
  readonly zod: string;
  /** A parser the rule needs (emitted once into the model file). */
  readonly parser?: InputParser;
  /** The `TableBuilder` method of the column (`t.string(...)`). */
  readonly column:
    | "string"
    | "text"
    | "integer"
    | "boolean"
    | "decimal"
    | "timestamp"
    | "date"
    | "uuid"
    | "json";
  /** NULL allowed (`nulls.*`). */
  readonly nullable: boolean;
  /** Buffalo's presence validation (string, text, int, time): a blank value is an error. */
  readonly required: boolean;
  /** The form control. */
  readonly input:
    | "text"
    | "textarea"
    | "checkbox"
    | "number"
    | "decimal"
    | "date"
    | "datetime-local";
  /** How the value is formatted for a form field and a page. */
  readonly display: Display;
  /** Long text (Buffalo's CommonType `text`): left out of the index table, as Buffalo does. */
  readonly long: boolean;
}

const NIL_UUID = "00000000-0000-0000-0000-000000000000";

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
};
const nullsString: AttributeType = {
  ...string,
  name: "nulls.String",
  tsType: "string | null",
  zod: "z.string().max(255).nullable().default(null)",
  nullable: true,
  required: false,
};
const int: AttributeType = {
  name: "int",
  tsType: "number",
  zod: "z.preprocess({p}, z.number().int())",
  parser: "toNumber",
  column: "integer",
  nullable: false,
  required: true,
  input: "number",
  display: "text",
  long: false,
};
const nullsInt: AttributeType = {
  ...int,
  name: "nulls.Int",
  tsType: "number | null",
  zod: "z.preprocess({p}, z.number().int().nullable().default(null))",
  nullable: true,
  required: false,
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
};
const decimal: AttributeType = {
  name: "decimal",
  tsType: "number",
  zod: "z.preprocess({p}, z.number().default(0))",
  parser: "toNumber",
  column: "decimal",
  nullable: false,
  required: false,
  input: "decimal",
  display: "text",
  long: false,
};
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
};
const nullsTime: AttributeType = {
  ...timestamp,
  name: "nulls.Time",
  tsType: "Date | null",
  zod: "z.preprocess({p}, z.date().nullable().default(null))",
  nullable: true,
  required: false,
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
};
const uuid: AttributeType = {
  name: "uuid",
  tsType: "string",
  // Buffalo stores Go's zero value when no UUID is given: the column is NOT NULL, nothing is required.
  zod: `z.preprocess({p}, z.uuid().default("${NIL_UUID}"))`,
  parser: "blankToUndefined",
  column: "uuid",
  nullable: false,
  required: false,
  input: "text",
  display: "text",
  long: false,
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
};

/**
 * Every accepted spelling, lower-cased, as Buffalo (gobuffalo/attrs) reads them: the default
 * `string`, `text`, `nulls.Text`, `nulls.String`, `int`, `nulls.Int`, `bool`, `float`/`decimal`,
 * `time`/`timestamp`/`datetime`, `date`, `nulls.Time`, `uuid`, `json`/`jsonb`.
 */
const TYPES: ReadonlyMap<string, AttributeType> = new Map([
  ["string", string],
  ["text", text],
  ["nulls.text", nullsText],
  ["nulls.string", nullsString],
  ["int", int],
  ["integer", int],
  ["nulls.int", nullsInt],
  ["bool", bool],
  ["boolean", bool],
  ["float", { ...decimal, name: "float" }],
  ["float64", { ...decimal, name: "float64" }],
  ["decimal", decimal],
  ["time", { ...timestamp, name: "time" }],
  ["time.time", { ...timestamp, name: "time.Time" }],
  ["datetime", { ...timestamp, name: "datetime" }],
  ["timestamp", timestamp],
  ["nulls.time", nullsTime],
  ["date", date],
  ["uuid", uuid],
  ["json", json],
  ["jsonb", { ...json, name: "jsonb" }],
]);

/** The type named `name` (case-insensitive), or undefined when there is none. */
export function attributeType(name: string): AttributeType | undefined {
  return TYPES.get(name.toLowerCase());
}

/** The spellings to list in an "unknown type" message. */
export const TYPE_NAMES: readonly string[] = [
  "string",
  "text",
  "nulls.Text",
  "nulls.String",
  "int",
  "nulls.Int",
  "bool",
  "float",
  "decimal",
  "time",
  "timestamp",
  "date",
  "nulls.Time",
  "uuid",
  "json",
];
