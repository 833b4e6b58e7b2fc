import type { Socket } from "node:net";

/** How long a closing connection waits for more of what the client still sends (nginx's lingering_timeout). */
export const LINGER_MS = 2_000;
/** How long a closing connection reads what the client sends at most (nginx's lingering_time). */
export const LINGER_TOTAL_MS = 10_000;

/**
 * Closes `socket` the way nginx's lingering close does: the answer is written and the write side
 * half-closed (FIN), then whatever the client is still sending is read and dropped until it ends
 * its side, sends nothing for {@link LINGER_MS}, or {@link LINGER_TOTAL_MS} has passed. Closing
 * at once with unread bytes in the kernel's buffer makes the kernel send a reset, and the client
 * loses the answer it was about to read; a client still uploading (slowly, or on a busy machine)
 * would get EPIPE.
 *
 * @example lingeringClose(socket, "HTTP/1.1 413 Content Too Large\r\n...");
 */
export function lingeringClose(socket: Socket, answer?: string): void {
  if (socket.destroyed || lingering.has(socket)) return;
  lingering.add(socket);
  const close = () => socket.destroy();
  const idle = setTimeout(close, LINGER_MS);
  const total = setTimeout(close, LINGER_TOTAL_MS);
  idle.unref();
  total.unref();
  socket.once("close", () => {
    clearTimeout(idle);
    clearTimeout(total);
  });
  socket.once("end", close);
  socket.on("data", () => idle.refresh());
  socket.on("error", discard);
  socket.resume();
  if (answer === undefined) socket.end();
  else socket.end(answer);
}

function discard(): void {}

const lingering = new WeakSet<Socket>();

/** Whether {@link lingeringClose} is closing `socket` (its answer sent, the rest being read). */
export function isLingering(socket: Socket): boolean {
  return lingering.has(socket);
}

/**
 * Makes Node's own close after this connection's answer (`socket.destroySoon()`, which destroys
 * as soon as the answer is written) a {@link lingeringClose}.
 */
export function closeLingeringAfterAnswer(socket: Socket): void {
  socket.destroySoon = () => lingeringClose(socket);
}
