/** Starts a server script as a child process (pinned to the server core) and waits until it answers. */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { onCore, SERVER_CORE } from "./cpus.mjs";

/**
 * Spawns `node <script>` with `env`; resolves { pid, url, stop(), stderr() } once `probePath`
 * answers. Server stdout (request logs) goes to /dev/null, as a log shipper would take it away.
 */
export async function startServer(
  script,
  {
    port,
    env = {},
    probePath = "/widgets?per_page=1",
    nodeArgs = [],
    args: scriptArgs = [],
    unpinned = false,
  },
) {
  const argv = [...nodeArgs, script, ...scriptArgs];
  const [command, args] = unpinned
    ? [process.execPath, argv]
    : onCore(SERVER_CORE, process.execPath, argv);
  const child = spawn(command, args, {
    env: { ...process.env, ...env, PORT: String(port), HOST: "127.0.0.1" },
    stdio: ["ignore", "ignore", "pipe"],
  });
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
    if (exited) throw new Error(`${script} exited before answering:\n${stderr}`);
    if (performance.now() - started > 20_000) {
      child.kill("SIGKILL");
      throw new Error(`${script} did not answer within 20 s:\n${stderr}`);
    }
    try {
      const res = await fetch(url + probePath);
      await res.arrayBuffer();
      break;
    } catch {
      await new Promise((r) => setTimeout(r, 5));
    }
  }
  return {
    pid: child.pid,
    url,
    stderr: () => stderr,
    /** SIGTERM, then SIGKILL after 5 s; resolves when the process is gone. */
    async stop() {
      if (exited) return exit;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
      const result = await exit;
      clearTimeout(timer);
      return result;
    },
  };
}

/** Resident memory of a process in MiB (Linux /proc). */
export async function residentMiB(pid) {
  const { readFile } = await import("node:fs/promises");
  const status = await readFile(`/proc/${pid}/status`, "utf8");
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
  return kb / 1024;
}

/** CPU time (user + system) a process has used so far, in seconds (Linux /proc, 10 ms ticks). */
export function cpuSeconds(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}
