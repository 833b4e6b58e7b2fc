import { existsSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { fixtureApp, listFiles, runCommand, tree } from "../generate/test-support/fixture-app.js";
import { run as destroy } from "./destroy.js";
import { run as generate } from "./generate.js";

const apps: string[] = [];
afterEach(() => {
  for (const dir of apps.splice(0)) rmSync(dir, { recursive: true, force: true });
});
/** A fixture app with `widget` generated, and the tree before it was. */
async function appWithWidget() {
  const dir = fixtureApp("web");
  apps.push(dir);
  const fresh = tree(dir);
  await runCommand(generate, dir, ["widget", "title", "description:nulls.Text"]);
  return { dir, fresh };
}

/** Every file of the app with its bytes and modification time. */
function filesWithTimes(dir: string) {
  return listFiles(dir).map((path) => {
    const full = join(dir, path);
    return { path, bytes: readFileSync(full), mtimeMs: statSync(full).mtimeMs };
  });
}

describe("wisent destroy resource", () => {
  it.each([
    ["a resource", []],
    ["a resource whose model another one reuses", [["admin/widget"]]],
  ])("answered no to every question, %s leaves every file as it was", async (_, more) => {
    const { dir } = await appWithWidget();
    for (const argv of more) await runCommand(generate, dir, argv);
    // Back-dated, so a rewrite shows in the modification time even within the same millisecond.
    const past = new Date("2024-01-02T03:04:05Z");
    for (const path of listFiles(dir)) utimesSync(join(dir, path), past, past);
    const before = filesWithTimes(dir);
    expect(before.map((f) => f.path)).toContain(".wisent/generated.json");
    const { code, stdout } = await runCommand(destroy, dir, ["widget"], "n\n".repeat(20));
    expect(code).toBe(0);
    expect(stdout).toContain("Remove src/actions/widgets.tsx? (y/N) ");
    expect(stdout).not.toMatch(/^ +(remove|update) /m);
    expect(filesWithTimes(dir)).toEqual(before);
  });

  it("-y removes every generated file and the app.ts lines: the app is as before", async () => {
    const { dir, fresh } = await appWithWidget();
    const { code, stdout } = await runCommand(destroy, dir, ["widget", "-y"]);
    expect(code).toBe(0);
    expect(stdout).toContain("      remove  src/templates/widgets/index.tsx\n");
    expect(stdout).toContain("      update  src/app.ts\n");
    expect(tree(dir)).toEqual(fresh);
  });

  it("asks per file, y removes, n keeps (and keeps the declaration with the handlers)", async () => {
    const { dir } = await appWithWidget();
    // Order: 5 templates, actions, locale, model, migration, 2 tests.
    const answers = ["y", "y", "y", "y", "y", "n", "y", "y", "y", "y", "y"].join("\n");
    const { code, stdout } = await runCommand(destroy, dir, ["widget"], `${answers}\n`);
    expect(code).toBe(0);
    expect(stdout).toContain("Remove src/templates/widgets/index.tsx? (y/N) ");
    expect(stdout).toContain("        skip  src/actions/widgets.tsx\n");
    expect(existsSync(join(dir, "src/actions/widgets.tsx"))).toBe(true);
    expect(existsSync(join(dir, "src/models/widget.ts"))).toBe(false);
    expect(readFileSync(join(dir, "src/app.ts"), "utf8")).toContain("new WidgetsResource()");
  });

  it("names a file edited since generation in its prompt", async () => {
    const { dir } = await appWithWidget();
    writeFileSync(join(dir, "src/models/widget.ts"), "// mine now\n");
    const { stdout } = await runCommand(destroy, dir, ["widget"], "n\n".repeat(11));
    expect(stdout).toContain("Remove src/models/widget.ts (edited since it was generated)? (y/N) ");
    expect(stdout).toContain("Remove src/actions/widgets.tsx? (y/N) ");
  });

  it("--dry-run lists and removes nothing", async () => {
    const { dir } = await appWithWidget();
    const before = tree(dir);
    const { code, stdout } = await runCommand(destroy, dir, ["widget", "--dry-run"]);
    expect(code).toBe(0);
    expect(stdout).toContain("remove  src/models/widget.ts");
    expect(stdout).toContain("update  src/app.ts");
    expect(tree(dir)).toEqual(before);
  });

  it("destroys a nested resource, but not a parent that still has one", async () => {
    const { dir } = await appWithWidget();
    await runCommand(generate, dir, ["image", "caption", "--parent", "widget"]);
    const refused = await runCommand(destroy, dir, ["widget", "-y"]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /\/widgets has a nested resource \(widgetImages in src\/app.ts:\d+\)/,
    );
    expect((await runCommand(destroy, dir, ["image", "-y"])).code).toBe(0);
    expect(readFileSync(join(dir, "src/app.ts"), "utf8")).not.toContain("ImagesResource");
    expect((await runCommand(destroy, dir, ["widget", "-y"])).code).toBe(0);
  });

  it("keeps a model another resource reuses", async () => {
    const { dir } = await appWithWidget();
    const admin = await runCommand(generate, dir, ["admin/widget"]);
    expect(admin.stdout).toContain("exists  src/models/widget.ts (reused)");
    const widget = await runCommand(destroy, dir, ["widget", "-y"]);
    expect(widget.stdout).toContain(
      "exists  src/models/widget.ts (kept: another resource uses it)",
    );
    expect(existsSync(join(dir, "src/models/widget.ts"))).toBe(true);
    await runCommand(destroy, dir, ["admin/widget", "-y"]);
    expect(existsSync(join(dir, "src/models/widget.ts"))).toBe(false);
    expect(existsSync(join(dir, ".wisent"))).toBe(false);
  });

  it("exits 2 for a resource the app does not have, or no name", async () => {
    const { dir } = await appWithWidget();
    const none = await runCommand(destroy, dir, ["gadget", "-y"]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("nothing to destroy: the app has no /gadgets resource");
    expect((await runCommand(destroy, dir, [])).code).toBe(2);
  });

  /** The widgets registration as a user leaves it after protecting it: one line, or wrapped by Biome. */
  const PROTECTED: ReadonlyArray<readonly [string, string]> = [
    [
      "on one line",
      'export const widgets = app.resource("/widgets", new WidgetsResource(), { authenticate: ["create", "update", "destroy"] });',
    ],
    [
      "reformatted by Biome",
      'export const widgets = app.resource(\n  "/widgets",\n  new WidgetsResource(),\n  { authenticate: ["create", "update", "destroy"] },\n);',
    ],
  ];
  it.each(PROTECTED)(
    "-y removes a registration given options %s, with its import",
    async (_, registration) => {
      const { dir, fresh } = await appWithWidget();
      const appFile = join(dir, "src/app.ts");
      const source = readFileSync(appFile, "utf8");
      const generated = 'export const widgets = app.resource("/widgets", new WidgetsResource());';
      expect(source).toContain(generated);
      writeFileSync(appFile, source.replace(generated, registration));
      const { code, stdout } = await runCommand(destroy, dir, ["widget", "-y"]);
      expect(code).toBe(0);
      expect(stdout).toContain("      update  src/app.ts\n");
      expect(tree(dir)).toEqual(fresh);
    },
  );

  it("refuses, naming the line, when the class is still used elsewhere, and changes nothing", async () => {
    const { dir } = await appWithWidget();
    const appFile = join(dir, "src/app.ts");
    writeFileSync(
      appFile,
      readFileSync(appFile, "utf8").replace(
        'app.serveFiles("/", "public");',
        'app.serveFiles("/", "public");\nconsole.log(WidgetsResource.name);',
      ),
    );
    const before = tree(dir);
    const lines = before["src/app.ts"]!.split("\n");
    const line = lines.indexOf("console.log(WidgetsResource.name);") + 1;
    const { code, stderr } = await runCommand(destroy, dir, ["widget", "-y"]);
    expect(code).toBe(2);
    expect(stderr).toContain(`src/app.ts:${line} uses WidgetsResource: remove it by hand`);
    expect(tree(dir)).toEqual(before);
  });

  it("keeps a migration a later one needs, offers a drop migration, and n changes nothing", async () => {
    const { dir } = await appWithWidget();
    const create = listFiles(join(dir, "migrations")).find((f) =>
      f.endsWith("_create_widgets.ts"),
    )!;
    const index = "29990101000000_index_widgets_on_title.ts";
    writeFileSync(
      join(dir, "migrations", index),
      'import { addIndex, type Queryable } from "wisent";\n\nexport async function up(db: Queryable) {\n  await addIndex(db, "widgets", "title");\n}\n',
    );
    const before = tree(dir);
    const declined = await runCommand(destroy, dir, ["widget"], "n\n".repeat(20));
    expect(declined.code).toBe(0);
    expect(tree(dir)).toEqual(before);

    const dry = await runCommand(destroy, dir, ["widget", "--dry-run"]);
    expect(dry.stdout).toContain(
      `skip  migrations/${create} (kept: 29990101000000_index_widgets_on_title, which comes after it, uses the widgets table)`,
    );
    expect(dry.stdout).not.toContain(`remove  migrations/${create}`);

    const { code, stdout } = await runCommand(destroy, dir, ["widget", "-y"]);
    expect(code).toBe(0);
    expect(existsSync(join(dir, "migrations", create))).toBe(true);
    const drop = listFiles(join(dir, "migrations")).find((f) => f.endsWith("_drop_widgets.ts"))!;
    expect(drop > index).toBe(true);
    expect(stdout).toContain(`      create  migrations/${drop}\n`);
    const dropSource = readFileSync(join(dir, "migrations", drop), "utf8");
    expect(dropSource).toContain('await dropTable(db, "widgets");');
    expect(dropSource).toContain(`from "./${create.replace(/\.ts$/, ".js")}";`);
    // The resource is gone: generate and destroy agree, and the record no longer holds the file.
    expect((await runCommand(destroy, dir, ["widget", "-y"])).stderr).toContain(
      "nothing to destroy",
    );
    expect(existsSync(join(dir, ".wisent/generated.json"))).toBe(false);
  });
});
