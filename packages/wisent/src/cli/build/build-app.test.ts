/**
 * Slow: `wisent build` and the compiled `wisent start` / `wisent migrate` on a real app made by
 * `wisent new --dev` in a temp folder (node_modules linked to the repository's), run through the
 * package's bin as a user runs them.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../cli.js";
import { memoryIO } from "../io.js";
import { cleanEnv } from "../test-support/clean-env.js";
import { buildState } from "./build-state.js";

const REPO = new URL("../../../../../", import.meta.url).pathname;
const BIN = join(REPO, "packages/wisent/bin/wisent.js");
const SLOW = 180_000;

let root = "";
let app = "";

function wisent(cwd: string, args: string[], extra: Record<string, string> = {}) {
  const result = spawnSync(process.execPath, [BIN, ...args], {
    cwd,
    env: cleanEnv(extra),
    encoding: "utf8",
    timeout: 60_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Starts `wisent start` on a free port; resolves with the child, its base URL and its output. */
async function start(cwd: string, extra: Record<string, string> = {}) {
  const child = spawn(process.execPath, [BIN, "start", "--port", "0"], {
    cwd,
    env: cleanEnv(extra),
  });
  const output = { text: "" };
  child.stdout.on("data", (d: Buffer) => (output.text += d));
  child.stderr.on("data", (d: Buffer) => (output.text += d));
  const base = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no listening line: ${output.text}`)), 60_000);
    const check = () => {
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output.text);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout.on("data", check);
    child.stderr.on("data", check);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`exited ${code}: ${output.text}`));
    });
  });
  return { child, base, output };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once("exit", r));
  child.kill("SIGTERM");
  await exited;
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "wisent-build-"));
  const { io, stderr } = memoryIO({ cwd: root });
  expect(await runCli(["new", "blog", "--dev", "--skip-install"], io)).toBe(0);
  expect(stderr()).toBe("");
  app = join(root, "blog");
  symlinkSync(join(REPO, "node_modules"), join(app, "node_modules"), "dir");
  const generate = memoryIO({ cwd: app });
  expect(await runCli(["g", "r", "post", "title"], generate.io)).toBe(0);
  // A route that throws, for the stack trace through the source maps.
  const appFile = join(app, "src/app.ts");
  writeFileSync(
    appFile,
    readFileSync(appFile, "utf8").replace(
      "// wisent:resources",
      'app.get("/boom", () => {\n  throw new Error("boom from the app");\n});\n// wisent:resources',
    ),
  );
}, SLOW);

afterAll(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

describe("wisent build", { timeout: SLOW }, () => {
  it("compiles the server, the app, the migrations and the locales to dist/", () => {
    const result = wisent(app, ["build"]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    for (const file of ["dist/server.js", "dist/app.js", "dist/server.js.map"]) {
      expect(existsSync(join(app, file)), file).toBe(true);
    }
    expect(result.stdout).toMatch(/create {2}dist\/migrations\/\d{14}_create_posts\.js/);
    expect(result.stdout).toMatch(/create {2}dist\/locales\/posts\.en-US\.json/);
    expect(result.stdout).toMatch(/^built dist\/ in \d+\.\d\d s$/m);
    expect(buildState(app).state).toBe("fresh");
    // Bundled: the framework and hono are inside; the native driver is loaded from node_modules.
    const server = readFileSync(join(app, "dist/server.js"), "utf8");
    expect(server).not.toMatch(/from\s*"(wisent|hono)"/);
    expect(server).toContain('"better-sqlite3"');
    expect(server).not.toContain("Database.prototype.prepare");
    // Names kept as written (route names in logs, the adapter's class), without esbuild's
    // keepNames helper, which renamed every closure as it was made, on every request.
    expect(server).toMatch(/PostsResource=class\b|class PostsResource\b/);
    expect(server).not.toMatch(/"name",\{value(:\w+)?,configurable:!0\}/);
    // The map names the .ts files without carrying their text (Node reads it at every start).
    const map = JSON.parse(readFileSync(join(app, "dist/server.js.map"), "utf8"));
    expect(map.sources).toContain("../src/app.ts");
    expect(map.sourcesContent).toBeUndefined();
  });

  it("fails with the file, line and message when a source does not compile", () => {
    const broken = join(app, "src/broken.ts");
    writeFileSync(broken, "export const x = ;\n");
    const appFile = join(app, "src/app.ts");
    const original = readFileSync(appFile, "utf8");
    writeFileSync(appFile, `import "./broken.js";\n${original}`);
    try {
      const result = wisent(app, ["build"]);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/src\/broken\.ts:1:\d+: ERROR: Unexpected ";"/);
    } finally {
      writeFileSync(appFile, original);
      rmSync(broken);
    }
  });
});

describe("wisent start and migrate from the build", { timeout: SLOW }, () => {
  it("start builds a stale app first, says so in one line, and names .ts lines in traces", async () => {
    wisent(app, ["build"]);
    // The build is older than src/app.ts (a save after it).
    const earlier = new Date(Date.now() - 60_000);
    utimesSync(join(app, "dist/.wisent-build.json"), earlier, earlier);
    expect(buildState(app).state).toBe("stale");
    expect(wisent(app, ["migrate"]).code).toBe(0);
    const { child, base, output } = await start(app);
    try {
      const lines = output.text.split("\n").filter((l) => /^\s+build {2}/.test(l));
      expect(lines).toEqual([
        expect.stringMatching(
          /^ {7}build {2}dist\/ \(\S+ changed since the last build\) in \d+\.\d\d s$/,
        ),
      ]);
      expect(
        (await fetch(`${base}/posts`, { headers: { accept: "application/json" } })).status,
      ).toBe(200);
      const boom = await fetch(`${base}/boom`, { headers: { accept: "application/json" } });
      expect(boom.status).toBe(500);
      await new Promise((r) => setTimeout(r, 100));
      expect(output.text).toMatch(/boom from the app[\s\S]*src\/app\.ts:\d+:\d+/);
    } finally {
      await stop(child);
    }
    expect(buildState(app).state).toBe("fresh");
  });

  it("a build made with another build of the framework is stale", () => {
    wisent(app, ["build"]);
    const stamp = join(app, "dist/.wisent-build.json");
    const recorded = JSON.parse(readFileSync(stamp, "utf8"));
    writeFileSync(stamp, JSON.stringify({ ...recorded, framework: "0.0.1@1" }));
    expect(buildState(app)).toEqual({ state: "stale", changed: "the wisent package" });
  });

  it("a build whose folders' times a copy did not keep stays fresh; an added or removed source makes it stale", () => {
    wisent(app, ["build"]);
    // A copy (an image's COPY, rsync without -t) that sets folders' times to when it ran.
    const later = new Date(Date.now() + 60_000);
    utimesSync(join(app, "src"), later, later);
    utimesSync(join(app, "migrations"), later, later);
    expect(buildState(app)).toEqual({ state: "fresh" });
    const added = join(app, "src/added.ts");
    const earlier = new Date(Date.now() - 60_000);
    writeFileSync(added, "export const added = 1;\n");
    utimesSync(added, earlier, earlier);
    expect(buildState(app)).toEqual({ state: "stale", changed: "src/added.ts" });
    wisent(app, ["build"]);
    rmSync(added);
    expect(buildState(app)).toEqual({ state: "stale", changed: "src/added.ts" });
    wisent(app, ["build"]);
    expect(buildState(app)).toEqual({ state: "fresh" });
  });

  it("fills the app's compile cache (tmp/), so the first start after a build is warm", async () => {
    rmSync(join(app, "tmp/compile-cache"), { recursive: true, force: true });
    wisent(app, ["build"]);
    const { child, output } = await start(app, { NODE_DEBUG_NATIVE: "COMPILE_CACHE" });
    await stop(child);
    expect(output.text).toMatch(
      /reading cache from \S+\/tmp\/compile-cache\/\S+ for ESM \S+\/dist\/server\.js\.\.\..* success/,
    );
  });

  it("wisent routes loads the built app without Node's fetch (undici) or HTTP/2", () => {
    // Each costs milliseconds a command that serves nothing does not need: undici through a
    // built-in's ES facade (node:http's WebSocket getter), a global Headers read when a module
    // loads, or Hono's Node adapter imported with the app rather than when it listens.
    wisent(app, ["build"]);
    const probe = join(REPO, "packages/wisent/src/cli/test-support/loaded-probe.cjs");
    const result = wisent(app, ["routes"], { NODE_OPTIONS: `--require ${probe}` });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("postsPath");
    expect(result.stderr).toContain("[loaded-probe] undici=false http2=false");
  });

  it("start on a fresh build does not build again", async () => {
    wisent(app, ["build"]);
    const { child, output } = await start(app);
    await stop(child);
    expect(output.text).not.toMatch(/^\s+build {2}/m);
  });

  it("two starts at once on a stale app build once and both serve", async () => {
    rmSync(join(app, "dist"), { recursive: true, force: true });
    const [a, b] = await Promise.all([start(app), start(app)]);
    try {
      for (const s of [a, b]) {
        expect(
          (await fetch(`${s.base}/posts`, { headers: { accept: "application/json" } })).status,
        ).toBe(200);
      }
      const builds = `${a.output.text}${b.output.text}`.match(/^\s+build {2}/gm) ?? [];
      expect(builds).toHaveLength(1);
    } finally {
      await Promise.all([stop(a.child), stop(b.child)]);
    }
  });

  it("an image with only dist/ (no TypeScript sources) migrates and serves", async () => {
    wisent(app, ["build"]);
    const image = join(root, "image");
    rmSync(image, { recursive: true, force: true });
    for (const entry of ["dist", "package.json", "public"]) {
      cpSync(join(app, entry), join(image, entry), { recursive: true });
    }
    symlinkSync(join(REPO, "node_modules"), join(image, "node_modules"), "dir");
    const production = {
      GO_ENV: "production",
      SESSION_SECRET: "a-production-secret-of-at-least-32-characters",
    };
    const migrated = wisent(image, ["migrate"], production);
    expect(migrated.stderr).toBe("");
    expect(migrated.stdout).toMatch(/migrated {2}\d{14}_create_posts/);
    // This test is the TLS proxy: its X-Forwarded-Proto counts only from a trusted peer.
    const { child, base } = await start(image, { ...production, TRUSTED_PROXIES: "127.0.0.1" });
    try {
      const res = await fetch(`${base}/posts`, {
        headers: { accept: "application/json", "x-forwarded-proto": "https" },
      });
      expect(res.status).toBe(200);
    } finally {
      await stop(child);
    }
  });
});
