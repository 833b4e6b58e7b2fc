import { type IncomingMessage, ServerResponse } from "node:http";
import { closeLingeringAfterAnswer } from "./lingering-close.js";
import { hasBody, type Refusal } from "./request-guard.js";

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
 * answer given without reading it (a 404, 403, 405, 400, a redirect, ...), so a client still
 * sending sees the answer and the connection stays usable. Past the bounds (the body limit, a
 * time) the answer says `Connection: close` and the connection is closed gracefully (see
 * {@link lingeringClose}): the status line and headers are held back until then (`writeHead`
 * waits for `end`), because a kept-alive answer on a connection whose body is half read makes
 * the client send its next request into that body, and get a reset. A body whose stream a reader
 * ended early (destroyed) cannot be drained: that answer closes. A request without a body, or
 * whose body was read, costs a few property checks.
 */
export class BodyDiscardingResponse<
  Request extends IncomingMessage = IncomingMessage,
> extends ServerResponse<Request> {
  // biome-ignore lint/suspicious/noExplicitAny: forwards Node's overloads unchanged.
  override writeHead(...args: any[]): this {
    if (!bodyUnread(this)) return super.writeHead(...(args as [number]));
    heldHeads.set(this, args);
    return this;
  }

  /** A streamed answer: it goes now, so the body is not waited for and the connection closes. */
  // biome-ignore lint/suspicious/noExplicitAny: forwards Node's overloads unchanged.
  override write(...args: any[]): boolean {
    if (heldHeads.has(this) || bodyUnread(this)) this.#decide(false);
    return (super.write as (...a: unknown[]) => boolean)(...args);
  }

  override flushHeaders(): void {
    if (heldHeads.has(this) || bodyUnread(this)) this.#decide(false);
    super.flushHeaders();
  }

  // biome-ignore lint/suspicious/noExplicitAny: forwards Node's overloads unchanged.
  override end(...args: any[]): this {
    if (!bodyUnread(this)) {
      if (heldHeads.has(this)) this.#decide(true);
      return super.end(...args);
    }
    decided.add(this);
    const req = this.req;
    if (req.destroyed) {
      // Whoever read the body ended its stream early (a multipart read past the upload limit
      // cancels it): nothing is left to drain it with, and Node reads no more of this connection.
      this.#decide(false);
      return super.end(...args);
    }
    const bounds =
      boundsOf.get((req.socket as { server?: object } | null)?.server ?? req) ?? DEFAULT_BOUNDS;
    discardBody(req, bounds)
      .then((within) => {
        this.#decide(within);
        super.end(...args);
      })
      .catch((error: unknown) => {
        // What writeHead would have thrown at once (a status Node refuses): never a crash.
        console.error(error);
        this.destroy();
      });
    return this;
  }

  /** Whether the connection is kept; then the held status line and headers are written. */
  #decide(keep: boolean): void {
    decided.add(this);
    if (!keep) closeAfterAnswer(this);
    const head = heldHeads.get(this);
    if (head === undefined) return;
    heldHeads.delete(this);
    super.writeHead(...(head as [number]));
  }
}

/** Answers whose keeping of the connection is decided (draining, drained, or closing). */
const decided = new WeakSet<ServerResponse>();
/** `writeHead`'s arguments, held while the body is read (see BodyDiscardingResponse). */
const heldHeads = new WeakMap<ServerResponse, unknown[]>();

/** The request has a body nobody has read to its end (nor will: an answer is being made). */
function bodyUnread(res: ServerResponse): boolean {
  const req = res.req;
  return !req.complete && hasBody(req) && !decided.has(res);
}

/** The answer says `Connection: close`, and the connection closes gracefully after it. */
function closeAfterAnswer(res: ServerResponse): void {
  res.shouldKeepAlive = false;
  // The response's own: a request destroyed early has let go of its socket.
  const socket = res.socket ?? res.req.socket;
  if (socket) closeLingeringAfterAnswer(socket);
}

/**
 * Makes `res` answer without reading the request's body, then close the connection (lingering):
 * for a request that was not sent `100 Continue`, whose client may never send the body.
 */
export function answerWithoutReading(res: ServerResponse): void {
  decided.add(res);
  closeAfterAnswer(res);
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
    // A reader that gave up (a web stream over the body, paused once its queue filled) would
    // pause the request again at every chunk: the body is this function's alone now.
    req.removeAllListeners("data");
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
export function answerRefusal(res: ServerResponse, refusal: Refusal): void {
  const body = `${refusal.message}\n`;
  if (refusal.close) answerWithoutReading(res);
  res.writeHead(refusal.status, {
    "Content-Type": "text/plain; charset=utf-8",
    "Content-Length": Buffer.byteLength(body),
    "X-Content-Type-Options": "nosniff",
    ...(refusal.close ? { Connection: "close" } : {}),
  });
  // Closing: answered now (the body will not be read), and Node's close after it lingers.
  res.end(body);
}
