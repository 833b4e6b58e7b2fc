/**
 * End to end: `wisent new shop --dev` in a temp dir, then generate the widget and image resources
 * (widget, person, user_profile, admin/widget, image nested in widget), type-check, lint,
 * migrate, run the generated stubs (they fail with "Not Implemented!"), boot the server and drive
 * every route in HTML, JSON and XML, compare `wisent routes` with the tables of docs/guides/routing.md, destroy
 * every resource and find a fresh app again. One app, reused throughout.
 *
 * Needs the built package (`npm run build`, which `npm test` runs first): the app depends on it
 * through a file: link.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../packages/wisent/src/cli/cli.js";
import { memoryIO } from "../../packages/wisent/src/cli/io.js";
import { BrowserClient } from "../support/browser-client.js";
import { type ServerProcess, startWisent } from "../support/server.js";
import { appTree, runIn } from "./app-files.js";

const PACKAGE = fileURLToPath(new URL("../../packages/wisent/", import.meta.url));
const UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";

const RESOURCES: string[][] = [
  ["widget", "title", "description:nulls.Text"],
  ["person"],
  ["user_profile", "display_name", "age:int", "active:bool"],
  ["admin/widget"],
  ["image", "--parent", "widget"],
];

let root: string;
let app: string;
let fresh: Map<string, string>;
let server: ServerProcess | undefined;
let base: string;
const timings: Record<string, number> = {};

/** Runs the wisent CLI in-process in `cwd`; resolves with its exit code and output. */
async function wisent(cwd: string, argv: string[], input?: string) {
  const io = memoryIO({ cwd, input });
  const code = await runCli(argv, io.io);
  return { code, stdout: io.stdout(), stderr: io.stderr() };
}

beforeAll(async () => {
  if (!existsSync(join(PACKAGE, "dist/cli/main.js"))) {
    const built = await runIn(PACKAGE, "npm", ["run", "build"]);
    if (built.code !== 0) throw new Error(`build failed:\n${built.output}`);
  }
  root = mkdtempSync(join(tmpdir(), "wisent-e2e-resource-"));
  app = join(root, "shop");
  const made = await wisent(root, ["new", "shop", "--dev"]);
  if (made.code !== 0) throw new Error(`wisent new failed:\n${made.stdout}${made.stderr}`);
  fresh = appTree(app);
}, 180_000);

afterAll(async () => {
  await server?.stop();
  console.log(
    `generate resource (in-process, Biome formatting included): ${Object.entries(timings)
      .map(([name, ms]) => `${name} ${ms.toFixed(0)} ms`)
      .join(", ")}`,
  );
  if (root) rmSync(root, { recursive: true, force: true });
});

describe("a generated app, end to end", () => {
  it("generates the widget and image resources (timings are reported, not asserted)", async () => {
    for (const [name, ...rest] of RESOURCES) {
      const started = performance.now();
      const result = await wisent(app, ["g", "r", name!, ...rest]);
      timings[name!] = performance.now() - started;
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toMatch(/create\s+src\/actions\//);
    }
    const appTs = readFileSync(join(app, "src/app.ts"), "utf8");
    expect(appTs).toContain(
      'export const widgets = app.resource("/widgets", new WidgetsResource());',
    );
    expect(appTs).toContain(
      'export const widgetImages = widgets.resource("/images", new ImagesResource());',
    );
    // The static catch-all stays last.
    expect(appTs.trimEnd().split("\n").at(-1)).toBe('app.serveFiles("/", "public");');
  });

  it("refuses bad input with exit code 2, one message, nothing written", async () => {
    const before = appTree(app);
    const cases: [string[], RegExp][] = [
      [["g", "r"], /missing the resource name/],
      [["g", "r", "gadget", "name", "name"], /duplicate attribute "name"/],
      [["g", "r", "gadget", "name:strng"], /unknown type "strng" for attribute "name"/],
      [["g", "r", "widget", "title"], /resource \/widgets exists already/],
      [["g", "r", "class"], /reserved/],
      [["g", "r", "gadget", "--parent", "nothing"], /--parent nothing: src\/app.ts declares no/],
      [["d", "r", "widget", "-y"], /has a nested resource \(widgetImages/],
    ];
    for (const [argv, message] of cases) {
      const result = await wisent(app, argv);
      expect(result.code, argv.join(" ")).toBe(2);
      expect(result.stderr).toMatch(message);
      expect(result.stderr.split("\n").filter((l) => l.startsWith("error:"))).toHaveLength(1);
    }
    const dry = await wisent(app, ["g", "r", "gadget", "name", "--dry-run"]);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain("GadgetsResource at /gadgets");
    expect(dry.stdout).toMatch(/create\s+src\/models\/gadget\.ts/);
    expect(appTree(app)).toEqual(before);
  });

  it("type-checks and lints clean", async () => {
    const tsc = await runIn(app, "npx", ["tsc", "--noEmit"]);
    expect(tsc.code, tsc.output).toBe(0);
    const lint = await runIn(app, "npx", ["biome", "check", "."]);
    expect(lint.code, lint.output).toBe(0);
  }, 120_000);

  it("migrates, and every generated stub fails with Not Implemented!", async () => {
    const migrated = await runIn(app, "node", ["node_modules/.bin/wisent", "migrate"]);
    expect(migrated.code, migrated.output).toBe(0);
    expect(migrated.output).toMatch(/create_widgets/);
    const tests = await runIn(app, "npx", ["vitest", "run"]);
    expect(tests.code).toBe(1);
    // 7 operation stubs for each of the 5 resources, 1 model stub for each of the 4 models.
    expect(tests.output).toMatch(/39 failed/);
    expect(tests.output.match(/AssertionError: Not Implemented!/g)?.length).toBe(39);
    expect(tests.output).toMatch(/2 passed/);
  }, 120_000);

  it("serves every route in HTML, JSON and XML as docs/guides/routing.md says", async () => {
    // The app's own installed CLI, as its developer runs it.
    server = await startWisent(app, { cli: "node_modules/.bin/wisent" });
    base = server.url;
    const browser = new BrowserClient(base);

    // List (HTML): heading, link to the form, pagination headers.
    let res = await browser.page("/widgets");
    expect(res.status).toBe(200);
    expect(res.headers.get("x-pagination")).toContain('"page":1');
    let html = await res.text();
    expect(html).toContain("<h1>Widgets</h1>");
    expect(html).toContain('href="/widgets/new"');

    // New: the shared form.
    html = await (await browser.page("/widgets/new")).text();
    expect(html).toContain("<h1>New Widget</h1>");
    expect(html).toContain('action="/widgets" method="post"');
    expect(html).toMatch(/<label for="widget_title">Title<\/label>\s*<input type="text"/);
    expect(html).toMatch(/<textarea id="widget_description" name="description" rows="10"/);
    expect(html).toMatch(/<button type="submit"[^>]*>\s*Save\s*<\/button>/);
    // Cancel leaves without asking (nothing is lost by leaving a form).
    expect(html).toContain('<a href="/widgets" class="btn btn-secondary">');

    // Create (HTML): 422 re-renders with the entered values and errors; success flashes and 303s.
    const token = await browser.csrfToken("/widgets/new");
    res = await browser.submit("/widgets", token, [
      ["title", ""],
      ["description", "kept <b>text</b>"],
    ]);
    expect(res.status).toBe(422);
    html = await res.text();
    expect(html).toContain("Title can not be blank.");
    expect(html).toContain("kept &lt;b&gt;text&lt;/b&gt;");
    res = await browser.submit("/widgets", token, [
      ["title", "First"],
      ["description", ""],
    ]);
    expect(res.status).toBe(303);
    const location = res.headers.get("location")!;
    expect(location).toMatch(new RegExp(`^/widgets/${UUID}$`));
    const widgetId = location.split("/").at(-1)!;
    html = await (await browser.page(location)).text();
    expect(html).toContain("Widget was successfully created.");
    expect(html).toContain("<h1>Widget Details</h1>");
    expect(html).toContain("<dd>First</dd>");
    expect(html).toContain('href="/widgets">Back to all Widgets</a>');
    // Destroy is a form (it works without JavaScript), confirmed where scripts run.
    expect(html).toMatch(
      /<form class="button-to" method="post" action="\/widgets\/[^"]+"><input type="hidden" name="_method" value="DELETE"\/><input type="hidden" name="authenticity_token" value="[^"]+"\/><button type="submit" class="link" data-confirm="Are you sure\?">/,
    );
    // The flash is shown once.
    expect(await (await browser.page(location)).text()).not.toContain("successfully created");

    // Edit and Update (HTML, PUT through _method).
    html = await (await browser.page(`/widgets/${widgetId}/edit`)).text();
    expect(html).toContain("<h1>Edit Widget</h1>");
    expect(html).toContain(`action="/widgets/${widgetId}" method="post"`);
    expect(html).toContain('name="_method" value="PUT"');
    expect(html).toContain('value="First"');
    res = await browser.submit(`/widgets/${widgetId}`, token, [
      ["_method", "PUT"],
      ["title", "  "],
    ]);
    expect(res.status).toBe(422);
    expect(await res.text()).toContain("Title can not be blank.");
    res = await browser.submit(`/widgets/${widgetId}`, token, [
      ["_method", "PUT"],
      ["title", "Renamed"],
    ]);
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(`/widgets/${widgetId}`);
    expect(await (await browser.page(`/widgets/${widgetId}`)).text()).toContain(
      "Widget was successfully updated.",
    );

    // The index lists it with View, Edit and Destroy.
    html = await (await browser.page("/widgets")).text();
    expect(html).toContain("<th>Title</th>");
    expect(html).not.toContain("<th>Description</th>");
    expect(html).toContain("<td>Renamed</td>");
    expect(html).toContain(`href="/widgets/${widgetId}/edit">Edit</a>`);

    // 404s.
    const missing = "0190d5a0-0000-7000-8000-000000000000";
    for (const path of [`/widgets/${missing}`, `/widgets/${missing}/edit`, "/widgets/not-a-uuid"]) {
      expect((await browser.page(path)).status, path).toBe(404);
    }
    expect((await browser.json("PUT", `/widgets/${missing}`, { title: "x" })).status).toBe(404);
    expect((await browser.json("DELETE", `/widgets/${missing}`)).status).toBe(404);

    // JSON: create 201 with the five fields, 422 errors, show, list, update 200, New is HTML only.
    res = await browser.json("POST", "/widgets", { title: "Json" });
    expect(res.status).toBe(201);
    const created = (await res.json()) as Record<string, unknown>;
    expect(Object.keys(created).sort()).toEqual(
      ["created_at", "description", "id", "title", "updated_at"].sort(),
    );
    expect(created.description).toBeNull();
    res = await browser.json("POST", "/widgets", { title: "" });
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual({ errors: { title: ["Title can not be blank."] } });
    res = await browser.json("GET", `/widgets/${created.id}`);
    expect(((await res.json()) as { title: string }).title).toBe("Json");
    res = await browser.json("PUT", `/widgets/${created.id}`, { description: "now described" });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ title: "Json", description: "now described" });
    expect((await browser.json("GET", "/widgets/new")).status).toBe(406);
    expect((await browser.json("GET", `/widgets/${created.id}/edit`)).status).toBe(406);

    // Pagination: 25 more, page 2 of 10 per page.
    for (let i = 0; i < 25; i++) await browser.json("POST", "/widgets", { title: `W${i}` });
    res = await browser.json("GET", "/widgets?per_page=10&page=2");
    expect(res.status).toBe(200);
    expect((await res.json()) as unknown[]).toHaveLength(10);
    expect(JSON.parse(res.headers.get("x-pagination")!)).toMatchObject({
      page: 2,
      per_page: 10,
      total_entries_size: 27,
      total_pages: 3,
    });
    html = await (await browser.page("/widgets")).text();
    expect(html).toContain('<nav aria-label="Pagination">');

    // XML: create 201, 422 errors, list.
    res = await browser.xml("POST", "/widgets", "<widget><title>Xml</title></widget>");
    expect(res.status).toBe(201);
    expect(await res.text()).toMatch(
      /<widget>[\s\S]*<title>Xml<\/title>[\s\S]*<description nil="true"\/>/,
    );
    res = await browser.xml("POST", "/widgets", "<widget><title></title></widget>");
    expect(res.status).toBe(422);
    expect(await res.text()).toContain('<error field="title">Title can not be blank.</error>');
    res = await browser.xml("GET", "/widgets?per_page=1");
    expect(await res.text()).toMatch(/<widgets>\s*<widget>/);

    // Destroy: JSON answers the deleted record, HTML flashes and 303s to the list.
    res = await browser.json("DELETE", `/widgets/${created.id}`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { id: string }).id).toBe(created.id);
    expect((await browser.json("GET", `/widgets/${created.id}`)).status).toBe(404);
    res = await browser.submit(`/widgets/${widgetId}`, token, [["_method", "DELETE"]]);
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/widgets");
    expect(await (await browser.page("/widgets")).text()).toContain(
      "Widget was successfully destroyed.",
    );

    // Nested images: scoped to their widget.
    const a = (await (await browser.json("POST", "/widgets", { title: "A" })).json()) as {
      id: string;
    };
    const b = (await (await browser.json("POST", "/widgets", { title: "B" })).json()) as {
      id: string;
    };
    res = await browser.json("POST", `/widgets/${a.id}/images`, {});
    expect(res.status).toBe(201);
    const image = (await res.json()) as { id: string; widget_id: string };
    expect(image.widget_id).toBe(a.id);
    expect((await browser.json("GET", `/widgets/${a.id}/images/${image.id}`)).status).toBe(200);
    expect((await browser.json("GET", `/widgets/${b.id}/images/${image.id}`)).status).toBe(404);
    expect((await browser.json("PUT", `/widgets/${b.id}/images/${image.id}`, {})).status).toBe(404);
    expect((await browser.json("DELETE", `/widgets/${b.id}/images/${image.id}`)).status).toBe(404);
    expect(
      (await (await browser.json("GET", `/widgets/${a.id}/images`)).json()) as unknown[],
    ).toHaveLength(1);
    expect(
      (await (await browser.json("GET", `/widgets/${b.id}/images`)).json()) as unknown[],
    ).toHaveLength(0);
    expect((await browser.json("GET", `/widgets/${missing}/images`)).status).toBe(404);
    html = await (await browser.page(`/widgets/${a.id}/images/new`)).text();
    expect(html).toContain("<h1>New Image</h1>");
    expect(html).toContain(`action="/widgets/${a.id}/images" method="post"`);
    res = await browser.submit(
      `/widgets/${a.id}/images`,
      await browser.csrfToken(`/widgets/${a.id}/images/new`),
      [],
    );
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toMatch(new RegExp(`^/widgets/${a.id}/images/${UUID}$`));
    res = await browser.submit(res.headers.get("location")!, token, [["_method", "DELETE"]]);
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(`/widgets/${a.id}/images`);
    expect((await browser.json("DELETE", `/widgets/${a.id}/images/${image.id}`)).status).toBe(200);

    // user_profile: int and bool from JSON and from a form (checkbox after its hidden field).
    res = await browser.json("POST", "/user_profiles", { display_name: "Ann", age: "x" });
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual({ errors: { age: ["Age is invalid."] } });
    res = await browser.json("POST", "/user_profiles", {});
    expect(await res.json()).toEqual({
      errors: { display_name: ["Display name can not be blank."], age: ["Age can not be blank."] },
    });
    res = await browser.json("POST", "/user_profiles", {
      display_name: "Ann",
      age: 42,
      active: true,
    });
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ display_name: "Ann", age: 42, active: true });
    html = await (await browser.page("/user_profiles/new")).text();
    expect(html).toContain('<input type="hidden" name="active" value="false"/>');
    expect(html).toMatch(/<input type="number" step="1" id="user_profile_age" name="age"/);
    res = await browser.submit("/user_profiles", token, [
      ["display_name", "Bob"],
      ["age", "7"],
      ["active", "false"],
      ["active", "true"],
    ]);
    expect(res.status).toBe(303);
    html = await (await browser.page(res.headers.get("location")!)).text();
    expect(html).toContain("User Profile was successfully created.");
    expect(html).toMatch(/<dt>Active<\/dt>\s*<dd>Yes<\/dd>/);

    // person (no attributes) and admin/widget (reusing the Widget model).
    res = await browser.json("POST", "/people", {});
    expect(res.status).toBe(201);
    expect((await browser.page("/people")).status).toBe(200);
    res = await browser.json("POST", "/admin/widgets", { title: "Admin" });
    expect(res.status).toBe(201);
    const adminWidget = (await res.json()) as { id: string };
    html = await (await browser.page(`/admin/widgets/${adminWidget.id}`)).text();
    expect(html).toContain("<dd>Admin</dd>");
    expect(html).toContain(`href="/admin/widgets/${adminWidget.id}/edit"`);
  }, 120_000);

  it("prints the routes as docs/guides/routing.md's tables name them", async () => {
    await server?.stop();
    server = undefined;
    const table = await runIn(app, "node", ["node_modules/.bin/wisent", "routes"]);
    expect(table.code, table.output).toBe(0);
    expect(table.output.split("\n")[0]).toMatch(
      /^METHOD \| HOST +\| PATH +\| ALIASES \| NAME +\| HANDLER$/,
    );
    const json = await runIn(app, "node", ["node_modules/.bin/wisent", "routes", "--json"]);
    const rows = (
      JSON.parse(json.output) as { method: string; path: string; name: string; handler: string }[]
    ).map((r) => `${r.method} ${r.path} ${r.name} ${r.handler}`);
    const resource = (plural: string, singular: string, cls: string, names: string[]) => {
      const [list, neu, show, edit] = names;
      const member = `${plural}{${singular}}/`;
      return [
        `GET ${plural} ${list} ${cls}.List`,
        `POST ${plural} ${list} ${cls}.Create`,
        `GET ${plural}new/ ${neu} ${cls}.New`,
        `GET ${member} ${show} ${cls}.Show`,
        `PUT ${member} ${show} ${cls}.Update`,
        `DELETE ${member} ${show} ${cls}.Destroy`,
        `GET ${member}edit/ ${edit} ${cls}.Edit`,
      ];
    };
    expect(rows).toEqual([
      "GET /up/ upPath healthCheck",
      "GET / rootPath HomeHandler",
      "GET /openapi/ openapiPath OpenApiDocument",
      ...resource("/widgets/", "widget_id", "WidgetsResource", [
        "widgetsPath",
        "newWidgetsPath",
        "widgetPath",
        "editWidgetPath",
      ]),
      ...resource("/people/", "person_id", "PeopleResource", [
        "peoplePath",
        "newPeoplePath",
        "personPath",
        "editPersonPath",
      ]),
      ...resource("/user_profiles/", "user_profile_id", "UserProfilesResource", [
        "userProfilesPath",
        "newUserProfilesPath",
        "userProfilePath",
        "editUserProfilePath",
      ]),
      ...resource("/admin/widgets/", "admin_widget_id", "AdminWidgetsResource", [
        "adminWidgetsPath",
        "newAdminWidgetsPath",
        "adminWidgetPath",
        "editAdminWidgetPath",
      ]),
      // The nested table of docs/guides/routing.md: widgetImagesPath, newWidgetImagesPath, widgetImagePath, editWidgetImagePath.
      ...resource("/widgets/{widget_id}/images/", "image_id", "ImagesResource", [
        "widgetImagesPath",
        "newWidgetImagesPath",
        "widgetImagePath",
        "editWidgetImagePath",
      ]),
    ]);
  }, 60_000);

  it("destroys every resource and finds a fresh app again", async () => {
    // Asking per file: an edited file is named, "n" keeps everything.
    const model = join(app, "src/models/person.ts");
    writeFileSync(model, `${readFileSync(model, "utf8")}// edited\n`);
    const kept = await wisent(app, ["destroy", "resource", "person"], "n\n".repeat(20));
    expect(kept.code).toBe(0);
    expect(kept.stdout).toContain(
      "Remove src/models/person.ts (edited since it was generated)? (y/N)",
    );
    expect(kept.stdout).toContain("Remove src/actions/people.tsx? (y/N)");
    expect(existsSync(model)).toBe(true);
    const listed = await wisent(app, ["d", "r", "person", "--dry-run"]);
    expect(listed.stdout).toMatch(/remove\s+src\/templates\/people\/index\.tsx/);
    expect(existsSync(model)).toBe(true);

    for (const [name] of [...RESOURCES].reverse()) {
      const result = await wisent(app, ["d", "r", name!, "-y"]);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toMatch(/update\s+src\/app\.ts/);
    }
    const now = appTree(app);
    expect([...now.keys()].sort()).toEqual([...fresh.keys()].sort());
    for (const [file, text] of fresh) expect(now.get(file), file).toBe(text);

    const tsc = await runIn(app, "npx", ["tsc", "--noEmit"]);
    expect(tsc.code, tsc.output).toBe(0);
    const tests = await runIn(app, "npx", ["vitest", "run"]);
    expect(tests.code, tests.output).toBe(0);
  }, 120_000);
});
