// A server for the graceful-shutdown test: GET /slow answers after the parent says so (stdin).
import { App } from "wisent";

const app = new App({ name: "slow" });
let release;
const released = new Promise((resolve) => {
  release = resolve;
});
app.get("/slow", async (c) => {
  process.stdout.write("in-flight\n");
  await released;
  return c.text("finished");
});
app.onShutdown(() => process.stdout.write("hook\n"));
process.stdin.on("data", () => release());
const server = await app.listen({ port: 0 });
process.stdout.write(`listening ${server.port}\n`);
