import { connect } from "node:net";

/** What a raw exchange saw: the bytes answered and whether the connection was reset. */
export interface RawExchange {
  readonly output: string;
  readonly reset: boolean;
  /** The status line of the first answer (0 when none came). */
  readonly status: number;
}

/**
 * Writes `head`, then `bodyBytes` bytes of body in 16 KiB chunks (as fast as the socket takes
 * them), and reads until the server closes or `idleMs` passes without data. Unlike `sendRaw`
 * it tells a reset apart from a close.
 */
export function exchange(
  port: number,
  head: string,
  bodyBytes = 0,
  idleMs = 3_000,
): Promise<RawExchange> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    let reset = false;
    let settled = false;
    const done = () => {
      if (settled) return;
      settled = true;
      socket.destroy();
      const output = Buffer.concat(chunks).toString("latin1");
      resolve({ output, reset, status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(output)?.[1] ?? 0) });
    };
    socket.setTimeout(idleMs, done);
    socket.on("data", (chunk) => chunks.push(chunk));
    socket.on("close", done);
    socket.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "ECONNRESET" || error.code === "EPIPE") reset = true;
      done();
    });
    socket.write(head);
    const chunk = Buffer.alloc(16 * 1024, 0x61);
    let sent = 0;
    const pump = () => {
      while (sent < bodyBytes && !socket.destroyed) {
        const n = Math.min(chunk.length, bodyBytes - sent);
        sent += n;
        if (!socket.write(chunk.subarray(0, n))) {
          socket.once("drain", pump);
          return;
        }
      }
    };
    pump();
  });
}

/** How {@link rawRequest} sends its bytes. */
export interface RawSending {
  /** Write the bytes in pieces of `bytes`, one every `everyMs` (a slow or trickling client). */
  readonly trickle?: { readonly bytes: number; readonly everyMs: number };
  /** Write only the first `closeAfter` bytes, then close the socket without reading. */
  readonly closeAfter?: number;
}

/** What {@link rawRequest} saw: as {@link RawExchange}, and whether the client closed first. */
export interface RawRequestResult extends RawExchange {
  readonly closedByClient: boolean;
}

/**
 * Writes `bytes` on a fresh connection as `sending` says, and reads until the server closes,
 * `idleMs` passes without an answer, or `afterDataMs` passes after the last data. Tells a reset
 * (ECONNRESET/EPIPE) apart from a close, as {@link exchange} does.
 */
export function rawRequest(
  port: number,
  bytes: Buffer,
  sending: RawSending = {},
  idleMs = 2_000,
  afterDataMs = 20,
): Promise<RawRequestResult> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    let reset = false;
    let settled = false;
    let closedByClient = false;
    let timer: NodeJS.Timeout | undefined;
    const done = () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      const output = Buffer.concat(chunks).toString("latin1");
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(output)?.[1] ?? 0);
      resolve({ output, reset, status, closedByClient });
    };
    socket.setTimeout(idleMs, done);
    socket.on("data", (chunk) => {
      chunks.push(chunk);
      socket.setTimeout(afterDataMs, done);
    });
    socket.on("close", done);
    socket.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "ECONNRESET" || error.code === "EPIPE") reset = true;
      done();
    });
    const total = Math.min(bytes.length, sending.closeAfter ?? bytes.length);
    const finish = () => {
      if (sending.closeAfter === undefined) return;
      closedByClient = true;
      done();
    };
    if (!sending.trickle) {
      socket.write(bytes.subarray(0, total), finish);
      return;
    }
    const { bytes: step, everyMs } = sending.trickle;
    let sent = 0;
    const next = () => {
      if (settled) return;
      if (sent >= total) return finish();
      const piece = bytes.subarray(sent, Math.min(total, sent + step));
      sent += piece.length;
      socket.write(piece);
      timer = setTimeout(next, everyMs);
    };
    next();
  });
}

/** Every status line in `output`, in order (pipelined or 1xx answers). */
export function statusLines(output: string): number[] {
  return [...output.matchAll(/HTTP\/1\.[01] (\d{3})/g)].map((m) => Number(m[1]));
}
