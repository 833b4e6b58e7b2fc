import cluster, { type Worker } from "node:cluster";
import { fileURLToPath } from "node:url";
import { announceStartupNotices } from "../../app/startup-notices.js";
import { currentEnv } from "../../config/settings.js";
import { relayLiveBroadcasts } from "../../live/cluster-transport.js";
import type { Output } from "../output.js";
import { workerExecArgv } from "./young-generation.js";

/**
 * Runs `count` worker processes of the app's server sharing one port (node:cluster). A worker
 * that dies after it started listening is replaced; one that dies before ever listening (a
 * start-up error such as an unreachable database) stops the whole group with exit code 1, so a
 * broken app does not restart forever. SIGTERM/SIGINT drain every worker, then resolve with 0.
 */
export function superviseWorkers(count: number, out: Output): Promise<number> {
  // The primary prints the start-up notices; the workers inherit the marker and stay quiet.
  announceStartupNotices(currentEnv());
  cluster.setupPrimary({
    exec: fileURLToPath(new URL("./worker.js", import.meta.url)),
    args: [],
    execArgv: workerExecArgv(),
    silent: false,
  });
  const listening = new Set<Worker>();
  let stopping = false;
  let exitCode = 0;

  return new Promise((resolve) => {
    const live = () =>
      Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined);
    const stopAll = (code: number) => {
      if (stopping) return;
      stopping = true;
      exitCode = code;
      const workers = live();
      if (workers.length === 0) finish();
      for (const worker of workers) worker.process.kill("SIGTERM");
    };
    // Live pages' broadcasts: one worker's reaches the subscribers of every worker.
    const relay = relayLiveBroadcasts(live);
    cluster.on("message", (_worker, message) => relay(message));
    const finish = () => {
      cluster.removeAllListeners("message");
      process.off("SIGTERM", onSignal);
      process.off("SIGINT", onSignal);
      cluster.removeAllListeners("exit");
      cluster.removeAllListeners("listening");
      resolve(exitCode);
    };
    const onSignal = (signal: NodeJS.Signals) => {
      out.action("run", `${signal}: stopping ${live().length} worker(s)`);
      stopAll(0);
    };
    process.on("SIGTERM", onSignal);
    process.on("SIGINT", onSignal);

    cluster.on("listening", (worker, address) => {
      if (listening.has(worker)) return;
      listening.add(worker);
      if (listening.size === count && !stopping) {
        out.action(
          "done",
          `${count} workers (pids ${live()
            .map((w) => w.process.pid)
            .join(", ")}) on port ${address.port}`,
        );
      }
    });
    cluster.on("exit", (worker, code, signal) => {
      const wasListening = listening.delete(worker);
      if (stopping) {
        if (live().length === 0) finish();
        return;
      }
      const why = signal ? `signal ${signal}` : `exit code ${code}`;
      if (!wasListening) {
        out.error(`worker ${worker.process.pid} failed to start (${why}); stopping`);
        stopAll(1);
        return;
      }
      out.warn(`worker ${worker.process.pid} died (${why}); starting a new one`);
      cluster.fork();
    });
    for (let i = 0; i < count; i++) cluster.fork();
  });
}
