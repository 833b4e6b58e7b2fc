import { didYouMean, names, underscore } from "../../naming/index.js";
import { humanizeField } from "../../validation/validation.js";
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
  /**
   * A foreign key (`post:references`): the table it points to (`posts`), its model (`Post`) and
   * what deleting a parent does: `restrict` (the default: refused while rows point to it) or
   * `cascade` (`post:references{cascade}`: they are deleted with it).
   */
  readonly references?:
    | { readonly table: string; readonly model: string; readonly onDelete: OnDelete }
    | undefined;
  /**
   * `:uniq`: no two records share a value (a unique index, and the model checks it); on a
   * resource owned by the signed-in user, no two records of one user (the index on the owner
   * column and this one), unless `global`.
   */
  readonly unique: boolean;
  /** `:uniq{global}`: unique across every user's records, even on an owned resource. */
  readonly uniqueGlobal: boolean;
  /** `:index`: an index on the column. */
  readonly index: boolean;
}

/** What deleting a parent does to the rows pointing to it. */
export type OnDelete = "restrict" | "cascade";

/** Rails' column modifiers, written last: `isbn:string:uniq`, `title:index`. */
const MODIFIERS = ["uniq", "index"] as const;
type Modifier = (typeof MODIFIERS)[number];
/** `uniq{global}`: the modifier's option in braces, as `references{cascade}`. */
const MODIFIER_OPTION = /^([a-z]+)\{([^}]*)\}$/i;
const isModifier = (part: string | undefined): part is Modifier =>
  (MODIFIERS as readonly string[]).includes(MODIFIER_OPTION.exec(part ?? "")?.[1] ?? part ?? "");

/** `references{cascade}`: the reference's option in braces (Rails writes `{polymorphic}` so). */
const REFERENCE_OPTION = /^(references|belongs_to)\{([^}]*)\}$/i;

/** Columns every generated table has already. */
const MANAGED = new Set(["id", "created_at", "updated_at"]);
/** Keys that would break plain objects. */
const UNSAFE = new Set(["__proto__", "constructor", "prototype"]);
const NAME = /^[A-Za-z][A-Za-z0-9_]*$/;

/**
 * Parses `name[:type][:modifier]` arguments (the type defaults to `string`), Buffalo's attribute
 * syntax with Rails' modifiers: `isbn:string:uniq` (a unique index, checked by the model; per
 * user on an owned resource), `code:string:uniq{global}` (unique across every user's records),
 * `title:index` (an index), `author:references{cascade}` (a foreign key deleted with its
 * parent; without it, deleting a parent with rows is refused). Throws a {@link UsageError}
 * naming the argument for an empty one, a bad name, a column the generator adds itself (`id`,
 * `created_at`, `updated_at`, the parent's key), an unknown type or modifier, or a duplicate
 * (compared in snake_case, so `displayName` and `display_name` are the same).
 *
 * @example
 * parseAttributes(["title", "description:nulls.Text"]).map((a) => a.type.tsType);
 * // ["string", "string | null"]
 * parseAttributes(["isbn:string:uniq"])[0]?.unique; // true
 */
export function parseAttributes(
  args: readonly string[],
  reserved: readonly string[] = [],
): Attribute[] {
  const seen = new Set<string>();
  refuseExpandedBraces(args);
  return args.map((arg) => {
    if (arg.trim() === "") throw new UsageError("an attribute argument is empty");
    const parts = arg.split(":");
    // `title:index` is a string with an index, as in Rails.
    if (parts.length === 2 && isModifier(parts[1]?.toLowerCase())) parts.splice(1, 0, "string");
    if (parts.length > 3 || (parts.length === 3 && !isModifier(parts[2]?.toLowerCase()))) {
      throw new UsageError(
        parts.length > 3
          ? `attribute "${arg}": write name, name:type or name:type:modifier (modifiers: ${MODIFIERS.join(", ")})`
          : `attribute "${arg}": unknown modifier "${parts[2]}" (use ${MODIFIERS.join(" or ")})`,
      );
    }
    const [rawName, typeWritten, modifier] = parts as [string, string | undefined, string?];
    if (!NAME.test(rawName)) {
      throw new UsageError(
        `attribute "${arg}": the name must start with a letter and use letters, digits and "_"`,
      );
    }
    const option = REFERENCE_OPTION.exec(typeWritten ?? "");
    const rawType = option ? option[1]! : typeWritten;
    const onDelete = option ? referenceOption(option[2]!, arg) : "restrict";
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
    const references = parent && { table: parent.table, model: parent.model, onDelete };
    const written = MODIFIER_OPTION.exec(modifier ?? "");
    const modifierName = (written?.[1] ?? modifier)?.toLowerCase();
    const uniqueGlobal = written ? uniqueOption(modifierName, written[2]!, arg) : false;
    const unique = modifierName === "uniq";
    const index = modifierName === "index";
    if (unique || index) refuseUnindexable(arg, type, unique);
    return {
      name,
      label: humanizeField(name),
      typeName,
      type,
      references,
      unique,
      uniqueGlobal,
      index,
    };
  });
}

/** `{global}` after `uniq` (true), the one option a modifier takes. */
function uniqueOption(modifier: string | undefined, option: string, arg: string): boolean {
  if (modifier === "uniq" && option.trim().toLowerCase() === "global") return true;
  throw new UsageError(
    modifier === "uniq"
      ? `attribute "${arg}": unknown uniq option "${option}" (use uniq{global} for a value unique across every user's records)`
      : `attribute "${arg}": ${modifier} takes no option in braces`,
  );
}

/**
 * `:uniq` and `:index` where no database could keep them: a JSON column (files are one too),
 * which PostgreSQL and MySQL do not index, and a unique boolean (two records at most).
 */
function refuseUnindexable(arg: string, type: AttributeType, unique: boolean): void {
  const modifier = unique ? ":uniq" : ":index";
  if (type.column === "json") {
    const what = type.input === "file" ? "a file field is a JSON column, which" : "a JSON column";
    throw new UsageError(
      `attribute "${arg}": ${what} cannot be indexed (PostgreSQL and MySQL index no JSON): drop ${modifier}`,
    );
  }
  if (unique && type.column === "boolean") {
    throw new UsageError(
      `attribute "${arg}": a unique boolean lets at most two records exist (true and false): drop :uniq`,
    );
  }
}

/** `price:decimal10`, one of the two words a shell makes of an unquoted `price:decimal{10,2}`. */
const EXPANDED_DECIMAL = /^([^:]+):decimal(\d+)(:.*)?$/i;

/**
 * An unquoted `price:decimal{10,2}` reaches the CLI as `price:decimal10 price:decimal2` (bash
 * expands the braces into two words before wisent runs): say so, with the quoted form, rather
 * than "unknown type decimal10".
 */
function refuseExpandedBraces(args: readonly string[]): void {
  for (const [i, arg] of args.entries()) {
    const first = EXPANDED_DECIMAL.exec(arg);
    if (!first) continue;
    const second = EXPANDED_DECIMAL.exec(args[i + 1] ?? "");
    const [, name, precision, modifier = ""] = first;
    const scale = second && second[1] === name ? second[2] : "2";
    const written = `${name}:decimal{${precision},${scale}}${modifier}`;
    throw new UsageError(
      `unknown type "decimal${precision}" for attribute "${name}": the shell expanded the braces of ${written} into ${second && second[1] === name ? "two words" : `"${arg}"`} before wisent saw it; quote it ('${written}') or write ${name}:decimal{${precision}.${scale}}${modifier}`,
    );
  }
}

/** `{cascade}` or `{restrict}` after `references`. */
function referenceOption(option: string, arg: string): OnDelete {
  const value = option.trim().toLowerCase();
  if (value === "cascade" || value === "restrict") return value;
  throw new UsageError(
    `attribute "${arg}": unknown reference option "${option}" (use {cascade} to delete rows with their parent, {restrict}, the default, to refuse)`,
  );
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
