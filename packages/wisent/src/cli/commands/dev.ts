import { spawn } from "node:child_process";
import { appEnv, requireAppFile, tsxCli } from "../app-env.js";
import { type CommandHelp, formatHelp, guard, integerOption, parseCommandArgs } from "../args.js";
import type { CliIO } from "../io.js";
import { Output } from "../output.js";

export const help: CommandHelp = {
  usage: "wisent dev [--port N]",
  summary:
    "Runs the app in this folder (src/server.ts) and restarts it whenever a file it imports, or a\nlocale file, changes (tsx watch). Ctrl-C stops it.",
  options: [["--port N", "port to listen on (default PORT, else 3000)"]],
  examples: [
    ["wisent dev", "http://127.0.0.1:3000"],
    ["wisent dev --port 4000", "another port"],
  ],
};

/** `wisent dev`: `tsx watch src/server.ts` with the app's .env applied. */
export async function run(argv: string[], io: CliIO): Promise<number> {
  return guard(io, help, async () => {
    const { values } = parseCommandArgs(argv, { port: { type: "string", short: "p" } }, 0);
    if (values.help) {
      io.stdout.write(formatHelp(help));
      return 0;
    }
    requireAppFile(io, "src/server.ts");
    const env = appEnv(io);
    if (values.port !== undefined) {
      env.PORT = String(integerOption(values, "port", 0, { min: 0, max: 65_535 }));
    }
    const out = new Output(io);
    const args = [
      tsxCli(),
      "watch",
      "--clear-screen=false",
      "--include",
      "src/**/*.json",
      "src/server.ts",
    ];
    out.action("run", "tsx watch src/server.ts");
    return runChild(process.execPath, args, io, env);
  });
}

/**
 * Runs a child process in the app folder, passing its output through and forwarding
 * SIGINT/SIGTERM; resolves with its exit code (0 when it ended because we forwarded a signal).
 */
export function runChild(
  command: string,
  args: string[],
  io: CliIO,
  env: Record<string, string | undefined>,
): Promise<number> {
  const inherit = io.stdout === process.stdout;
  const child = spawn(command, args, { cwd: io.cwd, env, stdio: inherit ? "inherit" : "pipe" });
  child.stdout?.on("data", (chunk: Buffer) => io.stdout.write(chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => io.stderr.write(chunk.toString()));
  let forwarded = false;
  const forward = (signal: NodeJS.Signals) => {
    forwarded = true;
    child.kill(signal);
  };
  process.on("SIGINT", forward);
  process.on("SIGTERM", forward);
  return new Promise((resolve) => {
    const done = (code: number) => {
      process.off("SIGINT", forward);
      process.off("SIGTERM", forward);
      resolve(code);
    };
    child.on("error", (error) => {
      io.stderr.write(`error: cannot run ${command}: ${error.message}\n`);
      done(1);
    });
    child.on("exit", (code, signal) => done(code ?? (forwarded || signal === "SIGINT" ? 0 : 1)));
  });
}
