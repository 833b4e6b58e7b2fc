import { humanizeField } from "../../data/validation.js";
import { didYouMean, names, underscore } from "../../naming/index.js";
import {
  type AttributeType,
  AttributeTypeError,
  attributeType,
  KNOWN_TYPE_SPELLINGS,
  TYPE_NAMES,
} from "./attribute-types.js";
import { UsageError } from "./usage-error.js";

/** One field of a generated resource. */
export interface Attribute {
  /** Column, JSON and form name, snake_case: `display_name`. */
  readonly name: string;
  /** Label, table heading and the name in validation messages: `Display name`. */
  readonly label: string;
  /** The type as written (or `string`), e.g. `nulls.Text`. */
  readonly typeName: string;
  readonly type: AttributeType;
  /** A foreign key (`post:references`): the table it points to (`posts`) and its model (`Post`). */
  readonly references?: { readonly table: string; readonly model: string } | undefined;
}

/** Columns every generated table has already. */
const MANAGED = new Set(["id", "created_at", "updated_at"]);
/** Keys that would break plain objects. */
const UNSAFE = new Set(["__proto__", "constructor", "prototype"]);
const NAME = /^[A-Za-z][A-Za-z0-9_]*$/;

/**
 * Parses `name[:type]` arguments (the type defaults to `string`), Buffalo's attribute syntax.
 * Throws a {@link UsageError} naming the argument for an empty one, a bad name, a column the
 * generator adds itself (`id`, `created_at`, `updated_at`, the parent's key), an unknown type or a
 * duplicate (compared in snake_case, so `displayName` and `display_name` are the same).
 *
 * @example
 * parseAttributes(["title", "description:nulls.Text"]).map((a) => a.type.tsType);
 * // ["string", "string | null"]
 */
export function parseAttributes(
  args: readonly string[],
  reserved: readonly string[] = [],
): Attribute[] {
  const seen = new Set<string>();
  return args.map((arg) => {
    if (arg.trim() === "") throw new UsageError("an attribute argument is empty");
    const parts = arg.split(":");
    if (parts.length > 2) {
      throw new UsageError(`attribute "${arg}": write name or name:type (one colon)`);
    }
    const [rawName, rawType] = parts as [string, string | undefined];
    if (!NAME.test(rawName)) {
      throw new UsageError(
        `attribute "${arg}": the name must start with a letter and use letters, digits and "_"`,
      );
    }
    const typeName = rawType ?? "string";
    const type = typeOf(typeName, rawName);
    // `post:references` is the column post_id, pointing to posts (Rails' belongs_to).
    const parent = type.reference ? names(underscore(rawName).replace(/_id$/, "")) : undefined;
    const name = parent ? parent.paramKey : underscore(rawName);
    if (MANAGED.has(name) || reserved.includes(name)) {
      throw new UsageError(`attribute "${arg}": ${name} is a column the generator adds itself`);
    }
    if (UNSAFE.has(name) || UNSAFE.has(rawName)) {
      throw new UsageError(`attribute "${arg}": ${rawName} is a reserved name`);
    }
    if (seen.has(name)) throw new UsageError(`duplicate attribute "${name}"`);
    seen.add(name);
    const references = parent && { table: parent.table, model: parent.model };
    return { name, label: humanizeField(name), typeName, type, references };
  });
}

/** The type written for an attribute, or a usage error with a suggestion. */
function typeOf(typeName: string, attribute: string): AttributeType {
  let type: AttributeType | undefined;
  try {
    type = attributeType(typeName);
  } catch (error) {
    if (error instanceof AttributeTypeError) {
      throw new UsageError(`attribute "${attribute}": ${error.message}`);
    }
    throw error;
  }
  if (type) return type;
  const suggestion = didYouMean(typeName, KNOWN_TYPE_SPELLINGS);
  throw new UsageError(
    `unknown type "${typeName}" for attribute "${attribute}"${suggestion ? ` (did you mean "${suggestion}"?)` : ""}: use one of ${TYPE_NAMES.join(", ")}`,
  );
}
