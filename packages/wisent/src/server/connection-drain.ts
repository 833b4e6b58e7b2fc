import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Socket } from "node:net";

/** How long a kept-alive connection must have sat idle before draining closes it, in ms. */
export const IDLE_GRACE_MS = 250;

interface Tracked {
  active: number;
  idleSince: number;
}

/**
 * Tracks an HTTP server's connections so a shutdown can drain them without cutting off a
 * request: `drain()` makes every answer in flight or to come carry `Connection: close`, and
 * closes a kept-alive connection only once it has been idle for {@link IDLE_GRACE_MS}.
 *
 * Why not http.Server#close(): it closes "idle" connections at once, and a connection whose
 * next request is already on the wire (sent right after the previous answer) counts as idle,
 * so that client gets ECONNRESET for a request it did send. A client that keeps a connection
 * busy, on the other hand, would hold the drain until its timeout without Connection: close.
 */
export function trackConnections(server: Server): { drain(): () => void } {
  const sockets = new Map<Socket, Tracked>();
  const answering = new Set<ServerResponse>();
  let draining = false;
  server.on("connection", (socket: Socket) => {
    sockets.set(socket, { active: 0, idleSince: performance.now() });
    socket.once("close", () => sockets.delete(socket));
  });
  // Before @hono/node-server's listener, which may answer within the same tick.
  server.prependListener("request", (req: IncomingMessage, res: ServerResponse) => {
    const tracked = sockets.get(req.socket);
    if (tracked) tracked.active++;
    if (draining) res.setHeader("Connection", "close");
    else answering.add(res);
    res.once("close", () => {
      answering.delete(res);
      if (!tracked) return;
      tracked.active--;
      tracked.idleSince = performance.now();
    });
  });
  return {
    drain() {
      draining = true;
      for (const res of answering) if (!res.headersSent) res.setHeader("Connection", "close");
      answering.clear();
      const sweep = setInterval(() => {
        const now = performance.now();
        for (const [socket, tracked] of sockets) {
          if (tracked.active === 0 && now - tracked.idleSince >= IDLE_GRACE_MS) socket.destroy();
        }
      }, 25);
      sweep.unref();
      return () => clearInterval(sweep);
    },
  };
}
