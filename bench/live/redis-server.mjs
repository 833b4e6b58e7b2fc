/**
 * A private Redis for the bench's Redis transport run: pub/sub channels are shared by every
 * client of a server whatever its database number, and the shop's channel (`wisent_live_shop`)
 * would reach anyone else's shop on a shared Redis. Without `redis-server` on PATH, the shared
 * server (WISENT_BENCH_REDIS_URL, default 127.0.0.1:6379) is used when it answers.
 */
import { spawn, spawnSync } from "node:child_process";
import { freePort, reachable } from "../load/lib/servers.mjs";
import { REDIS } from "./servers.mjs";

/** { url, stop(), shared } of a Redis to broadcast over, or undefined when there is none. */
export async function benchRedis() {
  if (spawnSync("redis-server", ["--version"]).error) {
    const port = Number(new URL(REDIS).port || 6379);
    return (await reachable(port)) ? { url: REDIS, shared: true, stop: async () => {} } : undefined;
  }
  const port = await freePort();
  const child = spawn(
    "redis-server",
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    { stdio: "ignore" },
  );
  for (let waited = 0; !(await reachable(port)); waited += 20) {
    if (child.exitCode !== null || waited > 10_000) throw new Error("redis-server did not start");
    await new Promise((r) => setTimeout(r, 20));
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    shared: false,
    stop: () =>
      new Promise((resolve) => {
        child.once("exit", resolve);
        child.kill("SIGTERM");
      }),
  };
}
