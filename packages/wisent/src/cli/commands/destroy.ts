import { join } from "node:path";
import { openDatabase } from "../../data/database.js";
import { databaseExists } from "../../data/database-admin.js";
import { maskDatabaseUrl } from "../../data/database-url.js";
import { recordedMigrations, revertMigration } from "../../data/migrations.js";
import { appEnv, databaseUrl, envName, registerTypeScript } from "../app-env.js";
import { type CommandHelp, formatHelp, guard, parseCommandArgs } from "../args.js";
import { destroyResource, type MigrationControl } from "../generate/destroy-resource.js";
import type { CliIO } from "../io.js";
import { Output } from "../output.js";

export const help: CommandHelp = {
  usage:
    "wisent destroy resource <name> [-y|--yes] [--keep-migration] [--dry-run]   (alias: wisent d r)",
  summary:
    "Removes what generate resource made for <name>, asking per file (y/n), and its registration\nand import in src/app.ts (however edited; a line it cannot take out safely is named for you to\nremove). A file edited since it was generated is named in the question. Its migration is rolled\nback (asked too) only when it is the last one run; when a later migration uses its table or ran\nafter it, the migration stays and a drop_<table> migration is offered instead.",
  options: [
    ["-y, --yes", "remove (and roll back) without asking"],
    ["--keep-migration", "never roll back: a migration that has run keeps its file"],
    ["-d, --dry-run", "list what would be removed; change nothing"],
  ],
  examples: [
    ["wisent destroy resource widget", "asks for each file"],
    ["wisent d r widget -y", "removes everything without asking"],
  ],
};

/** `wisent destroy resource <name> [-y] [--dry-run]` (`wisent d r`). */
export async function run(argv: string[], io: CliIO): Promise<number> {
  return guard(io, help, async () => {
    const { values, positionals } = parseCommandArgs(
      argv,
      {
        yes: { type: "boolean", short: "y" },
        "dry-run": { type: "boolean", short: "d" },
        "keep-migration": { type: "boolean" },
      },
      1,
    );
    if (values.help) {
      io.stdout.write(formatHelp(help));
      return 0;
    }
    const out = new Output(io);
    const dryRun = values["dry-run"] === true;
    const result = await destroyResource(io.cwd, {
      name: positionals[0] ?? "",
      yes: values.yes === true,
      dryRun,
      keepMigration: values["keep-migration"] === true,
      database: appDatabase(io, out),
      confirm: async (question) => /^y(es)?$/i.test((await io.prompt(question)).trim()),
    });
    for (const path of result.shared)
      out.action("exists", `${path} (kept: another resource uses it)`);
    if (dryRun) {
      for (const candidate of result.candidates) {
        out.action(
          "remove",
          candidate.edited ? `${candidate.path} (edited since it was generated)` : candidate.path,
        );
      }
      if (result.actions.some((a) => a.path === "src/app.ts")) out.action("update", "src/app.ts");
      for (const a of result.actions.filter((a) => a.verb === "revert" || a.verb === "skip"))
        out.action(a.verb, a.path);
      out.hint("dry run: nothing was removed");
      return 0;
    }
    for (const action of result.actions) out.action(action.verb, action.path);
    return 0;
  });
}

/** The environment's database, opened only when asked (and never created by asking). */
export function appDatabase(io: CliIO, out: Output): MigrationControl {
  const env = appEnv(io);
  const url = databaseUrl(env, io.cwd);
  const folder = join(io.cwd, "migrations");
  const open = () => openDatabase(url, { cwd: io.cwd, env: envName(env) });
  return {
    url: maskDatabaseUrl(url),
    async applied(name) {
      try {
        if (!(await databaseExists(url, io.cwd))) return false;
        const db = await open();
        try {
          return (await recordedMigrations(db)).includes(name);
        } finally {
          await db.close();
        }
      } catch (error) {
        out.warn(`could not check whether ${name} has run: ${(error as Error).message}`);
        return undefined;
      }
    },
    async recorded() {
      try {
        if (!(await databaseExists(url, io.cwd))) return [];
        const db = await open();
        try {
          return (await recordedMigrations(db)).sort();
        } finally {
          await db.close();
        }
      } catch (error) {
        out.warn(`could not read which migrations have run: ${(error as Error).message}`);
        return undefined;
      }
    },
    async revert(name) {
      await registerTypeScript();
      const db = await open();
      try {
        await revertMigration(db, folder, name);
      } finally {
        await db.close();
      }
    },
  };
}
