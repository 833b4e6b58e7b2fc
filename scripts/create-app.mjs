/**
 * `npm run create-app -- <path> [--api] [--db sqlite|postgres|mysql] [--skip-install] [--skip-git]`:
 * makes an app of your own from this checkout, the way `npm create wisent@latest` will once the
 * packages are published. It packs `wisent` and `create-wisent` (from the build `npm ci` made),
 * serves them from a local registry (scripts/local-registry/, the machinery the registry test
 * uses; everything else comes from your usual registry) and runs `npm create wisent@latest` in
 * the folder you ran `npm run` from. The registry stops when the app is made.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { NPM, packPackages, REPO, startLocalRegistry } from "./local-registry/index.mjs";

const [path, ...options] = process.argv.slice(2);
if (!path || path.startsWith("-")) {
  process.stderr.write(
    "usage: npm run create-app -- <path> [--api] [--db sqlite|postgres|mysql] [--skip-install] [--skip-git]\n",
  );
  process.exit(2);
}
if (!existsSync(join(REPO, "packages/wisent/dist/cli/main.js"))) {
  process.stderr.write("error: wisent is not built: run `npm ci` (or `npm run build`) first\n");
  process.exit(1);
}

// npm run starts scripts at the repository root; the app goes where the command was typed.
const cwd = process.env.INIT_CWD ?? process.cwd();
const dir = mkdtempSync(join(tmpdir(), "wisent-create-app-"));
let registry;
let code = 1;
try {
  process.stdout.write("Packing wisent and create-wisent into a local registry...\n");
  registry = await startLocalRegistry(join(dir, "registry"), {
    // Your own npm cache: packages fetched before are not fetched again.
    cache: process.env.npm_config_cache,
  });
  for (const tarball of packPackages(join(dir, "packs"))) await registry.publish(tarball);
  const env = registry.env({
    // The lockfile names no registry URL: the local one is gone once the app is made.
    npm_config_omit_lockfile_registry_resolved: "true",
  });
  const args = ["create", "wisent@latest", path, ...(options.length > 0 ? ["--", ...options] : [])];
  code = await new Promise((resolve) => {
    const child = spawn(NPM, args, { cwd, env, stdio: "inherit" });
    child.on("exit", (exit, signal) => resolve(exit ?? (signal ? 1 : 0)));
  });
} finally {
  await registry?.stop();
  rmSync(dir, { recursive: true, force: true });
}
process.exitCode = code;
