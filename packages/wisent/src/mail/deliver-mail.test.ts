import { afterEach, describe, expect, it } from "vitest";
import { App } from "../app/app.js";
import { availableDialects } from "../data/test-support/test-databases.js";
import { jobsTestDatabase } from "../jobs/test-support/jobs-database.js";
import { transaction } from "../middleware/transaction/transaction.js";
import { clearEnqueued, performEnqueued } from "../testing/jobs.js";
import { assertNothingSent, assertSent } from "../testing/mail.js";
import { testClient } from "../testing/test-client.js";
import { DeliverMail, deliverLater } from "./deliver-mail.js";
import { clearSentMail } from "./mailer.js";

const available = await availableDialects();

describe.each(["sqlite", "postgres"] as const)("deliverLater on %s", (dialect) => {
  const t = jobsTestDatabase(dialect, available[dialect]);
  const run = it.skipIf(!available[dialect]);
  afterEach(async () => {
    clearSentMail();
    if (available[dialect]) await clearEnqueued();
  });

  function app() {
    const app = new App({ name: "mailing", env: "test" });
    app.use(transaction(t.db));
    app.jobs(t.db);
    app.post("/welcome/:status", async (c) => {
      const status = Number(c.req.param("status"));
      await deliverLater(c.tx(), { to: "ada@example.com", subject: "Welcome", text: "Hi" });
      return c.json({}, status as 201);
    });
    return app;
  }

  run("sends the mail only once the request committed, and only from the job", async () => {
    const client = testClient(app());
    expect((await client.post("/welcome/422")).status).toBe(422);
    expect(await performEnqueued()).toBe(0);
    assertNothingSent();
    expect((await client.post("/welcome/201")).status).toBe(201);
    assertNothingSent(); // not before a worker runs the job
    expect(await performEnqueued()).toBe(1);
    const mail = assertSent({ to: "ada@example.com", subject: "Welcome" });
    expect(mail).toMatchObject({ text: "Hi", from: "no-reply@localhost" });
    expect(() => assertSent({ to: "bob@example.com" })).toThrow(
      'expected a mail matching {"to":"bob@example.com"} to be sent; sent: ada@example.com "Welcome"',
    );
    expect(() => assertNothingSent()).toThrow(/sent: ada@example.com "Welcome"/);
  });

  run("with deliver: false, writes the job but sends nothing", async () => {
    app();
    const { enqueued } = await deliverLater(
      t.db,
      { to: "nobody@example.invalid", subject: "Reset", text: "x" },
      { deliver: false },
    );
    expect(enqueued).toBe(true);
    expect(await performEnqueued()).toBe(1);
    assertNothingSent();
  });

  run("refuses a mail without a recipient, naming the field", async () => {
    app();
    await expect(deliverLater(t.db, { to: "", subject: "s", text: "t" })).rejects.toThrow(
      /message\.to: /,
    );
  });

  run("is registered with every app that declares jobs, on the mail queue", () => {
    const jobs = app().backgroundJobs!;
    expect(jobs.jobs.get("wisent.deliver_mail")).toBe(DeliverMail);
    expect(DeliverMail.queue).toBe("mail");
  });
});
