import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { fixtureApp, tree } from "../generate/test-support/fixture-app.js";
import { memoryIO } from "../io.js";
import { run } from "./generate.js";

const apps: string[] = [];
afterEach(() => {
  for (const dir of apps.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function app(kind: "web" | "api" = "web"): string {
  const dir = fixtureApp(kind);
  apps.push(dir);
  return dir;
}
async function generate(dir: string, argv: string[]) {
  const io = memoryIO({ cwd: dir });
  const code = await run(argv, io.io);
  return { code, stdout: io.stdout(), stderr: io.stderr() };
}

describe("wisent generate resource", () => {
  it("writes the plan and prints one aligned action line per file", async () => {
    const dir = app();
    const { code, stdout } = await generate(dir, ["widget", "title", "description:nulls.Text"]);
    expect(code).toBe(0);
    expect(stdout).toContain("      create  src/models/widget.ts\n");
    expect(stdout).toMatch(/ {6}create {2}migrations\/\d{14}_create_widgets\.ts\n/);
    expect(stdout).toContain("      update  src/app.ts\n");
    for (const file of [
      "src/actions/widgets.tsx",
      "src/templates/widgets/_form.tsx",
      "src/locales/widgets.en-US.json",
    ]) {
      expect(existsSync(join(dir, file)), file).toBe(true);
    }
    expect(JSON.parse(readFileSync(join(dir, "src/locales/widgets.en-US.json"), "utf8"))).toEqual({
      "widget.created.success": "Widget was successfully created.",
      "widget.updated.success": "Widget was successfully updated.",
      "widget.destroyed.success": "Widget was successfully destroyed.",
    });
    const record = JSON.parse(readFileSync(join(dir, ".wisent/generated.json"), "utf8"));
    expect(record.widgets.attributes).toEqual(["title", "description:nulls.Text"]);
    expect(Object.keys(record.widgets.files)).toContain("src/models/widget.ts");
  });

  it("names sharp when a web list shows image thumbnails and the app cannot load it", async () => {
    const hint = "the list shows image thumbnails, made by sharp: npm install sharp";
    const web = await generate(app(), ["image", "caption", "file:attachment"]);
    expect(web.code).toBe(0);
    expect(web.stdout).toContain(hint);
    const api = await generate(app("api"), ["image", "caption", "file:attachment"]);
    expect(api.stdout).not.toContain(hint);
    expect((await generate(app(), ["widget", "title"])).stdout).not.toContain(hint);
  });

  it("names sharp until the app's dependencies list it, loadable or not (what the image installs)", async () => {
    const hint = "the list shows image thumbnails, made by sharp: npm install sharp";
    const dir = app();
    // Loadable from the app, as a copy in a folder above it is (a monorepo's node_modules).
    const sharp = join(dir, "node_modules/sharp");
    mkdirSync(sharp, { recursive: true });
    writeFileSync(
      join(sharp, "package.json"),
      '{"name":"sharp","version":"0.0.0","main":"index.js"}',
    );
    writeFileSync(join(sharp, "index.js"), "module.exports = {};");
    expect((await generate(dir, ["image", "caption", "file:attachment"])).stdout).toContain(hint);
    const manifest = (deps: object) =>
      writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "app", ...deps }));
    manifest({ devDependencies: { sharp: "*" } });
    expect((await generate(dir, ["photo", "caption", "file:attachment"])).stdout).toContain(hint);
    manifest({ dependencies: { sharp: "*" } });
    expect((await generate(dir, ["scan", "caption", "file:attachment"])).stdout).not.toContain(
      hint,
    );
  });

  it("makes five operations and no views or locale in an API app", async () => {
    const dir = app("api");
    expect((await generate(dir, ["widget", "title"])).code).toBe(0);
    const actions = readFileSync(join(dir, "src/actions/widgets.ts"), "utf8");
    expect(actions).not.toMatch(/async (new|edit)\(/);
    expect(
      readFileSync(join(dir, "src/actions/widgets.test.ts"), "utf8").match(/Not Implemented!/g),
    ).toHaveLength(5);
    expect(existsSync(join(dir, "src/templates"))).toBe(false);
    expect(existsSync(join(dir, "src/locales"))).toBe(false);
  });

  it("--dry-run prints the derived names and the plan, and writes nothing", async () => {
    const dir = app();
    const before = tree(dir);
    const { code, stdout } = await generate(dir, [
      "user_profile",
      "display_name",
      "age:int",
      "--dry-run",
    ]);
    expect(code).toBe(0);
    expect(stdout).toContain("UserProfilesResource at /user_profiles");
    expect(stdout).toContain(
      "userProfilesPath, newUserProfilesPath, userProfilePath, editUserProfilePath",
    );
    expect(stdout).toContain("user_profile.created.success");
    expect(stdout).toMatch(/age +int: number, required, number input/);
    expect(stdout).toContain("create  src/templates/user_profiles/index.tsx");
    expect(tree(dir)).toEqual(before);
  });

  it("--skip-migration, --skip-templates and --skip-model leave out their files", async () => {
    const dir = app();
    await generate(dir, ["widget", "title", "--skip-migration"]);
    expect(existsSync(join(dir, "migrations"))).toBe(false);
    await generate(dir, ["gadget", "name", "--skip-templates"]);
    expect(existsSync(join(dir, "src/templates/gadgets"))).toBe(false);
    expect(existsSync(join(dir, "src/locales/gadgets.en-US.json"))).toBe(false);
    expect(readFileSync(join(dir, "src/actions/gadgets.ts"), "utf8")).not.toContain(
      "negotiateFormat",
    );
    await generate(dir, ["admin", "--skip-model"]);
    expect(existsSync(join(dir, "src/models/admin.ts"))).toBe(false);
    expect(readFileSync(join(dir, "src/actions/admins.ts"), "utf8")).toContain(
      'c.text("Admin#List")',
    );
  });

  it("--force overwrites an existing resource; without it nothing is written", async () => {
    const dir = app();
    await generate(dir, ["widget", "title"]);
    const before = tree(dir);
    const refused = await generate(dir, ["widget", "title", "body:text"]);
    expect(refused.code).toBe(2);
    expect(tree(dir)).toEqual(before);
    const forced = await generate(dir, ["widget", "title", "body:text", "--force"]);
    expect(forced.code).toBe(0);
    expect(forced.stdout).toContain("force  src/models/widget.ts");
    expect(readFileSync(join(dir, "src/models/widget.ts"), "utf8")).toContain("body: z.string()");
    expect(
      readFileSync(join(dir, "src/app.ts"), "utf8").match(/new WidgetsResource\(\)/g),
    ).toHaveLength(1);
  });

  it.each([
    [[], "missing the resource name"],
    [["widget", "title", "title"], 'duplicate attribute "title"'],
    [["widget", "title:nope"], 'unknown type "nope" for attribute "title"'],
    [["new"], "is reserved"],
    [["wid get"], "contains invalid characters"],
    [["image", "--parent", "widget"], "--parent widget: src/app.ts declares no WidgetsResource"],
    [["widget", "--unknown"], "unknown option --unknown"],
  ])("exits 2 for %j with one error line, writing nothing", async (argv, message) => {
    const dir = app();
    const before = tree(dir);
    const { code, stderr } = await generate(dir, argv);
    expect(code).toBe(2);
    expect(stderr.split("\n")[0]).toContain(message);
    expect(stderr.match(/^error:/gm)).toHaveLength(1);
    expect(tree(dir)).toEqual(before);
  });

  it("--singular makes a model-less singleton and refuses what a singular resource has not", async () => {
    const dir = app();
    for (const [argv, message] of [
      [["profile", "name", "--singular"], "--singular makes a resource without a model"],
      [["profile", "--singular", "--collection", "x:get"], "--singular has no collection"],
      [
        ["profile", "--singular", "--parent", "widget"],
        "--singular cannot be nested with --parent",
      ],
    ] as const) {
      const refused = await generate(dir, [...argv]);
      expect(refused.code).toBe(2);
      expect(refused.stderr.split("\n")[0]).toContain(message);
    }
    const made = await generate(dir, ["profile", "--singular"]);
    expect(made.code, made.stderr).toBe(0);
    expect(readFileSync(join(dir, "src/app.ts"), "utf8")).toContain(
      'export const profile = app.singleton("/profile", new ProfileResource());',
    );
    expect(existsSync(join(dir, "src/models/profile.ts"))).toBe(false);
  });

  it("refuses to run outside an app", async () => {
    const { code, stderr } = await generate("/", ["widget"]);
    expect(code).toBe(2);
    expect(stderr).toContain("no src/app.ts");
  });

  describe("--parent", () => {
    /** An app with books generated, and its src/app.ts edited by `edit`. */
    async function appWithBooks(edit: (source: string) => string = (source) => source) {
      const dir = app();
      expect((await generate(dir, ["author", "name"])).code).toBe(0);
      expect((await generate(dir, ["book", "title"])).code).toBe(0);
      const appFile = join(dir, "src/app.ts");
      writeFileSync(appFile, edit(readFileSync(appFile, "utf8")));
      return dir;
    }
    const BOOKS = 'export const books = app.resource("/books", new BooksResource());';

    it.each([
      ["bok", "--parent bok: src/app.ts declares no BoksResource (did you mean book?)"],
      ["authr", "(did you mean author?)"],
      [
        "gadget",
        "--parent gadget: src/app.ts declares no GadgetsResource: generate the parent first",
      ],
    ])("suggests a declared resource for a typo: %s", async (given, message) => {
      const dir = await appWithBooks();
      const before = tree(dir);
      const { code, stderr } = await generate(dir, ["chapter", "title", "--parent", given]);
      expect(code).toBe(2);
      expect(stderr.split("\n")[0]).toContain(message);
      expect(tree(dir)).toEqual(before);
    });

    it("nests under the variable the parent is registered as, however formatted", async () => {
      const dir = await appWithBooks((source) =>
        source.replace(
          BOOKS,
          'export const library = app.resource(\n  "/books",\n  new BooksResource(),\n  { authenticate: ["create"] },\n);',
        ),
      );
      const made = await generate(dir, ["chapter", "title", "--parent", "book"]);
      expect(made.code, made.stderr).toBe(0);
      expect(readFileSync(join(dir, "src/app.ts"), "utf8")).toContain(
        'export const bookChapters = library.resource("/chapters", new ChaptersResource());',
      );
    });

    it("refuses --public under an owned parent (its nested routes need the parent's owner)", async () => {
      const dir = await appWithBooks((source) =>
        source.replace(BOOKS, BOOKS.replace("())", '(), { ownedBy: "user_id" })')),
      );
      const before = tree(dir);
      const { code, stderr } = await generate(dir, [
        "chapter",
        "title",
        "--parent",
        "book",
        "--public",
      ]);
      expect(code).toBe(2);
      expect(stderr.split("\n")[0]).toMatch(
        /--public: books belong to their user \(ownedBy, src\/app.ts:\d+\), so the routes nested in one need its owner signed in: leave --public out \(each user's own chapters\) or use --shared/,
      );
      expect(tree(dir)).toEqual(before);
    });

    it("names a parent that is itself nested by its variable", async () => {
      const dir = await appWithBooks((source) =>
        source.replace(BOOKS, BOOKS.replace("books = app", "authorBooks = authors")),
      );
      const { code, stderr } = await generate(dir, ["chapter", "title", "--parent", "book"]);
      expect(code).toBe(2);
      expect(stderr).toMatch(
        /--parent book: authorBooks \(src\/app.ts:\d+\) is itself nested; nest under a top-level resource/,
      );
    });
  });
});
