import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { WisentError } from "../../base/wisent-error.js";
import { exportAppEnv, registerTypeScript, requireAppFile } from "../app-env.js";
import { type CommandHelp, formatHelp, guard, parseCommandArgs, UsageError } from "../args.js";
import type { CliIO } from "../io.js";

export const help: CommandHelp = {
  usage: "wisent run <script> [arguments...]",
  summary: [
    "Runs a script of the app (TypeScript or JavaScript) in the app's environment, as Rails'",
    "runner does: GO_ENV or NODE_ENV (default development), .env applied, DATABASE_URL resolved",
    "as for wisent migrate, src/db.ts's database opened on first use and closed at the end. The",
    'script imports the app\'s modules as usual (import { Book } from "../src/models/book.js");',
    "its top level runs, then its default export, when it is a function, with the arguments.",
    "In production-like environments an app created with --db postgres or mysql refuses to run",
    "without DATABASE_URL (never a SQLite file instead).",
  ].join("\n"),
  examples: [
    ["wisent run scripts/import-books.ts books.csv", "a one-off import, with an argument"],
    ["GO_ENV=production wisent run scripts/report.ts", "against the production database"],
  ],
};

/** `wisent run <script> [arguments...]`. */
export async function run(argv: string[], io: CliIO): Promise<number> {
  return guard(io, help, async () => {
    // Everything after the script belongs to it, options included.
    const at = argv.findIndex((arg) => !arg.startsWith("-"));
    const own = at === -1 ? argv : argv.slice(0, at);
    const { values } = parseCommandArgs(own, {}, 0);
    if (values.help) {
      io.stdout.write(formatHelp(help));
      return 0;
    }
    const script = at === -1 ? undefined : argv[at];
    if (script === undefined) throw new UsageError("which script? (wisent run <script>)");
    const args = argv.slice(at + 1);
    requireAppFile(io, "package.json");
    const file = resolve(io.cwd, script);
    if (!existsSync(file)) {
      throw new WisentError("E_NOT_AN_APP", `no script ${script} in ${io.cwd}`);
    }
    // The app's modules read process.env (src/db.ts its DATABASE_URL): this environment wins.
    exportAppEnv(io, { override: true });
    await registerTypeScript();
    // The database first: a refused fallback (production without DATABASE_URL) stops here,
    // before any line of the script runs.
    const db = await appDatabase(io.cwd);
    const argvBefore = process.argv;
    process.argv = [process.argv[0] ?? "node", file, ...args];
    try {
      const loaded = (await import(pathToFileURL(file).href)) as { default?: unknown };
      if (typeof loaded.default === "function") await loaded.default(args);
    } finally {
      process.argv = argvBefore;
      await db?.close?.();
    }
    return 0;
  });
}

/** The app's src/db.ts `db` (its pool is closed after the script, so the process can exit). */
async function appDatabase(cwd: string): Promise<{ close?: () => Promise<void> } | undefined> {
  const file = join(cwd, "src/db.ts");
  if (!existsSync(file)) return undefined;
  const mod = (await import(pathToFileURL(file).href)) as {
    db?: { close?: () => Promise<void> };
  };
  return mod.db;
}
