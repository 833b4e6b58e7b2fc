import { appEnv, appHost, appPort, requireAppFile } from "../app-env.js";
import { type CommandHelp, formatHelp, guard, integerOption, parseCommandArgs } from "../args.js";
import { runDevServer } from "../dev/dev-server.js";
import { runTypecheck } from "../dev/typecheck.js";
import type { CliIO } from "../io.js";
import { Output } from "../output.js";

export const help: CommandHelp = {
  usage: "wisent dev [--port N] [--typecheck]",
  summary:
    "Runs the app in this folder (src/server.ts) behind a dev server that keeps the port: the app\nrestarts whenever a file under src/ (or .env) changes, and while it cannot start (a syntax\nerror, a bad import) the browser gets a page naming the file and line. The app performs its\nbackground jobs in its own process (app.jobs(db)). Ctrl-C stops it.",
  options: [
    ["--port N", "port to listen on (default PORT, else 3000); HOST picks the interface"],
    ["--typecheck", "also run tsc --watch --noEmit, its output prefixed with [tsc]"],
  ],
  examples: [
    ["wisent dev", "http://127.0.0.1:3000"],
    ["wisent dev --port 4000 --typecheck", "another port, type errors as you save"],
  ],
};

/** `wisent dev`: the dev server (see runDevServer) with the app's .env applied. */
export async function run(argv: string[], io: CliIO): Promise<number> {
  return guard(io, help, async () => {
    const { values } = parseCommandArgs(
      argv,
      { port: { type: "string", short: "p" }, typecheck: { type: "boolean" } },
      0,
    );
    if (values.help) {
      io.stdout.write(formatHelp(help));
      return 0;
    }
    requireAppFile(io, "src/server.ts");
    const env = appEnv(io);
    const port =
      values.port !== undefined
        ? integerOption(values, "port", 0, { min: 0, max: 65_535 })
        : appPort(env);
    const host = appHost(env);
    const out = new Output(io);
    const typecheck = values.typecheck ? runTypecheck(io, env) : undefined;
    try {
      return await runDevServer({ io, out, env, port, host });
    } finally {
      typecheck?.stop();
    }
  });
}
