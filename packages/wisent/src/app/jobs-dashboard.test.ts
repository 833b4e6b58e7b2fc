import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { availableDialects } from "../data/test-support/test-databases.js";
import { defineJob } from "../jobs/define-job.js";
import { claimJobs, failJob, listJobs } from "../jobs/job-store.js";
import { jobsTestDatabase } from "../jobs/test-support/jobs-database.js";
import { testClient } from "../testing/test-client.js";
import { App } from "./app.js";

const available = await availableDialects();
const Digest = defineJob({
  name: "send_digest",
  payload: z.object({ email: z.string() }),
  perform() {},
});

describe("app.jobsDashboard()", () => {
  const t = jobsTestDatabase("sqlite", available.sqlite);
  afterEach(() => {});

  function app(env: string, authorize?: (c: unknown) => boolean) {
    const app = new App({ name: "dash", env });
    app.jobs(t.db);
    app.job(Digest);
    app.jobsDashboard("/__wisent/jobs", authorize ? { authorize } : {});
    return app;
  }

  async function failedJob(): Promise<string> {
    const { id } = await Digest.enqueue(t.db, { email: "b@example.com" });
    await claimJobs(t.db.kysely, {
      queues: [],
      limit: 1,
      token: "w/1",
      now: Date.now(),
      leaseMs: 1000,
    });
    await failJob(
      t.db.kysely,
      id,
      "w/1",
      "Error: SMTP 550 <no such user>\n    at send",
      Date.now(),
      undefined,
    );
    return id;
  }

  it("shows counts, failed jobs with their escaped error and stack, and waiting jobs", async () => {
    const failed = await failedJob();
    const waiting = await Digest.enqueue(t.db, { email: "a@example.com" });
    const res = await testClient(app("development")).get("/__wisent/jobs");
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("1 queued");
    expect(html).toContain("1 failed");
    expect(html).toContain(failed);
    expect(html).toContain(waiting.id);
    expect(html).toContain("Error: SMTP 550 &lt;no such user&gt;");
    expect(html).toContain(`action="/__wisent/jobs/${failed}/retry"`);
  });

  it("retries and discards from its forms, then goes back to the page", async () => {
    const failed = await failedJob();
    const client = testClient(app("development"));
    const retried = await client.post(`/__wisent/jobs/${failed}/retry`);
    expect(retried.status).toBe(303);
    expect(retried.headers.get("location")).toBe("/__wisent/jobs");
    expect((await listJobs(t.db.kysely))[0]).toMatchObject({ state: "queued", attempts: 0 });
    expect((await client.post(`/__wisent/jobs/${failed}/discard`)).status).toBe(303);
    expect(await listJobs(t.db.kysely)).toEqual([]);
  });

  it("is not mounted in production without authorize, and answers 404 to whom it refuses", async () => {
    expect((await testClient(app("production")).get("/__wisent/jobs")).status).toBe(404);
    const guarded = app("production", () => false);
    expect((await testClient(guarded).get("/__wisent/jobs")).status).toBe(404);
    expect((await testClient(app("production", () => true)).get("/__wisent/jobs")).status).toBe(
      200,
    );
  });
});
