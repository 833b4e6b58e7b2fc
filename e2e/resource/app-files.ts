import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";

/** Every file of an app (not node_modules, not its SQLite databases), relative, with contents. */
export function appTree(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder)) {
      const full = join(folder, entry);
      const path = relative(dir, full);
      // What the app's .gitignore leaves out: dependencies, databases, the build (wisent start
      // makes it), tmp/ (the compile cache, the development secret) and stored uploads.
      const ignored = ["node_modules", "dist", "tmp", "storage"];
      if (ignored.includes(path) || /^db\/.*\.sqlite/.test(path)) continue;
      if (statSync(full).isDirectory()) walk(full);
      else files.set(path, readFileSync(full, "utf8"));
    }
  };
  if (existsSync(dir)) walk(dir);
  return files;
}

/** The result of a child process. */
export interface Ran {
  code: number | null;
  output: string;
}

/** Runs a command in the app (stdout and stderr together), never throwing on a non-zero exit. */
export function runIn(
  cwd: string,
  command: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd,
      env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, output }));
  });
}
