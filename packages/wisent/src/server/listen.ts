import type { Server } from "node:http";
import net, { type AddressInfo } from "node:net";
import {
  devServerUrlSetting,
  devSupervisedSetting,
  listenHost,
  listenPort,
} from "../config/settings.js";
import { loadNodeAdapter, type NodeFetch, nodeListener } from "../kernel/node-listener.js";
import { removeLeftoverUploads } from "../storage/upload-scope.js";
import { trackConnections } from "./connection-drain.js";
import { createGuardedServer } from "./guarded-server.js";
import { findPortHolder, isAddressInUse, PortInUseError } from "./port-in-use.js";

/** Options of `app.listen()`. */
export interface ListenOptions {
  /** Port; default `PORT` or 3000. Use 0 for any free port. */
  readonly port?: number;
  /** Interface to bind; default `HOST` (when it is not a URL) or 127.0.0.1. */
  readonly host?: string;
  /** Stop on SIGTERM/SIGINT (drain, run shutdown hooks, exit 0). Default true. */
  readonly handleSignals?: boolean;
  /** Called as draining begins, to end long-lived answers (live event streams) at once. */
  readonly onDrain?: () => void;
  /** How long draining may take before open connections are cut, in ms (default 10 s). */
  readonly drainTimeoutMs?: number;
  /** Closes a connection whose request (headers and body) takes longer, in ms (default 30 s). */
  readonly requestTimeoutMs?: number;
  /** Closes a connection whose request headers take longer, in ms (default 10 s, at most requestTimeoutMs). */
  readonly headersTimeoutMs?: number;
  /** Closes an idle kept-alive connection after this long, in ms (default 5 s). */
  readonly keepAliveTimeoutMs?: number;
  /**
   * Largest request body in bytes (default 1 MiB): a larger declared body gets 413, and the
   * unread body of a refused request is read and dropped up to it before the answer.
   */
  readonly bodyLimit?: number;
  /** Largest `multipart/form-data` body in bytes (the App's `uploadLimit`; default `bodyLimit`). */
  readonly uploadLimit?: number;
}

/** A server started by `app.listen()`. */
export interface RunningServer {
  /** The Node HTTP server. */
  readonly server: Server;
  /** `http://127.0.0.1:3000`. */
  readonly url: string;
  readonly port: number;
  /** Stops accepting connections, lets in-flight requests finish, then runs shutdown hooks. */
  close(): Promise<void>;
}

/**
 * Whether a request with `Expect: 100-continue` will be answered without its body (a 404 or
 * 405 known from the method and path alone): it then gets no `100 Continue`.
 */
export type AnswersWithoutBody = (method: string, target: string, contentType?: string) => boolean;

/** Starts `fetch` on Node's HTTP server. See `App.listen`. */
export async function listen(
  fetch: NodeFetch,
  options: ListenOptions,
  onClosed: () => Promise<void>,
  answersWithoutBody?: AnswersWithoutBody,
): Promise<RunningServer> {
  // Temporary files of uploads a process that died was receiving (tmp/uploads/<its pid>).
  await Promise.all([loadNodeAdapter(), removeLeftoverUploads()]);
  const port = options.port ?? listenPort();
  const host = options.host ?? listenHost();
  const drainTimeoutMs = options.drainTimeoutMs ?? 10_000;
  const requestTimeout = options.requestTimeoutMs ?? 30_000;
  return new Promise((resolveStarted, rejectStarted) => {
    const server: Server = createGuardedServer(
      {
        requestTimeout,
        headersTimeout: Math.min(options.headersTimeoutMs ?? 10_000, requestTimeout),
        keepAliveTimeout: options.keepAliveTimeoutMs ?? 5_000,
        // Node checks the timeouts only every connectionsCheckingInterval (30 s by default), so a
        // client trickling its body would outlive a shorter requestTimeout by up to 30 s.
        connectionsCheckingInterval: Math.min(1_000, Math.max(50, Math.floor(requestTimeout / 10))),
      },
      nodeListener(fetch, host),
      {
        bodyLimit: options.bodyLimit ?? 1024 * 1024,
        ...(options.uploadLimit !== undefined ? { uploadLimit: options.uploadLimit } : {}),
        discardMs: Math.min(10_000, requestTimeout),
        ...(answersWithoutBody ? { answersWithoutBody } : {}),
      },
    );
    // A busy port rejects with one line naming the port and, when it can be found, its holder.
    const failed = (error: unknown) =>
      rejectStarted(isAddressInUse(error) ? new PortInUseError(port, findPortHolder(port)) : error);
    server.once("error", failed);
    server.listen(port, host);
    let closing: Promise<void> | undefined;
    const connections = trackConnections(server);
    const close = (): Promise<void> => {
      closing ??= new Promise<void>((resolveClosed) => {
        const force = setTimeout(() => server.closeAllConnections(), drainTimeoutMs);
        force.unref();
        const stopSweeping = connections.drain();
        options.onDrain?.();
        // Stop accepting now; the callback runs once the last connection has ended.
        net.Server.prototype.close.call(server, () => {
          clearTimeout(force);
          stopSweeping();
          // http.Server#close() as well, for its own clean-up (the timeout checks).
          server.close(() => {});
          resolveClosed();
        });
      }).then(onClosed);
      return closing;
    };
    server.once("listening", () => {
      server.off("error", failed);
      const address = server.address() as AddressInfo;
      const running: RunningServer = {
        server,
        port: address.port,
        url: supervisedUrl() ?? `http://${host.includes(":") ? `[${host}]` : host}:${address.port}`,
        close,
      };
      tellSupervisor(address.port);
      if (options.handleSignals ?? true) {
        const onSignal = (signal: NodeJS.Signals) => {
          process.off("SIGTERM", onSignal);
          process.off("SIGINT", onSignal);
          close().then(
            () => process.exit(0),
            (err) => {
              console.error(`error while shutting down after ${signal}:`, err);
              process.exit(1);
            },
          );
        };
        process.on("SIGTERM", onSignal);
        process.on("SIGINT", onSignal);
      }
      resolveStarted(running);
    });
  });
}

/**
 * Under `wisent dev` the app runs behind the dev server, which owns the public port and passes
 * requests on to this process's own port: the URL to print is the dev server's.
 */
function supervisedUrl(): string | undefined {
  return devServerUrlSetting();
}

/** Tells `wisent dev` (over the IPC channel it opened) which port the app listens on. */
function tellSupervisor(port: number): void {
  if (devSupervisedSetting() && process.send) {
    process.send({ wisent: "listening", port });
  }
}
