/**
 * What npm would publish of `wisent` and `create-wisent`: the files `npm pack` puts in each
 * tarball, and publint's verdict on the packed package (exports, types, bin, files). Needs the
 * build (`npm run build`), as publishing does.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { publint } from "publint";
import { formatMessage } from "publint/utils";
import { describe, expect, it } from "vitest";

const PACKAGES = fileURLToPath(new URL("../../", import.meta.url));

interface PackResult {
  files: { path: string }[];
  size: number;
  entryCount: number;
}

function packedFiles(dir: string): string[] {
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  const out = execFileSync(npm, ["pack", "--dry-run", "--json", "--ignore-scripts"], {
    cwd: dir,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "ignore"],
  });
  const [result] = JSON.parse(out) as PackResult[];
  return (result?.files ?? []).map((file) => file.path);
}

function manifest(dir: string): Record<string, unknown> {
  return JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as Record<string, unknown>;
}

describe.each([
  ["wisent", ["bin/wisent.js", "dist/bundle/index.js", "dist/index.d.ts", "CHANGELOG.md"]],
  ["create-wisent", ["bin/create-wisent.js"]],
])("the published %s package", { timeout: 60_000 }, (name, mustShip) => {
  const dir = join(PACKAGES, name);

  it("packs its README, LICENSE and what it runs, and no sources or tests", () => {
    const files = packedFiles(dir);
    for (const file of ["package.json", "README.md", "LICENSE", ...mustShip]) {
      expect(files, file).toContain(file);
    }
    // (The templates of an app's own tests are templates, not tests of the package.)
    const shipped = files.filter((file) => !file.startsWith("templates/"));
    expect(shipped.filter((file) => /^src\/|\.test\.|test-support/.test(file))).toEqual([]);
  });

  it("says where it comes from, its licence and the Node versions it runs on", () => {
    const pkg = manifest(dir);
    expect(pkg).toMatchObject({
      license: "MIT",
      repository: { url: "git+https://github.com/wisent-framework/wisent.git" },
      homepage: expect.stringMatching(/^https:\/\/github\.com\/wisent-framework\/wisent/),
      bugs: { url: "https://github.com/wisent-framework/wisent/issues" },
      engines: { node: "^22.12.0 || >=24" },
    });
    expect(readFileSync(join(dir, "LICENSE"), "utf8")).toContain("The Wisent authors");
  });

  it("passes publint with nothing to report", async () => {
    const { messages } = await publint({ pkgDir: dir, level: "suggestion", pack: "npm" });
    const pkg = manifest(dir);
    expect(messages.map((message) => `${message.type}: ${formatMessage(message, pkg)}`)).toEqual(
      [],
    );
  });
});

describe("the dependencies an app installs", () => {
  it("are wisent's own, with the drivers, Redis, BullMQ, mail, the S3 client and sharp as optional peers", () => {
    const pkg = manifest(join(PACKAGES, "wisent")) as {
      dependencies: Record<string, string>;
      peerDependencies: Record<string, string>;
      peerDependenciesMeta: Record<string, { optional?: boolean }>;
    };
    const optional = [
      "@aws-sdk/client-s3",
      "@aws-sdk/s3-request-presigner",
      "bullmq",
      "ioredis",
      "mysql2",
      "nodemailer",
      "pg",
      "sharp",
    ];
    expect(Object.keys(pkg.peerDependencies).sort()).toEqual(optional);
    for (const name of optional) {
      expect(pkg.dependencies[name], name).toBeUndefined();
      expect(pkg.peerDependenciesMeta[name]?.optional, name).toBe(true);
    }
    expect(pkg.dependencies["better-sqlite3"]).toBeDefined();
  });

  it("of create-wisent are the wisent of the same version", () => {
    const wisent = manifest(join(PACKAGES, "wisent"));
    const create = manifest(join(PACKAGES, "create-wisent"));
    expect(create.version).toBe(wisent.version);
    expect(create.dependencies).toEqual({ wisent: wisent.version });
  });
});
