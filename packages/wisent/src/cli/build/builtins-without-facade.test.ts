import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";
import { afterAll, describe, expect, it } from "vitest";
import { builtinsWithoutFacade } from "./builtins-without-facade.js";

const dir = mkdtempSync(join(tmpdir(), "wisent-builtins-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Bundles `source` as `wisent build` does (with or without the plugin); the bundle's path. */
async function bundle(name: string, source: string, plugin: boolean): Promise<string> {
  const entry = join(dir, `${name}.mjs`);
  writeFileSync(entry, source);
  const outfile = join(dir, `${name}.bundle.mjs`);
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    format: "esm",
    platform: "node",
    logLevel: "silent",
    plugins: plugin ? [builtinsWithoutFacade()] : [],
  });
  return outfile;
}

function run(file: string): string {
  const result = spawnSync(process.execPath, ["--no-warnings", file], {
    encoding: "utf8",
    timeout: 30_000,
  });
  expect(result.stderr).toBe("");
  return result.stdout.trim();
}

const LOADS_UNDICI =
  'import { createServer } from "node:http";\n' +
  "createServer();\n" +
  'console.log(process.moduleLoadList.some((m) => m.includes("undici")));\n';

describe("builtinsWithoutFacade", { timeout: 60_000 }, () => {
  it("keeps node:http from loading undici (its ES facade does, for WebSocket)", async () => {
    expect(run(await bundle("with", LOADS_UNDICI, true))).toBe("false");
    expect(run(await bundle("without", LOADS_UNDICI, false))).toBe("true");
  });

  it("offers every built-in's names, default and namespace as the facade does", async () => {
    // Deprecated or experimental ones aside: importing them here prints a warning.
    const names = builtinModules.filter((name) => !/^_|:|^(punycode|sys|wasi)$/.test(name));
    const source = [
      ...names.map((name, i) => `import * as m${i} from ${JSON.stringify(`node:${name}`)};`),
      'import fs, { readFileSync } from "fs";',
      "const out = {};",
      ...names.map(
        (name, i) =>
          `out[${JSON.stringify(name)}] = Object.keys(m${i}).filter((k) => k !== "default").sort();`,
      ),
      "out.defaultIsModule = fs === process.getBuiltinModule('node:fs') && readFileSync === fs.readFileSync;",
      "console.log(JSON.stringify(out));",
    ].join("\n");
    const got = JSON.parse(run(await bundle("all", source, true)));
    for (const name of names) {
      const facade = Object.keys(await import(/* @vite-ignore */ `node:${name}`)).filter(
        (k) => k !== "default",
      );
      expect(got[name], name).toEqual(facade.filter((k) => /^[A-Za-z_$][\w$]*$/.test(k)).sort());
    }
    expect(got.defaultIsModule).toBe(true);
  });

  it("fails the build on a name the built-in does not have, as the facade fails the import", async () => {
    await expect(
      bundle(
        "missing",
        'import { noSuchThing } from "node:fs";\nconsole.log(noSuchThing);\n',
        true,
      ),
    ).rejects.toThrow(/No matching export in "wisent-builtin:fs" for import "noSuchThing"/);
  });
});
