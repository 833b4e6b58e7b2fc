import { existsSync } from "node:fs";
import { join } from "node:path";
import { WisentError } from "../../base/wisent-error.js";
import { openDatabase } from "../../data/database.js";
import { migrateDown, migrateUp, migrationStatus } from "../../data/migrations.js";
import { appEnv, databaseUrl, envName, registerTypeScript } from "../app-env.js";
import {
  type CommandHelp,
  formatHelp,
  guard,
  integerOption,
  parseCommandArgs,
  UsageError,
} from "../args.js";
import { BUILD_MIGRATIONS, buildState } from "../build/build-state.js";
import type { CliIO } from "../io.js";
import { Output, paint } from "../output.js";

export const help: CommandHelp = {
  usage: "wisent migrate [up | down [--step N] | status]",
  summary:
    "Runs the app's migrations (migrations/*.ts) against the environment's database: DATABASE_URL,\nelse db/<env>.sqlite; in test, TEST_DATABASE_URL, else the _test twin of .env's DATABASE_URL.\nWithout a sub-command: up. A migration that ran but has no file any more is listed as NO FILE.",
  options: [["--step N", "with down: how many migrations to revert (default 1)"]],
  examples: [
    ["wisent migrate", "run every pending migration"],
    ["wisent migrate down --step 2", "revert the last two"],
    ["wisent migrate status", "list migrations and whether they ran"],
    ["GO_ENV=test wisent migrate", "migrate the test database (npm test does it too)"],
  ],
};

const SUBCOMMANDS = ["up", "down", "status"] as const;

/** `wisent migrate [up | down [--step N] | status]`. */
export async function run(argv: string[], io: CliIO): Promise<number> {
  return guard(io, help, async () => {
    const { values, positionals } = parseCommandArgs(argv, { step: { type: "string" } }, 1);
    if (values.help) {
      io.stdout.write(formatHelp(help));
      return 0;
    }
    const sub = positionals[0] ?? "up";
    if (!(SUBCOMMANDS as readonly string[]).includes(sub)) {
      throw new UsageError(`unknown migrate command "${sub}" (use up, down or status)`);
    }
    if (values.step !== undefined && sub !== "down") {
      throw new UsageError(`--step only goes with "down"`);
    }
    const step = integerOption(values, "step", 1, { min: 1 });
    const folder = await migrationsFolder(io.cwd);
    const env = appEnv(io);
    const out = new Output(io);
    const db = await openDatabase(databaseUrl(env, io.cwd), { cwd: io.cwd, env: envName(env) });
    try {
      if (sub === "status") {
        const states = await migrationStatus(db, folder);
        if (states.length === 0) out.line(`no migrations in migrations/ (database ${db.url})`);
        for (const state of states) {
          const mark = state.applied ? paint(io, "green", "up  ") : paint(io, "yellow", "down");
          const when = state.appliedAt ? `  ${state.appliedAt.toISOString()}` : "";
          const gone = state.missing ? `  ${paint(io, "red", "NO FILE")}` : "";
          out.line(`${mark}  ${state.name}${gone}${when}`);
        }
        return 0;
      }
      const names =
        sub === "up" ? await migrateUp(db, folder) : await migrateDown(db, folder, { step });
      const verb = sub === "up" ? "migrated" : "reverted";
      if (names.length === 0)
        out.line(`nothing to ${sub === "up" ? "migrate" : "revert"} (database ${db.url})`);
      for (const name of names)
        out.line(`${paint(io, ["green", "bold"], verb.padStart(8))}  ${name}`);
      return 0;
    } finally {
      await db.close();
    }
  });
}

/**
 * Where the migrations to run are: the compiled ones in `dist/migrations` when the app's build is
 * current (a production image needs no TypeScript loader), else `migrations/*.ts` through tsx.
 */
export async function migrationsFolder(cwd: string): Promise<string> {
  const sources = join(cwd, "migrations");
  const compiled = join(cwd, BUILD_MIGRATIONS);
  const haveSources = existsSync(sources);
  if (existsSync(compiled) && (!haveSources || buildState(cwd).state === "fresh")) return compiled;
  if (!haveSources) {
    throw new WisentError(
      "E_NOT_AN_APP",
      `no migrations/ folder in ${cwd}: run this command in the folder of a Wisent app`,
    );
  }
  await registerTypeScript();
  return sources;
}
