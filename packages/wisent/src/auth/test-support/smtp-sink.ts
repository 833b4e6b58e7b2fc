import { createServer } from "node:net";

/** A local SMTP server that accepts every mail and keeps it (for tests of real sending). */
export interface SmtpSink {
  /** `smtp://127.0.0.1:<port>`, for SMTP_URL. */
  readonly url: string;
  /** Each mail's DATA (headers and body), in the order they came. */
  readonly received: string[];
  close(): Promise<void>;
}

/**
 * Starts an SMTP server on 127.0.0.1 (a free port) speaking just enough of RFC 5321 for
 * nodemailer: EHLO, MAIL, RCPT, DATA, QUIT, each answered with success.
 *
 * @example
 * const sink = await smtpSink();
 * await mailer({ env: "production", smtpUrl: sink.url }).send(message);
 * expect(sink.received[0]).toContain("Subject: Reset your password");
 */
export async function smtpSink(): Promise<SmtpSink> {
  const received: string[] = [];
  const server = createServer((socket) => {
    let data: string | undefined;
    socket.write("220 localhost ESMTP test\r\n");
    socket.on("data", (chunk) => {
      const text = String(chunk);
      if (data !== undefined) {
        data += text;
        if (data.includes("\r\n.\r\n")) {
          received.push(data);
          data = undefined;
          socket.write("250 queued\r\n");
        }
        return;
      }
      for (const line of text.split("\r\n").filter(Boolean)) {
        if (/^DATA/i.test(line)) {
          data = "";
          socket.write("354 go on\r\n");
        } else if (/^QUIT/i.test(line)) socket.end("221 bye\r\n");
        else if (/^EHLO/i.test(line)) socket.write("250-localhost\r\n250 OK\r\n");
        else socket.write("250 OK\r\n");
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
