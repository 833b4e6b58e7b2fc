/**
 * deliverLater against a real SMTP conversation (a local sink), with the worker in a process of
 * its own in production mode: a server that refuses twice (421) gets the mail on the third try,
 * and a worker killed while the server stalls leaves the mail to the next worker.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { availableDialects } from "../data/test-support/test-databases.js";
import { listJobs } from "../jobs/job-store.js";
import { JOBS_TABLE } from "../jobs/jobs-table.js";
import { jobsTestDatabase } from "../jobs/test-support/jobs-database.js";
import { deliverLater } from "./deliver-mail.js";
import { type SinkMode, smtpSink } from "./test-support/smtp-sink.js";

const available = await availableDialects();
const script = fileURLToPath(new URL("./test-support/mail-worker.ts", import.meta.url));

async function until(predicate: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await predicate())) await new Promise((r) => setTimeout(r, 25));
}

describe.each(["sqlite", "postgres"] as const)("deliverLater over SMTP on %s", (dialect) => {
  const t = jobsTestDatabase(dialect, available[dialect]);
  const run = it.skipIf(!available[dialect]);
  const children: ChildProcess[] = [];
  afterEach(() => {
    for (const child of children.splice(0)) child.kill("SIGKILL");
  });

  function worker(port: number, leaseMs: number): ChildProcess {
    const child = spawn(process.execPath, ["--import", "tsx", script, t.url, String(leaseMs)], {
      env: {
        ...process.env,
        GO_ENV: "production",
        SMTP_URL: `smtp://127.0.0.1:${port}`,
        MAIL_FROM: "shop@example.com",
      },
      stdio: ["ignore", "ignore", "ignore"],
    });
    children.push(child);
    return child;
  }

  /** The waiting mail job's row, due now (its backoff's time has come). */
  const dueNow = () => t.db.kysely.updateTable(JOBS_TABLE).set({ run_at: 0 }).execute();
  const row = async () => (await listJobs(t.db.kysely))[0];

  run(
    "a server that refuses twice (421) gets the mail on the third try",
    async () => {
      const modes: SinkMode[] = ["refuse", "refuse", "accept"];
      const sink = await smtpSink(() => modes.shift() ?? "accept");
      try {
        await deliverLater(t.db, { to: "ada@example.com", subject: "Reset", text: "the link" });
        worker(sink.port, 30_000);
        for (const failures of [1, 2]) {
          await until(
            async () => (await row())?.attempts === failures && (await row())?.state === "queued",
          );
          expect((await row())?.last_error).toMatch(/421/);
          await dueNow();
        }
        await until(() => sink.received.length === 1);
        await until(async () => (await row()) === undefined);
        expect(sink.refused()).toBe(2);
        expect(sink.received[0]).toMatch(/To: ada@example\.com/);
        expect(sink.received[0]).toMatch(/From: shop@example\.com/);
      } finally {
        await sink.close();
      }
    },
    60_000,
  );

  run(
    "a worker killed while the server stalls leaves the mail to the next worker",
    async () => {
      const modes: SinkMode[] = ["stall", "accept"];
      const sink = await smtpSink(() => modes.shift() ?? "accept");
      try {
        await deliverLater(t.db, { to: "bob@example.com", subject: "Reset", text: "the link" });
        const first = worker(sink.port, 1000);
        await until(() => sink.stalled() === 1);
        first.kill("SIGKILL");
        expect((await row())?.state).toBe("running");
        worker(sink.port, 1000);
        await until(() => sink.received.length === 1);
        await until(async () => (await row()) === undefined);
        expect(sink.received[0]).toMatch(/To: bob@example\.com/);
      } finally {
        await sink.close();
      }
    },
    60_000,
  );
});
