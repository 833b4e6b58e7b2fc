import { spawn } from "node:child_process";
import type { CliIO } from "../io.js";
import type { Output } from "../output.js";

/**
 * Runs `npm install` in `dir` behind a spinner, keeping npm's output to show only if it fails.
 * Resolves with whether it succeeded.
 */
export function npmInstall(dir: string, io: CliIO, out: Output): Promise<boolean> {
  const spinner = out.spinner("npm install");
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  return new Promise((resolve) => {
    let log = "";
    const child = spawn(npm, ["install", "--no-audit", "--no-fund"], {
      cwd: dir,
      env: io.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const collect = (chunk: Buffer) => {
      log += chunk.toString();
      const last = log.trimEnd().split("\n").at(-1)?.trim();
      if (last) spinner.update(`npm install: ${last.slice(0, 60)}`);
    };
    child.stdout.on("data", collect);
    child.stderr.on("data", collect);
    child.on("error", (error) => {
      spinner.fail(`npm install could not start: ${error.message}`);
      resolve(false);
    });
    child.on("close", (code) => {
      if (code === 0) {
        spinner.succeed("dependencies installed");
        resolve(true);
      } else {
        spinner.fail(`npm install failed (exit code ${code})`);
        io.stderr.write(log.trimEnd().split("\n").slice(-20).join("\n") + "\n");
        resolve(false);
      }
    });
  });
}
