/**
 * `wisent dev`'s server: a small front process that owns the public port for the whole session
 * and passes each request on to the app, which runs in a child process on a port of its own and
 * is restarted whenever a file under `src/` (or `.env`) changes. Because the port never goes
 * away, a broken save (a JSX syntax error, an import that does not exist) is answered with a
 * page naming the file and line instead of "connection refused", and the next save recovers.
 * @module
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, type FSWatcher, readdirSync, statSync, watch } from "node:fs";
import http from "node:http";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { stripVTControlCharacters } from "node:util";
import { html } from "hono/html";
import { forceColorGiven } from "../../config/settings.js";
import { devPage } from "../../http/dev-page.js";
import { findPortHolder, isAddressInUse, PortInUseError } from "../../server/port-in-use.js";
import type { CliIO } from "../io.js";
import type { Output } from "../output.js";
import { describeStartFailure, type StartFailure } from "./start-failure.js";

/** Options of {@link runDevServer}. */
export interface DevServerOptions {
  readonly io: CliIO;
  readonly out: Output;
  /** The app's environment (.env applied). */
  readonly env: Record<string, string | undefined>;
  readonly port: number;
  readonly host: string;
  /** Files whose change restarts the app; default `src/` and `.env` of the app. */
  readonly watch?: readonly string[];
}

type AppState =
  | { readonly kind: "starting" }
  | { readonly kind: "ready"; readonly port: number }
  | { readonly kind: "failed"; readonly failure: StartFailure };

/** How long a request waits for the app to (re)start before it is told the app is not up. */
const START_WAIT_MS = 30_000;
/** Changes within this window restart the app once (an editor's save is several events). */
const DEBOUNCE_MS = 80;
/** How long the app gets to drain on a restart before it is killed. */
const STOP_WAIT_MS = 3_000;
/** The last lines of the app's stderr kept for the error page of a crash. */
const STDERR_KEPT = 16 * 1024;

const CHILD_ENTRY = fileURLToPath(new URL("./app-child.js", import.meta.url));

/**
 * Runs the dev server until SIGINT/SIGTERM; resolves with the exit code: 1 when the port is
 * taken (after one line naming it and its holder), else 0.
 */
export async function runDevServer(options: DevServerOptions): Promise<number> {
  const { io, out, env, port, host } = options;
  let state: AppState = { kind: "starting" };
  let waiters: (() => void)[] = [];
  const setState = (next: AppState) => {
    state = next;
    if (next.kind !== "starting") {
      const ready = waiters;
      waiters = [];
      for (const wake of ready) wake();
    }
  };

  const front = http.createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain; charset=utf-8" });
      res.end(`wisent dev: ${error instanceof Error ? error.message : String(error)}\n`);
    });
  });
  const handle = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    if (state.kind === "starting") {
      await new Promise<void>((wake) => {
        const timer = setTimeout(wake, START_WAIT_MS);
        waiters.push(() => {
          clearTimeout(timer);
          wake();
        });
      });
    }
    const now = state;
    if (now.kind === "ready") return forward(req, res, now.port);
    // A value described on the dev server's page, never thrown.
    const starting = () => describeStartFailure(new Error("the app is still starting"), io.cwd);
    const failure = now.kind === "failed" ? now.failure : starting();
    await sendFailure(req, res, failure);
  };

  try {
    await new Promise<void>((resolve, reject) => {
      front.once("error", reject);
      front.listen({ port, host, exclusive: true }, () => {
        front.off("error", reject);
        resolve();
      });
    });
  } catch (error) {
    if (!isAddressInUse(error)) throw error;
    out.error(
      new PortInUseError(port, findPortHolder(port), `wisent dev --port ${port + 1}`).message,
    );
    return 1;
  }
  const address = front.address();
  const publicPort = typeof address === "object" && address ? address.port : port;
  const publicUrl = `http://${host.includes(":") ? `[${host}]` : host}:${publicPort}`;

  // The app process. `current` is the one requests go to; a replaced one is only awaited.
  let current: ChildProcess | undefined;
  let stderrTail = "";
  const seenWarnings = new Set<string>();
  const start = () => {
    setState({ kind: "starting" });
    stderrTail = "";
    const child = spawn(process.execPath, [CHILD_ENTRY], {
      cwd: io.cwd,
      env: {
        ...env,
        PORT: "0",
        HOST: "127.0.0.1",
        WISENT_DEV_SUPERVISOR: "1",
        WISENT_DEV_URL: publicUrl,
        // In development the app performs its background jobs itself (no `wisent jobs work`).
        WISENT_JOBS: "1",
        // The child's output goes through this process's pipes: keep the terminal's colours.
        ...(io.color && !forceColorGiven(env) ? { FORCE_COLOR: "1" } : {}),
      },
      stdio: ["ignore", "pipe", "pipe", "ipc"],
    });
    current = child;
    child.stdout?.on("data", (chunk: Buffer) => io.stdout.write(chunk.toString()));
    child.stderr?.on("data", (chunk: Buffer) => {
      const text = chunk.toString();
      stderrTail = (stderrTail + text).slice(-STDERR_KEPT);
      io.stderr.write(onceOnly(text, seenWarnings));
    });
    child.on("message", (message: unknown) => {
      if (child !== current || typeof message !== "object" || message === null) return;
      const m = message as { wisent?: string; port?: number; failure?: StartFailure };
      if (m.wisent === "listening" && typeof m.port === "number") {
        setState({ kind: "ready", port: m.port });
      } else if (m.wisent === "failed" && m.failure) {
        setState({ kind: "failed", failure: m.failure });
        out.warn(
          "the app did not start; fix the file and save to restart (its page is at the URL)",
        );
      }
    });
    child.on("exit", (code, signal) => {
      if (child !== current || stopping) return;
      current = undefined;
      if (state.kind === "failed") return;
      const why = signal ? `signal ${signal}` : `exit code ${code}`;
      // A value described on the dev server's page, never thrown.
      const failure = describeStartFailure(new Error(`the app stopped (${why})`), io.cwd);
      setState({
        kind: "failed",
        failure: { ...failure, details: stderrTail.trim() || failure.details },
      });
      out.warn(`the app stopped (${why}); save a file to restart it`);
    });
  };

  let stopping = false;
  const stopChild = (child: ChildProcess | undefined): Promise<void> => {
    if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
    return new Promise((resolve) => {
      const kill = setTimeout(() => child.kill("SIGKILL"), STOP_WAIT_MS);
      child.once("exit", () => {
        clearTimeout(kill);
        resolve();
      });
      child.kill("SIGTERM");
    });
  };

  let restarting: Promise<void> | undefined;
  let again = false;
  const restart = async () => {
    if (restarting) {
      again = true;
      return;
    }
    out.action("run", "restarting the app (a file changed)");
    const old = current;
    current = undefined;
    setState({ kind: "starting" });
    restarting = stopChild(old);
    await restarting;
    restarting = undefined;
    if (stopping) return;
    if (again) {
      again = false;
      return restart();
    }
    start();
  };

  const watcher = watchFiles(options.watch ?? [join(io.cwd, "src"), join(io.cwd, ".env")], () => {
    restart().catch((error: unknown) => out.error(String(error)));
  });

  out.action("run", `dev server on ${publicUrl} (the app restarts when src/ changes)`);
  start();

  return new Promise((resolve) => {
    const onSignal = () => {
      process.off("SIGINT", onSignal);
      process.off("SIGTERM", onSignal);
      stopping = true;
      watcher.close();
      front.closeAllConnections();
      front.close();
      stopChild(current).then(() => resolve(0));
    };
    process.on("SIGINT", onSignal);
    process.on("SIGTERM", onSignal);
  });
}

/**
 * Watches each existing path; `changed` is called once per burst. Directories are watched one
 * by one (each folder of the tree, new ones as they appear), not with `recursive`, which on
 * Linux under Node 20 loses a file that an editor saves by renaming a new copy over it.
 */
function watchFiles(paths: readonly string[], changed: () => void): { close(): void } {
  let timer: NodeJS.Timeout | undefined;
  const watchers = new Map<string, FSWatcher>();
  const onChange = () => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(changed, DEBOUNCE_MS);
  };
  const add = (path: string) => {
    if (watchers.has(path) || !existsSync(path)) return;
    let directory = false;
    try {
      directory = statSync(path).isDirectory();
      const watcher = watch(path, (_event, name) => {
        // A folder made or moved in: watch it (and what is in it) too.
        const file = name?.toString();
        // Editors' swap and backup files are not the app's.
        if (directory && file && /(^\.|~$|\.sw[px]$|^4913$)/.test(file)) return;
        if (directory && file) add(join(path, file));
        onChange();
      });
      watcher.on("error", () => {
        watcher.close();
        watchers.delete(path);
      });
      watchers.set(path, watcher);
    } catch {
      return; // gone meanwhile
    }
    if (directory) {
      for (const entry of readdirSync(path, { withFileTypes: true })) {
        if (entry.isDirectory() && entry.name !== "node_modules") add(join(path, entry.name));
      }
    }
  };
  for (const path of paths) add(path);
  return {
    close() {
      if (timer) clearTimeout(timer);
      for (const watcher of watchers.values()) watcher.close();
    },
  };
}

/**
 * `text` without the warning lines already shown this session: the app's start-up warnings are
 * printed once, not again on every restart.
 */
export function onceOnly(text: string, seen: Set<string>): string {
  return text
    .split(/(?<=\n)/)
    .filter((line) => {
      const plain = stripVTControlCharacters(line);
      if (!/"level":"warn"|^warning:/.test(plain)) return true;
      // The JSON line's time differs each start: compare what follows it.
      const key = plain.replace(/^\{"time":"[^"]*",/, "");
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .join("");
}

/** Passes the request on to the app on `port` and its answer back. */
function forward(req: http.IncomingMessage, res: http.ServerResponse, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const upstream = http.request(
      {
        host: "127.0.0.1",
        port,
        method: req.method,
        path: req.url,
        headers: req.headers,
        agent: false,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.statusMessage, answer.rawHeaders);
        answer.pipe(res);
        answer.on("end", resolve);
        answer.on("error", reject);
      },
    );
    upstream.on("error", reject);
    res.on("close", () => upstream.destroy());
    req.pipe(upstream);
  });
}

/** The failure as an HTML page (browsers), else as plain text. */
async function sendFailure(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  failure: StartFailure,
): Promise<void> {
  const wantsHtml = /text\/html/.test(req.headers.accept ?? "");
  const headers = { "cache-control": "no-store" };
  if (!wantsHtml) {
    res.writeHead(500, { ...headers, "content-type": "text/plain; charset=utf-8" });
    res.end(`${failure.summary}\n`);
    return;
  }
  res.writeHead(500, { ...headers, "content-type": "text/html; charset=utf-8" });
  res.end(await failurePage(failure));
}

/** The page a browser gets while the app cannot start. */
export function failurePage(failure: StartFailure): Promise<string> {
  const problems = failure.problems.map(
    (p) => html`<section>
<h2>${p.file ? html`<code>${p.file}:${p.line}:${p.column}</code>` : "The app did not start"}</h2>
<p class="alert">${p.message}</p>
${
  p.excerpt
    ? html`<pre class="excerpt">${p.excerpt.map(
        ([n, text]) =>
          html`<span class="${n === p.line ? "current" : ""}">${String(n).padStart(4)}  ${text}</span>
`,
      )}</pre>`
    : ""
}
</section>`,
  );
  return devPage(
    "The app did not start",
    html`<h1>The app did not start</h1>
<p class="lead">Fix the problem below and save: the dev server restarts the app; then reload this page.</p>
${problems}
<details><summary>Details</summary><pre>${failure.details}</pre></details>`,
  );
}
