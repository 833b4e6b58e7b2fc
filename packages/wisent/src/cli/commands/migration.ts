import { existsSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { type CommandHelp, formatHelp, guard, parseCommandArgs } from "../args.js";
import { TYPE_NAMES } from "../generate/attribute-types.js";
import { revertPrompt } from "../generate/destroy-resource.js";
import { generateMigration, migrationName } from "../generate/generate-migration.js";
import { UsageError } from "../generate/usage-error.js";
import type { CliIO } from "../io.js";
import { Output } from "../output.js";
import { appDatabase } from "./destroy.js";

export const generateHelp: CommandHelp = {
  usage: "wisent generate migration <name> [column[:type]]... [--dry-run]   (alias: wisent g m)",
  summary: [
    "Writes migrations/<timestamp>_<name>.ts. The name says what it does, as in Rails:",
    "  add_<what>_to_<table> col:type...       adds the columns (down drops them)",
    "  remove_<what>_from_<table> col:type...  drops them (down adds them back)",
    "  create_<table> col:type...              creates the table as generate resource does",
    "  anything else                           an empty up and down to fill in",
    'A NOT NULL column added to a table gets a default ("", 0, false) so rows that exist stay valid.',
  ].join("\n"),
  options: [["-d, --dry-run", "print the migration; write nothing"]],
  examples: [
    ["wisent g migration add_summary_to_posts summary:text", "addColumn"],
    ["wisent g migration remove_summary_from_posts summary:text", "dropColumn"],
    ["wisent g migration create_tags name", "createTable"],
    ["wisent g migration backfill_slugs", "an empty migration"],
  ],
  notes: `Column types (default string): ${TYPE_NAMES.join(", ")}.`,
};

/** `wisent generate migration <name> [column[:type]]...` (`wisent g m`). */
export async function generate(argv: string[], io: CliIO): Promise<number> {
  return guard(io, generateHelp, async () => {
    const { values, positionals } = parseCommandArgs(
      argv,
      { "dry-run": { type: "boolean", short: "d" } },
      Number.POSITIVE_INFINITY,
    );
    if (values.help) {
      io.stdout.write(formatHelp(generateHelp));
      return 0;
    }
    const [name = "", ...columns] = positionals;
    const dryRun = values["dry-run"] === true;
    const result = generateMigration(io.cwd, { name, columns, dryRun });
    const out = new Output(io);
    if (dryRun) {
      out.action("create", result.path);
      out.line();
      out.line(result.contents.trimEnd());
      out.hint("dry run: nothing was written");
      return 0;
    }
    out.action("create", result.path);
    out.hint("next: wisent migrate");
    return 0;
  });
}

export const destroyHelp: CommandHelp = {
  usage: "wisent destroy migration <name> [-y|--yes]   (alias: wisent d m)",
  summary:
    "Removes migrations/<timestamp>_<name>.ts, rolling it back first when it has run on the\nenvironment's database (both asked, unless -y). Declined, the file stays.",
  options: [["-y, --yes", "roll back and remove without asking"]],
  examples: [["wisent d m add_summary_to_posts -y", "undo wisent g m add_summary_to_posts"]],
};

/** `wisent destroy migration <name> [-y]` (`wisent d m`). */
export async function destroy(argv: string[], io: CliIO): Promise<number> {
  return guard(io, destroyHelp, async () => {
    const { values, positionals } = parseCommandArgs(
      argv,
      { yes: { type: "boolean", short: "y" } },
      1,
    );
    if (values.help) {
      io.stdout.write(formatHelp(destroyHelp));
      return 0;
    }
    if (!positionals[0])
      throw new UsageError("missing the migration name (e.g. wisent d m add_summary_to_posts)");
    const name = migrationName(positionals[0]);
    const folder = join(io.cwd, "migrations");
    const pattern = new RegExp(`^(\\d{14}_${name})\\.[mc]?[jt]s$`);
    const file = existsSync(folder) ? readdirSync(folder).find((f) => pattern.test(f)) : undefined;
    if (!file) throw new UsageError(`no migration named ${name} in migrations/`);
    const full = pattern.exec(file)![1]!;
    const out = new Output(io);
    const ask = async (q: string) =>
      values.yes === true || /^y(es)?$/i.test((await io.prompt(q)).trim());
    const database = appDatabase(io, out);
    const ran = await database.applied(full);
    if (ran === undefined || (ran && !(await ask(revertPrompt(full, database.url))))) {
      out.action("skip", `migrations/${file} (kept: it has run on ${database.url})`);
      return 0;
    }
    if (ran) {
      await database.revert(full);
      out.action("revert", full);
    }
    if (!(await ask(`Remove migrations/${file}? (y/N) `))) {
      out.action("skip", `migrations/${file}`);
      return 0;
    }
    rmSync(join(folder, file));
    out.action("remove", `migrations/${file}`);
    return 0;
  });
}
