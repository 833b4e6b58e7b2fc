import { type IncomingMessage, ServerResponse } from "node:http";
import { closeLingeringAfterAnswer } from "./lingering-close.js";
import type { Refusal } from "./request-guard.js";

/** Bounds on the unread body of a request answered without reading it. */
export interface DiscardBounds {
  /** Bytes read and dropped at most (the body limit). */
  readonly bytes: number;
  /** Milliseconds spent at most. */
  readonly ms: number;
}

/** The bounds every {@link BodyDiscardingResponse} of a server uses (set by `listen`). */
const boundsOf = new WeakMap<object, DiscardBounds>();
const DEFAULT_BOUNDS: DiscardBounds = { bytes: 1024 * 1024, ms: 10_000 };

/** Sets the discard bounds of the responses of `server`. */
export function setDiscardBounds(server: object, bounds: DiscardBounds): void {
  boundsOf.set(server, bounds);
}

/**
 * Node's `ServerResponse`, that reads and drops the rest of the request's body before it sends an
 * answer given without reading it (a 404, 403, 405, 413, a redirect, ...), so a client still
 * sending sees the answer and the connection stays usable. Past the bounds (the body limit, a
 * time) the answer is sent and the connection closed gracefully (see {@link lingeringClose}).
 * A request whose body was read costs one property check.
 */
export class BodyDiscardingResponse<
  Request extends IncomingMessage = IncomingMessage,
> extends ServerResponse<Request> {
  // biome-ignore lint/suspicious/noExplicitAny: forwards Node's overloads unchanged.
  override end(...args: any[]): this {
    const req = this.req;
    if (req.complete || req.destroyed) return super.end(...args);
    if (answeredAtOnce.has(this)) return super.end(...args);
    const bounds =
      boundsOf.get((req.socket as { server?: object }).server ?? req) ?? DEFAULT_BOUNDS;
    discardBody(req, bounds).then((within) => {
      if (!within) {
        this.shouldKeepAlive = false;
        closeLingeringAfterAnswer(req.socket);
      }
      super.end(...args);
    });
    return this;
  }
}

const answeredAtOnce = new WeakSet<ServerResponse>();

/**
 * Makes `res` answer without reading the request's body, then close the connection (lingering):
 * for a request that was not sent `100 Continue`, whose client may never send the body.
 */
export function answerWithoutReading(res: ServerResponse): void {
  answeredAtOnce.add(res);
  res.shouldKeepAlive = false;
  closeLingeringAfterAnswer(res.req.socket);
}

/** Reads and drops `req`'s body; true when it ended within the bounds. */
export function discardBody(req: IncomingMessage, bounds: DiscardBounds): Promise<boolean> {
  return new Promise((resolve) => {
    let bytes = 0;
    const finish = (within: boolean) => {
      clearTimeout(timer);
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("close", onClose);
      if (!within) req.pause();
      resolve(within);
    };
    const onData = (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > bounds.bytes) finish(false);
    };
    const onEnd = () => finish(true);
    const onClose = () => finish(req.complete);
    const timer = setTimeout(() => finish(false), bounds.ms);
    timer.unref();
    req.on("data", onData);
    req.once("end", onEnd);
    req.once("close", onClose);
    req.resume();
  });
}

/**
 * Answers `refusal` as plain text: after reading the body up to the bounds when the connection
 * can be kept, else at once with `Connection: close` and a lingering close.
 */
export function answerRefusal(req: IncomingMessage, res: ServerResponse, refusal: Refusal): void {
  const body = `${refusal.message}\n`;
  if (refusal.close) {
    res.shouldKeepAlive = false;
    closeLingeringAfterAnswer(req.socket);
  }
  res.writeHead(refusal.status, {
    "Content-Type": "text/plain; charset=utf-8",
    "Content-Length": Buffer.byteLength(body),
    "X-Content-Type-Options": "nosniff",
    ...(refusal.close ? { Connection: "close" } : {}),
  });
  // Closing: answer now (the body will not be read); Node's close after it lingers.
  if (refusal.close) (ServerResponse.prototype.end as (chunk: string) => unknown).call(res, body);
  else res.end(body);
}
