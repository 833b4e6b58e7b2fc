import { afterEach, describe, expect, it } from "vitest";
import type { LogEntry } from "../http/logger.js";
import { clearSentMail, mailer, sentMail } from "./mailer.js";
import { smtpSink } from "./test-support/smtp-sink.js";

afterEach(() => clearSentMail());

describe("mailer", () => {
  it("captures mail in the test environment", async () => {
    await mailer({ env: "test", from: "app@example.com" }).send({
      to: "ada@example.com",
      subject: "Hi",
      text: "Hello",
    });
    expect(sentMail()).toEqual([
      { to: "ada@example.com", subject: "Hi", text: "Hello", from: "app@example.com" },
    ]);
  });

  it("prints mail to the log in development, sending nothing", async () => {
    const lines: LogEntry[] = [];
    const logger = { info: (e: LogEntry) => lines.push(e), warn() {}, error() {} };
    await mailer({ env: "development", logger }).send({
      to: "ada@example.com",
      subject: "Reset",
      text: "Open http://localhost:3000/passwords/abc/edit",
    });
    expect(sentMail()).toEqual([]);
    expect(String(lines[0]?.msg)).toContain("http://localhost:3000/passwords/abc/edit");
  });

  it.each(["production", "staging"])(
    "refuses to be made without SMTP_URL in %s, naming SMTP_URL and nodemailer",
    (env) => {
      const saved = process.env.SMTP_URL;
      delete process.env.SMTP_URL;
      try {
        expect(() => mailer({ env })).toThrow(
          `mailer: the ${env} environment sends real mail, which needs SMTP_URL (smtp://user:password@host:587) and the package nodemailer (\`npm install nodemailer\` in the app's folder), but SMTP_URL is not set.`,
        );
        process.env.SMTP_URL = "smtp://127.0.0.1:2525";
        expect(() => mailer({ env })).not.toThrow();
      } finally {
        if (saved !== undefined) process.env.SMTP_URL = saved;
        else delete process.env.SMTP_URL;
      }
    },
  );

  it("is made without SMTP_URL in development and test", () => {
    expect(() => mailer({ env: "development", smtpUrl: "" })).not.toThrow();
    expect(() => mailer({ env: "test", smtpUrl: "" })).not.toThrow();
  });
});

describe("mailer over SMTP (a local server on 127.0.0.1)", () => {
  it("sends the mail to SMTP_URL's server", async () => {
    const sink = await smtpSink();
    try {
      await mailer({ env: "production", smtpUrl: sink.url }).send({
        to: "ada@example.com",
        subject: "Reset your password",
        text: "Open the link",
      });
      expect(sink.received[0]).toContain("Subject: Reset your password");
      expect(sink.received[0]).toContain("Open the link");
      expect(sentMail()).toEqual([]);
    } finally {
      await sink.close();
    }
  }, 15_000);
});
