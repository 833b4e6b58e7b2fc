import { createServer, type Server, type Socket } from "node:net";

/** What the sink does with the next `MAIL FROM`: refuse it (421), stall forever, or accept. */
export type SinkMode = "refuse" | "stall" | "accept";

/** A local SMTP server that keeps every mail it accepts (for tests of real sending). */
export interface SmtpSink {
  /** `smtp://127.0.0.1:<port>`, for SMTP_URL. */
  readonly url: string;
  readonly port: number;
  /** Each accepted mail's DATA (headers and body), in the order they came. */
  readonly received: string[];
  /** How many sessions it refused (421) and stalled. */
  readonly refused: () => number;
  readonly stalled: () => number;
  close(): Promise<void>;
}

/** Options of {@link smtpSink}. */
export interface SmtpSinkOptions {
  /**
   * What to answer a message once its DATA has come (it sees the headers and body): refuse
   * (421, the message is not kept), stall, or accept (the default). A refusal or stall here
   * counts in `refused()` or `stalled()` too.
   */
  readonly atEnd?: (message: string) => SinkMode;
}

/**
 * A minimal SMTP server on 127.0.0.1 (a free port) for the delivery tests, speaking just enough
 * of RFC 5321 for nodemailer: no TLS, no auth; each session's `MAIL FROM` gets what `next()`
 * says (default: accept), and each message's end what `options.atEnd` says; accepted messages
 * are kept.
 *
 * @example
 * const sink = await smtpSink();
 * await mailer({ env: "production", smtpUrl: sink.url }).send(message);
 * expect(sink.received[0]).toContain("Subject: Reset your password");
 */
export async function smtpSink(
  next: () => SinkMode = () => "accept",
  options: SmtpSinkOptions = {},
): Promise<SmtpSink> {
  const received: string[] = [];
  const sockets = new Set<Socket>();
  let refused = 0;
  let stalled = 0;
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => {});
    let buffer = "";
    let data: string | undefined;
    let mode: SinkMode = "accept";
    socket.write("220 sink ESMTP\r\n");
    socket.on("data", (chunk) => {
      buffer += chunk.toString("latin1");
      for (;;) {
        if (data !== undefined) {
          const end = buffer.indexOf("\r\n.\r\n");
          if (end < 0) return;
          const message = data + buffer.slice(0, end);
          buffer = buffer.slice(end + 5);
          data = undefined;
          const answer = options.atEnd?.(message) ?? "accept";
          if (answer === "refuse") {
            refused += 1;
            socket.end("421 4.3.2 try again later\r\n");
            return;
          }
          if (answer === "stall") {
            stalled += 1;
            return; // never answers
          }
          received.push(message);
          socket.write("250 2.0.0 queued\r\n");
          continue;
        }
        const at = buffer.indexOf("\r\n");
        if (at < 0) return;
        const line = buffer.slice(0, at);
        buffer = buffer.slice(at + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === "EHLO" || verb === "HELO") socket.write("250 sink\r\n");
        else if (verb === "MAIL") {
          mode = next();
          if (mode === "refuse") {
            refused += 1;
            socket.end("421 4.3.2 try again later\r\n");
            return;
          }
          if (mode === "stall") {
            stalled += 1;
            return; // never answers
          }
          socket.write("250 2.1.0 ok\r\n");
        } else if (verb === "RCPT") socket.write("250 2.1.5 ok\r\n");
        else if (verb === "DATA") {
          data = "";
          socket.write("354 go ahead\r\n");
        } else if (verb === "QUIT") socket.end("221 bye\r\n");
        else socket.write("250 ok\r\n");
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    received,
    refused: () => refused,
    stalled: () => stalled,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
