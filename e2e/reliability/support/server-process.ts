import { type ChildProcess, spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { waitForOutput } from "../../support/server.js";

const SERVER = fileURLToPath(new URL("../app/src/server.mjs", import.meta.url));
const EXAMPLE = fileURLToPath(new URL("../../../examples/shop/", import.meta.url));
const CLI = fileURLToPath(new URL("../../../packages/wisent/dist/cli/main.js", import.meta.url));

/** A fixture server in its own process, with everything it printed. */
export interface ServerProcess {
  readonly url: string;
  readonly port: number;
  readonly pid: number;
  readonly child: ChildProcess;
  /** stdout and stderr so far (JSON log lines). */
  output(): string;
  /** Resolves with the exit code and signal once the process ends. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Sends a signal (default SIGTERM) and waits for the exit. */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Open file descriptors of the process (sockets, database files, pipes). */
  fdCount(): number;
  /** Resident memory of the process in KiB. */
  rssKb(): number;
}

export interface ServerOptions {
  databaseUrl: string;
  env?: Record<string, string>;
  /** Mount the test-only /faults routes (fixture only). */
  faults?: boolean;
  /**
   * Which app: the fixture (default; it has the test-only fault routes), or the example shop
   * made by the CLI, run as a user runs it (`wisent start` in examples/shop).
   */
  app?: "fixture" | "example";
}

/** Starts the app (see {@link ServerOptions.app}) on a free port and waits for its "listening" line. */
export function startServer(options: ServerOptions): Promise<ServerProcess> {
  const example = options.app === "example";
  const child = spawn(process.execPath, example ? [CLI, "start"] : [SERVER], {
    ...(example ? { cwd: EXAMPLE } : {}),
    env: {
      ...process.env,
      GO_ENV: "test",
      NODE_ENV: "test",
      PORT: "0",
      HOST: "127.0.0.1",
      DATABASE_URL: options.databaseUrl,
      SESSION_SECRET: "reliability-session-secret-0123456789abcdef",
      RELIABILITY_FAULTS: options.faults ? "1" : "0",
      ...options.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
    out += chunk;
  });
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
    out += chunk;
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  // The fixture logs a JSON line; `wisent start` prints "<app> (<env>) listening on <url>".
  const listening =
    /"msg":"listening","url":"(http:\/\/[^"]+)"|listening on (http:\/\/127\.0\.0\.1:\d+)/;
  const ready = waitForOutput(child, listening, 60_000).catch((error: Error) => {
    child.kill("SIGKILL");
    throw new Error(`the server did not start listening: ${error.message}`);
  });
  return ready.then(({ match }) => {
    const url = (match[1] ?? match[2])!;
    const pid = child.pid!;
    return {
      url,
      port: Number(new URL(url).port),
      pid,
      child,
      output: () => out,
      exited,
      async stop(signal = "SIGTERM") {
        if (child.exitCode === null && child.signalCode === null) child.kill(signal);
        return exited;
      },
      fdCount: () => readdirSync(`/proc/${pid}/fd`).length,
      rssKb: () => {
        const status = readFileSync(`/proc/${pid}/status`, "utf8");
        return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
      },
    };
  });
}

/** The JSON log lines a server printed. */
export function logLines(server: ServerProcess): Record<string, unknown>[] {
  return server
    .output()
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}
