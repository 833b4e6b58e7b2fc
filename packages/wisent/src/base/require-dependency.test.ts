import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { afterAll, describe, expect, it } from "vitest";

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
