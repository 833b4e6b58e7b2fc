import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { afterAll, describe, expect, it } from "vitest";
import {
  isDependencyInstalled,
  MissingDependencyError,
  nativeBinaryError,
  requireDependency,
} from "./require-dependency.js";

const PACKAGE = fileURLToPath(new URL("../../", import.meta.url));
const dirs: string[] = [];

afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe("requireDependency", () => {
  it("finds the framework's dependencies from a bundle whose app does not have them", async () => {
    // An app whose node_modules holds only a link to the framework (as `file:` links and
    // non-hoisting installs leave it), with the framework bundled into the app's dist/.
    const app = mkdtempSync(join(tmpdir(), "wisent-require-"));
    dirs.push(app);
    mkdirSync(join(app, "node_modules"));
    symlinkSync(PACKAGE, join(app, "node_modules/wisent"), "dir");
    await build({
      stdin: {
        contents: `import { requireDependency } from ${JSON.stringify(join(PACKAGE, "src/base/require-dependency.ts"))};
          const pg = requireDependency("pg");
          console.log(typeof pg.Pool);`,
        resolveDir: app,
        loader: "ts",
      },
      bundle: true,
      platform: "node",
      format: "esm",
      outfile: join(app, "dist/server.js"),
      logLevel: "silent",
    });
    const direct = spawnSync(process.execPath, ["-e", "require('pg')"], { cwd: app });
    expect(direct.status).not.toBe(0);
    const run = spawnSync(process.execPath, [join(app, "dist/server.js")], {
      cwd: app,
      encoding: "utf8",
    });
    expect(run.stderr).toBe("");
    expect(run.stdout.trim()).toBe("function");
  });
});

describe("a dependency that is not installed", () => {
  it("is one line naming the package and the npm install to run", () => {
    // Not a dependency of the package: neither lookup finds it.
    const missing = () => requireDependency("wisent-no-such-driver");
    expect(missing).toThrow(MissingDependencyError);
    expect(missing).toThrow(
      /^the package wisent-no-such-driver is not installed: run `npm install wisent-no-such-driver` in the app's folder$/,
    );
  });

  it("is told apart from one that is, without loading either", () => {
    expect(isDependencyInstalled("wisent-no-such-driver")).toBe(false);
    expect(isDependencyInstalled("nodemailer")).toBe(true);
  });

  it("says what the framework needs a known one for", () => {
    expect(new MissingDependencyError("pg").message).toBe(
      "the package pg is not installed (needed for a postgres:// DATABASE_URL): run `npm install pg` in the app's folder",
    );
  });
});

describe("nativeBinaryError", () => {
  it.each([
    [
      "Could not locate the bindings file. Tried:\n → /app/node_modules/better-sqlite3/build/better_sqlite3.node",
      /^the package better-sqlite3 has no compiled native binary \(.*\): run `npm rebuild better-sqlite3` in the app's folder$/,
    ],
    [
      "The module '/app/node_modules/better-sqlite3/build/Release/better_sqlite3.node'\nwas compiled against a different Node.js version using\nNODE_MODULE_VERSION 127. This version of Node.js requires\nNODE_MODULE_VERSION 137.",
      /^the package better-sqlite3 was compiled for another Node\.js version than this one \(v\d+\.\d+\.\d+\): run `npm rebuild better-sqlite3` in the app's folder$/,
    ],
    [
      "Cannot find module '../prebuilds/linux-x64.node'\nRequire stack:\n- /app/node_modules/better-sqlite3/lib/linux-x64.js",
      /^the package better-sqlite3 has no native binary for \w+-\w+ in node_modules \(an incomplete install\): run `npm ci` in the app's folder to install it again$/,
    ],
  ])("turns %j into the npm command to run", (message, expected) => {
    expect(nativeBinaryError(new Error(message), "better-sqlite3")?.message).toMatch(expected);
  });

  it("leaves any other error alone", () => {
    expect(nativeBinaryError(new Error("SQLITE_CANTOPEN"), "better-sqlite3")).toBeUndefined();
  });
});
