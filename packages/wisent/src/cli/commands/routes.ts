import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { App } from "../../app/app.js";
import { WisentError } from "../../base/wisent-error.js";
import { filterRoutes, type RouteFilter } from "../../routes/route-filter.js";
import { formatRouteJson, formatRouteTable } from "../../routes/route-table.js";
import { exportAppEnv, requireAppFile } from "../app-env.js";
import { type CommandHelp, formatHelp, guard, parseCommandArgs, UsageError } from "../args.js";
import { BUILD_APP, BUILD_DIR } from "../build/build-state.js";
import { ensureBuild } from "../build/ensure-build.js";
import type { CliIO } from "../io.js";
import { mapBuildStackTraces } from "../start/build-stack-traces.js";

export const help: CommandHelp = {
  usage:
    "wisent routes [--json] [--check] [--method M] [--name N] [--path P] [--handler H] [--unused]",
  summary:
    "Prints every route of the app in this folder, in match order (METHOD | HOST | PATH | ALIASES | NAME | HANDLER).\nLoads the app's compiled build (dist/app.js, rebuilt first when older than src/) without starting\na server or opening the database.",
  options: [
    ["--json", "the same rows as a JSON array"],
    [
      "--check",
      "exits 1 naming every route that can never match (an earlier route with the same method takes all its requests), as the app's start-up does",
    ],
    ["--method M", "only routes of this method (get, POST, or /^P/ as a regex)"],
    ["--name N", "only route names containing N (case-insensitive), or matching /regex/"],
    ["--path P", "only paths (or aliases) containing P, or matching /regex/"],
    ["--handler H", "only handlers containing H, or matching /regex/"],
    ["--unused", 'only resource operations still answering "resource not implemented"'],
  ],
  examples: [
    ["wisent routes", "the table"],
    ["wisent routes --check", "in CI: fail on a route declared after a route that swallows it"],
    ["wisent routes --json | jq '.[].name'", "route names, for scripts"],
    ["wisent routes --method get --path widgets", "the GET routes under /widgets"],
    ["wisent routes --name '/^(new|edit)/' --json", "the form routes, as JSON"],
    ["wisent routes --handler ImagesResource", "what ImagesResource answers"],
    ["wisent routes --unused", "operations left to write"],
  ],
  notes: "Filters combine: a route is printed when it matches all of them.",
};

/** The filter options, shared with other commands that select routes. */
export const ROUTE_FILTER_OPTIONS = {
  method: { type: "string" },
  name: { type: "string" },
  path: { type: "string" },
  handler: { type: "string" },
  unused: { type: "boolean" },
} as const;

/** `wisent routes [--json] [filters]`. */
export async function run(argv: string[], io: CliIO): Promise<number> {
  return guard(io, help, async () => {
    const { values } = parseCommandArgs(
      argv,
      { json: { type: "boolean" }, check: { type: "boolean" }, ...ROUTE_FILTER_OPTIONS },
      0,
    );
    if (values.help) {
      io.stdout.write(formatHelp(help));
      return 0;
    }
    const filter = routeFilterOf(values);
    const app = await loadApp(io);
    const problem = shadowingProblem(app);
    if (values.check) {
      if (problem) {
        io.stderr.write(`${problem}\n`);
        return 1;
      }
      io.stdout.write(`${app.routes().length} routes, none shadowed by an earlier route\n`);
      return 0;
    }
    const routes = filterRoutes(values.unused ? app.unusedRoutes() : app.routes(), filter);
    const text = values.json ? formatRouteJson(routes) : formatRouteTable(routes);
    io.stdout.write(text.endsWith("\n") ? text : `${text}\n`);
    // The table is printed anyway (it shows where the problem is); the app would not start.
    if (problem) io.stderr.write(`${problem}\n`);
    return 0;
  });
}

/** The app's start-up error about shadowed routes, if it has one. */
function shadowingProblem(app: Pick<App, "checkRoutes">): string | undefined {
  try {
    app.checkRoutes();
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

/** The `--method/--name/--path/--handler` values; a malformed `/regex/` is a usage error. */
export function routeFilterOf(values: Record<string, string | boolean | undefined>): RouteFilter {
  const filter: Record<string, string> = {};
  for (const key of ["method", "name", "path", "handler"] as const) {
    const value = values[key];
    if (typeof value === "string") filter[key] = value;
  }
  try {
    filterRoutes([], filter);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  return filter;
}

/** What the CLI uses of the app it loads. */
export type LoadedApp = Pick<App, "routes" | "checkRoutes" | "unusedRoutes" | "openApiDocument">;

/**
 * Imports the app's `src/app.ts` (exporting `app`) with its `.env` applied to process.env, from
 * the compiled build (one bundled module loads in a fraction of the time the TypeScript sources
 * take through a loader; bench/load/cold-start.mjs), building it first when it is stale.
 */
export async function loadApp(io: CliIO): Promise<LoadedApp> {
  requireAppFile(io, "src/app.ts");
  exportAppEnv(io);
  await ensureBuild(io.cwd);
  mapBuildStackTraces(join(io.cwd, BUILD_DIR));
  const file = join(io.cwd, BUILD_APP);
  const module = (await import(pathToFileURL(file).href)) as { app?: unknown };
  const app = module.app as LoadedApp | undefined;
  if (!app || typeof app.routes !== "function" || typeof app.checkRoutes !== "function") {
    throw new WisentError(
      "E_APP_MISCONFIGURED",
      `src/app.ts does not export the App as "app" (export const app = new App(...))`,
    );
  }
  return app;
}
