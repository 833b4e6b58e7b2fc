import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { type GenerateOptions, generateResource } from "./generate-resource.js";

/**
 * Golden fixtures: each case renders into a copy of a fixture app skeleton and every file it
 * writes or changes (src/app.ts included) must equal fixtures/<case>/<path>.golden.
 * After reviewing a template change, rewrite them with UPDATE_GOLDEN=1.
 */
const FIXTURES = fileURLToPath(new URL("./fixtures/", import.meta.url));
const UPDATE = process.env.UPDATE_GOLDEN === "1";
const NOW = new Date("2024-05-01T12:30:00Z");
/** The monorepo's Biome formats the output as an app's own Biome does when one is installed. */
const BIOME = fileURLToPath(new URL("../../../../../node_modules/.bin/biome", import.meta.url));

type Step = Omit<GenerateOptions, "now" | "format" | "biome">;
interface GoldenCase {
  id: string;
  app: "web" | "api";
  before?: Step[];
  step: Step;
}

const WIDGET: Step = { name: "widget", attributes: ["title", "description:nulls.Text"] };

export const GOLDEN_CASES: GoldenCase[] = [
  { id: "widget-web", app: "web", step: WIDGET },
  { id: "widget-api", app: "api", step: WIDGET },
  { id: "person", app: "web", step: { name: "person", attributes: [] } },
  {
    id: "user-profile",
    app: "web",
    step: { name: "user_profile", attributes: ["display_name", "age:int", "active:bool"] },
  },
  { id: "admin-widget", app: "web", step: { name: "admin/widget", attributes: [] } },
  {
    id: "nested-image",
    app: "web",
    before: [WIDGET],
    step: { name: "image", attributes: [], parent: "widget" },
  },
  {
    id: "declared-routes-web",
    app: "web",
    step: { ...WIDGET, member: ["publish:post"], collection: ["search:get"] },
  },
  {
    id: "declared-routes-nested-api",
    app: "api",
    before: [WIDGET],
    step: { name: "image", attributes: [], parent: "widget", member: ["approve:put,reject:put"] },
  },
  {
    id: "declared-routes-stub",
    app: "web",
    step: { name: "gadget", attributes: [], skipModel: true, collection: ["search"] },
  },
  {
    id: "singular-profile",
    app: "web",
    step: { name: "profile", attributes: [], singular: true, member: ["verify:post"] },
  },
];

const temps: string[] = [];
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

/** Every file under `dir`, relative, sorted. */
function listFiles(dir: string, base = dir): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .flatMap((entry) => {
      const full = join(dir, entry);
      return statSync(full).isDirectory() ? listFiles(full, base) : [relative(base, full)];
    })
    .sort();
}

/** A fresh copy of the fixture app skeleton (`*.fixture` files, suffix dropped). */
function skeleton(kind: "web" | "api"): string {
  const dir = mkdtempSync(join(tmpdir(), `wisent-golden-${kind}-`));
  temps.push(dir);
  const source = join(FIXTURES, `app-${kind}`);
  for (const file of listFiles(source)) {
    const target = join(dir, file.replace(/\.fixture$/, ""));
    mkdirSync(dirname(target), { recursive: true });
    cpSync(join(source, file), target);
  }
  return dir;
}

function snapshot(dir: string): Map<string, string> {
  return new Map(listFiles(dir).map((file) => [file, readFileSync(join(dir, file), "utf8")]));
}

describe("generate resource golden fixtures", () => {
  it.each(GOLDEN_CASES)("$id", ({ id, app, before = [], step }) => {
    const dir = skeleton(app);
    for (const earlier of before) generateResource(dir, { ...earlier, now: NOW, biome: BIOME });
    const was = snapshot(dir);
    generateResource(dir, { ...step, now: NOW, biome: BIOME });
    const changed = [...snapshot(dir)].filter(
      ([file, text]) => !file.startsWith(".wisent/") && was.get(file) !== text,
    );
    const expectedDir = join(FIXTURES, id);
    if (UPDATE) {
      rmSync(expectedDir, { recursive: true, force: true });
      for (const [file, text] of changed) {
        mkdirSync(dirname(join(expectedDir, file)), { recursive: true });
        writeFileSync(join(expectedDir, `${file}.golden`), text);
      }
    }
    const expected = listFiles(expectedDir).map((f) => f.replace(/\.golden$/, ""));
    expect(changed.map(([file]) => file).sort()).toEqual(expected);
    for (const [file, text] of changed) {
      expect(text, file).toBe(readFileSync(join(expectedDir, `${file}.golden`), "utf8"));
    }
  });
});
