import type { Socket } from "node:net";

/** How long a closing connection keeps reading (and discarding) what the client still sends. */
export const LINGER_MS = 2_000;

/**
 * Closes `socket` the way nginx's lingering close does: the answer is written and the write side
 * half-closed (FIN), then whatever the client is still sending is read and dropped until it ends
 * its side or {@link LINGER_MS} passes. Closing at once with unread bytes in the kernel's buffer
 * makes the kernel send a reset, and the client loses the answer it was about to read.
 *
 * @example lingeringClose(socket, "HTTP/1.1 413 Content Too Large\r\n...");
 */
export function lingeringClose(socket: Socket, answer?: string): void {
  if (socket.destroyed || lingering.has(socket)) return;
  lingering.add(socket);
  const timer = setTimeout(() => socket.destroy(), LINGER_MS);
  timer.unref();
  socket.once("close", () => clearTimeout(timer));
  socket.once("end", () => socket.destroy());
  socket.on("data", discard);
  socket.on("error", discard);
  socket.resume();
  if (answer === undefined) socket.end();
  else socket.end(answer);
}

function discard(): void {}

const lingering = new WeakSet<Socket>();

/**
 * Makes Node's own close after this connection's answer (`socket.destroySoon()`, which destroys
 * as soon as the answer is written) a {@link lingeringClose}.
 */
export function closeLingeringAfterAnswer(socket: Socket): void {
  socket.destroySoon = () => lingeringClose(socket);
}
