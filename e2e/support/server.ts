/**
 * What every end-to-end suite needs to run a server of its own: a free port on 127.0.0.1, and
 * server processes (`wisent start` in an app's folder, or any entry) started on 127.0.0.1, waited
 * for (bounded) until they print their ready line, read and stopped. The one place for these:
 * e2e/reliability, e2e/resource, e2e/api-surface and e2e/browser all use it.
 * @module
 */
import { type ChildProcess, spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";

/** The repository's `wisent` CLI (built by `npm run build`). */
export const WISENT_CLI = fileURLToPath(
  new URL("../../packages/wisent/dist/cli/main.js", import.meta.url),
);
/** The generated example app. */
export const EXAMPLE_SHOP = fileURLToPath(new URL("../../examples/shop/", import.meta.url));

/** A free TCP port on 127.0.0.1 (the kernel picks it; the probe socket is closed again). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/**
 * Resolves with the first match of `pattern` in what `child` prints (stdout and stderr, both
 * piped), with everything printed so far; rejects when `timeoutMs` (default 15 s) passes or the
 * process exits first.
 */
function waitForOutput(
  child: ChildProcess,
  pattern: RegExp,
  timeoutMs = 15_000,
): Promise<{ match: RegExpExecArray; output: string }> {
  return new Promise((resolve, reject) => {
    let output = "";
    const done = (error?: Error, match?: RegExpExecArray) => {
      clearTimeout(timer);
      child.stdout?.off("data", onData);
      child.stderr?.off("data", onData);
      child.off("exit", onExit);
      if (error) reject(error);
      else resolve({ match: match!, output });
    };
    const onData = (chunk: Buffer | string) => {
      output += String(chunk);
      const match = pattern.exec(output);
      if (match) done(undefined, match);
    };
    const onExit = (code: number | null) =>
      done(new Error(`the process exited (${code}) before printing ${pattern}:\n${output}`));
    const timer = setTimeout(
      () => done(new Error(`nothing matched ${pattern} within ${timeoutMs} ms:\n${output}`)),
      timeoutMs,
    );
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.once("exit", onExit);
  });
}

/** How a server process ended. */
export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** A server in its own process, with everything it printed. */
export interface ServerProcess {
  /** `http://127.0.0.1:<port>` (from its "listening on" line, or the port it was given). */
  readonly url: string;
  readonly port: number;
  readonly pid: number;
  readonly child: ChildProcess;
  /** The match of the ready pattern in what it printed. */
  readonly ready: RegExpExecArray;
  /** stdout and stderr so far. */
  output(): string;
  /** Resolves once the process ends. */
  readonly exited: Promise<Exit>;
  /** Sends a signal (default SIGTERM) unless it has ended, and waits for the exit. */
  stop(signal?: NodeJS.Signals): Promise<Exit>;
  /** Open file descriptors of the process (sockets, database files, pipes). */
  fdCount(): number;
  /** Resident memory of the process in KiB. */
  rssKb(): number;
}

export interface ServerProcessOptions {
  /** Arguments to `node` (the entry and its arguments). */
  args: string[];
  cwd?: string;
  /** Added to the test process's environment (HOST is always 127.0.0.1). */
  env?: Record<string, string | undefined>;
  /**
   * What it prints once it listens; group 1, when present, is its URL. Default: the generated
   * server's `<app> (<env>) listening on http://127.0.0.1:<port>` line.
   */
  ready?: RegExp;
  /** Its URL when the ready line does not say it. */
  url?: string;
  /** Give up (and kill it) after this long; default 60 s (a first start may build the app). */
  timeoutMs?: number;
}

const LISTENING = /listening on (http:\/\/127\.0\.0\.1:\d+)/;

/**
 * Starts `node <args>` on 127.0.0.1 and resolves once it printed its ready line; rejects, with
 * what it printed, when it exits first or the time runs out (the process is killed then).
 * @example const server = await startServerProcess({ args: ["server.js"], env: { PORT: "0" } });
 */
export async function startServerProcess(options: ServerProcessOptions): Promise<ServerProcess> {
  const child = spawn(process.execPath, options.args, {
    ...(options.cwd ? { cwd: options.cwd } : {}),
    env: { ...process.env, NO_COLOR: "1", ...options.env, HOST: "127.0.0.1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  const collect = (chunk: string) => {
    out += chunk;
  };
  child.stdout!.setEncoding("utf8").on("data", collect);
  child.stderr!.setEncoding("utf8").on("data", collect);
  const exited = new Promise<Exit>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  let ready: RegExpExecArray;
  try {
    ({ match: ready } = await waitForOutput(
      child,
      options.ready ?? LISTENING,
      options.timeoutMs ?? 60_000,
    ));
  } catch (error) {
    child.kill("SIGKILL");
    throw new Error(`the server did not start listening: ${(error as Error).message}`);
  }
  const url = options.url ?? ready[1]!;
  const pid = child.pid!;
  return {
    url,
    port: Number(new URL(url).port),
    pid,
    child,
    ready,
    output: () => out,
    exited,
    stop(signal = "SIGTERM") {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
    fdCount: () => readdirSync(`/proc/${pid}/fd`).length,
    rssKb: () => {
      const status = readFileSync(`/proc/${pid}/status`, "utf8");
      return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
    },
  };
}

export interface WisentStartOptions {
  /** Added to the environment (DATABASE_URL, GO_ENV, ...). */
  env?: Record<string, string | undefined>;
  /** More `wisent start` arguments (`--workers 2`). */
  args?: string[];
  /** The CLI to run (default the repository's {@link WISENT_CLI}). */
  cli?: string;
  /** See {@link ServerProcessOptions.ready}. */
  ready?: RegExp;
  url?: string;
  timeoutMs?: number;
}

/**
 * `wisent start` in the app folder `cwd`, as a user runs it, on a port the kernel picks
 * (`PORT=0`, read back from its "listening on" line) unless `args` name one.
 * @example const server = await startWisent(EXAMPLE_SHOP, { env: { DATABASE_URL } });
 */
export function startWisent(cwd: string, options: WisentStartOptions = {}): Promise<ServerProcess> {
  return startServerProcess({
    args: [options.cli ?? WISENT_CLI, "start", ...(options.args ?? [])],
    cwd,
    env: { PORT: "0", ...options.env },
    ...(options.ready ? { ready: options.ready } : {}),
    ...(options.url ? { url: options.url } : {}),
    ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
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
