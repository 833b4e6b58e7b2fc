/**
 * Entry of one `wisent start --workers N` worker process (node:cluster forks it): it runs the
 * app's server; the cluster shares the port between workers.
 * @module
 */
import { runServer } from "./run-server.js";

runServer(process.cwd()).catch((error: unknown) => {
  process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
