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

describe("mailer over SMTP (a local server on 127.0.0.1)", () => {
  it("sends the mail to SMTP_URL's server", async () => {
    const { createServer } = await import("node:net");
    let received = "";
    const server = createServer((socket) => {
      let data = false;
      socket.write("220 localhost ESMTP test\r\n");
      socket.on("data", (chunk) => {
        const text = String(chunk);
        if (data) {
          received += text;
          if (received.includes("\r\n.\r\n")) {
            data = false;
            socket.write("250 queued\r\n");
          }
          return;
        }
        for (const line of text.split("\r\n").filter(Boolean)) {
          if (/^DATA/i.test(line)) {
            data = true;
            socket.write("354 go on\r\n");
          } else if (/^QUIT/i.test(line)) socket.end("221 bye\r\n");
          else if (/^EHLO/i.test(line)) socket.write("250-localhost\r\n250 OK\r\n");
          else socket.write("250 OK\r\n");
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as { port: number };
    try {
      await mailer({ env: "production", smtpUrl: `smtp://127.0.0.1:${port}` }).send({
        to: "ada@example.com",
        subject: "Reset your password",
        text: "Open the link",
      });
      expect(received).toContain("Subject: Reset your password");
      expect(received).toContain("Open the link");
      expect(sentMail()).toEqual([]);
    } finally {
      server.close();
    }
  }, 15_000);
});
