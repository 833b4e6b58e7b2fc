/**
 * The framework peers that live in their own folder with their own package.json
 * (bench/load/peers/adonisjs, bench/load/peers/nestjs): installed and compiled on demand, the
 * first time a bench needs them, never by the repository's `npm ci` (their dependencies are not
 * in the root lock file). Each folder's README says what the app does and how it differs from
 * the Wisent apps' work.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import semver from "semver";

const PEERS = fileURLToPath(new URL("../peers/", import.meta.url));

/** Where each peer's compiled entry point lands and which folder it runs in. */
export const PEER_APPS = {
  adonisjs: { dir: join(PEERS, "adonisjs"), cwd: "build", entry: "build/bin/server.js" },
  nestjs: { dir: join(PEERS, "nestjs"), cwd: ".", entry: "dist/main.js" },
};

function run(dir, command, args) {
  const result = spawnSync(command, args, { cwd: dir, encoding: "utf8", stdio: "pipe" });
  if (result.status !== 0) {
    throw new Error(
      `${command} ${args.join(" ")} failed in ${dir}:\n${result.stdout}${result.stderr}`,
    );
  }
}

/** The newest modification time under `path` (node_modules, outputs and Markdown skipped). */
function newest(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return path.endsWith(".md") ? 0 : stat.mtimeMs;
  let latest = 0;
  for (const entry of readdirSync(path)) {
    if (["node_modules", "build", "dist"].includes(entry)) continue;
    latest = Math.max(latest, newest(join(path, entry)));
  }
  return latest;
}

/**
 * Makes a peer ready to start: `npm ci` (its own lock file) when its node_modules is missing,
 * `npm run build` when its compiled entry is missing or older than its sources. Returns
 * { script, cwd }, or { skip: reason } when this Node does not satisfy the peer's dependencies'
 * `engines`.
 */
export function preparePeerApp(name) {
  const peer = PEER_APPS[name];
  if (!peer) throw new Error(`unknown peer app ${name}`);
  const lock = join(peer.dir, "package-lock.json");
  if (!existsSync(join(peer.dir, "node_modules"))) {
    process.stderr.write(`  installing the ${name} peer's dependencies (npm ci)\n`);
    run(peer.dir, "npm", [existsSync(lock) ? "ci" : "install", "--no-audit", "--no-fund"]);
  }
  const unmet = unmetEngines(peer.dir);
  if (unmet.length > 0) return { skip: `needs ${unmet.join(", ")} (this is ${process.version})` };
  const entry = join(peer.dir, peer.entry);
  if (!existsSync(entry) || statSync(entry).mtimeMs < newest(peer.dir)) {
    process.stderr.write(`  building the ${name} peer (npm run build)\n`);
    run(peer.dir, "npm", ["run", "build"]);
  }
  return { script: entry, cwd: join(peer.dir, peer.cwd) };
}

/** The installed packages (from the peer's lock file) whose `engines.node` this Node fails. */
function unmetEngines(dir) {
  const lock = JSON.parse(readFileSync(join(dir, "package-lock.json"), "utf8"));
  const unmet = [];
  for (const [path, info] of Object.entries(lock.packages ?? {})) {
    const range = info.engines?.node;
    if (!path || !range || typeof range !== "string") continue;
    if (!semver.satisfies(process.version, range)) unmet.push(`${path.slice(13)} ${range}`);
  }
  return unmet;
}
