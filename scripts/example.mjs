/**
 * Makes the example app exactly as a user would, and checks the committed one has not drifted.
 *
 *   node scripts/example.mjs make <dir>   wisent new shop --dev, then the two resources, in <dir>/shop
 *   node scripts/example.mjs check        makes it in a temp dir and compares it with examples/shop
 *
 * The steps (one list, used by both):
 *   wisent new shop --dev --skip-install
 *   wisent g r widget title description:nulls.Text --live
 *   wisent g r image caption file:attachment --parent widget
 * then three repository-only adjustments, all mechanical:
 *   - package.json's link to wisent is relative (`file:../../packages/wisent`) instead of --dev's
 *     absolute one, and hono and zod take the framework's ranges instead of absolute links into
 *     this checkout's node_modules, so the example works from any clone: it is an npm workspace of
 *     this repository, and `npm ci` at the root links wisent and installs the rest;
 *   - package.json's `allowScripts` goes: npm reads that policy from the project root only (and
 *     warns about a workspace's), and the repository's root package.json approves the same
 *     packages (src/package-install.test.ts checks it);
 *   - Biome (the repository's own binary, the app's biome.json) formats the generated files, as
 *     the generator itself does when the app has its dependencies installed.
 * The check ignores the files the example's authors fill in (its tests, screenshots) and the
 * timestamps in migration file names (their order counts).
 */
import { spawnSync } from "node:child_process";
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const repo = fileURLToPath(new URL("..", import.meta.url));
const cli = join(repo, "packages/wisent/dist/cli/main.js");
const biome = join(repo, "node_modules/.bin/biome");
const committed = join(repo, "examples/shop");

/** Files the example's authors own after generation: never compared. */
const FILLED_IN = [/\.test\.tsx?$/, /^test\//, /^e2e\//];
/** Never part of the example's source. */
const IGNORED = [
  /^node_modules\//,
  /^db\/.*\.sqlite/,
  /^dist\//,
  /^tmp\//,
  /^\.wisent\/generated\.json$/,
  /^test\/screenshots\//,
];

function run(cwd, ...args) {
  const result = spawnSync(process.execPath, [cli, ...args], {
    cwd,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1" },
  });
  if (result.status !== 0) {
    throw new Error(`wisent ${args.join(" ")} failed in ${cwd}:\n${result.stdout}${result.stderr}`);
  }
}

export function make(parent) {
  const app = join(parent, "shop");
  rmSync(app, { recursive: true, force: true });
  run(parent, "new", "shop", "--dev", "--skip-install", "--skip-git");
  run(app, "g", "r", "widget", "title", "description:nulls.Text", "--live");
  run(app, "g", "r", "image", "caption", "file:attachment", "--parent", "widget");
  const pkgPath = join(app, "package.json");
  const pkg = JSON.parse(readFileSync(pkgPath, "utf8"));
  const wisent = JSON.parse(readFileSync(join(repo, "packages/wisent/package.json"), "utf8"));
  pkg.dependencies = {
    ...pkg.dependencies,
    wisent: "file:../../packages/wisent",
    hono: wisent.dependencies.hono,
    zod: wisent.dependencies.zod,
  };
  delete pkg.allowScripts;
  writeFileSync(pkgPath, `${JSON.stringify(pkg, null, 2)}\n`);
  const formatted = spawnSync(biome, ["check", "--write", "."], { cwd: app, encoding: "utf8" });
  if (formatted.status !== 0)
    throw new Error(`biome failed in ${app}:\n${formatted.stdout}${formatted.stderr}`);
  return app;
}

function files(root, dir = root, out = new Map()) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const rel = relative(root, path);
    if (IGNORED.some((re) => re.test(rel)) || IGNORED.some((re) => re.test(`${rel}/`))) continue;
    if (statSync(path).isDirectory()) files(root, path, out);
    else if (!FILLED_IN.some((re) => re.test(rel))) {
      out.set(rel, readFileSync(path, "utf8"));
    }
  }
  return out;
}

/** Migration timestamps differ per run; their order does not: `migrations/1_create_widgets.ts`. */
function ordinalMigrations(map) {
  const migrations = [...map.keys()].filter((k) => /^migrations\/\d{14}_/.test(k)).sort();
  const out = new Map([...map].filter(([k]) => !migrations.includes(k)));
  migrations.forEach((k, i) => {
    out.set(k.replace(/^migrations\/\d{14}_/, `migrations/${i + 1}_`), map.get(k));
  });
  return out;
}

export function check() {
  if (!existsSync(cli)) throw new Error("packages/wisent is not built: run npm run build first");
  const temp = mkdtempSync(join(tmpdir(), "wisent-example-"));
  try {
    const fresh = ordinalMigrations(files(make(temp)));
    const ours = ordinalMigrations(files(committed));
    const problems = [];
    for (const [path, text] of fresh) {
      if (!ours.has(path)) problems.push(`missing from examples/shop: ${path}`);
      else if (ours.get(path) !== text)
        problems.push(`differs from the generator's output: examples/shop/${path}`);
    }
    for (const path of ours.keys())
      if (!fresh.has(path)) problems.push(`not made by the generator: examples/shop/${path}`);
    return problems;
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
}

const [command, dir] = process.argv.slice(2);
if (command === "make" && dir) {
  console.log(`made ${make(dir)}`);
} else if (command === "check") {
  const problems = check();
  if (problems.length > 0) {
    console.error(
      `examples/shop has drifted from the generator (${problems.length}):\n  ${problems.join("\n  ")}`,
    );
    console.error(
      "Regenerate it with: node scripts/example.mjs make examples (then restore its filled-in tests)",
    );
    process.exit(1);
  }
  console.log("examples/shop matches the generator's output");
} else {
  console.error("usage: node scripts/example.mjs make <dir> | check");
  process.exit(2);
}
