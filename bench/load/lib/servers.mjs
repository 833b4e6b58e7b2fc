/** Starts a server script as a child process (pinned to the server core) and waits until it answers. */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { connect, createServer } from "node:net";
import { onCore, SERVER_CORE } from "./cpus.mjs";

/** A free TCP port on 127.0.0.1 (so a bench never probes a server another run left behind). */
/**
 * Every request arrives as a deployed app gets it, through a TLS-terminating proxy: the Wisent
 * apps run in production, where force-SSL redirects plain HTTP. The peers ignore the header.
 */
export const BEHIND_PROXY = { "X-Forwarded-Proto": "https" };

/** Whether something listens on 127.0.0.1:`port` (a service a bench may use). */
export function reachable(port) {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/**
 * Waits until the shop or API app at `url` answers a widget list (polling every 500 ms);
 * throws with `why()` when `server` exits or 300 s pass.
 */
export async function untilAnswering(url, server, why = () => "") {
  for (let waited = 0; ; waited += 500) {
    if (server.exitCode !== null) throw new Error(`server exited:\n${why()}`);
    if (waited > 300_000) throw new Error(`server did not answer in 300 s:\n${why()}`);
    const up = await fetch(`${url}/widgets?per_page=1`, { headers: BEHIND_PROXY }).catch(
      () => undefined,
    );
    if (up) {
      await up.arrayBuffer();
      return;
    }
    await new Promise((r) => setTimeout(r, 500));
  }
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/**
 * Spawns `node <script> <args>` (in `cwd`) with `env` and PORT (`port`, else a free one); resolves { pid, url, stop(), stderr() }
 * once `probePath` answers and, when `ready` is given, once stdout has printed a line matching it
 * (e.g. `wisent start --workers 2`'s "done  2 workers"; stdout is then read and dropped).
 * Otherwise server stdout (request logs) goes to /dev/null, as a log shipper would take it away.
 * stop() ends the workers a server forked too, should it have to kill the server.
 */
export async function startServer(
  script,
  {
    port: fixedPort,
    env = {},
    probePath = "/widgets?per_page=1",
    nodeArgs = [],
    args: scriptArgs = [],
    cwd,
    ready,
    unpinned = false,
    startupMs = 20_000,
  },
) {
  const port = fixedPort ?? (await freePort());
  const argv = [...nodeArgs, script, ...scriptArgs];
  const [command, args] = unpinned
    ? [process.execPath, argv]
    : onCore(SERVER_CORE, process.execPath, argv);
  const child = spawn(command, args, {
    cwd,
    // The bench is the TLS proxy: its X-Forwarded-Proto counts only from TRUSTED_PROXIES.
    env: {
      ...process.env,
      NO_COLOR: "1",
      TRUSTED_PROXIES: "127.0.0.1",
      ...env,
      PORT: String(port),
      HOST: "127.0.0.1",
    },
    stdio: ["ignore", ready ? "pipe" : "ignore", "pipe"],
  });
  let stdout = "";
  let isReady = !ready;
  if (ready) {
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (d) => {
      if (isReady) return;
      stdout = (stdout + d).slice(-20_000);
      if (ready.test(stdout)) isReady = true;
    });
  }
  let stderr = "";
  child.stderr.on("data", (d) => {
    stderr += d;
    if (stderr.length > 20_000) stderr = stderr.slice(-10_000);
  });
  let exited = false;
  const exit = new Promise((resolve) =>
    child.once("exit", (code, signal) => {
      exited = true;
      resolve({ code, signal });
    }),
  );
  const url = `http://127.0.0.1:${port}`;
  const started = performance.now();
  for (;;) {
    if (exited) throw new Error(`${argv.join(" ")} exited before answering:\n${stdout}${stderr}`);
    if (performance.now() - started > startupMs) {
      killTree(child.pid);
      throw new Error(
        `${argv.join(" ")} did not answer within ${startupMs / 1000} s:\n${stdout}${stderr}`,
      );
    }
    try {
      const res = await fetch(url + probePath, { headers: BEHIND_PROXY });
      await res.arrayBuffer();
      if (isReady) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 5));
  }
  return {
    pid: child.pid,
    url,
    stderr: () => stderr,
    /** SIGTERM, then SIGKILL (with its child processes) after 5 s; resolves once it is gone. */
    async stop() {
      if (exited) return exit;
      child.kill("SIGTERM");
      const timer = setTimeout(() => killTree(child.pid), 5000);
      const result = await exit;
      clearTimeout(timer);
      return result;
    },
  };
}

/** SIGKILL to `pid` and the processes it started (a supervisor's workers), Linux /proc. */
function killTree(pid) {
  let children = [];
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").split(" ").filter(Boolean);
  } catch {
    // gone, or no /proc
  }
  for (const p of [pid, ...children.map(Number)]) {
    try {
      process.kill(p, "SIGKILL");
    } catch {
      // already gone
    }
  }
}

/** Resident memory of a process in MiB (Linux /proc). */
export async function residentMiB(pid) {
  const { readFile } = await import("node:fs/promises");
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
  return kb / 1024;
}

/**
 * A process's name and the CPU ticks (user + system, 10 ms each) it has used so far, from
 * Linux's /proc/<pid>/stat; throws when the process is gone.
 */
export function processCpu(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const close = stat.lastIndexOf(")");
  const fields = stat.slice(close + 2).split(" ");
  return {
    name: stat.slice(stat.indexOf("(") + 1, close),
    ticks: Number(fields[11]) + Number(fields[12]),
  };
}

/** CPU time (user + system) a process has used so far, in seconds (Linux /proc, 10 ms ticks). */
export function cpuSeconds(pid) {
  return processCpu(pid).ticks / 100;
}

/**
 * CPU time the whole machine has spent busy so far (every core; user, system, interrupts and
 * steal, not idle or I/O wait), in seconds (Linux /proc/stat, 10 ms ticks): the server, its
 * database, the load generator and the kernel's network work between them.
 */
export function machineBusySeconds() {
  const line = readFileSync("/proc/stat", "utf8").split("\n")[0];
  const [user, nice, system, , , irq, softirq, steal] = line
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  return (user + nice + system + irq + softirq + steal) / 100;
}
