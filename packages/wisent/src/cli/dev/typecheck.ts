import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { CliIO } from "../io.js";
import { paint } from "../output.js";

/**
 * Runs the app's own `tsc --watch --noEmit` beside the dev server (`wisent dev --typecheck`),
 * each line of its output prefixed with `[tsc]`. Returns a function that stops it.
 */
export function runTypecheck(io: CliIO, env: Record<string, string | undefined>): { stop(): void } {
  const tsc = join(io.cwd, "node_modules", "typescript", "bin", "tsc");
  const prefix = paint(io, "cyan", "[tsc]");
  const write = (text: string) =>
    io.stdout.write(
      text
        .split("\n")
        .filter((line) => line.trim() !== "")
        .map((line) => `${prefix} ${line}\n`)
        .join(""),
    );
  if (!existsSync(tsc)) {
    write("typescript is not installed in this app (npm install): no type checking");
    return { stop() {} };
  }
  const child = spawn(
    process.execPath,
    [tsc, "--watch", "--noEmit", "--preserveWatchOutput", "--pretty", io.color ? "true" : "false"],
    { cwd: io.cwd, env, stdio: ["ignore", "pipe", "pipe"] },
  );
  child.stdout.on("data", (chunk: Buffer) => write(chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => write(chunk.toString()));
  return { stop: () => child.kill("SIGTERM") };
}
