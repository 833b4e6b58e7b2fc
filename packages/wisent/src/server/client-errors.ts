import type { IncomingMessage } from "node:http";
import type { Socket } from "node:net";
import { isLingering, lingeringClose } from "./lingering-close.js";

/** What Node's parser refused, as a status and a message (never the raw request data). */
function clientErrorAnswer(error: NodeJS.ErrnoException & { rawPacket?: Buffer }): {
  status: number;
  message: string;
} {
  switch (error.code) {
    case "HPE_HEADER_OVERFLOW":
      return requestLineTooLong(error.rawPacket)
        ? { status: 414, message: "the request URL is too long" }
        : { status: 431, message: "the request headers are too large" };
    case "HPE_INVALID_METHOD":
      return { status: 400, message: "the request method is not one this server knows" };
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return { status: 408, message: "the request took too long to arrive" };
    default:
      return { status: 400, message: "the request is not valid HTTP/1.1" };
  }
}

/** The first line has no end within what Node read: the request target is what overflowed. */
function requestLineTooLong(raw: Buffer | undefined): boolean {
  if (!raw) return false;
  const lineEnd = raw.indexOf("\r\n");
  return lineEnd === -1 || lineEnd > 8 * 1024;
}

const STATUS_TEXT: Record<number, string> = {
  400: "Bad Request",
  408: "Request Timeout",
  414: "URI Too Long",
  431: "Request Header Fields Too Large",
};

/**
 * A complete plain-text HTTP/1.1 answer that closes the connection; to a HEAD request without
 * its body (a client reads none, and would take the body for the next answer).
 */
export function closingAnswer(status: number, message: string, head = false): string {
  const body = `${message}\n`;
  return (
    `HTTP/1.1 ${status} ${STATUS_TEXT[status] ?? ""}\r\n` +
    "Content-Type: text/plain; charset=utf-8\r\n" +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    "X-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n" +
    (head ? "" : body)
  );
}

/** The refused request began as a HEAD request (its method is in what Node read). */
function isHead(raw: Buffer | undefined): boolean {
  return raw !== undefined && raw.subarray(0, 5).toString("latin1") === "HEAD ";
}

/**
 * The server's `clientError` listener: answers what Node's parser refused (400, a 414 for a URL
 * past `maxHeaderSize` rather than Node's 431, 400 for an unknown method or CONNECT, 408). No 5xx: the request is at fault, not the server and closes with a
 * lingering close, so the client reads the answer instead of a reset.
 */
export function answerClientError(error: Error, socket: Socket): void {
  // Node's parser stays failed and reports each later chunk of the request again: the first
  // report answered, and the lingering close reads the rest (destroying here resets the client).
  if (isLingering(socket)) return;
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "ECONNRESET" || code === "EPIPE" || !socket.writable) {
    socket.destroy();
    return;
  }
  const { status, message } = clientErrorAnswer(error);
  const raw = (error as { rawPacket?: Buffer }).rawPacket;
  lingeringClose(socket, closingAnswer(status, message, isHead(raw)));
}

/** The server's `connect` listener: this is not a proxy, CONNECT is answered 400. */
export function answerConnect(_req: IncomingMessage, socket: Socket): void {
  lingeringClose(
    socket,
    closingAnswer(400, "CONNECT is not supported: this server is not a proxy"),
  );
}
