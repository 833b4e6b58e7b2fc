/**
 * What every end-to-end suite needs to run a server of its own: a free port on 127.0.0.1, and
 * waiting (bounded) until the server answers or prints a line.
 * @module
 */
import type { ChildProcess } from "node:child_process";
import { createServer } from "node:net";

/** A free TCP port on 127.0.0.1 (the kernel picks it; the probe socket is closed again). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

export interface WaitOptions {
  /** Give up after this long (default 15 s). */
  timeoutMs?: number;
  /** Stop waiting at once when this process exits first. */
  child?: ChildProcess;
}

/**
 * Resolves once `url` answers at all (any status), polling every 100 ms; throws when `timeoutMs`
 * passes or `child` exits first.
 */
export async function waitForServer(url: string, options: WaitOptions = {}): Promise<void> {
  const deadline = Date.now() + (options.timeoutMs ?? 15_000);
  for (;;) {
    if (options.child && (options.child.exitCode !== null || options.child.signalCode !== null)) {
      throw new Error(`the server exited (${options.child.exitCode}) before answering on ${url}`);
    }
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      await res.arrayBuffer();
      return;
    } catch {
      if (Date.now() > deadline) throw new Error(`server did not answer on ${url}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/**
 * Resolves with the first match of `pattern` in what `child` prints (stdout and stderr, both
 * piped), with everything printed so far; rejects when `timeoutMs` (default 15 s) passes or the
 * process exits first.
 */
export function waitForOutput(
  child: ChildProcess,
  pattern: RegExp,
  timeoutMs = 15_000,
): Promise<{ match: RegExpExecArray; output: string }> {
  return new Promise((resolve, reject) => {
    let output = "";
    const done = (error?: Error, match?: RegExpExecArray) => {
      clearTimeout(timer);
      child.stdout?.off("data", onData);
      child.stderr?.off("data", onData);
      child.off("exit", onExit);
      if (error) reject(error);
      else resolve({ match: match!, output });
    };
    const onData = (chunk: Buffer | string) => {
      output += String(chunk);
      const match = pattern.exec(output);
      if (match) done(undefined, match);
    };
    const onExit = (code: number | null) =>
      done(new Error(`the process exited (${code}) before printing ${pattern}:\n${output}`));
    const timer = setTimeout(
      () => done(new Error(`nothing matched ${pattern} within ${timeoutMs} ms:\n${output}`)),
      timeoutMs,
    );
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.once("exit", onExit);
  });
}
