/**
 * `npm run demo`: migrates the example shop's SQLite database, starts it on
 * http://127.0.0.1:3000 (PORT to change), seeds a few widgets when there are none, and prints the
 * URL and the routes table. Ctrl-C stops the server cleanly.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const repo = fileURLToPath(new URL("..", import.meta.url));
const shop = join(repo, "examples/shop");
const cli = join(repo, "packages/wisent/dist/cli/main.js");
const port = process.env.PORT ?? "3000";
const url = `http://127.0.0.1:${port}`;

const SEED = [
  ["Anvil", "Heavy, dependable, and a classic of the genre."],
  ["Rocket skates", "Fast. Steering sold separately."],
  ["Giant magnet", null],
  ["Portable hole", "Folds flat for easy carrying."],
];

function wisent(...args) {
  const result = spawnSync(process.execPath, [cli, ...args], { cwd: shop, stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

async function waitForServer() {
  for (let i = 0; i < 100; i++) {
    try {
      return await fetch(`${url}/widgets`, { headers: { accept: "application/json" } });
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`the shop did not answer on ${url}`);
}

if (!existsSync(cli)) {
  console.log("building wisent (npm run build)...");
  const built = spawnSync("npm", ["run", "build"], { cwd: repo, stdio: "inherit" });
  if (built.status !== 0) process.exit(built.status ?? 1);
}

wisent("migrate");
const server = spawn(process.execPath, [cli, "start", "--port", port], {
  cwd: shop,
  stdio: "inherit",
});
server.on("exit", (code, signal) => process.exit(signal ? 0 : (code ?? 0)));
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => server.kill("SIGTERM"));
}

const list = await waitForServer();
if (((await list.json()) ?? []).length === 0) {
  for (const [title, description] of SEED) {
    const res = await fetch(`${url}/widgets`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({ title, description }),
    });
    if (res.status !== 201)
      console.error(`seeding ${title} failed: ${res.status} ${await res.text()}`);
  }
  console.log(`seeded ${SEED.length} widgets`);
}
console.log("");
wisent("routes");
console.log(`\nThe shop is running on ${url}  (widgets: ${url}/widgets). Press Ctrl-C to stop.\n`);
