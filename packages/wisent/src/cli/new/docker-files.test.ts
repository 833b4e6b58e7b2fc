/**
 * The production Dockerfile and .dockerignore `wisent new` writes, for web and API apps on each
 * database: they exist, lint clean (dockerfile-utils' validator: hadolint is on neither npm nor
 * Debian), the image's Node is one the package's `engines` allows, development's files stay out
 * (Docker's own .dockerignore rules, @balena/dockerignore), the image owns what it writes, and
 * what they run is real (wisent's own commands, the health route the app declares). No image is
 * built here (no Docker daemon): e2e/install/dockerfile.test.ts runs the file's steps.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import dockerignore from "@balena/dockerignore";
import { DockerfileParser } from "dockerfile-ast";
import { validate } from "dockerfile-utils";
import semver from "semver";
import { afterAll, describe, expect, it } from "vitest";
import { COMMANDS, runCli } from "../cli.js";
import { memoryIO } from "../io.js";
import { wisentPackage } from "./versions.js";

// A CommonJS module whose types declare an ES default: its factory is the module itself.
const ignore = dockerignore as unknown as typeof dockerignore.default;

const root = mkdtempSync(join(tmpdir(), "wisent-docker-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const CASES = [
  ["web", "sqlite"],
  ["web", "postgres"],
  ["web", "mysql"],
  ["api", "sqlite"],
  ["api", "postgres"],
  ["api", "mysql"],
] as const;

type NewApp = {
  name: string;
  dockerfile: string;
  dockerignore: string;
  read: (path: string) => string;
};
const made = new Map<string, Promise<NewApp>>();

/** The app `wisent new` makes for `kind` and `db` (made once, shared by the tests). */
function newApp(kind: "web" | "api", db: string): Promise<NewApp> {
  const name = `${kind}-${db}`;
  let app = made.get(name);
  if (!app) {
    app = makeApp(name, kind, db);
    made.set(name, app);
  }
  return app;
}

async function makeApp(name: string, kind: "web" | "api", db: string): Promise<NewApp> {
  const { io, stderr } = memoryIO({ cwd: root });
  const flags = kind === "api" ? ["--api"] : [];
  const code = await runCli(["new", name, "--skip-install", "--db", db, ...flags], io);
  expect(stderr()).toBe("");
  expect(code).toBe(0);
  const read = (path: string) => readFileSync(join(root, name, path), "utf8");
  return { name, dockerfile: read("Dockerfile"), dockerignore: read(".dockerignore"), read };
}

/** The instructions of a Dockerfile, continuation lines joined, comments dropped. */
function instructions(dockerfile: string): string[] {
  return dockerfile
    .replace(/\s*\\\n\s*/g, " ")
    .split("\n")
    .filter((line) => line.trim() !== "" && !line.startsWith("#"));
}

describe.each(CASES)("wisent new --%s --db %s", (kind, db) => {
  it("writes a multi-stage production Dockerfile", async () => {
    const { dockerfile } = await newApp(kind, db);
    const lines = instructions(dockerfile);
    const froms = lines.filter((l) => l.startsWith("FROM "));
    expect(froms).toHaveLength(3);
    expect(froms[0]).toMatch(/^FROM node:\$\{NODE_VERSION\}-bookworm-slim AS base$/);
    expect(froms.slice(1)).toEqual(["FROM base AS build", "FROM base"]);
    const build = lines.slice(lines.indexOf("FROM base AS build"), lines.indexOf("FROM base"));
    expect(build).toContain("RUN npm ci");
    // Pruned before the build: npm prune rewrites package-lock.json, a source of the build, and
    // wisent start rebuilds a build older than its sources (which the image's user cannot).
    expect(build).toContain("RUN npm prune --omit=dev && npx wisent build");
    // The folders the app writes, made in the build so that the copy gives them to "node".
    expect(build).toContain("RUN mkdir -p storage tmp db");
    const final = lines.slice(lines.indexOf("FROM base"));
    expect(final).toContain("COPY --from=build --chown=node:node /app /app");
    expect(final).toContain("USER node");
    expect(final).toContain(
      "ENV GO_ENV=production NODE_ENV=production HOST=0.0.0.0 PORT=3000 NODE_OPTIONS=--max-semi-space-size=8",
    );
    // Create the database when missing and migrate it (locked against other replicas), then serve.
    expect(final.at(-1)).toBe(
      'CMD ["sh", "-c", "node_modules/.bin/wisent db prepare && exec node_modules/.bin/wisent start"]',
    );
    // The server runs as the non-root user: nothing after USER switches back.
    expect(final.slice(final.indexOf("USER node") + 1).some((l) => l.startsWith("USER"))).toBe(
      false,
    );
  });

  it("probes the health route the app declares", async () => {
    const { dockerfile, read } = await newApp(kind, db);
    const declared = /app\.healthCheck\("([^"]+)"/.exec(read("src/app.ts"))?.[1];
    expect(declared).toBe("/up");
    const healthcheck = instructions(dockerfile).find((l) => l.startsWith("HEALTHCHECK"));
    expect(healthcheck).toContain(
      `CMD ["node", "-e", "fetch(\`http://127.0.0.1:\${process.env.PORT}${declared}\`)`,
    );
  });

  it("keeps the database where it lives: a volume for SQLite, DATABASE_URL for a server", async () => {
    const { name, dockerfile } = await newApp(kind, db);
    const lines = instructions(dockerfile);
    // Uploads outlive the container on a volume of their own.
    expect(dockerfile).toContain(`-v ${name}-storage:/app/storage`);
    if (db === "sqlite") {
      expect(lines).toContain("VOLUME /app/db");
      expect(dockerfile).toMatch(/db\/ must be a writable volume/);
      expect(dockerfile).toContain(`-v ${name}-db:/app/db`);
    } else {
      expect(lines.some((l) => l.startsWith("VOLUME"))).toBe(false);
      expect(dockerfile).toContain(`-e DATABASE_URL=${db}://`);
    }
    // Only a web app has a session cookie to seal.
    expect(dockerfile.includes("SESSION_SECRET")).toBe(kind === "web");
  });

  it("writes a .dockerignore that keeps development's files and secrets out and the sources in", async () => {
    const { dockerignore } = await newApp(kind, db);
    // Docker's own matching rules (patterns from the context's root, `!` exceptions, last wins).
    const rules = ignore().add(dockerignore);
    for (const out of [
      ".git/HEAD",
      "node_modules/hono/package.json",
      "dist/server.js",
      "coverage/index.html",
      "db/development.sqlite",
      "db/development.sqlite-wal",
      "db/production.sqlite.prepare-lock",
      "storage/0193a4c2-7d1e-7cc0-9d3a-6a1f3b5c2e11.png",
      "storage/variants/0193a4c2.png/thumb.webp",
      "tmp/local_secret.txt",
      ".env",
      ".env.production",
      ".wisent/console_history",
      "npm-debug.log",
    ])
      expect(rules.ignores(out), out).toBe(true);
    for (const kept of [
      "src/app.ts",
      "src/storage/helpers.ts",
      "migrations/.gitkeep",
      "db/seeds.ts",
      "package.json",
      "package-lock.json",
      ".env.example",
      "tsconfig.json",
    ])
      expect(rules.ignores(kept), kept).toBe(false);
  });

  it("lints clean", async () => {
    const { dockerfile } = await newApp(kind, db);
    expect(validate(dockerfile)).toEqual([]);
    // The linter is awake: a misspelt instruction is reported.
    expect(validate(dockerfile.replace("\nWORKDIR /app", "\nWORKDIRR /app"))).not.toEqual([]);
  });

  it("runs a Node that the wisent package's engines allow, and the app says the same", async () => {
    const { dockerfile, read } = await newApp(kind, db);
    const [arg] = DockerfileParser.parse(dockerfile).getInitialARGs();
    const property = arg?.getProperty();
    expect(property?.getName()).toBe("NODE_VERSION");
    const image = `${property?.getValue()}.x`;
    const engines = wisentPackage().engines.node;
    // Every Node the tag can pull (node:24 is the newest 24.x) satisfies the package's engines.
    expect(semver.subset(image, engines), `node:${image} within engines ${engines}`).toBe(true);
    const app = JSON.parse(read("package.json")) as { engines: { node: string } };
    expect(app.engines.node).toBe(engines);
  });
});

it("names only wisent commands that exist (build, db, start), in every kind of app", async () => {
  const named = new Set<string>();
  for (const [kind, db] of CASES) {
    const { dockerfile } = await newApp(kind, db);
    for (const m of dockerfile.matchAll(/wisent (\w+)/g)) named.add(m[1]!);
  }
  expect(named).toEqual(new Set(["build", "db", "start"]));
  const commands = COMMANDS.map((c) => c.words[0]);
  for (const command of named) expect(commands, `wisent ${command}`).toContain(command);
});
