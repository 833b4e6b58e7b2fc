/**
 * Slow: real apps made by `wisent new --dev` in a temp folder, then checked the way their owner
 * would (tsc, biome, vitest, routes, migrate, start). One web app and one API app are shared by
 * all tests of this file; their node_modules is a link to the repository's (the same packages a
 * `--dev` install links), so nothing is downloaded. App commands run the built CLI (dist/).
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "./cli.js";
import { memoryIO } from "./io.js";
import { cleanEnv } from "./test-support/clean-env.js";

const run = promisify(execFile);
const REPO = new URL("../../../../", import.meta.url).pathname;
const BIN = join(REPO, "packages/wisent/dist/cli/main.js");
const SLOW = 120_000;

async function inApp(dir: string, file: string, args: string[], env: Record<string, string> = {}) {
  try {
    const { stdout, stderr } = await run(process.execPath, [file, ...args], {
      cwd: dir,
      env: cleanEnv(env),
      maxBuffer: 10 * 1024 * 1024,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? 1, stdout: e.stdout ?? "", stderr: e.stderr ?? "" };
  }
}

const tool = {
  tsc: join(REPO, "node_modules/typescript/bin/tsc"),
  biome: join(REPO, "node_modules/@biomejs/biome/bin/biome"),
  vitest: join(REPO, "node_modules/vitest/vitest.mjs"),
};

async function newApp(root: string, name: string, flags: string[]): Promise<string> {
  const { io, stderr } = memoryIO({ cwd: root });
  const code = await runCli(["new", name, "--dev", "--skip-install", ...flags], io);
  expect(stderr()).toBe("");
  expect(code).toBe(0);
  const dir = join(root, name);
  symlinkSync(join(REPO, "node_modules"), join(dir, "node_modules"), "dir");
  return dir;
}

/** Resolves with the first match of `pattern` in the child's output (stdout and stderr); rejects if it exits first. */
function waitForOutput(
  child: ChildProcess,
  pattern: RegExp,
  from = { text: "" },
): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const match = pattern.exec(from.text);
      if (match) {
        cleanup();
        resolve(match);
      }
    };
    const onData = (chunk: Buffer) => {
      from.text += chunk.toString();
      check();
    };
    const onExit = (code: number | null) => {
      cleanup();
      reject(new Error(`exited (${code}) before printing ${pattern}:\n${from.text}`));
    };
    const cleanup = () => {
      child.stdout?.off("data", onData);
      child.stderr?.off("data", onData);
      child.off("exit", onExit);
    };
    // Both streams: a worker's death is reported on stderr, the new worker on stdout.
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.on("exit", onExit);
    check();
  });
}

function exitCode(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.on("exit", (code) => resolve(code)));
}

let root: string;
beforeAll(() => {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run "npm run build" first`);
  root = mkdtempSync(join(tmpdir(), "wisent-new-"));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("wisent new shop --dev (web)", { timeout: SLOW }, () => {
  let app: string;
  beforeAll(async () => {
    app = await newApp(root, "shop", []);
  }, SLOW);

  it("type-checks", async () => {
    const result = await inApp(app, tool.tsc, ["--noEmit"]);
    expect(result.stdout + result.stderr).toBe("");
    expect(result.code).toBe(0);
  });

  it("lints clean", async () => {
    const result = await inApp(app, tool.biome, ["check", "--error-on-warnings", "."]);
    const output = result.stdout + result.stderr;
    // Biome prints its summary ("Checked N files ...") on stderr; warnings would fail the run.
    expect(result.code, output).toBe(0);
    expect(output).not.toMatch(/Found \d+ (warning|error|info)/);
  });

  it("passes its own tests", async () => {
    const result = await inApp(app, tool.vitest, ["run"]);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toMatch(/Tests\s+2 passed/);
  });

  it("prints its routes without touching the database", async () => {
    const table = await inApp(app, BIN, ["routes"]);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toBe(
      [
        "METHOD | HOST                  | PATH      | ALIASES | NAME        | HANDLER",
        "------ | ----                  | ----      | ------- | ----        | -------",
        "GET    | http://127.0.0.1:3000 | /up/      |         | upPath      | healthCheck",
        "GET    | http://127.0.0.1:3000 | /         |         | rootPath    | HomeHandler",
        "GET    | http://127.0.0.1:3000 | /openapi/ |         | openapiPath | OpenApiDocument",
        "",
      ].join("\n"),
    );
    const json = await inApp(app, BIN, ["routes", "--json"]);
    expect(JSON.parse(json.stdout)).toEqual([
      {
        method: "GET",
        host: "http://127.0.0.1:3000",
        path: "/up/",
        aliases: [],
        name: "upPath",
        handler: "healthCheck",
      },
      {
        method: "GET",
        host: "http://127.0.0.1:3000",
        path: "/",
        aliases: [],
        name: "rootPath",
        handler: "HomeHandler",
      },
      {
        method: "GET",
        host: "http://127.0.0.1:3000",
        path: "/openapi/",
        aliases: [],
        name: "openapiPath",
        handler: "OpenApiDocument",
      },
    ]);
    expect(existsSync(join(app, "db", "development.sqlite"))).toBe(false);
  });

  it("routes --check passes, and fails naming a route an earlier one swallows", async () => {
    const ok = await inApp(app, BIN, ["routes", "--check"]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toBe("3 routes, none shadowed by an earlier route\n");
    const file = join(app, "src/app.ts");
    const source = readFileSync(file, "utf8");
    try {
      writeFileSync(
        file,
        source.replace(
          'app.serveFiles("/", "public");',
          'app.get("/{page}", (c) => c.text("page"));\napp.get("/about", (c) => c.text("about"));\napp.serveFiles("/", "public");',
        ),
      );
      const lines = source.split("\n");
      const at = lines.findIndex((line) => line.startsWith("app.serveFiles")) + 1;
      const failed = await inApp(app, BIN, ["routes", "--check"]);
      expect(failed.code).toBe(1);
      expect(failed.stderr).toBe(
        "a route can never match:\n" +
          `- GET /about/ (aboutPath, anonymous) declared at src/app.ts:${at + 1}:5 can never match: ` +
          `GET /{page}/ (unnamedPath, anonymous) declared at src/app.ts:${at}:5 is declared earlier and ` +
          "matches every request it would; declare it before GET /{page}/\n",
      );
      // The table still prints (it shows the problem); the error follows on stderr.
      const table = await inApp(app, BIN, ["routes"]);
      expect(table.code).toBe(0);
      expect(table.stdout).toContain("/about/");
      expect(table.stderr).toContain("GET /about/ (aboutPath, anonymous)");
    } finally {
      writeFileSync(file, source);
    }
  });

  it("migrates up, reports status and migrates down with a hand-written migration", async () => {
    writeFileSync(
      join(app, "migrations", "20240101000000_create_notes.ts"),
      [
        'import { createTable, dropTable } from "wisent";',
        "",
        "type Db = Parameters<typeof createTable>[0];",
        "",
        "export async function up(db: Db): Promise<void> {",
        '  await createTable(db, "notes", (t) => {',
        '    t.uuid("id").primary();',
        '    t.string("body");',
        "    t.timestamps();",
        "  });",
        "}",
        "",
        "export async function down(db: Db): Promise<void> {",
        '  await dropTable(db, "notes");',
        "}",
        "",
      ].join("\n"),
    );
    const before = await inApp(app, BIN, ["migrate", "status"]);
    expect(before.stdout).toBe("down  20240101000000_create_notes\n");
    const up = await inApp(app, BIN, ["migrate"]);
    expect(up.code, up.stderr).toBe(0);
    expect(up.stdout).toBe("migrated  20240101000000_create_notes\n");
    const after = await inApp(app, BIN, ["migrate", "status"]);
    expect(after.stdout).toMatch(/^up {4}20240101000000_create_notes {2}\d{4}-\d\d-\d\dT/);
    expect(existsSync(join(app, "db", "development.sqlite"))).toBe(true);
    const again = await inApp(app, BIN, ["migrate", "up"]);
    expect(again.stdout).toBe("nothing to migrate (database sqlite:db/development.sqlite)\n");
    const down = await inApp(app, BIN, ["migrate", "down", "--step", "1"]);
    expect(down.stdout).toBe("reverted  20240101000000_create_notes\n");
    const test = await inApp(app, BIN, ["migrate"], { GO_ENV: "test" });
    expect(test.code).toBe(0);
    expect(existsSync(join(app, "db", "test.sqlite"))).toBe(true);
    const bad = await inApp(app, BIN, ["migrate", "down", "--step", "zero"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr.split("\n")[0]).toBe(
      'error: --step must be a whole number at least 1, got "zero"',
    );
    // Migrated again: the development server answers a pending migration with its page.
    expect((await inApp(app, BIN, ["migrate"])).code).toBe(0);
  });

  it("dev serves / and restarts when a source file changes", async () => {
    // Its own process group, so the watcher and the server it runs go down together.
    const child = spawn(process.execPath, [BIN, "dev"], {
      cwd: app,
      env: cleanEnv({ PORT: "0" }),
      detached: true,
    });
    const output = { text: "" };
    try {
      const [, first] = await waitForOutput(
        child,
        /listening on (http:\/\/127\.0\.0\.1:\d+)/,
        output,
      );
      expect((await fetch(`${first}/`)).status).toBe(200);
      const home = join(app, "src/actions/home.ts");
      writeFileSync(home, `${readFileSync(home, "utf8")}\n// touched by the dev test\n`);
      const [, second] = await waitForOutput(
        child,
        /restarting the app[\s\S]*listening on (http:\/\/127\.0\.0\.1:\d+)/,
        output,
      );
      expect((await fetch(`${second}/`)).status).toBe(200);
    } finally {
      if (child.pid) process.kill(-child.pid, "SIGKILL");
    }
  });

  it("start serves / on 127.0.0.1 with a strict CSP, then drains and exits 0 on SIGTERM", async () => {
    const child = spawn(process.execPath, [BIN, "start", "--port", "0"], {
      cwd: app,
      env: cleanEnv(),
    });
    try {
      const [, url] = await waitForOutput(child, /listening on (http:\/\/127\.0\.0\.1:\d+)/);
      const res = await fetch(`${url}/`);
      expect(res.status).toBe(200);
      const csp = res.headers.get("content-security-policy") ?? "";
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("style-src 'self'");
      expect(csp).not.toContain("unsafe-inline");
      const html = await res.text();
      expect(html).toContain("<h1>Welcome to Shop!</h1>");
      expect(html).not.toMatch(/<script(?![^>]*\ssrc=)|<style|\sstyle=/);
      expect((await fetch(`${url}/assets/application.js`)).status).toBe(200);
      child.kill("SIGTERM");
      expect(await exitCode(child)).toBe(0);
    } finally {
      child.kill("SIGKILL");
    }
  });

  it("start refuses to serve, naming the database, when its database does not answer", async () => {
    // A file where the SQLite database's folder should be: its App's listen() checks it first.
    const blocker = join(app, "tmp-not-a-folder");
    writeFileSync(blocker, "");
    const child = spawn(process.execPath, [BIN, "start", "--port", "0"], {
      cwd: app,
      env: cleanEnv({ DATABASE_URL: `sqlite:${join(blocker, "app.sqlite")}` }),
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    try {
      expect(await exitCode(child)).not.toBe(0);
      expect(output).toContain(`cannot connect to database sqlite:${blocker}/app.sqlite`);
      expect(output).not.toContain("listening on");
    } finally {
      child.kill("SIGKILL");
      rmSync(blocker, { force: true });
    }
  });

  it("runs as its Dockerfile says: built, migrated, started, healthy over plain HTTP, unlogged", async () => {
    // The Dockerfile's own instructions (continuation lines joined); no image is built.
    const dockerfile = readFileSync(join(app, "Dockerfile"), "utf8").replace(/\s*\\\n\s*/g, " ");
    const instruction = (re: RegExp) => re.exec(dockerfile)?.[1] ?? "";
    // (npm prune, before it, would prune the repository's node_modules this app links to.)
    const build = instruction(/^RUN npm prune --omit=dev && (npx wisent build)$/m);
    const env = Object.fromEntries(
      instruction(/^ENV (.*)$/m)
        .split(" ")
        .map((pair) => [pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1)]),
    );
    const cmd = JSON.parse(instruction(/^CMD (\[.*\])$/m)) as string[];
    const probe = JSON.parse(instruction(/^HEALTHCHECK .* CMD (\[.*\])$/m)) as string[];
    expect(build).toBe("npx wisent build");
    expect(env).toEqual({
      GO_ENV: "production",
      NODE_ENV: "production",
      HOST: "0.0.0.0",
      PORT: "3000",
      NODE_OPTIONS: "--max-semi-space-size=8",
    });
    expect(probe.slice(0, 2)).toEqual(["node", "-e"]);
    const healthcheck = (port: string) =>
      new Promise<number | null>((resolve) =>
        execFile(process.execPath, probe.slice(1), { env: cleanEnv({ PORT: port }) }, (error) =>
          resolve(error ? (error.code as number) : 0),
        ),
      );

    const built = await run("sh", ["-c", build], { cwd: app, env: cleanEnv() });
    expect(built.stderr).toBe("");
    expect(existsSync(join(app, "dist", "server.js"))).toBe(true);
    const data = mkdtempSync(join(tmpdir(), "wisent-up-"));
    const child = spawn(cmd[0]!, cmd.slice(1), {
      cwd: app,
      env: cleanEnv({
        ...env,
        PORT: "0",
        SESSION_SECRET: "a-production-secret-of-at-least-32-characters",
        DATABASE_URL: `sqlite:${join(data, "production.sqlite")}`,
        // This test is the TLS proxy: its X-Forwarded-Proto counts only from a trusted peer.
        TRUSTED_PROXIES: "127.0.0.1",
      }),
    });
    const output = { text: "" };
    let printed = "";
    child.stdout.on("data", (chunk: Buffer) => (printed += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (printed += chunk.toString()));
    try {
      const [, port] = await waitForOutput(child, /listening on http:\/\/0\.0\.0\.0:(\d+)/, output);
      const url = `http://127.0.0.1:${port}`;
      const up = await fetch(`${url}/up`, { redirect: "manual" });
      expect(up.status).toBe(200);
      expect(up.headers.get("content-security-policy")).toContain("default-src 'self'");
      expect((await fetch(`${url}/`, { redirect: "manual" })).status).toBe(301);
      const proxied = await fetch(`${url}/`, { headers: { "x-forwarded-proto": "https" } });
      expect(proxied.status).toBe(200);
      expect(await healthcheck(port!)).toBe(0);
      // The shell exec'd the server, so docker stop's SIGTERM reaches it: it drains and exits 0.
      child.kill("SIGTERM");
      expect(await exitCode(child)).toBe(0);
      expect(printed).toContain('"msg":"GET / 200"');
      expect(printed).not.toContain("/up");
      expect(await healthcheck(port!)).toBe(1);
    } finally {
      child.kill("SIGKILL");
      rmSync(data, { recursive: true, force: true });
      rmSync(join(app, "dist"), { recursive: true, force: true });
    }
  });

  it("start --workers 2 shares the port, replaces a dead worker and exits 0 on SIGTERM", async () => {
    const child = spawn(process.execPath, [BIN, "start", "--port", "0", "--workers", "2"], {
      cwd: app,
      env: cleanEnv(),
    });
    const output = { text: "" };
    try {
      const ready = await waitForOutput(
        child,
        /done {2}2 workers \(pids (\d+), (\d+)\) on port (\d+)/,
        output,
      );
      const url = `http://127.0.0.1:${ready[3]}/`;
      expect((await fetch(url)).status).toBe(200);
      process.kill(Number(ready[1]), "SIGKILL");
      const replaced = await waitForOutput(
        child,
        new RegExp(`worker ${ready[1]} died[\\s\\S]*done {2}2 workers \\(pids (\\d+), (\\d+)\\)`),
        output,
      );
      expect([replaced[1], replaced[2]]).toContain(ready[2]);
      expect([replaced[1], replaced[2]]).not.toContain(ready[1]);
      expect((await fetch(url)).status).toBe(200);
      child.kill("SIGTERM");
      expect(await exitCode(child)).toBe(0);
    } finally {
      child.kill("SIGKILL");
    }
  });

  it("generates a resource with declared member and collection routes that type-checks and routes", async () => {
    const made = await inApp(app, BIN, [
      "g",
      "r",
      "post",
      "title",
      "--member",
      "publish:post",
      "--collection",
      "search:get",
    ]);
    expect(made.code, made.stderr).toBe(0);
    const profile = await inApp(app, BIN, ["g", "r", "profile", "--singular"]);
    expect(profile.code, profile.stderr).toBe(0);
    const tsc = await inApp(app, tool.tsc, ["--noEmit"]);
    expect(tsc.stdout + tsc.stderr).toBe("");
    const json = await inApp(app, BIN, ["routes", "--json"]);
    const rows = (
      JSON.parse(json.stdout) as { method: string; path: string; name: string; handler: string }[]
    )
      .filter((r) => r.path.startsWith("/posts"))
      .map((r) => `${r.method} ${r.path} ${r.name} ${r.handler}`);
    expect(rows).toEqual([
      "GET /posts/ postsPath PostsResource.List",
      "POST /posts/ postsPath PostsResource.Create",
      "GET /posts/search/ searchPostsPath PostsResource.Search",
      "GET /posts/new/ newPostsPath PostsResource.New",
      "GET /posts/{post_id}/ postPath PostsResource.Show",
      "PUT /posts/{post_id}/ postPath PostsResource.Update",
      "DELETE /posts/{post_id}/ postPath PostsResource.Destroy",
      "GET /posts/{post_id}/edit/ editPostPath PostsResource.Edit",
      "POST /posts/{post_id}/publish/ publishPostPath PostsResource.Publish",
    ]);
    const profileRows = (
      JSON.parse(json.stdout) as { method: string; path: string; name: string }[]
    )
      .filter((r) => r.path.startsWith("/profile"))
      .map((r) => `${r.method} ${r.path} ${r.name}`);
    expect(profileRows).toEqual([
      "POST /profile/ profilePath",
      "GET /profile/new/ newProfilePath",
      "GET /profile/ profilePath",
      "PUT /profile/ profilePath",
      "DELETE /profile/ profilePath",
      "GET /profile/edit/ editProfilePath",
    ]);
    expect((await inApp(app, BIN, ["routes", "--check"])).code).toBe(0);
    // destroy finds the singular resource by the name it was generated with.
    const destroyed = await inApp(app, BIN, ["d", "r", "profile", "--yes"]);
    expect(destroyed.code, destroyed.stderr).toBe(0);
    expect(readFileSync(join(app, "src/app.ts"), "utf8")).not.toContain("singleton(");
  });
});

describe("wisent new inventory --dev --api", { timeout: SLOW }, () => {
  let app: string;
  beforeAll(async () => {
    app = await newApp(root, "inventory", ["--api"]);
  }, SLOW);

  it("type-checks, lints clean and passes its own tests", async () => {
    const tsc = await inApp(app, tool.tsc, ["--noEmit"]);
    expect(tsc.stdout + tsc.stderr).toBe("");
    const biome = await inApp(app, tool.biome, ["check", "--error-on-warnings", "."]);
    expect(biome.code, biome.stdout + biome.stderr).toBe(0);
    const vitest = await inApp(app, tool.vitest, ["run"]);
    expect(vitest.code, vitest.stdout + vitest.stderr).toBe(0);
    expect(vitest.stdout).toMatch(/Tests\s+2 passed/);
  });

  it("prints its routes", async () => {
    const json = await inApp(app, BIN, ["routes", "--json"]);
    expect(JSON.parse(json.stdout)).toEqual([
      {
        method: "GET",
        host: "http://127.0.0.1:3000",
        path: "/up/",
        aliases: [],
        name: "upPath",
        handler: "healthCheck",
      },
      {
        method: "GET",
        host: "http://127.0.0.1:3000",
        path: "/",
        aliases: [],
        name: "rootPath",
        handler: "HomeHandler",
      },
      {
        method: "GET",
        host: "http://127.0.0.1:3000",
        path: "/openapi/",
        aliases: [],
        name: "openapiPath",
        handler: "OpenApiDocument",
      },
    ]);
  });
});
