/**
 * `wisent generate migration NAME [col:type ...]`: a timestamped migration whose body follows
 * Rails' naming: `add_x_to_posts` adds the columns, `remove_x_from_posts` drops them (its down
 * adds them back), `create_tags` creates a table as `generate resource` does, anything else is
 * an empty up/down.
 * @module
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { migrationFileName } from "../../data/migrations.js";
import { camelize, underscore } from "../../naming/index.js";
import { humanizeField } from "../../validation/validation.js";
import { type Attribute, parseAttributes } from "./attributes.js";
import { formatWithAppBiome } from "./format-files.js";
import { migrationTime, resourceNames } from "./generate-resource.js";
import { readRecords } from "./generated-record.js";
import { renderTemplate } from "./render.js";
import { OWNER } from "./resource-access.js";
import { resourcePlan } from "./resource-plan.js";
import { UsageError } from "./usage-error.js";

/** The migration templates (packages/wisent/templates/migration). */
const MIGRATION_TEMPLATES = fileURLToPath(
  new URL("../../../templates/migration/", import.meta.url),
);

/** What the migration's name says it does. */
export type MigrationKind =
  | { kind: "add"; table: string }
  | { kind: "remove"; table: string }
  | { kind: "create"; table: string }
  | { kind: "empty" };

/**
 * Reads Rails' migration naming.
 *
 * @example
 * migrationKind("add_summary_to_posts"); // { kind: "add", table: "posts" }
 */
export function migrationKind(name: string): MigrationKind {
  const add = /^add_.+_to_([a-z0-9_]+)$/.exec(name);
  if (add) return { kind: "add", table: add[1]! };
  const remove = /^remove_.+_from_([a-z0-9_]+)$/.exec(name);
  if (remove) return { kind: "remove", table: remove[1]! };
  const create = /^create_([a-z0-9_]+)$/.exec(name);
  if (create) return { kind: "create", table: create[1]! };
  return { kind: "empty" };
}

/** What `generate migration` was asked. */
export interface GenerateMigrationOptions {
  readonly name: string;
  readonly columns: readonly string[];
  readonly dryRun?: boolean;
  readonly now?: Date;
}

/** The file written (or, in a dry run, that would be). */
export interface GeneratedMigration {
  readonly path: string;
  readonly kind: MigrationKind;
  readonly contents: string;
}

/**
 * The literal a NOT NULL column gets as its default when added to a table that may have rows
 * (SQLite refuses a NOT NULL column without one); undefined for types without a natural zero.
 */
const ZERO: Readonly<Record<string, string>> = {
  string: '""',
  text: '""',
  integer: "0",
  decimal: "0",
  float: "0",
  boolean: "false",
};

/**
 * The columns a migration adds or drops; `ownerKey` (`user_id`) when the table is an owned
 * resource's, whose unique values are unique per user (`.unique({ scope: "user_id" })`, an index
 * on both columns) unless written `uniq{global}`.
 */
function columnData(attrs: readonly Attribute[], ownerKey: string | undefined) {
  return attrs.map((attr) => {
    const scope =
      ownerKey !== undefined && attr.unique && !attr.uniqueGlobal ? ownerKey : undefined;
    const zero = ZERO[attr.type.column];
    const nullable = attr.type.nullable
      ? ".nullable()"
      : // A unique column cannot give every existing row the same default.
        zero !== undefined && !attr.unique
        ? `.default(${zero})`
        : // No natural zero (a time, a uuid): rows that exist get NULL, new ones are validated.
          ".nullable()";
    const unique = scope ? `.unique({ scope: ${JSON.stringify(scope)} })` : ".unique()";
    const indexed = attr.unique ? unique : attr.index && !attr.references ? ".index()" : "";
    const args = [
      JSON.stringify(attr.name),
      ...(attr.references ? [JSON.stringify(attr.references.table)] : []),
      ...(attr.references?.onDelete === "cascade" ? ['{ onDelete: "cascade" }'] : []),
      ...(attr.type.columnArgs ?? []).map(String),
    ];
    return {
      name: attr.name,
      column: attr.type.column,
      args: args.join(", "),
      modifier: nullable + indexed,
      // Its indexes go before it (SQLite cannot drop an indexed column): `dropIndex`'s columns.
      dropIndexes: [
        ...(scope ? [JSON.stringify([scope, attr.name])] : []),
        // A per-user unique foreign key has its own index too.
        ...((attr.unique && (!scope || attr.references)) || (attr.index && !attr.references)
          ? [JSON.stringify(attr.name)]
          : []),
      ],
    };
  });
}

/** The owner column of `table` when it is an owned resource's (generated after `g auth`). */
function ownerKeyOf(appDir: string, table: string): string | undefined {
  const owned = Object.values(readRecords(appDir)).some(
    (r) => r.access === "owned" && !r.singular && resourceNames(r.name).table === table,
  );
  return owned ? OWNER.foreignKey : undefined;
}

/** The name as a file name part: `AddSummaryToPosts` and `add_summary_to_posts` alike. */
export function migrationName(input: string): string {
  const name = underscore(input);
  if (!/^[A-Za-z][A-Za-z0-9_]*$/.test(input) || !/^[a-z][a-z0-9_]*$/.test(name)) {
    throw new UsageError(
      `invalid migration name "${input}": use letters, digits and _ (e.g. add_summary_to_posts)`,
    );
  }
  return name;
}

/**
 * Writes `migrations/<timestamp>_<name>.ts` (formatted by the app's Biome when installed).
 * Throws a UsageError for a bad name, bad columns, columns a name does not place, or a name a
 * migration has already.
 */
export function generateMigration(
  appDir: string,
  options: GenerateMigrationOptions,
): GeneratedMigration {
  if (options.name.trim() === "") {
    throw new UsageError(
      "missing the migration name (e.g. wisent g migration add_summary_to_posts summary:text)",
    );
  }
  if (!existsSync(join(appDir, "src/app.ts"))) {
    throw new UsageError(
      `no src/app.ts in ${appDir}: run this command in the folder of a Wisent app`,
    );
  }
  const name = migrationName(options.name);
  const kind = migrationKind(name);
  const attrs = parseAttributes(options.columns);
  if ((kind.kind === "add" || kind.kind === "remove") && attrs.length === 0) {
    throw new UsageError(
      `name the columns to ${kind.kind}: wisent g migration ${name} <column>[:type]...`,
    );
  }
  if (kind.kind === "empty" && attrs.length > 0) {
    throw new UsageError(
      `"${name}" does not say which table the columns go to: name it add_<what>_to_<table>, remove_<what>_from_<table> or create_<table>`,
    );
  }
  const folder = join(appDir, "migrations");
  const taken = existsSync(folder)
    ? readdirSync(folder).find((f) => new RegExp(`^\\d{14}_${name}\\.[mc]?[jt]s$`).test(f))
    : undefined;
  if (taken) throw new UsageError(`migrations/${taken} exists already: pick another name`);

  const file = migrationFileName(name, migrationTime(appDir, options.now ?? new Date()));
  const command = ["wisent generate migration", name, ...options.columns].join(" ");
  let contents: string;
  if (kind.kind === "create") {
    // The same template as `generate resource`'s migration, so both create tables alike.
    const names = resourceNames(kind.table, "table name");
    const plan = resourcePlan({ names, attributes: attrs, api: true, command, migration: file });
    const template = plan.files.find((f) => f.group === "migration")!.template;
    contents = renderTemplate(template, plan.data);
  } else {
    const columns = columnData(attrs, "table" in kind ? ownerKeyOf(appDir, kind.table) : undefined);
    contents = renderTemplate(
      "change.ts.eta",
      {
        kind: kind.kind,
        table: "table" in kind ? kind.table : "",
        attrs: columns,
        columnList: columns.map((c) => c.name).join(", "),
        summary: `${humanizeField(name)}.`,
        command,
      },
      MIGRATION_TEMPLATES,
    );
  }
  const path = `migrations/${file}`;
  if (!options.dryRun) {
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(appDir, path), contents);
    formatWithAppBiome(appDir, [path]);
  }
  return { path, kind, contents };
}

/** What {@link generateDropMigration} needs. */
export interface DropMigrationOptions {
  readonly table: string;
  /** The migration that creates the table (`20240501123000_create_books`), which stays. */
  readonly createMigration: string;
  /** Why that migration stays, for the file's comment ("a later migration uses the table"). */
  readonly why: string;
  /** The command, for the file's header. */
  readonly command: string;
  readonly now?: Date;
}

/**
 * Writes `migrations/<timestamp>_drop_<table>.ts`, whose down makes the table again through the
 * create migration's own up: what `destroy resource` offers when that migration must stay.
 * Returns the path; throws a UsageError when a `drop_<table>` migration exists already.
 *
 * @example
 * generateDropMigration(dir, { table: "books", createMigration: "20240501123000_create_books",
 *   why: "a later migration uses the table", command: "wisent destroy resource book" });
 */
export function generateDropMigration(appDir: string, options: DropMigrationOptions): string {
  const name = `drop_${options.table}`;
  const folder = join(appDir, "migrations");
  const taken = readdirSync(folder).find((f) =>
    new RegExp(`^\\d{14}_${name}\\.[mc]?[jt]s$`).test(f),
  );
  if (taken) throw new UsageError(`migrations/${taken} exists already`);
  const file = migrationFileName(name, migrationTime(appDir, options.now ?? new Date()));
  const contents = renderTemplate(
    "drop.ts.eta",
    {
      table: options.table,
      createMigration: options.createMigration,
      createVar: camelize(`create_${options.table}`),
      why: options.why,
      command: options.command,
    },
    MIGRATION_TEMPLATES,
  );
  const path = `migrations/${file}`;
  writeFileSync(join(appDir, path), contents);
  formatWithAppBiome(appDir, [path]);
  return path;
}
