import { afterEach, describe, expect, it } from "vitest";
import type { LogEntry } from "../http/logger.js";
import { clearSentMail, mailer, sentMail } from "./mailer.js";

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

  it("needs SMTP_URL in production, saying so", async () => {
    const saved = process.env.SMTP_URL;
    delete process.env.SMTP_URL;
    try {
      await expect(
        mailer({ env: "production" }).send({ to: "a@example.com", subject: "x", text: "y" }),
      ).rejects.toThrow(/SMTP_URL is not set/);
    } finally {
      if (saved !== undefined) process.env.SMTP_URL = saved;
    }
  });
});
