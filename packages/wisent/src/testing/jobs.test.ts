import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { App } from "../app/app.js";
import { availableDialects } from "../data/test-support/test-databases.js";
import { Widget } from "../data/test-support/widget.js";
import { defineJob } from "../jobs/define-job.js";
import { listJobs } from "../jobs/job-store.js";
import { jobsTestDatabase } from "../jobs/test-support/jobs-database.js";
import { transaction } from "../middleware/transaction/transaction.js";
import {
  assertEnqueued,
  assertNotEnqueued,
  clearEnqueued,
  enqueuedJobs,
  performEnqueued,
} from "./jobs.js";
import { testClient } from "./test-client.js";

const available = await availableDialects();

const performed: string[] = [];
const Notify = defineJob({
  name: "notify",
  payload: z.object({ title: z.string() }),
  perform({ title }) {
    performed.push(`notify ${title}`);
  },
});
const Announce = defineJob({
  name: "announce",
  payload: z.object({ title: z.string(), loud: z.boolean() }),
  async perform({ title }) {
    performed.push(`announce ${title}`);
    await Notify.enqueue(jobsDb(), { title: `${title} (follow-up)` });
  },
});
let jobsDb: () => import("../data/database.js").Database;

describe.each(["sqlite", "postgres"] as const)("job test helpers on %s", (dialect) => {
  const t = jobsTestDatabase(dialect, available[dialect]);
  const run = it.skipIf(!available[dialect]);
  afterEach(async () => {
    performed.length = 0;
    vi.restoreAllMocks();
    if (available[dialect]) await clearEnqueued();
  });

  function app() {
    jobsDb = () => t.db;
    const app = new App({ name: "helpers", env: "test" });
    app.use(transaction(t.db));
    app.jobs(t.db);
    app.job(Notify).job(Announce);
    app.post("/widgets", async (c) => {
      const body = await c.req.json();
      await Widget.create(await c.tx(), { title: body.title });
      await Announce.enqueue(c.tx(), { title: body.title, loud: true });
      return c.json({}, body.title === "bad" ? 422 : 201);
    });
    return app;
  }

  run("assertEnqueued finds a committed request's job; a 422 leaves none", async () => {
    const client = testClient(app());
    await client.post("/widgets", { json: { title: "bad" } });
    await assertNotEnqueued(Announce);
    await client.post("/widgets", { json: { title: "Gear" } });
    const job = await assertEnqueued(Announce, { title: "Gear" });
    expect(job.payload).toEqual({ title: "Gear", loud: true });
    await assertEnqueued(Announce, (p) => p.loud);
    await expect(assertEnqueued(Announce, { title: "Cog" })).rejects.toThrow(
      'expected a announce job matching {"title":"Cog"} to be enqueued; waiting: announce {"title":"Gear","loud":true}',
    );
    await expect(assertNotEnqueued(Announce)).rejects.toThrow(
      /found \{"title":"Gear","loud":true\}/,
    );
  });

  run("performEnqueued runs the jobs, and the jobs they enqueue, until none waits", async () => {
    const client = testClient(app());
    await client.post("/widgets", { json: { title: "Gear" } });
    expect(await performEnqueued()).toBe(2);
    expect(performed).toEqual(["announce Gear", "notify Gear (follow-up)"]);
    expect(await enqueuedJobs(Notify)).toEqual([]);
    expect(await listJobs(t.db.kysely)).toEqual([]);
  });

  run("sees only the jobs this process enqueued", async () => {
    app();
    // Another test file's job, on the same database: not this process's.
    await t.db.kysely
      .insertInto("wisent_jobs")
      .values({
        id: "0190a6d2-7b3c-7a01-9f3e-5c1d2e3f4a5b",
        name: "notify",
        queue: "default",
        payload: '{"title":"elsewhere"}',
        priority: 0,
        state: "queued",
        attempts: 0,
        max_attempts: 8,
        run_at: 0,
        created_at: 0,
      })
      .execute();
    await assertNotEnqueued(Notify);
    expect(await performEnqueued()).toBe(0);
    expect(performed).toEqual([]);
  });

  run("performEnqueued throws a job's error and leaves it waiting", async () => {
    app();
    const Fails = defineJob({
      name: "fails",
      payload: z.object({}),
      perform() {
        throw new Error("mail server down");
      },
    });
    const other = new App({ name: "other", env: "test" });
    other.jobs(t.db);
    other.job(Fails);
    await Fails.enqueue(t.db, {});
    await expect(performEnqueued()).rejects.toThrow("mail server down");
    await assertEnqueued(Fails);
  });
});
