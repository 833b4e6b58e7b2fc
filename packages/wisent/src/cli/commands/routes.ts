import { pathToFileURL } from "node:url";
import type { App } from "../../app/app.js";
import { formatRouteJson, formatRouteTable } from "../../routes/route-table.js";
import { appEnv, registerTypeScript, requireAppFile } from "../app-env.js";
import { type CommandHelp, formatHelp, guard, parseCommandArgs } from "../args.js";
import type { CliIO } from "../io.js";

export const help: CommandHelp = {
  usage: "wisent routes [--json]",
  summary:
    "Prints every route of the app in this folder, in match order (METHOD | HOST | PATH | ALIASES | NAME | HANDLER).\nLoads src/app.ts without starting a server or opening the database.",
  options: [["--json", "the same rows as a JSON array"]],
  examples: [
    ["wisent routes", "the table"],
    ["wisent routes --json | jq '.[].name'", "route names, for scripts"],
  ],
};

/** `wisent routes [--json]`. */
export async function run(argv: string[], io: CliIO): Promise<number> {
  return guard(io, help, async () => {
    const { values } = parseCommandArgs(argv, { json: { type: "boolean" } }, 0);
    if (values.help) {
      io.stdout.write(formatHelp(help));
      return 0;
    }
    const app = await loadApp(io);
    const routes = app.routes();
    const text = values.json ? formatRouteJson(routes) : formatRouteTable(routes);
    io.stdout.write(text.endsWith("\n") ? text : `${text}\n`);
    return 0;
  });
}

/** Imports the app's `src/app.ts` (exporting `app`) with its `.env` applied to process.env. */
export async function loadApp(io: CliIO): Promise<Pick<App, "routes">> {
  const file = requireAppFile(io, "src/app.ts");
  for (const [key, value] of Object.entries(appEnv(io))) {
    if (value !== undefined && process.env[key] === undefined) process.env[key] = value;
  }
  await registerTypeScript();
  const module = (await import(pathToFileURL(file).href)) as { app?: unknown };
  const app = module.app as Pick<App, "routes"> | undefined;
  if (!app || typeof app.routes !== "function") {
    throw new Error(
      `src/app.ts does not export the App as "app" (export const app = new App(...))`,
    );
  }
  return app;
}
