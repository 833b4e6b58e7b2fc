import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { planApp } from "./app-template.js";

/**
 * Golden fixtures of `wisent new`: every text file a web and an API app start with, rendered
 * from the templates with fixed values, must equal fixtures/app-<variant>/<path>.golden. After
 * reviewing a template change, rewrite them with UPDATE_GOLDEN=1.
 */
const FIXTURES = fileURLToPath(new URL("./fixtures/", import.meta.url));
const UPDATE = process.env.UPDATE_GOLDEN === "1";

/** Values as `wisent new` computes them for an app named `shop` (create-app.ts). */
const VARS = {
  name: "shop",
  packageName: "shop",
  title: "Shop",
  appKind: "web app",
  templatesNote: ", templates, translations",
  layoutRows: "- `src/templates/`: TSX views\n- `public/`: static files\n",
  databaseUrl: "sqlite:db/development.sqlite",
  databaseSteps: "npx wisent db create\nnpx wisent migrate",
  database: "sqlite",
  dockerDatabase: "VOLUME /app/db",
  dockerRun: "docker run -p 3000:3000 shop",
  nodeOptions: "--max-semi-space-size=8",
  wisentDependency: "^0.1.0",
  honoDependency: "^4.13.19",
  zodDependency: "^4.3.6",
  typescriptVersion: "~5.9.3",
  vitestVersion: "^4.1.12",
  biomeVersion: "2.6.8",
  typesNodeVersion: "^22.0.0",
  nodeEngines: "^22.12.0 || >=24",
};

function listFiles(root: string, dir = root): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? listFiles(root, path) : [relative(root, path)];
  });
}

describe("wisent new golden fixtures", () => {
  it.each(["web", "api"] as const)("%s", (variant) => {
    const files = planApp(variant, { ...VARS, appKind: variant === "api" ? "JSON API" : "web app" })
      .filter((file) => typeof file.contents === "string")
      .map((file) => [file.path, file.contents as string] as const);
    const expectedDir = join(FIXTURES, `app-${variant}`);
    if (UPDATE) {
      rmSync(expectedDir, { recursive: true, force: true });
      for (const [path, text] of files) {
        mkdirSync(dirname(join(expectedDir, path)), { recursive: true });
        writeFileSync(join(expectedDir, `${path}.golden`), text);
      }
    }
    const expected = listFiles(expectedDir).map((f) => f.replace(/\.golden$/, ""));
    expect(files.map(([path]) => path).sort()).toEqual(expected.sort());
    for (const [path, text] of files) {
      expect(text, path).toBe(readFileSync(join(expectedDir, `${path}.golden`), "utf8"));
    }
  });
});
