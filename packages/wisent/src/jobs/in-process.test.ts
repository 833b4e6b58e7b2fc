import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { App } from "../app/app.js";
import { availableDialects } from "../data/test-support/test-databases.js";
import { defineJob } from "./define-job.js";
import { listJobs } from "./job-store.js";
import { jobsTestDatabase } from "./test-support/jobs-database.js";

const available = await availableDialects();

describe("app.listen() with WISENT_JOBS=1 (wisent dev, wisent start --jobs)", () => {
  const t = jobsTestDatabase("sqlite", available.sqlite);
  afterEach(() => vi.unstubAllEnvs());

  async function serve(performed: string[], jobsInProcess: boolean) {
    if (jobsInProcess) vi.stubEnv("WISENT_JOBS", "1");
    const Greet = defineJob({
      name: "greet",
      payload: z.object({ name: z.string() }),
      perform({ name }) {
        performed.push(name);
      },
    });
    const app = new App({ name: "inprocess", env: "test" });
    app.jobs(t.db);
    app.job(Greet);
    app.get("/", (c) => c.text("ok"));
    const server = await app.listen({ port: 0, host: "127.0.0.1", handleSignals: false });
    return { Greet, server };
  }

  it("performs the app's jobs beside the server, and stops its worker on close", async () => {
    const performed: string[] = [];
    const { Greet, server } = await serve(performed, true);
    try {
      await Greet.enqueue(t.db, { name: "Ada" });
      while (performed.length === 0) await new Promise((r) => setTimeout(r, 10));
      expect(performed).toEqual(["Ada"]);
    } finally {
      await server.close();
    }
    // Stopped: a job enqueued now stays waiting.
    await Greet.enqueue(t.db, { name: "Bob" });
    await new Promise((r) => setTimeout(r, 1200));
    expect((await listJobs(t.db.kysely)).map((r) => JSON.parse(r.payload).name)).toEqual(["Bob"]);
  });

  it("performs nothing without it (wisent start: jobs are `wisent jobs work`'s)", async () => {
    const performed: string[] = [];
    const { Greet, server } = await serve(performed, false);
    try {
      await Greet.enqueue(t.db, { name: "Ada" });
      await new Promise((r) => setTimeout(r, 1200));
      expect(performed).toEqual([]);
    } finally {
      await server.close();
    }
  });
});
