import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiEntries, UNDOCUMENTED_SUBPATHS, writeApiReference } from "./api-reference.mjs";

const packageJson = JSON.parse(
  readFileSync(new URL("../../packages/wisent/package.json", import.meta.url), "utf8"),
) as { name: string; exports: Record<string, unknown> };

let out: string;
const page = (specifier: string) => readFileSync(join(out, `${specifier}.md`), "utf8");

/**
 * The text under a heading, down to the next heading of its level or above: `section(text,
 * "### App", "##### listen()")` is App's `listen` (each heading found after the one before).
 */
function section(text: string, ...headings: string[]): string {
  let from = 0;
  let level = 0;
  for (const heading of headings) {
    const at = text.indexOf(`\n${heading}\n`, from);
    if (at < 0) throw new Error(`no heading "${heading}" (after ${headings[0]})`);
    from = at + 1;
    level = heading.indexOf(" ");
  }
  const next = new RegExp(`\\n#{1,${level}} `, "g");
  next.lastIndex = from + 1;
  const end = next.exec(text)?.index ?? text.length;
  return text.slice(from, end);
}

/** A sample of the most used API: where its doc is, a parameter's description, what it throws. */
const SAMPLE: {
  page: string;
  at: string[];
  param: [name: string, description: string];
  throws: string;
}[] = [
  {
    page: "wisent",
    at: ["### App", "##### listen()"],
    param: ["options?", "port, host, timeouts and limits"],
    throws: "`E_PORT_IN_USE`",
  },
  {
    page: "wisent",
    at: ["### App", "##### resource()"],
    param: ["path", "the collection's path"],
    throws: "`E_APP_MISCONFIGURED`",
  },
  {
    page: "wisent",
    at: ["### Model", "##### find()"],
    param: ["id", "the record's id"],
    throws: "HttpError 404",
  },
  {
    page: "wisent",
    at: ["### Model", "##### create()"],
    param: ["attrs", "the attributes"],
    throws: "`E_VALIDATION_FAILED`",
  },
  {
    page: "wisent",
    at: ["### ResourceContext", "##### respond()"],
    param: ["options", "one renderer per format"],
    throws: "HttpError 406",
  },
  {
    page: "wisent",
    at: ["### ResourceContext", "##### redirectTo()"],
    param: ["routeNameOrPath", "a route name"],
    throws: "`E_APP_MISCONFIGURED`",
  },
  {
    page: "wisent/db",
    at: ["### openDatabase()"],
    param: ["url?", "`DATABASE_URL`"],
    throws: "`E_DATABASE_URL`",
  },
  {
    page: "wisent/db",
    at: ["### migrateUp()"],
    param: ["folder", "the migrations folder"],
    throws: "`E_MIGRATION`",
  },
  {
    page: "wisent/auth",
    at: ["### authorize()"],
    param: ["action", "the rule's name"],
    throws: "HttpError 403",
  },
  {
    page: "wisent/middleware",
    at: ["### rateLimit()"],
    param: ["options", "requests per `window` seconds"],
    throws: "HttpError 429",
  },
  {
    page: "wisent/middleware",
    at: ["### session()"],
    param: ["options?", "secrets"],
    throws: "`E_CONFIG_INVALID`",
  },
  {
    page: "wisent/storage",
    at: ["### storageLocation()"],
    param: ["url", "`STORAGE_URL`"],
    throws: "`E_STORAGE_URL`",
  },
  {
    page: "wisent/jsx",
    at: ["### renderToString()"],
    param: ["child", "an element"],
    throws: "returns a Promise",
  },
  {
    page: "wisent/testing",
    at: ["### TestClient", "##### follow()"],
    param: ["response", "the redirect"],
    throws: "307/308",
  },
];

describe("the API reference (npm run docs:api)", () => {
  beforeAll(async () => {
    out = mkdtempSync(join(tmpdir(), "wisent-api-reference-"));
    await writeApiReference(out);
  }, 300_000);
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it("has a page for every subpath of the package's exports, titled by its import specifier", () => {
    const documented = Object.keys(packageJson.exports).filter(
      (subpath) => !UNDOCUMENTED_SUBPATHS.has(subpath),
    );
    expect(documented).toEqual(expect.arrayContaining([".", "./db", "./auth", "./testing"]));
    for (const subpath of documented) {
      const specifier = subpath === "." ? "wisent" : `wisent/${subpath.slice(2)}`;
      expect(existsSync(join(out, `${specifier}.md`)), specifier).toBe(true);
      expect(page(specifier).startsWith(`# ${specifier}\n`), specifier).toBe(true);
    }
    expect(apiEntries().map((entry) => entry.specifier)).toEqual(
      documented.map((subpath) => (subpath === "." ? "wisent" : `wisent/${subpath.slice(2)}`)),
    );
    const index = readFileSync(join(out, "index.md"), "utf8");
    for (const { specifier } of apiEntries()) expect(index).toContain(`[${specifier}]`);
  });

  it("leaves out only subpaths the package exports, each for a reason", () => {
    for (const [subpath, reason] of UNDOCUMENTED_SUBPATHS) {
      expect(Object.keys(packageJson.exports), subpath).toContain(subpath);
      expect(reason.length).toBeGreaterThan(10);
    }
  });

  it.each(SAMPLE)("documents the parameters and errors of $page $at", (sample) => {
    const text = section(page(sample.page), ...sample.at);
    const [name, description] = sample.param;
    const row = text.split("\n").find((line) => line.startsWith(`| \`${name}\` |`));
    expect(row, `no parameter ${name}`).toBeDefined();
    expect(row).toContain(description);
    const throws = text.split(/\n#{4,6} Throws\n/).slice(1);
    expect(throws.length, "no Throws section").toBeGreaterThan(0);
    expect(throws.join("\n")).toContain(sample.throws);
  });

  it("documents a name that moved from the root on its subpath's page only", () => {
    expect(page("wisent/auth")).toContain("\n### authentication()\n");
    expect(page("wisent")).not.toMatch(/#{3,5} authentication\(\)/);
    expect(page("wisent/db")).toContain("\n### openDatabase()\n");
    expect(page("wisent")).not.toMatch(/#{3,5} createTable\(\)/);
  });

  it("shows no members a Hono type brings (ResourceContext keeps Wisent's own)", () => {
    const context = section(page("wisent"), "### ResourceContext");
    expect(context).toContain("##### respond()");
    expect(context).toContain("##### tx()");
    expect(context).not.toContain("##### json()");
    expect(page("wisent")).not.toContain("node\\_modules");
  });
});
