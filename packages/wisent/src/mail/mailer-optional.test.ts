/**
 * nodemailer is an optional peer of wisent: an app that has not installed it still sees its
 * development mail in the log, and production says which package to install.
 */
import { describe, expect, it, vi } from "vitest";
import type { LogEntry } from "../http/logger.js";

vi.mock("../base/require-dependency.js", async (original) => {
  const actual = await original<typeof import("../base/require-dependency.js")>();
  return {
    ...actual,
    requireDependency: (name: string) => {
      throw new actual.MissingDependencyError(name);
    },
    isDependencyInstalled: () => false,
  };
});

const { mailer } = await import("./mailer.js");

describe("mailer without nodemailer installed", () => {
  it("still prints development mail to the log", async () => {
    const lines: LogEntry[] = [];
    const logger = { info: (e: LogEntry) => lines.push(e), warn() {}, error() {} };
    await mailer({ env: "development", logger }).send({
      to: "ada@example.com",
      subject: "Reset",
      text: "Open http://localhost:3000/passwords/abc/edit",
    });
    expect(String(lines[0]?.msg)).toContain("http://localhost:3000/passwords/abc/edit");
  });

  it("refuses to be made where mail must really be sent, naming the npm install", () => {
    expect(() => mailer({ env: "production", smtpUrl: "smtp://127.0.0.1:2525" })).toThrow(
      "needs SMTP_URL (smtp://user:password@host:587) and the package nodemailer (`npm install nodemailer` in the app's folder), but the package nodemailer is not installed.",
    );
    expect(() => mailer({ env: "production", smtpUrl: "" })).toThrow(
      "but SMTP_URL is not set and the package nodemailer is not installed.",
    );
  });

  it("sends with SMTP_URL outside production as it did, naming the npm install", async () => {
    await expect(
      mailer({ env: "development", smtpUrl: "smtp://127.0.0.1:2525" }).send({
        to: "ada@example.com",
        subject: "Hi",
        text: "Hello",
      }),
    ).rejects.toThrow(
      "the package nodemailer is not installed (needed for sending mail): run `npm install nodemailer` in the app's folder",
    );
  });
});
