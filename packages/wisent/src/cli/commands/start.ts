import { existsSync } from "node:fs";
import { join } from "node:path";
import { WisentError } from "../../base/wisent-error.js";
import { appEnv, appHost, appPort, envName, exportAppEnv } from "../app-env.js";
import { type CommandHelp, formatHelp, guard, integerOption, parseCommandArgs } from "../args.js";
import { BUILD_SERVER } from "../build/build-state.js";
import { describeBuild, ensureBuild } from "../build/ensure-build.js";
import type { CliIO } from "../io.js";
import { Output } from "../output.js";
import { runServer } from "../start/run-server.js";

export const help: CommandHelp = {
  usage: "wisent start [--port N] [--workers N] [--jobs]",
  summary:
    "Runs the app in this folder from its compiled build (dist/server.js, made by `wisent build`),\nbuilding it first when it is missing or older than the sources, in the environment GO_ENV or\nNODE_ENV names (default development). No watching (that is `wisent dev`). SIGTERM or Ctrl-C\ndrains requests and exits 0.",
  options: [
    ["--port N", "port to listen on (default PORT, else 3000); HOST picks the interface"],
    ["--workers N", "run N processes sharing the port (node:cluster); a dead worker is replaced"],
    [
      "--jobs",
      "also perform the app's background jobs in each server process (small deployments; else run `wisent jobs work`)",
    ],
  ],
  examples: [
    ["wisent start", "one process on 127.0.0.1:3000"],
    ["GO_ENV=production HOST=0.0.0.0 wisent start --workers 4", "production on every interface"],
    ["wisent start --jobs", "serve and perform jobs in one process"],
  ],
};

/** `wisent start [--port N] [--workers N] [--jobs]`. */
export async function run(argv: string[], io: CliIO): Promise<number> {
  return guard(io, help, async () => {
    const { values } = parseCommandArgs(
      argv,
      {
        port: { type: "string", short: "p" },
        workers: { type: "string", short: "w" },
        jobs: { type: "boolean" },
      },
      0,
    );
    if (values.help) {
      io.stdout.write(formatHelp(help));
      return 0;
    }
    const port =
      values.port === undefined
        ? undefined
        : integerOption(values, "port", 0, { min: 0, max: 65_535 });
    const workers = integerOption(values, "workers", 1, { min: 1, max: 256 });
    if (!existsSync(join(io.cwd, "src/server.ts")) && !existsSync(join(io.cwd, BUILD_SERVER))) {
      throw new WisentError(
        "E_NOT_AN_APP",
        `no src/server.ts in ${io.cwd}: run this command in the folder of a Wisent app`,
      );
    }
    // The server reads its settings from the environment: apply .env, then the flags.
    const env = appEnv(io);
    if (port !== undefined) env.PORT = String(port);
    // app.listen() reads it: the server performs the app's jobs too.
    if (values.jobs) env.WISENT_JOBS = "1";
    // No listening probe before the build: a readiness probe would see the port open, then
    // refused for the length of the build. A taken port is found by the server's own listen.
    const listenPort = appPort(env);
    const hint = `wisent start --port ${listenPort + 1}`;
    exportAppEnv(io, { env, override: true });
    process.chdir(io.cwd);
    const out = new Output(io);
    const { built } = await ensureBuild(io.cwd);
    if (built) out.action("build", describeBuild(built));
    if (workers === 1) {
      try {
        await runServer(io.cwd);
      } catch (error) {
        // The app's listen() said EADDRINUSE (its bundled copy of PortInUseError): the same line,
        // with the flag of this command as the way out.
        const { findPortHolder, isAddressInUse, PortInUseError } = await loadPortInUse();
        if (!isAddressInUse(error)) throw error;
        throw new PortInUseError(listenPort, findPortHolder(listenPort), hint);
      }
      return 0;
    }
    // Workers each listen on the port the cluster shares: a taken one is found here, in one line,
    // rather than by every worker's failure (probed after the build, just before they listen).
    await (await loadPortInUse()).ensurePortFree(listenPort, appHost(env), hint);
    out.action("run", `${workers} workers (${envName(env)})`);
    const { superviseWorkers } = await import("../start/supervise-workers.js");
    return superviseWorkers(workers, out);
  });
}

// Loaded only on the paths that need them (a taken port, several workers): node:child_process,
// node:cluster and the workers' logging are no part of a single process's start-up
// (bench/load/cold-start.mjs).
const loadPortInUse = () => import("../../server/port-in-use.js");
