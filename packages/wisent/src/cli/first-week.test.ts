/**
 * Slow: a developer's first week, on a real app made by `wisent new --dev` in a temp folder
 * (node_modules linked to the repository's): the dev server (a busy port, a syntax error and the
 * recovery, --typecheck), `wisent start` on a busy port, `wisent console` driven through stdin,
 * and the onboarding of `wisent new` (a path, no nesting, git init, relative --dev links, EPIPE).
 * App commands run the built CLI (dist/), as a person's shell would.
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { request } from "node:http";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cleanEnv } from "./test-support/clean-env.js";

const execFileAsync = promisify(execFile);
const REPO = new URL("../../../../", import.meta.url).pathname;
const BIN = join(REPO, "packages/wisent/dist/cli/main.js");
const SLOW = 120_000;

async function wisent(cwd: string, args: string[], options: { input?: string } = {}) {
  const child = spawn(process.execPath, [BIN, ...args], { cwd, env: cleanEnv() });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  child.stdin.end(options.input ?? "");
  const code = await exitCode(child);
  return { code, stdout, stderr };
}

function exitCode(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((done) => child.on("exit", (code) => done(code)));
}

/** Everything `child` writes (stdout and stderr), kept as it arrives. */
function collect(child: ChildProcess): { text: string } {
  const seen = { text: "" };
  const append = (chunk: Buffer) => {
    seen.text += chunk.toString();
  };
  child.stdout?.on("data", append);
  child.stderr?.on("data", append);
  return seen;
}

/**
 * Resolves with the first match of `pattern` in what `collect` has seen of the child's output
 * (from `from` on); rejects if the child exits first.
 */
function waitForOutput(child: ChildProcess, pattern: RegExp, seen: { text: string }, from = 0) {
  return new Promise<RegExpExecArray>((resolveMatch, reject) => {
    const check = () => {
      const match = pattern.exec(seen.text.slice(from));
      if (match) {
        cleanup();
        resolveMatch(match);
      }
    };
    // After collect's listeners, so the chunk is in `seen` when this runs.
    const onData = () => check();
    const onExit = (code: number | null) => {
      cleanup();
      reject(new Error(`exited (${code}) before printing ${pattern}:\n${seen.text}`));
    };
    const cleanup = () => {
      child.stdout?.off("data", onData);
      child.stderr?.off("data", onData);
      child.off("exit", onExit);
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.on("exit", onExit);
    check();
  });
}

function get(url: string, accept = "text/html"): Promise<{ status: number; body: string }> {
  return new Promise((done, reject) => {
    const req = request(url, { agent: false, headers: { accept } }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk) => {
        body += chunk;
      });
      res.on("end", () => done({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

/** A port this process holds (listening), so the CLI finds it taken. */
function holdPort(): Promise<{ server: Server; port: number }> {
  return new Promise((done) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      done({ server, port: typeof address === "object" && address ? address.port : 0 });
    });
  });
}

/** A port nothing listens on (taken and let go). */
async function freePort(): Promise<number> {
  const { server, port } = await holdPort();
  await new Promise((done) => server.close(done));
  return port;
}

let root: string;
let app: string;
beforeAll(async () => {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run "npm run build" first`);
  root = mkdtempSync(join(tmpdir(), "wisent-week-"));
  const made = await wisent(root, ["new", "blog", "--dev", "--skip-install", "--skip-git"]);
  expect(made.stderr).toBe("");
  app = join(root, "blog");
  symlinkSync(join(REPO, "node_modules"), join(app, "node_modules"), "dir");
  const generated = await wisent(app, ["g", "r", "post", "title", "views:int"]);
  expect(generated.code).toBe(0);
  const migrated = await wisent(app, ["migrate"]);
  expect(migrated.code).toBe(0);
}, SLOW);
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("a busy port", { timeout: SLOW }, () => {
  it.each([["dev"], ["start"]])(
    "wisent %s says which port and which process holds it, and exits 1",
    async (command) => {
      const { server, port } = await holdPort();
      try {
        const result = await wisent(app, [command, "--port", String(port)]);
        expect(result.code).toBe(1);
        expect(result.stderr.split("\n").filter(Boolean)).toHaveLength(1);
        expect(result.stderr).toMatch(
          new RegExp(
            `^error: port ${port} is already in use by pid ${process.pid} \\(.+\\): stop it, or choose another port \\(wisent ${command} --port ${port + 1}\\)\\n$`,
          ),
        );
        expect(result.stdout).not.toMatch(/\n\s+at /);
      } finally {
        server.close();
      }
    },
  );
});

describe("wisent dev", { timeout: SLOW }, () => {
  let dev: ChildProcess;
  let port: number;
  let seen: { text: string };
  const template = () => join(app, "src/templates/home/index.tsx");
  let original: string;

  beforeAll(async () => {
    original = readFileSync(template(), "utf8");
    port = await freePort();
    dev = spawn(process.execPath, [BIN, "dev", "--port", String(port), "--typecheck"], {
      cwd: app,
      env: cleanEnv(),
    });
    seen = collect(dev);
    await waitForOutput(dev, /blog \(development\) listening on (\S+)/, seen);
  }, SLOW);
  afterAll(async () => {
    writeFileSync(template(), original);
    dev.kill("SIGINT");
    await exitCode(dev);
  });

  it("serves the app on its port, the app's URL being the dev server's", async () => {
    expect(seen.text).toContain(`blog (development) listening on http://127.0.0.1:${port}`);
    const home = await get(`http://127.0.0.1:${port}/`);
    expect(home.status).toBe(200);
  });

  it("logs one readable line a request, naming the handler", async () => {
    await get(`http://127.0.0.1:${port}/posts`);
    await waitForOutput(dev, /GET \/posts 200 OK in \S+ PostsResource\.List\n/, seen);
  });

  it("answers an unknown path with the routes in development", async () => {
    const page = await get(`http://127.0.0.1:${port}/nope`);
    expect(page.status).toBe(404);
    expect(page.body).toContain("<td><code>/posts/{post_id}/</code></td>");
    expect(page.body).toContain("PostsResource.Show");
  });

  it("shows a syntax error's file, line and message in the browser, and recovers on the next save", async () => {
    const broken = original.replace("</h1>", "</h2>");
    expect(broken).not.toBe(original);
    writeFileSync(template(), broken);
    await waitForOutput(
      dev,
      /error: the app did not start: src\/templates\/home\/index\.tsx:\d+/,
      seen,
    );
    const page = await get(`http://127.0.0.1:${port}/`);
    expect(page.status).toBe(500);
    expect(page.body).toMatch(/<code>src\/templates\/home\/index\.tsx:\d+:\d+<\/code>/);
    expect(page.body).toContain(
      "Unexpected closing &quot;h2&quot; tag does not match opening &quot;h1&quot; tag",
    );
    expect(page.body).toMatch(/<span class="current">\s+\d+\s+.*&lt;\/h2&gt;/);
    const plain = await get(`http://127.0.0.1:${port}/posts.json`, "application/json");
    expect(plain.body).toMatch(/^error: the app did not start: src\/templates\/home\/index\.tsx:/);

    const before = seen.text.length;
    writeFileSync(template(), original);
    await waitForOutput(dev, /restarting the app/, seen, before);
    // Asked while the app restarts: the request waits for it rather than failing.
    const recovered = await get(`http://127.0.0.1:${port}/`);
    expect(recovered.status).toBe(200);
  });

  it("runs tsc --watch beside it with --typecheck, its lines prefixed", async () => {
    await waitForOutput(dev, /\[tsc\] .*Found 0 errors\. Watching for file changes\./, seen);
  });
});

describe("wisent console", { timeout: SLOW }, () => {
  it("has the models, db, app and path helpers, with top-level await, and keeps a history", async () => {
    const input = [
      'await Post.create(db, { title: "Hello", views: 3 })',
      "const all = await Post.all(db)",
      "all.map((p) => p.title).join()",
      "postPath({ post_id: 7 })",
      "paths.postsPath()",
      "app.name",
      "",
    ].join("\n");
    const result = await wisent(app, ["console"], { input });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("Loading development environment (wisent console): app");
    expect(result.stdout).toContain("title: 'Hello'");
    expect(result.stdout).toContain("'Hello'\n");
    expect(result.stdout).toContain("'/posts/7'\n");
    expect(result.stdout).toContain("'/posts'\n");
    expect(result.stdout).toContain("'blog'\n");
    const history = readFileSync(join(app, ".wisent/console_history"), "utf8");
    expect(history).toContain("const all = await Post.all(db)\n");
  });

  it("has --help with examples", async () => {
    const result = await wisent(app, ["console", "--help"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("Usage: wisent console");
    expect(result.stdout).toContain("await Widget.all(db)");
  });
});

describe("wisent new (onboarding)", { timeout: SLOW }, () => {
  it("takes a path, names the app after its last part, runs git init, links --dev relatively", async () => {
    const home = join(root, "home");
    mkdirSync(home);
    const result = await wisent(home, ["new", "code/my-blog", "--dev", "--skip-install"]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const dir = join(home, "code/my-blog");
    const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as {
      name: string;
      dependencies: Record<string, string>;
    };
    expect(pkg.name).toBe("my-blog");
    expect(readFileSync(join(dir, "src/app.ts"), "utf8")).toContain('name: "my-blog"');
    expect(result.stdout).toContain("run  git init");
    expect(result.stdout).toContain("cd code/my-blog");
    expect(existsSync(join(dir, ".git"))).toBe(true);
    for (const spec of Object.values(pkg.dependencies).filter((s) => s.startsWith("file:"))) {
      expect(spec).toMatch(/^file:\.\.\//);
      expect(existsSync(join(resolve(dir, spec.slice(5)), "package.json"))).toBe(true);
    }
  });

  it("skips git with --skip-git", () => {
    expect(existsSync(join(app, ".git"))).toBe(false);
  });

  it("refuses to make an app inside another", async () => {
    const result = await wisent(join(app, "src"), ["new", "inner", "--skip-install"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`error: ${app} is already a Wisent app`);
    expect(existsSync(join(app, "src/inner"))).toBe(false);
  });

  it("refuses a path whose last part is no app name", async () => {
    const result = await wisent(root, ["new", "code/9lives", "--skip-install"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('invalid app name "9lives"');
  });

  it("exits quietly when the reader of its output goes away (EPIPE)", async () => {
    const { stdout, stderr } = await execFileAsync(
      "bash",
      [
        "-c",
        `for i in 1 2 3; do node ${JSON.stringify(BIN)} g r widget name --dry-run | true; echo "rc=\${PIPESTATUS[0]}"; done`,
      ],
      { cwd: app, env: cleanEnv() },
    );
    expect(stderr).toBe("");
    expect(stdout).toBe("rc=0\nrc=0\nrc=0\n");
  });
});
