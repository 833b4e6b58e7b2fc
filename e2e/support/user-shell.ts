/**
 * Commands run as a user types them in a shell of their own, for the install suites: npm and npx
 * pointed at a local registry (the environment it hands out), none of the test process's app
 * settings (Vitest's variables, `GO_ENV`, `NODE_ENV`, `DATABASE_URL`, `PORT`), and `NO_COLOR`.
 * @module
 */
import { execFile } from "node:child_process";
import { expect } from "vitest";

/** What a command printed, and how it exited. */
export interface Ran {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** The variables of the test process that a user's shell does not have. */
const TEST_SETTINGS = /^(VITEST|NODE_ENV$|GO_ENV$|DATABASE_URL$|TEST_DATABASE_URL$|PORT$|TEST$)/;

/**
 * A user's shell on top of `base` (a local registry's `env()`).
 *
 * @example
 * const shell = userShell(registry.env({}));
 * await shell.ok(NPM, ["create", "wisent@latest", "myapp"], apps);
 * const failed = await shell.sh(NPX, ["wisent", "migrate"], app, { GO_ENV: "production" });
 */
export function userShell(base: Readonly<Record<string, string | undefined>>) {
  /** The shell's environment, with `extra` set (`GO_ENV=production npx ...`). */
  const env = (
    extra: Record<string, string | undefined> = {},
  ): Record<string, string | undefined> => {
    const clean: Record<string, string | undefined> = {};
    for (const [key, value] of Object.entries(base)) {
      if (!TEST_SETTINGS.test(key)) clean[key] = value;
    }
    return { ...clean, NO_COLOR: "1", ...extra };
  };

  /** Runs `command args` in `cwd`; resolves however it exits. */
  const sh = (
    command: string,
    args: readonly string[],
    cwd: string,
    extra: Record<string, string | undefined> = {},
  ): Promise<Ran> =>
    new Promise((resolve) => {
      execFile(
        command,
        args,
        { cwd, env: env(extra), maxBuffer: 64 * 1024 * 1024 },
        (error, stdout, stderr) => {
          const code = error ? (error as { code?: unknown }).code : 0;
          resolve({ code: typeof code === "number" ? code : 1, stdout, stderr });
        },
      );
    });

  /** Runs a command that must succeed; what it printed is in the failure message. */
  const ok = async (
    command: string,
    args: readonly string[],
    cwd: string,
    extra: Record<string, string | undefined> = {},
  ): Promise<Ran> => {
    const ran = await sh(command, args, cwd, extra);
    expect(ran.code, `${command} ${args.join(" ")}\n${ran.stdout}\n${ran.stderr}`).toBe(0);
    return ran;
  };

  return { env, sh, ok };
}
