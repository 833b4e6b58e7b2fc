/**
 * `wisent start --workers N` in miniature (node:cluster), for the scale-out bench until the CLI's
 * own supervisor is used: `WORKERS=2 node apps/cluster.mjs <server.mjs>`. Workers share the port;
 * a worker that dies is replaced; SIGTERM stops them all.
 */
import cluster from "node:cluster";

const workers = Number(process.env.WORKERS ?? 1);
const script = process.argv[2];
cluster.setupPrimary({ exec: script });
let stopping = false;
for (let i = 0; i < workers; i++) cluster.fork();
cluster.on("exit", () => {
  if (!stopping) cluster.fork();
  else if (Object.keys(cluster.workers).length === 0) process.exit(0);
});
process.on("SIGTERM", () => {
  stopping = true;
  for (const worker of Object.values(cluster.workers)) worker.process.kill("SIGTERM");
});
