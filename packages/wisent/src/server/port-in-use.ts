/**
 * A busy port, said in one line: which port, and which process holds it when this machine can
 * tell (Linux's /proc, else `ss` or `lsof`). `app.listen()`, `wisent dev` and `wisent start` all
 * answer `EADDRINUSE` with it instead of Node's stack.
 * @module
 */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import net from "node:net";
import { WisentError } from "../base/wisent-error.js";

/** The process listening on a port. */
export interface PortHolder {
  readonly pid: number;
  /** Its command line (or just its name), shortened. */
  readonly command: string;
}

/**
 * Thrown when a port is taken; its message is the whole story, e.g.
 * `port 3000 is already in use by pid 4242 (node server.js): stop it, or choose another port (PORT=3001)`.
 */
export class PortInUseError extends WisentError {
  override name = "PortInUseError";
  constructor(
    readonly port: number,
    readonly holder: PortHolder | undefined,
    hint = `PORT=${port + 1}`,
  ) {
    const by = holder ? ` by pid ${holder.pid} (${holder.command})` : "";
    super(
      "E_PORT_IN_USE",
      `port ${port} is already in use${by}: stop it, or choose another port (${hint})`,
    );
  }
}

/**
 * True for Node's "address already in use" error, and for a {@link PortInUseError} (also one from
 * another copy of the framework, such as the app's bundle: matched by its code).
 */
export function isAddressInUse(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === "EADDRINUSE" || code === "E_PORT_IN_USE";
}

/**
 * Resolves when `port` can be bound on `host`, and rejects with a {@link PortInUseError} when
 * it cannot (it binds the port and lets it go at once).
 * @example await ensurePortFree(3000, "127.0.0.1");
 */
export function ensurePortFree(port: number, host: string, hint?: string): Promise<void> {
  if (port === 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", (error) => {
      reject(isAddressInUse(error) ? new PortInUseError(port, findPortHolder(port), hint) : error);
    });
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve()));
  });
}

/**
 * The process listening on TCP `port`, or undefined when it cannot be found (another user's
 * process, or no /proc, ss or lsof).
 * @example findPortHolder(3000) // { pid: 4242, command: "node server.js" }
 */
export function findPortHolder(port: number): PortHolder | undefined {
  return fromProc(port) ?? fromSs(port) ?? fromLsof(port);
}

function shorten(command: string): string {
  const text = command.replace(/\s+/g, " ").trim();
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

function commandOf(pid: number): string {
  try {
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean);
    if (cmdline.length > 0) {
      // The program's base name, then its arguments: `node /a/b/server.js` -> `node /a/b/server.js`.
      const [program = "", ...rest] = cmdline;
      return shorten([program.split("/").at(-1), ...rest].join(" "));
    }
  } catch {
    // No /proc: the caller found the pid another way and its name goes with it.
  }
  return "";
}

/** Listening sockets of /proc/net/tcp{,6}: the inode of the one on `port`. */
function listeningInodes(port: number): Set<string> {
  const inodes = new Set<string>();
  const hexPort = port.toString(16).toUpperCase().padStart(4, "0");
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    let text: string;
    try {
      text = readFileSync(table, "utf8");
    } catch {
      continue;
    }
    for (const row of text.split("\n").slice(1)) {
      const fields = row.trim().split(/\s+/);
      // sl local_address rem_address st ... inode (10th field); 0A is LISTEN.
      const local = fields[1];
      if (local?.endsWith(`:${hexPort}`) && fields[3] === "0A" && fields[9] && fields[9] !== "0") {
        inodes.add(fields[9]);
      }
    }
  }
  return inodes;
}

function fromProc(port: number): PortHolder | undefined {
  const inodes = listeningInodes(port);
  if (inodes.size === 0) return undefined;
  const wanted = new Set([...inodes].map((inode) => `socket:[${inode}]`));
  let pids: string[];
  try {
    pids = readdirSync("/proc").filter((name) => /^\d+$/.test(name));
  } catch {
    return undefined;
  }
  for (const pid of pids) {
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue; // another user's process, or gone
    }
    for (const fd of fds) {
      try {
        if (wanted.has(readlinkSync(`/proc/${pid}/fd/${fd}`))) {
          return { pid: Number(pid), command: commandOf(Number(pid)) || "?" };
        }
      } catch {
        // closed meanwhile
      }
    }
  }
  return undefined;
}

function run(command: string, args: string[]): string | undefined {
  try {
    return execFileSync(command, args, {
      encoding: "utf8",
      timeout: 2_000,
      stdio: ["ignore", "pipe", "ignore"],
    });
  } catch {
    return undefined;
  }
}

function fromSs(port: number): PortHolder | undefined {
  // users:(("node",pid=4242,fd=21))
  const match = run("ss", ["-ltnpH", `sport = :${port}`])?.match(/\("([^"]*)",pid=(\d+)/);
  if (!match) return undefined;
  const pid = Number(match[2]);
  return { pid, command: commandOf(pid) || (match[1] ?? "?") };
}

function fromLsof(port: number): PortHolder | undefined {
  // -F pc: one field a line, `p4242` then `cnode`.
  const text = run("lsof", ["-nP", `-iTCP:${port}`, "-sTCP:LISTEN", "-Fpc"]);
  const pid = text?.match(/^p(\d+)$/m)?.[1];
  if (!pid) return undefined;
  return {
    pid: Number(pid),
    command: commandOf(Number(pid)) || text?.match(/^c(.*)$/m)?.[1] || "?",
  };
}
