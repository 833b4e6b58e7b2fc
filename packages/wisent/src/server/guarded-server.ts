import { createServer, type RequestListener, type Server, type ServerOptions } from "node:http";
import { answerClientError, answerConnect } from "./client-errors.js";
import {
  answerRefusal,
  answerWithoutReading,
  BodyDiscardingResponse,
  setDiscardBounds,
} from "./refused-body.js";
import { requestRefusal } from "./request-guard.js";

/** Limits of {@link createGuardedServer}. */
export interface GuardLimits {
  /** Largest request body, in bytes: past it 413, and what a refused request's body is read up to. */
  readonly bodyLimit: number;
  /** Largest `multipart/form-data` body, in bytes (uploads stream to files); default `bodyLimit`. */
  readonly uploadLimit?: number;
  /** How long the body of a refused request is read before the connection is closed, in ms. */
  readonly discardMs: number;
  /**
   * Whether the request's answer is known without its body (no route for its method and
   * path): with `Expect: 100-continue` it then gets that answer instead of `100 Continue`.
   */
  readonly answersWithoutBody?: (method: string, target: string, contentType?: string) => boolean;
}

/**
 * A Node HTTP server whose requests pass the edge rules before `listener` sees them: a request
 * line or headers no route can accept get their 400/413/414/415 (see `requestRefusal`),
 * CONNECT and what Node's parser refuses get an answer and a lingering close, `Expect:
 * 100-continue` gets `100 Continue` only when the request will be read, and answers given
 * without reading the body read it first (see `BodyDiscardingResponse`).
 *
 * @example
 * const server = createGuardedServer({ requestTimeout: 30_000 }, listener, { bodyLimit: 1 << 20, discardMs: 10_000 });
 */
export function createGuardedServer(
  options: ServerOptions,
  listener: RequestListener,
  limits: GuardLimits,
): Server {
  const guarded: RequestListener = (req, res) => {
    const refusal = requestRefusal(req, limits.bodyLimit, limits.uploadLimit);
    if (refusal === undefined) return listener(req, res);
    answerRefusal(res, refusal);
  };
  const server = createServer(
    { ...options, ServerResponse: BodyDiscardingResponse as typeof BodyDiscardingResponse },
    guarded,
  );
  setDiscardBounds(server, { bytes: limits.bodyLimit, ms: limits.discardMs });
  server.on("clientError", answerClientError);
  server.on("connect", answerConnect);
  server.on("checkContinue", (req, res) => {
    const refusal = requestRefusal(req, limits.bodyLimit, limits.uploadLimit);
    // The client waits for 100 before sending: refused, it is answered at once and closed.
    if (refusal !== undefined) return answerRefusal(res, { ...refusal, close: true });
    const known = limits.answersWithoutBody?.(
      req.method ?? "GET",
      req.url ?? "/",
      req.headers["content-type"],
    );
    // A 404/405 known now: answered without asking for the body, and the connection closed.
    if (known) answerWithoutReading(res);
    else res.writeContinue();
    listener(req, res);
  });
  return server;
}
