import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { type CliIO, memoryIO } from "../../io.js";

const FIXTURES = fileURLToPath(new URL("../fixtures/", import.meta.url));

/** Every file under `dir` (relative, sorted), skipping node_modules. */
export function listFiles(dir: string, base = dir): string[] {
  return readdirSync(dir)
    .filter((entry) => entry !== "node_modules")
    .flatMap((entry) => {
      const full = join(dir, entry);
      return statSync(full).isDirectory() ? listFiles(full, base) : [relative(base, full)];
    })
    .sort();
}

/** A temp copy of a fixture app skeleton (`fixtures/app-web|app-api`, `.fixture` suffix dropped). */
export function fixtureApp(kind: "web" | "api"): string {
  const dir = mkdtempSync(join(tmpdir(), `wisent-${kind}-app-`));
  const source = join(FIXTURES, `app-${kind}`);
  for (const file of listFiles(source)) {
    const target = join(dir, file.replace(/\.fixture$/, ""));
    mkdirSync(dirname(target), { recursive: true });
    cpSync(join(source, file), target);
  }
  return dir;
}

/** The app's files and their contents. */
export function tree(dir: string): Record<string, string> {
  return Object.fromEntries(listFiles(dir).map((f) => [f, readFileSync(join(dir, f), "utf8")]));
}

/** Runs a CLI command (`generate`, `destroy`, ...) in `dir` with in-memory IO; its exit code and output. */
export async function runCommand(
  command: (argv: string[], io: CliIO) => Promise<number>,
  dir: string,
  argv: string[],
  input?: string,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const io = memoryIO({ cwd: dir, input });
  const code = await command(argv, io.io);
  return { code, stdout: io.stdout(), stderr: io.stderr() };
}
