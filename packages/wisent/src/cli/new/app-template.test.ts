import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type PlannedFile, planApp } from "./app-template.js";
import { outputPath, renderAppTemplate } from "./render-template.js";
import { APP_TOOL_VERSIONS, appDependencies, WISENT_PACKAGE_ROOT } from "./versions.js";

const VARS = {
  name: "shop",
  packageName: "shop",
  title: "Shop",
  appKind: "web app",
  templatesNote: "",
  layoutRows: "",
  databaseUrl: "sqlite:db/development.sqlite",
  databaseSteps: "npm run migrate",
  database: "sqlite",
  dockerDatabase: "VOLUME /app/db",
  dockerRun: "docker run shop",
  nodeOptions: "--max-semi-space-size=8",
  wisentDependency: "^0.1.0",
  honoDependency: "^4",
  zodDependency: "^4",
  typescriptVersion: "~5",
  vitestVersion: "^4",
  biomeVersion: "2",
  typesNodeVersion: "^20",
  nodeEngines: "^22.12.0 || >=24",
};

/** A planned text file's contents ("" when missing). */
function textOf(files: readonly PlannedFile[], path: string): string {
  const contents = files.find((f) => f.path === path)?.contents;
  return typeof contents === "string" ? contents : "";
}

describe("renderAppTemplate", () => {
  const root = `${mkdtempSync(join(tmpdir(), "wisent-app-template-"))}/`;
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const render = (text: string, vars: Record<string, string>, name = "x.ts.eta") => {
    writeFileSync(join(root, name), text);
    return renderAppTemplate(root, name, vars);
  };

  it("fills <%= it.name %> and leaves JSX, i18next and template literals alone", () => {
    const literal = "`$" + "{a}`"; // a template literal, written so that no linter mistakes it
    const text = `const x = ${literal}; <p>{t("hi", { n })}</p> "{{name}}" <%= it.name %>`;
    expect(render(text, { name: "shop" })).toBe(
      `const x = ${literal}; <p>{t("hi", { n })}</p> "{{name}}" shop`,
    );
  });

  it("names the template and the name of a value it lacks", () => {
    expect(() => render("<%= it.nope %>", {}, "app.ts.eta")).toThrow(
      "app.ts.eta: no value for it.nope",
    );
  });
});

describe("outputPath", () => {
  it.each([
    ["dot-gitignore.eta", ".gitignore"],
    ["dot-env.example.eta", ".env.example"],
    ["migrations/dot-gitkeep.eta", "migrations/.gitkeep"],
    ["src/templates/layout.tsx.eta", "src/templates/layout.tsx"],
  ])("%s -> %s", (template, path) => {
    expect(outputPath(template)).toBe(path);
  });
});

describe("planApp", () => {
  const web = planApp("web", VARS);
  const api = planApp("api", { ...VARS, appKind: "JSON API" });

  it("has the contract's files for a web app", () => {
    expect(web.map((f) => f.path)).toEqual([
      ".dockerignore",
      ".env.example",
      ".gitignore",
      "Dockerfile",
      "README.md",
      "biome.json",
      "db/seeds.ts",
      "migrations/.gitkeep",
      "package.json",
      "public/assets/application.css",
      "public/assets/application.js",
      "public/favicon.ico",
      "src/actions/home.test.ts",
      "src/actions/home.ts",
      "src/app.ts",
      "src/db.ts",
      "src/locales/en-US.json",
      "src/server.ts",
      "src/templates/home/index.tsx",
      "src/templates/layout.tsx",
      "src/templates/resource-links.tsx",
      "src/test-setup.ts",
      "tsconfig.json",
      "vitest.config.ts",
    ]);
  });

  it("has no templates, locales or public assets for an API, and its own app.ts", () => {
    const paths = api.map((f) => f.path);
    expect(paths.filter((p) => /templates|locales|public/.test(p))).toEqual([]);
    const app = textOf(api, "src/app.ts");
    expect(app).toContain('new App({ name: "shop", api: true, database: db })');
    expect(app).not.toMatch(/csrf\(|session\(|i18n\(|layout\(|serveFiles\(/);
  });

  it("leaves no placeholder behind and writes valid JSON", () => {
    for (const file of [...web, ...api]) {
      const text = file.contents;
      if (typeof text !== "string") continue; // copied as it is (favicon.ico)
      expect(text, file.path).not.toMatch(/<%|%>/);
      if (file.path.endsWith(".json")) expect(() => JSON.parse(text), file.path).not.toThrow();
    }
  });

  it("declares the middleware in the documented order, the markers, and the static catch-all last", () => {
    const app = textOf(web, "src/app.ts");
    const order = [
      "securityHeaders(",
      'app.healthCheck("/up", { database: db })',
      "forceSSL()",
      "paramLogger()",
      "session()",
      "flashMessages()",
      "csrf()",
      "transaction(db)",
      "i18n(",
      "layout(Layout)",
      'app.get("/", HomeHandler)',
      "// wisent:resources",
      'app.serveFiles("/", "public")',
    ].map((s) => app.indexOf(s));
    expect(order.every((i) => i >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(app.trimEnd().endsWith('app.serveFiles("/", "public");')).toBe(true);
    expect(app).toContain("// wisent:imports");
  });

  it("gives web apps a favicon, so no page asks for a missing /favicon.ico", () => {
    const icon = web.find((f) => f.path === "public/favicon.ico")?.contents;
    expect(icon).toBeInstanceOf(Uint8Array);
    // An ICO: reserved 0, type 1, one image.
    expect([...(icon as Uint8Array).subarray(0, 6)]).toEqual([0, 0, 1, 0, 1, 0]);
    expect(textOf(web, "src/templates/layout.tsx")).toContain(
      '<link rel="icon" href="/favicon.ico"',
    );
  });

  it("keeps pages free of inline scripts and styles (strict CSP)", () => {
    for (const file of web.filter((f) => f.path.endsWith(".tsx"))) {
      expect(file.contents, file.path).not.toMatch(/\sstyle=|<style|dangerouslySetInnerHTML/);
      expect(file.contents, file.path).not.toMatch(/<script(?![^>]*\ssrc=)/);
    }
  });
});

describe("versions", () => {
  it("gives new apps the dev tools the repository itself uses", () => {
    const root = JSON.parse(
      readFileSync(new URL("../../../../../package.json", import.meta.url), "utf8"),
    ) as {
      devDependencies: Record<string, string>;
    };
    expect(APP_TOOL_VERSIONS).toEqual({
      typescript: root.devDependencies.typescript,
      vitest: root.devDependencies.vitest,
      biome: root.devDependencies["@biomejs/biome"],
      typesNode: root.devDependencies["@types/node"],
    });
  });

  it("links this checkout with --dev and uses the published ranges otherwise", () => {
    const pkg = JSON.parse(readFileSync(`${WISENT_PACKAGE_ROOT}package.json`, "utf8")) as {
      version: string;
      dependencies: Record<string, string>;
    };
    expect(appDependencies(false)).toEqual({
      wisent: `^${pkg.version}`,
      hono: pkg.dependencies.hono,
      zod: pkg.dependencies.zod,
    });
    const appDir = join(WISENT_PACKAGE_ROOT, "..", "..", "..", "code", "blog");
    const dev = appDependencies(true, appDir);
    expect(dev.wisent).toBe(`file:${relative(appDir, WISENT_PACKAGE_ROOT)}`);
    expect(dev.wisent).toMatch(/^file:\.\.\/\.\.\/[^/]+\/packages\/wisent$/);
    expect(dev.hono).toMatch(/^file:\.\.\/\.\.\/.*node_modules\/hono$/);
    expect(dev.zod).toMatch(/^file:\.\.\/\.\.\/.*node_modules\/zod$/);
    // The links resolve from the app's folder to the real packages.
    expect(existsSync(join(appDir, dev.hono.slice("file:".length), "package.json"))).toBe(true);
  });
});
