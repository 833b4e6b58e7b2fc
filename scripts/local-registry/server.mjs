/**
 * A Verdaccio npm registry in this process, for {@link startLocalRegistry} (which runs this file
 * as a child process, so the registry's handles and logs stay out of the caller's process).
 * Argument: the path of its config (YAML). Listens on 127.0.0.1 on a random port and prints
 * `{"port": N}` on stdout once it accepts requests; SIGTERM stops it.
 */
import { runServer } from "verdaccio";

const config = process.argv[2];
if (!config) throw new Error("usage: node scripts/local-registry/server.mjs <config.yaml>");
const app = await runServer(config);
const server = app.listen(0, "127.0.0.1", () => {
  process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`);
});
process.on("SIGTERM", () => {
  server.close();
  server.closeAllConnections();
  process.exit(0);
});
