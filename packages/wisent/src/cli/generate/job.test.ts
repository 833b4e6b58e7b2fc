/**
 * Slow: `wisent generate job` in a real app made by `wisent new --dev`: the job and its test
 * type-check, lint clean and pass; `wisent jobs work` performs a waiting job and stops on SIGTERM;
 * `wisent destroy job -y` removes exactly what generate wrote but the jobs tables' migration and
 * `app.jobs(db)`, which other jobs share.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { openDatabase } from "../../data/database.js";
import { defineJob } from "../../jobs/define-job.js";
import { listJobs } from "../../jobs/job-store.js";
import { cleanEnv } from "../test-support/clean-env.js";
import { tree } from "./test-support/fixture-app.js";
import {
  expectTypeChecksAndLints,
  migrateAndTest,
  newApp,
  SLOW,
  wisent,
} from "./test-support/generated-app.js";

const BIN = new URL("../../../dist/cli/main.js", import.meta.url).pathname;

let root: string;
let app: string;
let before: Record<string, string>;
beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "wisent-job-"));
  app = await newApp(root, "post");
  before = tree(app);
  await wisent(app, ["g", "job", "send_digest", "email:string", "count:int"]);
}, SLOW);
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("wisent generate job", { timeout: SLOW }, () => {
  it("writes the job, its test and the jobs tables' migration, registered in src/app.ts", () => {
    const job = readFileSync(join(app, "src/jobs/send_digest.ts"), "utf8");
    expect(job).toContain('name: "send_digest"');
    expect(job).toMatch(/email: z\.string\(\),\s+count: z\.number\(\)\.int\(\),/);
    expect(existsSync(join(app, "src/jobs/send_digest.test.ts"))).toBe(true);
    const source = readFileSync(join(app, "src/app.ts"), "utf8");
    expect(source).toContain('import { SendDigest } from "./jobs/send_digest.js";');
    expect(source).toMatch(/app\.jobs\(db\);.*\napp\.job\(SendDigest\);\n/);
    const migrations = Object.keys(tree(app)).filter((p) => p.startsWith("migrations/"));
    expect(migrations.filter((p) => /_create_wisent_jobs\.ts$/.test(p))).toHaveLength(1);
  });

  it("a second job shares the migration and app.jobs(db)", async () => {
    await wisent(app, ["g", "job", "resize_image", "image_id:uuid"]);
    const source = readFileSync(join(app, "src/app.ts"), "utf8");
    expect(source.match(/app\.jobs\(db\)/g)).toHaveLength(1);
    expect(source).toMatch(/app\.job\(SendDigest\);\napp\.job\(ResizeImage\);\n/);
    const migrations = Object.keys(tree(app)).filter((p) => /_create_wisent_jobs\.ts$/.test(p));
    expect(migrations).toHaveLength(1);
    await wisent(app, ["d", "job", "resize_image", "-y"]);
    expect(readFileSync(join(app, "src/app.ts"), "utf8")).not.toContain("ResizeImage");
  });

  it("type-checks, lints clean and passes its generated test", async () => {
    await expectTypeChecksAndLints(app);
    const result = await migrateAndTest(app);
    expect(result.code, result.output).toBe(0);
    expect(result.output).toMatch(/send_digest\.test\.ts/);
  });

  it("wisent jobs work performs a waiting job, then stops on SIGTERM", async () => {
    const db = await openDatabase(`sqlite:${join(app, "db/test.sqlite")}`);
    const Digest = defineJob({
      name: "send_digest",
      payload: z.object({ email: z.string(), count: z.number() }),
      perform() {},
    });
    const { id } = await Digest.enqueue(db, { email: "ada@example.com", count: 3 });
    const child = spawn(process.execPath, [BIN, "jobs", "work", "--concurrency", "2"], {
      cwd: app,
      env: cleanEnv({ GO_ENV: "test" }),
    });
    let output = "";
    child.stdout.on("data", (chunk) => {
      output += chunk;
    });
    child.stderr.on("data", (chunk) => {
      output += chunk;
    });
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    try {
      while (!output.includes(`send_digest ${id} (attempt 1)`) && child.exitCode === null) {
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(output).toMatch(
        /working: 2 jobs \(wisent.deliver_mail, send_digest\), queues all, concurrency 2/,
      );
      expect(output).toContain("ada@example.com");
      while ((await listJobs(db.kysely)).length > 0) await new Promise((r) => setTimeout(r, 50));
    } finally {
      child.kill("SIGTERM");
    }
    expect(await exited).toBe(0);
    expect(output).toContain("SIGTERM: taking no more jobs");
    expect(output).toContain("stopped: 0 finished, 0 given back to the queue");
    await db.close();
  });

  it("wisent start --jobs serves and performs jobs in one process", async () => {
    const db = await openDatabase(`sqlite:${join(app, "db/test.sqlite")}`);
    const Digest = defineJob({
      name: "send_digest",
      payload: z.object({ email: z.string(), count: z.number() }),
      perform() {},
    });
    const { id } = await Digest.enqueue(db, { email: "bob@example.com", count: 1 });
    const child = spawn(process.execPath, [BIN, "start", "--jobs", "--port", "0"], {
      cwd: app,
      env: cleanEnv({ GO_ENV: "test" }),
    });
    let output = "";
    child.stdout.on("data", (chunk) => {
      output += chunk;
    });
    child.stderr.on("data", (chunk) => {
      output += chunk;
    });
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    try {
      // The worker starts with the server: its job's line may come before "listening".
      const listening = /listening on http:\/\/127\.0\.0\.1:\d+/;
      while (
        !(output.includes(`send_digest ${id} (attempt 1)`) && listening.test(output)) &&
        child.exitCode === null
      ) {
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(output).toMatch(listening);
      expect(output).toContain(`send_digest ${id} (attempt 1)`);
      while ((await listJobs(db.kysely)).length > 0) await new Promise((r) => setTimeout(r, 50));
    } finally {
      child.kill("SIGTERM");
    }
    expect(await exited).toBe(0);
    await db.close();
  });

  it("wisent destroy job -y removes the job and its lines, keeping the jobs tables", async () => {
    await wisent(app, ["d", "job", "send_digest", "-y"]);
    expect(existsSync(join(app, "src/jobs"))).toBe(false);
    const after = tree(app);
    const changed = Object.keys({ ...before, ...after }).filter(
      (path) => before[path] !== after[path] && !/^(db\/|dist\/|tmp\/)/.test(path),
    );
    expect(changed.sort()).toEqual(
      ["src/app.ts", Object.keys(after).find((p) => /_create_wisent_jobs\.ts$/.test(p))].sort(),
    );
    const source = after["src/app.ts"]!;
    expect(source.replace(/^app\.jobs\(db\);.*\n/m, "")).toBe(before["src/app.ts"]);
  });
});
