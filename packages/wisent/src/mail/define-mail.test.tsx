/** @jsxRuntime classic */
/** @jsx h */
import { afterEach, describe, expect, it } from "vitest";
import { App } from "../app/app.js";
import { availableDialects } from "../data/test-support/test-databases.js";
import { jobsTestDatabase } from "../jobs/test-support/jobs-database.js";
// biome-ignore lint/correctness/noUnusedImports: JSX compiles to h(...) by the classic-runtime pragma above
import { h } from "../jsx/jsx-runtime.js";
import { i18n } from "../middleware/i18n/i18n.js";
import { transaction } from "../middleware/transaction/transaction.js";
import { clearEnqueued, performEnqueued } from "../testing/jobs.js";
import { assertNothingSent, assertSent } from "../testing/mail.js";
import { testClient } from "../testing/test-client.js";
import { defineMail } from "./define-mail.js";
import { clearSentMail } from "./mailer.js";

const available = await availableDialects();

const ResetMail = defineMail<{ name: string; link: string }>({
  name: "account.reset",
  subject: ({ name }, t) => t("mailers.account.reset.subject", { name }),
  html: ({ name, link }) => (
    <p>
      Hello {name}, <a href={link}>choose a new password</a>.
    </p>
  ),
  text: ({ name, link }) => `Hello ${name}, choose a new password: ${link}`,
  preview: { name: "Ada <3", link: "https://shop.example/passwords/t/edit" },
});

describe("defineMail", () => {
  const t = jobsTestDatabase("sqlite", available.sqlite);
  afterEach(async () => {
    clearSentMail();
    await clearEnqueued();
  });

  it("renders the subject, an escaped HTML part and the text part", () => {
    const message = ResetMail.message({
      to: "ada@example.com",
      props: { name: "<b>Ada</b>", link: "https://x/y" },
      t: (key, vars) => `${key} for ${vars?.name}`,
    });
    expect(message).toEqual({
      to: "ada@example.com",
      subject: "mailers.account.reset.subject for <b>Ada</b>",
      html: '<p>Hello &lt;b&gt;Ada&lt;/b&gt;, <a href="https://x/y">choose a new password</a>.</p>',
      text: "Hello <b>Ada</b>, choose a new password: https://x/y",
    });
  });

  it("deliverLater sends from a job, only once the request committed", async () => {
    const app = new App({ name: "mails", env: "test" });
    app.use(transaction(t.db));
    app.jobs(t.db);
    app.post("/reset/:status", async (c) => {
      await ResetMail.deliverLater(c.tx(), {
        to: "ada@example.com",
        props: { name: "Ada", link: "https://x/y" },
      });
      return c.json({}, Number(c.req.param("status")) as 201);
    });
    await testClient(app).post("/reset/422");
    await performEnqueued();
    assertNothingSent();
    await testClient(app).post("/reset/201");
    await performEnqueued();
    expect(assertSent({ to: "ada@example.com" }).html).toContain('<a href="https://x/y">');
  });
});

describe("app.mailerPreviews()", () => {
  function app(env: string) {
    const app = new App({ name: "previews", env });
    app.use(
      i18n({
        messages: { "en-US": { "mailers.account.reset.subject": "Reset your password, {{name}}" } },
      }),
    );
    app.mailerPreviews({ AccountMailer: { reset: ResetMail } });
    return app;
  }

  it("lists the mails and shows one's headers, HTML part and text part in development", async () => {
    const client = testClient(app("development"));
    const index = await (await client.get("/__wisent/mailers")).text();
    expect(index).toContain('<a href="/__wisent/mailers/AccountMailer/reset">reset</a>');
    const page = await (await client.get("/__wisent/mailers/AccountMailer/reset")).text();
    expect(page).toContain("Reset your password, Ada &lt;3");
    expect(page).toContain(
      "Hello Ada &lt;3, choose a new password: https://shop.example/passwords/t/edit",
    );
    expect(page).toContain('src="/__wisent/mailers/AccountMailer/reset?part=html"');
    const html = await (await client.get("/__wisent/mailers/AccountMailer/reset?part=html")).text();
    expect(html).toBe(
      '<p>Hello Ada &lt;3, <a href="https://shop.example/passwords/t/edit">choose a new password</a>.</p>',
    );
    expect((await client.get("/__wisent/mailers/AccountMailer/welcome")).status).toBe(404);
  });

  it("is not mounted outside development", async () => {
    for (const env of ["test", "production"]) {
      expect((await testClient(app(env)).get("/__wisent/mailers")).status).toBe(404);
    }
  });
});
