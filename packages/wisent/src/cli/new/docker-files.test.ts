/**
 * The production Dockerfile and .dockerignore `wisent new` writes, for web and API apps on each
 * database: they exist, and what they run is real (wisent's own commands, the health route the
 * app declares). No image is built here (no registry for base images is reachable).
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { COMMANDS, runCli } from "../cli.js";
import { memoryIO } from "../io.js";

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
    const final = lines.slice(lines.indexOf("FROM base"));
    expect(final).toContain("COPY --from=build /app /app");
    expect(final).toContain("USER node");
    // Uploads' temporary files go to tmp/uploads/: the user the server runs as writes there.
    expect(final.indexOf("RUN mkdir -p tmp && chown node:node tmp")).toBeGreaterThan(-1);
    expect(final.indexOf("RUN mkdir -p tmp && chown node:node tmp")).toBeLessThan(
      final.indexOf("USER node"),
    );
    expect(final).toContain("ENV GO_ENV=production NODE_ENV=production HOST=0.0.0.0 PORT=3000");
    expect(final.at(-1)).toBe(
      'CMD ["sh", "-c", "node_modules/.bin/wisent migrate && exec node_modules/.bin/wisent start"]',
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
    if (db === "sqlite") {
      expect(lines).toContain("VOLUME /app/db");
      expect(lines).toContain("RUN mkdir -p db && chown node:node db");
      expect(dockerfile).toMatch(/db\/ must be a writable volume/);
      expect(dockerfile).toContain(`-v ${name}-db:/app/db`);
    } else {
      expect(lines.some((l) => l.startsWith("VOLUME"))).toBe(false);
      expect(dockerfile).toContain(`-e DATABASE_URL=${db}://`);
    }
    // Only a web app has a session cookie to seal.
    expect(dockerfile.includes("SESSION_SECRET")).toBe(kind === "web");
  });

  it("writes a .dockerignore that keeps local state out and the sources in", async () => {
    const { dockerignore } = await newApp(kind, db);
    const patterns = dockerignore.split("\n").filter((l) => l !== "" && !l.startsWith("#"));
    for (const kept of [".git", "node_modules", "dist", "db/*.sqlite*", ".env", "tmp"])
      expect(patterns).toContain(kept);
    for (const needed of ["src", "migrations", "public", "package.json", "package-lock.json"])
      expect(patterns.some((p) => p.startsWith(needed))).toBe(false);
  });
});

it("names only wisent commands that exist (build, migrate, start), in every kind of app", async () => {
  const named = new Set<string>();
  for (const [kind, db] of CASES) {
    const { dockerfile } = await newApp(kind, db);
    for (const m of dockerfile.matchAll(/wisent (\w+)/g)) named.add(m[1]!);
  }
  expect(named).toEqual(new Set(["build", "migrate", "start"]));
  const commands = COMMANDS.map((c) => c.words[0]);
  for (const command of named) expect(commands, `wisent ${command}`).toContain(command);
});
